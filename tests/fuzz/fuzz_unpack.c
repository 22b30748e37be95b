/* fuzz_unpack.c - a bot's upload (arena/league/unpack.h): the input is an archive, unpacked by
 * ar_unpack into a fresh folder with small limits (1 MiB in all, 256 KiB a file, 64 entries).
 * What must hold: it returns 0 or -1 with a reason in one line of printable ASCII; refused, the
 * folder is empty; unpacked, the folder holds only plain files (0644 or 0755) and folders (0755)
 * within the limits; and beside the folder nothing appears or changes (a sentinel file and the
 * listing of the folder around it). The folder is removed after each input. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <ftw.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzzkit.h"
#include "league/unpack.h"

static char sentinel[192];
static const ar_unpack_limits lim = {1 << 20, 256 << 10, 64};

/* what nftw finds below the folder */
static uint64_t total, files, bad;

static int walk(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)path;
    if (f->level == 0)
        return 0;
    files++;
    if (flag == FTW_F && S_ISREG(st->st_mode)) {
        mode_t m = st->st_mode & 07777;
        if ((m != 0644 && m != 0755) || (uint64_t)st->st_size > lim.max_file)
            bad++;
        total += (uint64_t)st->st_size;
    } else if (flag == FTW_D && S_ISDIR(st->st_mode)) {
        if ((st->st_mode & 07777) != 0755)
            bad++;
    } else {
        bad++; /* a link, a device, a fifo, anything else */
    }
    return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)st;
    (void)f;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* The names in the fuzz folder, sorted and joined, with the sentinel's contents. */
static void around(char *out, size_t cap)
{
    struct dirent **list;
    int n = scandir(fk_tmp(), &list, NULL, alphasort);
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        k += (size_t)snprintf(out + k, k < cap ? cap - k : 0, "%s/", list[i]->d_name);
        free(list[i]);
    }
    free(list);
    size_t len;
    char *s = fk_read(sentinel, &len);
    snprintf(out + (k < cap ? k : cap - 1), k < cap ? cap - k : 1, "|%s", s ? s : "(gone)");
    free(s);
}

static char before[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fk_path(sentinel, sizeof sentinel, "sentinel");
    fk_write(sentinel, "keep\n", 5);
    around(before, sizeof before);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char dir[192];
    fk_path(dir, sizeof dir, "u");
    if (mkdir(dir, 0755) < 0)
        abort();
    char err[512];
    memset(err, 'x', sizeof err);
    int rc = ar_unpack(data, size, dir, &lim, err, sizeof err);
    if (rc != 0 && rc != -1)
        abort();
    if (rc < 0 && (!err[0] || !memchr(err, '\0', sizeof err)))
        abort(); /* a refusal has a reason */
    for (const char *c = err; rc < 0 && *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
            abort(); /* ... on one line of printable text */
    total = files = bad = 0;
    if (nftw(dir, walk, 16, FTW_PHYS) < 0)
        abort();
    if (rc < 0 && files != 0)
        abort(); /* refused: emptied again */
    if (rc == 0 && (bad || total > lim.max_total || files > lim.max_entries))
        abort();
    if (nftw(dir, rm_one, 16, FTW_PHYS | FTW_DEPTH) < 0)
        abort();
    char now[4096];
    around(now, sizeof now);
    if (strcmp(now, before) != 0)
        abort(); /* something beside the folder appeared, went or changed */
    return 0;
}
