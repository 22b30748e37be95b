/* schedule.h - which entrants meet, at which seats, on which deals: the tournament's whole
 * plan, computed up front from (entrants, seats, format, deals, seed) alone, so that every
 * shard, every resumed run and `arena merge` agree on it without talking to each other.
 * Pure: no I/O, no globals. Design notes: ../shared/research/ranking.md section 2.
 *
 * Vocabulary
 *   table  a k-subset of the entrants (sorted ascending).
 *   set    one deal played by one table in all k cyclic rotations of one circular seat
 *          order: k games, the duplicate unit every rating interval resamples.
 *   game   one set, one rotation.
 * Sets are numbered densely 0..nsets-1 in play order, games 0..ngames-1 with
 * game = set * k + rotation. Set s plays table s % ntables on deal s / ntables, so that
 * every table has played deal d before any plays deal d + 1 (a tournament stopped early,
 * or a gauntlet stopped by its SPRT, is still balanced), and all tables share the deal
 * seeds of one round: common random numbers across tables. */
#ifndef AR_SCHEDULE_H
#define AR_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

enum { AR_SCHED_MAX_SEATS = 8, AR_SCHED_MAX_ENTRANTS = 1024 };
/* Largest max_tables accepted: the balanced design costs about tables x entrants x seats. */
enum { AR_SCHED_MAX_TABLES = 20000 };
/* Most games one tournament may schedule (deals x tables x seats). Summing up holds every
 * game in memory (the journal's line, its parsed result and the ranking's copies: about
 * 1.5 KB a game), and a run keeps 24 bytes per set from the start; 2 million games are about
 * 3 GB at the end, and take days of CPU at a few milliseconds a game. docs/tournaments.md. */
enum { AR_SCHED_MAX_GAMES = 2000000 };

typedef enum ar_format {
    AR_FORMAT_ROUND_ROBIN = 0, /* every k-subset, or a balanced design when there are too many */
    AR_FORMAT_GAUNTLET = 1     /* one challenger against the field */
} ar_format;

typedef struct ar_schedule_opts {
    int n;                /* entrants, >= k (gauntlet: >= k as well) */
    int k;                /* seats per table, 2..8 */
    int format;           /* ar_format */
    int challenger;       /* gauntlet: the entrant on every table */
    int baseline;         /* gauntlet: -1, or an entrant also seated at every table (k >= 3 unless
                             the field is just the baseline), so that the challenger and the
                             baseline are compared on the same deals and opponents */
    long long deals;      /* deals per table (each played k times) */
    long long max_tables; /* 1..AR_SCHED_MAX_TABLES. Round robin: use every k-subset when
                             C(n, k) <= max_tables, else a balanced design of max_tables tables
                             in which every entrant sits at the same number of tables within 1
                             and every pair of entrants meets as equally as possible (counts
                             differ by <= 2). Gauntlet: the same over the field (the seats the
                             challenger and baseline leave), with the table count rounded down
                             to a multiple of field / gcd(field, free seats) when it is at
                             least that, so every field member plays equally often. */
    uint64_t seed;        /* tournament seed: deal seeds and seat orders derive from it */
} ar_schedule_opts;

typedef struct ar_table {
    int entrant[AR_SCHED_MAX_SEATS]; /* [k], ascending */
} ar_table;

typedef struct ar_schedule {
    ar_schedule_opts o;
    int ntables;
    ar_table *table; /* [ntables] */
    int complete;    /* 1: the tables are every k-subset (gauntlet: every subset of
                        the field), 0: a balanced design */
    long long nsets, ngames;
    int *pair_meets; /* [n * n]: tables on which entrants i and j both sit */
} ar_schedule;

/* One set: its table, deal, seed and circular seat order. */
typedef struct ar_set_plan {
    long long set;
    int table;
    long long deal;     /* 0-based deal number (the round) */
    uint64_t deal_seed; /* == ar_match_deal_seed(o.seed, deal): `arena match --seed <seed>`
                           plays the same deal d (match.h) */
    int order[AR_SCHED_MAX_SEATS]; /* [k]: entrants in circular seat order; rotation r seats
                                      order[(seat + r) % k] at seat `seat` (match.h's
                                      ar_match_seat_slot) */
} ar_set_plan;

/* Build the plan. Returns 0, or -EINVAL with a message in err (n < k, k out of range, ...),
 * or -ENOMEM. The circular orders vary across deals (k = 3: both orders alternate; k = 4:
 * the six orders in turn; k >= 5: a seeded shuffle per deal and table) so that nobody always
 * sits downstream of the same neighbour. For k = 3 and 4 table t on deal d uses order
 * (d + t) mod 2 (or 6), so consecutive tables start from different orders and every
 * (k - 1)! consecutive deals of a table use each circular order once. Free with
 * ar_schedule_free. */
int ar_schedule_make(const ar_schedule_opts *o, ar_schedule *s, char *err, size_t errcap);
void ar_schedule_free(ar_schedule *s); /* accepts a zeroed or freed schedule */

/* The plan of set `set` (0 <= set < nsets). */
void ar_schedule_set(const ar_schedule *s, long long set, ar_set_plan *p);

/* Entrant at `seat` in rotation `rotation` of a set. */
int ar_schedule_seat(const ar_set_plan *p, int k, int seat, int rotation);

/* Is set `set` part of shard K of N (0 <= K < N)? Sets are dealt to shards round-robin
 * (set % N == K), so shards get equal work. */
int ar_schedule_in_shard(long long set, int shard_k, int shard_n);

/* The number of tables ar_schedule_make makes for n entrants at k seats, `fixed` of them on
 * every table (gauntlet: 1 for the challenger, 2 with a baseline; round robin: 0), without
 * building them; 0 when n, k or fixed make no tables. */
long long ar_schedule_ntables(int n, int k, int fixed, int format, long long max_tables);

/* C(n, k), or INT64_MAX when it does not fit (0 when k > n or k < 0). */
long long ar_schedule_choose(int n, int k);

/* "t<seed>-s<set>-d<deal>-T<table>-r<rotation>": unique within a tournament. */
void ar_schedule_game_id(char *buf, size_t cap, uint64_t seed, const ar_set_plan *p, int rotation);

#endif
