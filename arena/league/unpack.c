/* unpack.c - a bot's upload unpacked into its own folder (unpack.h). libarchive reads (tar in
 * its ustar, pax and GNU forms, gzip, zip); every folder and file is made here with
 * mkdirat/openat relative to an fd of the target folder, each component opened with
 * O_NOFOLLOW, so that neither a name nor a link in the archive (refused anyway) nor a race
 * reaches outside it. Limits are counted on the bytes as they are decompressed, never on the
 * sizes the archive claims. A gzip stream is inflated here (zlib), not by libarchive, so that
 * the whole decompressed stream is capped too: the data a tar's headers say to skip (a folder
 * "of 10 GB", a huge pax header) costs no more than the limits allow. */
#include "unpack.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "util/util.h"

enum {
    NAME_MAX_BYTES = 1024, /* a whole name */
    COMP_MAX_BYTES = 255,  /* one component (NAME_MAX) */
    DEPTH_MAX = 32,        /* folders deep */
};

void ar_unpack_limits_default(ar_unpack_limits *lim)
{
    lim->max_total = (uint64_t)64 << 20;
    lim->max_file = (uint64_t)32 << 20;
    lim->max_entries = 4096;
}

typedef struct unpack {
    const ar_unpack_limits *lim;
    int root;         /* fd of dir */
    uint64_t total;   /* bytes written in all */
    uint32_t entries; /* headers read */
    uint32_t made;    /* files and folders created */
    char *err;
    size_t errlen;
    char name[256]; /* the current entry, printable, for err */
} unpack;

/* The gzip layer: inflates data[0..len) for libarchive's read callback, at most cap bytes in
 * all (then an error, which libarchive reports as a fatal read error). Several gzip members
 * one after the other are one stream, as gzip reads them; bytes after the last are ignored. */
typedef struct gz {
    z_stream z;
    int ended;    /* the last member ended */
    int over;     /* cap reached */
    uint64_t out; /* bytes inflated */
    uint64_t cap;
    unsigned char buf[64 << 10];
} gz;

static la_ssize_t gz_read(struct archive *a, void *arg, const void **out)
{
    gz *g = arg;
    *out = g->buf;
    if (g->ended)
        return 0;
    g->z.next_out = g->buf;
    g->z.avail_out = sizeof g->buf;
    while (g->z.avail_out == sizeof g->buf) {
        int r = inflate(&g->z, Z_NO_FLUSH);
        if (r == Z_STREAM_END) {
            /* another member? */
            if (g->z.avail_in >= 2 && g->z.next_in[0] == 0x1f && g->z.next_in[1] == 0x8b) {
                if (inflateReset(&g->z) != Z_OK)
                    break;
                continue;
            }
            g->ended = 1;
            break;
        }
        if (r == Z_BUF_ERROR && g->z.avail_in == 0) {
            archive_set_error(a, EINVAL, "truncated gzip stream");
            return -1;
        }
        if (r != Z_OK) {
            archive_set_error(a, EINVAL, "gzip: %s", g->z.msg ? g->z.msg : "corrupt data");
            return -1;
        }
    }
    size_t n = sizeof g->buf - g->z.avail_out;
    g->out += n;
    if (g->out > g->cap) {
        g->over = 1;
        archive_set_error(a, EFBIG, "the decompressed stream is over %llu bytes",
                          (unsigned long long)g->cap);
        return -1;
    }
    return (la_ssize_t)n;
}

static void fail(unpack *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(unpack *u, const char *fmt, ...)
{
    if (!u->err || u->errlen == 0)
        return;
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (u->name[0])
        snprintf(u->err, u->errlen, "%s: %s", u->name, why);
    else
        snprintf(u->err, u->errlen, "%s", why);
    /* one line of printable text, whatever the archive's names and libarchive's messages hold */
    for (char *c = u->err; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
            *c = '?';
}

/* Remove everything inside the folder fd (not the folder), never following a link. depth
 * bounds the recursion (the archive's own depth limit keeps ours far below it). */
static int empty_folder(int fd, int depth)
{
    if (depth > DEPTH_MAX + 2)
        return -ELOOP;
    /* a fresh open file (not a dup, which would share the listing's offset) */
    int dup = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dup < 0)
        return -errno;
    DIR *d = fdopendir(dup);
    if (!d) {
        int e = errno;
        close(dup);
        return -e;
    }
    int rc = 0;
    for (;;) {
        errno = 0;
        struct dirent *de = readdir(d);
        if (!de) {
            if (errno)
                rc = -errno;
            break;
        }
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        struct stat st;
        if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
            rc = -errno;
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            int sub = openat(fd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub < 0) {
                rc = -errno;
                continue;
            }
            /* a folder made 0555 by a build step: make it writable to empty it */
            if ((st.st_mode & 0700) != 0700)
                fchmod(sub, 0755);
            int r = empty_folder(sub, depth + 1);
            close(sub);
            if (r < 0)
                rc = r;
            if (unlinkat(fd, de->d_name, AT_REMOVEDIR) < 0)
                rc = -errno;
        } else if (unlinkat(fd, de->d_name, 0) < 0) {
            rc = -errno;
        }
    }
    closedir(d);
    return rc;
}

/* Is the folder fd empty? 1, 0, or -errno. */
static int folder_empty(int fd)
{
    int dup = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dup < 0)
        return -errno;
    DIR *d = fdopendir(dup);
    if (!d) {
        int e = errno;
        close(dup);
        return -e;
    }
    int empty = 1;
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
            empty = 0;
            break;
        }
    closedir(d);
    return empty;
}

/* Split name into its components (in comp, pointers into buf), without "." and empty ones.
 * Returns how many, or -1 after fail(). */
static int split_name(unpack *u, const char *name, char *buf, size_t cap, char **comp)
{
    size_t n = strlen(name);
    if (n == 0) {
        fail(u, "an entry with an empty name");
        return -1;
    }
    if (n > NAME_MAX_BYTES || n >= cap) {
        fail(u, "name longer than %d bytes", NAME_MAX_BYTES);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c < 0x20 || c == 0x7f) {
            fail(u, "a control character in the name");
            return -1;
        }
    }
    if (name[0] == '/') {
        fail(u, "absolute path");
        return -1;
    }
    memcpy(buf, name, n + 1);
    int k = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
        if (strcmp(t, ".") == 0)
            continue;
        if (strcmp(t, "..") == 0) {
            fail(u, "\"..\" in the path");
            return -1;
        }
        if (strlen(t) > COMP_MAX_BYTES) {
            fail(u, "a name component longer than %d bytes", COMP_MAX_BYTES);
            return -1;
        }
        if (k >= DEPTH_MAX + 1) {
            fail(u, "deeper than %d folders", DEPTH_MAX);
            return -1;
        }
        comp[k++] = t;
    }
    return k;
}

static int count_made(unpack *u)
{
    if (++u->made > u->lim->max_entries) {
        fail(u, "more than %u files and folders", (unsigned)u->lim->max_entries);
        return -1;
    }
    return 0;
}

/* Open (making it when missing) the folder comp[0..k) below the root; returns an fd, or -1
 * after fail(). */
static int open_parent(unpack *u, char **comp, int k)
{
    int fd = fcntl(u->root, F_DUPFD_CLOEXEC, 0);
    if (fd < 0) {
        fail(u, "%s", strerror(errno));
        return -1;
    }
    for (int i = 0; i < k; i++) {
        int sub = openat(fd, comp[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0 && errno == ENOENT) {
            if (count_made(u) < 0) {
                close(fd);
                return -1;
            }
            if (mkdirat(fd, comp[i], 0755) < 0) {
                fail(u, "making folder %s: %s", comp[i], strerror(errno));
                close(fd);
                return -1;
            }
            sub = openat(fd, comp[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0)
                fchmod(sub, 0755);
        }
        if (sub < 0) {
            int e = errno;
            if (e == ENOTDIR || e == ELOOP)
                fail(u, "%s is a file in the archive, not a folder", comp[i]);
            else
                fail(u, "opening folder %s: %s", comp[i], strerror(e));
            close(fd);
            return -1;
        }
        close(fd);
        fd = sub;
    }
    return fd;
}

static int make_folder(unpack *u, char **comp, int k)
{
    if (k == 0)
        return 0; /* "./": the folder itself */
    int fd = open_parent(u, comp, k);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

static int write_file(unpack *u, struct archive *a, struct archive_entry *e, char **comp, int k)
{
    if (k == 0) {
        fail(u, "a file with no name");
        return -1;
    }
    if (archive_entry_size_is_set(e) && archive_entry_size(e) >= 0 &&
        (uint64_t)archive_entry_size(e) > u->lim->max_file) {
        fail(u, "file of %lld bytes, over the limit of %llu a file",
             (long long)archive_entry_size(e), (unsigned long long)u->lim->max_file);
        return -1;
    }
    int dfd = open_parent(u, comp, k - 1);
    if (dfd < 0)
        return -1;
    if (count_made(u) < 0) {
        close(dfd);
        return -1;
    }
    mode_t mode = (archive_entry_perm(e) & 0111) ? 0755 : 0644;
    int fd = openat(dfd, comp[k - 1], O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    int e0 = errno;
    close(dfd);
    if (fd < 0) {
        if (e0 == EEXIST)
            fail(u, "the same name twice in the archive");
        else
            fail(u, "creating the file: %s", strerror(e0));
        return -1;
    }
    uint64_t size = 0;
    int rc = 0;
    for (;;) {
        const void *buf;
        size_t n;
        la_int64_t off;
        int r = archive_read_data_block(a, &buf, &n, &off);
        if (r == ARCHIVE_EOF)
            break;
        if (r < ARCHIVE_WARN) {
            fail(u, "corrupt archive: %s",
                 archive_error_string(a) ? archive_error_string(a) : "unreadable data");
            rc = -1;
            break;
        }
        if (off < 0 || (uint64_t)off != size) {
            fail(u, "a file with holes (sparse): not accepted");
            rc = -1;
            break;
        }
        if (n > u->lim->max_file - size) {
            fail(u, "file over the limit of %llu bytes a file",
                 (unsigned long long)u->lim->max_file);
            rc = -1;
            break;
        }
        if (n > u->lim->max_total - u->total) {
            fail(u, "unpacked bytes over the limit of %llu in all",
                 (unsigned long long)u->lim->max_total);
            rc = -1;
            break;
        }
        size += n;
        u->total += n;
        int w = ar_write_all(fd, buf, n);
        if (w < 0) {
            fail(u, "writing: %s", strerror(-w));
            rc = -1;
            break;
        }
    }
    if (rc == 0 && fchmod(fd, mode) < 0) {
        fail(u, "chmod: %s", strerror(errno));
        rc = -1;
    }
    if (close(fd) < 0 && rc == 0) {
        fail(u, "writing: %s", strerror(errno));
        rc = -1;
    }
    return rc;
}

static const char *type_name(unsigned t)
{
    switch (t) {
    case AE_IFLNK:
        return "a symbolic link";
    case AE_IFCHR:
        return "a character device";
    case AE_IFBLK:
        return "a block device";
    case AE_IFIFO:
        return "a fifo";
    case AE_IFSOCK:
        return "a socket";
    default:
        return "an entry of unknown type";
    }
}

/* One entry; 0 or -1 after fail(). */
static int one_entry(unpack *u, struct archive *a, struct archive_entry *e)
{
    const char *name = archive_entry_pathname(e);
    if (!name)
        name = archive_entry_pathname_utf8(e);
    if (!name) {
        snprintf(u->name, sizeof u->name, "entry %u", (unsigned)u->entries);
        fail(u, "corrupt archive, or a name that cannot be read");
        return -1;
    }
    ar_sanitize(name, strlen(name), u->name, sizeof u->name);
    if (u->entries > u->lim->max_entries) {
        fail(u, "more than %u entries", (unsigned)u->lim->max_entries);
        return -1;
    }
    if (archive_entry_hardlink(e)) {
        char t[128];
        const char *h = archive_entry_hardlink(e);
        ar_sanitize(h, strlen(h), t, sizeof t);
        fail(u, "a hard link (to %s): only plain files and folders are accepted", t);
        return -1;
    }
    unsigned type = archive_entry_filetype(e);
    if (type == AE_IFLNK || archive_entry_symlink(e)) {
        const char *s = archive_entry_symlink(e);
        char t[128];
        ar_sanitize(s ? s : "?", strlen(s ? s : "?"), t, sizeof t);
        fail(u, "a symbolic link (to %s): only plain files and folders are accepted", t);
        return -1;
    }
    if (type != AE_IFREG && type != AE_IFDIR) {
        fail(u, "%s: only plain files and folders are accepted", type_name(type));
        return -1;
    }
    if (archive_entry_is_encrypted(e)) {
        fail(u, "an encrypted entry");
        return -1;
    }
    if (type == AE_IFREG && archive_entry_sparse_count(e) > 0) {
        fail(u, "a file with holes (sparse): not accepted");
        return -1;
    }
    char buf[NAME_MAX_BYTES + 2];
    char *comp[DEPTH_MAX + 2];
    int k = split_name(u, name, buf, sizeof buf, comp);
    if (k < 0)
        return -1;
    if (type == AE_IFDIR)
        return make_folder(u, comp, k);
    return write_file(u, a, e, comp, k);
}

int ar_unpack(const void *data, size_t len, const char *dir, const ar_unpack_limits *lim, char *err,
              size_t errlen)
{
    ar_unpack_limits def;
    if (!lim) {
        ar_unpack_limits_default(&def);
        lim = &def;
    }
    unpack u = {.lim = lim, .root = -1, .err = err, .errlen = errlen};
    if (err && errlen)
        err[0] = '\0';
    u.root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (u.root < 0) {
        fail(&u, "%s: %s", dir, strerror(errno));
        return -1;
    }
    int empty = folder_empty(u.root);
    if (empty != 1) {
        fail(&u, "%s: %s", dir, empty == 0 ? "not empty" : strerror(-empty));
        close(u.root);
        return -1;
    }
    struct archive *a = archive_read_new();
    if (!a) {
        fail(&u, "out of memory");
        close(u.root);
        return -1;
    }
    archive_read_support_format_tar(a);
    archive_read_support_format_zip(a);
    int rc = -1;
    gz *g = NULL;
    const unsigned char *bytes = data;
    if (len == 0) {
        fail(&u, "an empty upload");
        goto out;
    }
    int opened;
    if (len >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b) {
        /* a tar's overhead: 512 bytes of header and up to 511 of padding an entry, pax and
         * GNU long-name headers (names are at most 1 KiB), the end blocks */
        g = ar_xcalloc(1, sizeof *g);
        uint64_t extra = (uint64_t)lim->max_entries * 4096 + ((uint64_t)1 << 20);
        g->cap = lim->max_total > UINT64_MAX - extra ? UINT64_MAX : lim->max_total + extra;
        g->z.next_in = (unsigned char *)(uintptr_t)bytes;
        g->z.avail_in = len > UINT32_MAX ? UINT32_MAX : (uInt)len;
        if (inflateInit2(&g->z, 15 + 16) != Z_OK) {
            fail(&u, "out of memory");
            free(g);
            g = NULL;
            goto out;
        }
        opened = archive_read_open(a, g, NULL, gz_read, NULL);
    } else {
        opened = archive_read_open_memory(a, data, len);
    }
    if (opened != ARCHIVE_OK && g) {
        fail(&u, "corrupt archive: %s",
             archive_error_string(a) ? archive_error_string(a) : "unreadable gzip stream");
        goto out;
    }
    if (opened != ARCHIVE_OK) {
        fail(&u, "not a .tar.gz, .tar or .zip archive (%s)",
             archive_error_string(a) ? archive_error_string(a) : "unrecognized");
        goto out;
    }
    for (;;) {
        struct archive_entry *e;
        u.name[0] = '\0';
        int r = archive_read_next_header(a, &e);
        if (r == ARCHIVE_EOF) {
            rc = 0;
            break;
        }
        u.entries++;
        if (r < ARCHIVE_WARN) {
            snprintf(u.name, sizeof u.name, "entry %u", (unsigned)u.entries);
            fail(&u, "corrupt archive: %s",
                 archive_error_string(a) ? archive_error_string(a) : "unreadable header");
            break;
        }
        if (one_entry(&u, a, e) < 0)
            break;
    }
    if (rc == 0 && u.entries == 0) {
        fail(&u, "an archive with no entries");
        rc = -1;
    }
    if (g && g->over && rc < 0) {
        u.name[0] = '\0';
        fail(&u,
             "unpacked bytes over the limit of %llu in all (the decompressed archive is over "
             "%llu bytes)",
             (unsigned long long)lim->max_total, (unsigned long long)g->cap);
    }
out:
    archive_read_free(a);
    if (g) {
        inflateEnd(&g->z);
        free(g);
    }
    if (rc < 0)
        empty_folder(u.root, 0);
    close(u.root);
    return rc;
}
