/* unpack.h - a bot's upload (docs/league.md, "Archive submissions"): an archive held in memory
 * unpacked into the entrant version's own folder, every byte of it taken as hostile. Plain
 * files and folders only; everything else refuses the whole archive and leaves the folder
 * empty. Uses libarchive's readers only (never its disk writer): every file is created here,
 * relative to the folder's fd, so that no name in the archive reaches outside it. */
#ifndef AR_LEAGUE_UNPACK_H
#define AR_LEAGUE_UNPACK_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t max_total;   /* bytes unpacked in all, e.g. 64 MiB: a zip bomb stops here */
    uint64_t max_file;    /* bytes of one file */
    uint32_t max_entries; /* files + folders */
} ar_unpack_limits;

/* ar_unpack: unpack an archive held in memory (.tar.gz, .tgz, .tar, .zip; detected from the
 * bytes, not a name) into the folder dir, which must exist and be empty. Refuses, with a
 * one-line reason in err naming the entry: absolute paths, "..", symlinks and hard links (all of
 * them: a bot's folder holds plain files and folders), device/fifo/socket entries, a file or total
 * over the limits, too many entries, a corrupt archive. Files are created with O_NOFOLLOW|O_EXCL
 * relative to dir (openat), modes limited to 0755/0644. On a refusal dir is emptied again, and
 * nothing outside dir is ever created or changed. Returns 0 or -1. */
int ar_unpack(const void *data, size_t len, const char *dir, const ar_unpack_limits *lim, char *err,
              size_t errlen);
/* The league's defaults: 64 MiB in all, 32 MiB a file, 4096 entries. */
void ar_unpack_limits_default(ar_unpack_limits *lim);

/* Also refused, beyond the list above: a name with a control character, a name over 1024
 * bytes or deeper than 32 folders, a component over 255 bytes, the same name twice (a file
 * over a file, a file over a folder), sparse files, encrypted zip entries. A "dir" that does
 * not exist or is not empty is refused without touching it. */

#endif
