/* util.h - small helpers shared by the arena's match runner: allocation that aborts on
 * exhaustion (Redis zmalloc style), EINTR-safe writes, a monotonic clock in milliseconds, and
 * the arena's version. No state. */
#ifndef AR_UTIL_H
#define AR_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* The arena's version, written to results.json and every game record. */
#define AR_VERSION "0.3.0"

/* Exit statuses of every subcommand, and of the tournament driver that returns them. */
enum {
    AR_EXIT_OK = 0,
    AR_EXIT_FAIL = 1, /* the work failed: bad script line, unreadable file, engine error */
    AR_EXIT_USAGE = 2 /* bad command line: unknown flag, bad value, refused rule option */
};

/* malloc/calloc/realloc/strdup that print "arena: out of memory" and abort() instead of
 * returning NULL. xrealloc(p, 0) frees p and returns NULL. */
void *ar_xmalloc(size_t n);
void *ar_xcalloc(size_t count, size_t size);
void *ar_xrealloc(void *p, size_t n);
char *ar_xstrdup(const char *s);

/* Milliseconds on CLOCK_MONOTONIC (fractional). */
double ar_now_ms(void);
/* Sleep until ar_now_ms() reaches ms (clock_nanosleep, absolute: no drift, no rounding to
 * whole milliseconds); at once if it already has. */
void ar_sleep_until_ms(double ms);

/* Write all n bytes to fd, retrying on EINTR and short writes (blocking fds only). Returns 0
 * or -errno. */
int ar_write_all(int fd, const void *buf, size_t n);

/* Copy file `from` to `to` (created or truncated), and with `sync` fsync it before closing.
 * Returns 0 or -errno (-EIO for a short write). */
int ar_copy_file(const char *from, const char *to, int sync);

/* mkdir -p for one path (mode 0777 before umask). Returns 0 or -errno. */
int ar_mkdir_p(const char *path);

/* Copy s into out (cap bytes, NUL-terminated), replacing bytes that are not printable ASCII
 * with '?'. For names a bot sends us: they go into terminals and JSON. */
void ar_sanitize(const char *s, size_t n, char *out, size_t cap);

/* The closest of names[0..n) (stopping early at a NULL) to word if it is a plausible typo (at most
 * 2 edits, case-insensitive, and fewer than the word's length), else NULL. */
const char *ar_near_miss(const char *word, const char *const *names, int n);

/* The one rounding rule of the figures people read (the report, the live page, and the
 * terminal tables, to share it): v is first rounded to `stored` decimals, half away from zero,
 * as results.json stores it (so the raw value and the stored one give the same text), then to
 * `shown` decimals, half away from zero on that decimal value (not on its binary
 * approximation: 52.650 shows 52.7), never "-0.0"; with sign, a '+' before a positive or zero
 * value. "-" for NaN or infinity. shown <= stored <= 6. */
void ar_fmt_num(char *buf, size_t cap, double v, int stored, int shown, int sign);

/* Remove a folder and everything in it (links as links), read-only folders too. */
void ar_rm_tree(const char *path);

#endif
