/* feed.h - what the spectator server knows of a run: it follows the run's files (the journal
 * or games.jsonl, the records being written, results.json) and turns what it has released to
 * viewers into one JSON snapshot per change. No sockets here; live.c serves the snapshot. */
#ifndef AL_FEED_H
#define AL_FEED_H

#include <stddef.h>

typedef struct al_feed al_feed;

/* dir: the run's folder; kind "tournament" (DIR/journal.jsonl) or "match" (DIR/games.jsonl);
 * delay_s: a line is released this long after it was first read. */
al_feed *al_feed_new(const char *dir, const char *kind, const char *title, double delay_s);
void al_feed_free(al_feed *f);
/* Tell the feed that records/NAME changed or appeared (inotify), or NULL: look at all the
 * files it follows. */
void al_feed_touch(al_feed *f, const char *name);
/* Read what is new, release what is old enough; now_ms from ar_now_ms. Returns 1 if the
 * snapshot changed (its version went up). */
int al_feed_poll(al_feed *f, double now_ms);
/* The current snapshot (JSON text, NUL-terminated) and its version (>= 1). */
const char *al_feed_snapshot(const al_feed *f, size_t *len, long long *version);
/* The records folder's path (for inotify), and whether it exists yet. */
const char *al_feed_records_dir(const al_feed *f);
/* Game ids: the snapshot and these calls use the ids viewers may know, without the run's seed
 * (view's av_public_id: "s1-d0-T0-r1", not "t<seed>-s1-d0-T0-r1"). */
/* A finished and released game (so its replay may be shown): its full id (the record's name),
 * or NULL. */
const char *al_feed_game_released(const al_feed *f, const char *id);
/* The released lines of a game being played, as a record text (header first, no result):
 * malloc'd, or NULL if the game is not followed. */
char *al_feed_table_record(const al_feed *f, const char *id, size_t *len);
/* The run has written its results (results.json) and all of it has been released. */
int al_feed_finished(const al_feed *f);

#endif
