/* rank.h - ratings from a tournament's finished games, with honest error bars
 * (../shared/research/ranking.md). Pure arithmetic: no I/O, no processes, no globals, no
 * threads; the same games and options give bit-identical results on every run (the bootstrap
 * draws from a seeded ar_rng), which `arena tournament --resume` and `arena merge` rely on.
 *
 * The unit of data is the duplicate set: one deal played by one table in all k seat
 * rotations. Every interval comes from resampling whole sets (a cluster bootstrap), never
 * single games, because the games of a set are strongly correlated by design. */
#ifndef AR_RANK_H
#define AR_RANK_H

#include <stddef.h>
#include <stdint.h>

/* n is capped because the score fit keeps a dense n x n system (32 MiB at the cap). */
enum { AR_RANK_MAX_SEATS = 8, AR_RANK_MAX_ENTRANTS = 2048 };

/* One finished game. Entrants are 0..n-1. */
typedef struct ar_rank_game {
    long long set;                        /* duplicate set id; games of a set share it */
    int k;                                /* seats, 2..AR_RANK_MAX_SEATS */
    int entrant[AR_RANK_MAX_SEATS];       /* entrant per seat (all different) */
    double score[AR_RANK_MAX_SEATS];      /* final total per seat, points */
    uint8_t placement[AR_RANK_MAX_SEATS]; /* 1 = best; tied seats share the better place */
    int nhands;                           /* hands in `hand` (0: no hand-level data) */
    int forfeited; /* 1: the game did not reach its end (a forfeit): nobody wins or draws it */
    const int32_t (*hand)[AR_RANK_MAX_SEATS]; /* [nhands][seat]: each hand's score, points;
                                                 only read during ar_rank_fit */
} ar_rank_game;
/* Placements must be competition ranks: each seat's place is 1 + the number of seats placed
 * strictly better (1 2 2 4, never 1 2 2 3); anything else is -EINVAL. Seat s of every game of
 * a set is assumed to hold the same cards (the set's rotations), which rho relies on. */

typedef struct ar_rank_opts {
    int bootstrap;      /* replicates, e.g. 1000; 0: no intervals (they are NaN) */
    uint64_t seed;      /* of the bootstrap's generator */
    double prior_games; /* Plackett-Luce prior: this many virtual games won and lost against
                           an average entrant, so that perfect records have a finite rating
                           (e.g. 1.0) */
} ar_rank_opts;
/* prior_games in detail (ranking.md 5.3): every entrant gets prior_games virtual 2-player
 * games against a virtual entrant of strength 1, each counted as half a win and half a loss
 * (1.0 = one pseudo-win of 0.5 and one pseudo-loss of 0.5). It also gives entrants in
 * disconnected parts of the field finite, comparable-in-scale ratings, shrunk towards 0.
 * 0 is allowed: ratings are then the plain MLE, which does not exist for a perfect record
 * (or a perfect loser): the fit then runs to its iteration cap (20000 MM iterations, in every
 * bootstrap replicate: slow on big fields) and reports a large, arbitrary rating.
 * ar_rank_fit accepts o == NULL: {0, 0, 1.0}. */

/* One entrant's standing. Intervals are 95% percentile intervals of the bootstrap. */
typedef struct ar_rank_entry {
    long long games, sets;
    long long wins;    /* completed games placed first alone */
    long long draws;   /* completed games sharing first place */
    double mean_place; /* 1 = always first */
    double mean_rel;   /* raw mean of (own total - table mean) per game */
    /* duplicate score rating: least squares on per-game relative scores, points per game
     * against an average entrant (ratings sum to 0 over the entrants) */
    double score, score_lo, score_hi;
    /* Plackett-Luce on placements, Elo scale (400/ln 10 per unit of log-strength), mean 0 */
    double elo, elo_lo, elo_hi;
    int rank;             /* 1-based, by score (ties broken by elo, then index) */
    int rank_lo, rank_hi; /* 95% interval of the rank over the bootstrap (0 without one) */
    double p_next;        /* share of replicates in which this entrant's score rating beats
                             that of the entrant ranked just below it; NaN for the last */
} ar_rank_entry;
/* Ties in placements (Plackett-Luce): the log-likelihood of a game is averaged over the
 * orders in which each tied group could be broken, with Efron's approximation for the
 * denominators: exact without ties and for two seats tied for last (half a win each). An
 * entrant with no games has score 0, log-strength at the prior's centre, and NaN means. */

/* Head-to-head of entrants i and j over the games where both sat at the same table. */
typedef struct ar_rank_pair {
    long long games;
    double diff, diff_lo, diff_hi; /* mean of (score_i - score_j) per game, 95% interval over
                                      the sets they shared; NaN when games == 0 */
    double ahead;                  /* share of those games i placed better than j (ties 1/2) */
} ar_rank_pair;
/* The pair's interval is a cluster bootstrap (o->bootstrap replicates) over the sets the pair
 * shared, separate from the entrants' one; NaN without a bootstrap or with fewer than 2
 * shared sets. pair[j * n + i] mirrors pair[i * n + j]; the diagonal is games 0, NaN. */

typedef struct ar_rank_result {
    int n;                /* entrants */
    ar_rank_entry *entry; /* [n], in entrant order (not sorted) */
    int *order;           /* [n]: entrant indices by rank, best first */
    ar_rank_pair *pair;   /* [n * n]: pair[i * n + j] */
    /* rank_p[i * n + (k - 1)]: share of the bootstrap replicates in which entrant i ranks k
     * (the same replicates, ranked the same way as rank_lo/rank_hi). Ranks within a replicate
     * are all different, so every row and every column sums to 1, and [rank_lo, rank_hi]
     * holds at least 95% of row i. NULL without a bootstrap (or without sets). */
    double *rank_p;
    int k_max;                             /* largest table seen */
    double seat_effect[AR_RANK_MAX_SEATS]; /* mean relative score of each seat, points (NaN
                                              for seats no game had). Not a term of the score
                                              model: with every set played in all k rotations
                                              each entrant sits every seat equally often, so
                                              seat effects cancel from the ratings. */
    /* duplicate efficiency: rho = 1 - var_set_centred / var_relative, on the residuals of
     * the score model (relative score minus rating minus the table's mean rating): the games
     * needed for a given precision shrink by about (1 - rho) */
    double var_relative, var_set_centred, rho;
    /* var_relative: mean of the squared residuals over all seats of all games;
     * var_set_centred: residuals minus their (set, seat) mean, sum of squares over degrees of
     * freedom (group size - 1), so rho ~ 0 when the deal explains nothing and ~ 1 when it
     * explains everything, whatever the skill differences. NaN if no set has 2 games. */
    /* the same per hand, for games that give their hand scores: the residual of seat s in
     * hand h is its relative hand score minus the game's prediction / the game's hands, and
     * the groups are (set, hand, seat): hand h of every rotation holds the same cards under
     * dealer=rotate (RULES 2.3), so rho_hand says how much of each hand's luck duplicate
     * play removes. NaN without hand scores. */
    double var_hand_relative, var_hand_set_centred, rho_hand;
    long long hand_obs; /* seat-hands behind rho_hand */
    /* games / (1 - rho): how many independent games (seeds not shared) would give the
     * ratings the same precision; NaN when rho is NaN or >= 1 */
    double effective_games;
    int connected; /* 1 if the co-play graph joins every entrant (an entrant without games
                      is not joined). If 0, each connected component's score ratings are
                      centred separately (sum 0 within the component): scores of entrants
                      in different components are not comparable, nor are ranks across them. */
    long long games, sets;
    int iterations; /* Plackett-Luce MM steps of the main fit (SQUAREM-accelerated) */
} ar_rank_result;

/* Fit both ratings and their intervals. n >= 1 entrants, games[0..ngames) in any order (the
 * result does not depend on it). Returns 0, or -EINVAL (bad input, message in err naming the
 * game's index in `games`) or -ENOMEM. r is overwritten, not freed first. On success free r
 * with ar_rank_free; on failure r is left zeroed. Cost: O(sum k^2 + n^3) for the score fit,
 * O(sum k) per MM iteration, and both again per bootstrap replicate (bench/bench_rank.c). */
int ar_rank_fit(const ar_rank_game *games, long long ngames, int n, const ar_rank_opts *o,
                ar_rank_result *r, char *err, size_t errcap);
void ar_rank_free(ar_rank_result *r); /* accepts a zeroed or freed result */

/* ---- Sequential test (gauntlet) ------------------------------------------------------------
 * x[0..n) are per-set paired differences (challenger minus baseline, points per game). The
 * hypotheses are mean = s0 (H0) and mean = s1 (H1); the log-likelihood ratio is fishtest's
 * normal approximation LLR_alt = (n/2) ln(sum (x - s0)^2 / sum (x - s1)^2). */
double ar_sprt_llr(const double *x, long long n, double s0, double s1);
/* Wald bounds for error rates alpha and beta: lower = ln(beta/(1-alpha)),
 * upper = ln((1-beta)/alpha) (+-2.944 for 0.05/0.05). */
void ar_sprt_bounds(double alpha, double beta, double *lower, double *upper);
/* +1: accept H1 (llr >= upper), -1: accept H0 (llr <= lower), 0: go on. */
int ar_sprt_decide(double llr, double lower, double upper);

#endif
