/* outlock.h - one arena per output folder. A run that writes into a folder (a match, a
 * tournament and its resume, a merge, a league) holds an exclusive flock on the folder itself
 * for as long as it runs; a second arena that wants the same folder refuses at once and names
 * the first's process. The kernel drops the lock when the holder ends, however it ends (killed,
 * crashed), so no stale lock is ever left, and no file is added to the folder. */
#ifndef AR_OUTLOCK_H
#define AR_OUTLOCK_H

#include <stddef.h>

/* Take the lock of folder dir (made first if missing, mkdir -p). Returns an fd (close-on-exec)
 * that holds it until it is closed or the process ends; -EWOULDBLOCK when another process holds
 * it, with `who` naming that process ("pid 1234 (arena tournament class.tour)", from /proc/locks
 * and its command line; "pid 1234", or "another process" where those cannot be read); another
 * -errno when the folder cannot be made or the file system takes no lock (NFS may refuse one on
 * a folder). */
int ar_outlock_take(const char *dir, char *who, size_t cap);

/* ar_outlock_take with the arena's messages: returns the fd (>= 0); -1 after printing that the
 * folder is in use ("arena: --out DIR is in use by pid 1234 (arena tournament x.tour): one arena
 * per output folder; wait for it to end, or give another --out"): the caller stops, exit 2; -2
 * after a warning that the folder could not be locked: the caller goes on without the lock.
 * `flag` names the folder in the messages ("--out"). */
int ar_outlock(const char *dir, const char *flag);

#endif
