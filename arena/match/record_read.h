/* record_read.h - reading a game record (the JSON lines record.h writes) back and replaying it
 * with the engine. One reader for everything that opens a record (`arena replay`, the replay
 * page, the fuzz target through `arena replay`), so that they check a record the same way and
 * refuse a malformed one with the same FILE:LINE message.
 *
 * The reader owns the checks: the header sets up the rules and the game; every action must be
 * the acting seat's and legal; every hand end and the result must agree with the engine (scores,
 * totals, placements, digests). The caller sees each line through a callback after those
 * checks, with the engine's state at that point. */
#ifndef AR_RECORD_READ_H
#define AR_RECORD_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "okr/okr.h"

typedef struct ar_record_reader {
    const char *path;
    long line; /* the line being read (1-based) */
    okr_rules rules;
    okr_game g;
    int players;
    char game_id[128];
    char names[OKR_MAX_PLAYERS][64]; /* as the record has them (not sanitized) */
    uint64_t seed;
    long long actions; /* actions applied so far */
    int hands_checked; /* hand ends that agreed with the engine */
    /* the result line (valid in the result callback) */
    int completed;
    int32_t final_total[OKR_MAX_PLAYERS];
    uint8_t placement[OKR_MAX_PLAYERS];
    char digest[24]; /* the engine's digest at the last hand end or the result, hex */
    char err[768];   /* "FILE:LINE: why" after a refusal */
} ar_record_reader;

/* What the caller does with each line. Every callback may be NULL; a callback returns 0 to go
 * on, anything else stops the reading and becomes ar_record_read's return value. j is the
 * line's JSON object (borrowed). */
typedef struct ar_record_visitor {
    void *ctx;
    /* the header is read, the game set up (g is at the first deal) */
    int (*header)(void *ctx, ar_record_reader *rd, json_t *j);
    /* the engine dealt the next hand before an action or the result */
    int (*dealt)(void *ctx, ar_record_reader *rd);
    /* seat is about to act (g is before the action; the action is not applied yet) */
    int (*before_action)(void *ctx, ar_record_reader *rd, json_t *j, int seat);
    /* the action was applied: a as parsed, ev the engine's event of it */
    int (*action)(void *ctx, ar_record_reader *rd, json_t *j, int seat, const okr_action *a,
                  const okr_event *ev);
    /* a hand end that agreed with the engine (g is in HAND_OVER or GAME_OVER) */
    int (*hand_end)(void *ctx, ar_record_reader *rd, json_t *j);
    /* a verdict against seat (checked to be a seat of the game) */
    int (*verdict)(void *ctx, ar_record_reader *rd, json_t *j, int seat);
    /* the result, checked against the engine (rd->completed, final_total, placement) */
    int (*result)(void *ctx, ar_record_reader *rd, json_t *j);
    /* an "aborted" line: the game was not finished. NULL: a refusal "the game was not
     * finished (reason)". */
    int (*aborted)(void *ctx, ar_record_reader *rd, json_t *j);
    /* a game in progress (arena/live reads records as they are written): a record that ends
     * before its result line is not refused */
    int partial;
} ar_record_visitor;

/* Read the record in f (path names it in messages) to its end. Returns 0 when the record was
 * whole and agreed with the engine, -1 after a refusal (rd->err says why, with FILE:LINE), or
 * a callback's non-zero value. rd is initialised here. */
int ar_record_read(FILE *f, const char *path, const ar_record_visitor *v, ar_record_reader *rd);

/* Refuse at the current line: rd->err = "FILE:LINE: <fmt>". Returns -1 (for callbacks). */
int ar_record_fail(ar_record_reader *rd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A string member of a record line, "" if absent or not a string. */
const char *ar_record_str(json_t *o, const char *key);

#endif
