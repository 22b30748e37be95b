/* journal.h - a tournament's journal (DIR/journal.jsonl): the one durable record of finished
 * games, from which every result is computed. Append-only, one line per game:
 *
 *   {"game":<index>,"sum":"<16 hex digits>","data":<payload>}
 *
 * where sum is the FNV-1a 64 hash of the payload's bytes exactly as written. Each line is
 * flushed and fsync'd before the game counts as done (and the directory is fsync'd when the
 * file is created), so after a crash or a kill -9 only the last line can be torn. Reading
 * checks every line; a torn or corrupted line is reported and dropped (its game is played
 * again if it is in the schedule), a game written twice counts once if both copies agree and
 * is an error otherwise. Before a repair rewrites the file, the old one is kept beside it.
 * The payload is opaque here (the driver's JSON object); this file only frames it. */
#ifndef AR_JOURNAL_H
#define AR_JOURNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* FNV-1a, 64 bits. */
uint64_t ar_fnv1a64(const void *p, size_t n);

typedef struct ar_journal_entry {
    long long index; /* game index */
    char *payload;   /* the data object's text, NUL-terminated */
    int line;        /* 1-based line it was read from (0 if not read from a file) */
} ar_journal_entry;

/* A line dropped on reading: why, and the game it named when that could be read. */
typedef struct ar_journal_drop {
    int line;
    long long index; /* -1: no game index could be read from the line */
    char why[200];
} ar_journal_drop;

typedef struct ar_journal_data {
    ar_journal_entry *e; /* sorted by index, indices unique */
    long long n;
    ar_journal_drop *drop; /* in line order: torn, bad checksum, not the format, blank, refused
                              by the caller's check, identical repeats */
    long long ndrop;
    int exists;       /* the file was there */
    int bad;          /* lines dropped: torn, bad checksum, not the format, blank, refused */
    int duplicates;   /* identical repeats dropped */
    int needs_repair; /* bad || duplicates: rewrite the file with ar_journal_rewrite */
} ar_journal_data;

/* The caller's check of a well-formed line: 0 when the payload is game `index` of this
 * tournament, else -1 with the reason in why (the line is then dropped). */
typedef int (*ar_journal_fits)(void *ud, long long index, const char *payload, char *why,
                               size_t cap);

/* Read and check path. A missing or empty file gives no entries (exists = 0 / 1). Lines may
 * end in "\n" or "\r\n" (a journal copied through a Windows tool reads the same). Every line
 * dropped is listed in d->drop, nothing is printed (ar_journal_report prints them). fits (may
 * be NULL) is asked about every well-formed line before duplicates are looked for, so that a
 * line of another tournament is dropped for that reason rather than reported as a conflict.
 * Returns 0; -EINVAL if a game is recorded twice with different data ("PATH:LINE: game N is
 * recorded twice with different results (first at line M)" in err); -errno if the file
 * cannot be read. Free with ar_journal_data_free. */
int ar_journal_read(const char *path, ar_journal_data *d, ar_journal_fits fits, void *ud, char *err,
                    size_t errcap);
void ar_journal_data_free(ar_journal_data *d); /* accepts a zeroed or freed one */

/* Print every dropped line as "PATH:LINE: why; FATE", FATE from fate(ud, drop) (NULL, or a
 * NULL fate: "dropped"). */
void ar_journal_report(const ar_journal_data *d, const char *path, FILE *out,
                       const char *(*fate)(void *ud, const ar_journal_drop *x), void *ud);

/* Keep the file at path as it is, beside it, before it is repaired: a hard link (or a copy)
 * named PATH.orig-N, N the first free number from 1. The name is written to kept. Returns 0
 * or -errno. Repair never deletes what it cannot replay exactly (bots may be
 * time-dependent): the original stays for the host to look at. */
int ar_journal_keep(const char *path, char *kept, size_t keptcap);

/* Replace path, atomically, with exactly entries e[0..n) in the given order: write PATH.tmp,
 * fsync it, rename it over path, fsync the directory. Returns 0 or -errno. */
int ar_journal_rewrite(const char *path, const ar_journal_entry *e, long long n);

/* ---- Appending ---------------------------------------------------------------------------- */

typedef struct ar_journal ar_journal;

/* Open path for appending, creating it (and fsync'ing its directory) if it is new. NULL with
 * the reason in err. */
ar_journal *ar_journal_open(const char *path, char *err, size_t errcap);
/* Append one game's line, then fflush and fsync. payload must be one line of JSON (no
 * newline). Returns 0 or -errno. */
int ar_journal_append(ar_journal *j, long long index, const char *payload);
int ar_journal_close(ar_journal *j); /* accepts NULL; returns 0 or -errno */

/* fsync the directory holding path (after creating or renaming a file in it). 0 or -errno. */
int ar_fsync_dir_of(const char *path);

/* Replace path atomically: fill(f, ud) writes the new content into path.tmp (returning 0 or
 * -errno), which is flushed, fsynced and renamed over path, then the directory is fsynced.
 * On failure path is untouched and the temp file removed. Returns 0 or -errno. */
int ar_file_replace(const char *path, int (*fill)(FILE *f, void *ud), void *ud);

#endif
