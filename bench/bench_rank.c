/* bench_rank.c - time ar_rank_fit (arena/tour/rank.c) on a big simulated field: by default 100
 * entrants and 100,000 games at k = 2, 4 and 8 seats, once without the bootstrap (target:
 * under a second) and once with B = 200 replicates. The games are duplicate sets (a random
 * k-subset, k rotations) with scores = skill + card luck of the seat in the set + noise, and
 * placements from the scores. Prints one line per (k, B) and a JSON line at the end.
 *
 *   build/bench/bench_rank [--entrants N] [--games G] [--boot B] [--only K]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "match/policy.h"
#include "tour/rank.h"

static double now_s(clockid_t clk)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double unif(ar_rng *r)
{
    return (double)(ar_rng_next(r) >> 11) * 0x1.0p-53;
}

static double gauss(ar_rng *r)
{
    double u = unif(r), v = unif(r);
    return sqrt(-2.0 * log(1.0 - u)) * cos(2.0 * M_PI * v);
}

static ar_rank_game *simulate(int n, int k, long long ngames, uint64_t seed, long long *out)
{
    ar_rng rng;
    ar_rng_seed(&rng, seed);
    double *skill = malloc((size_t)n * sizeof *skill);
    int *perm = malloc((size_t)n * sizeof *perm);
    long long nsets = ngames / k;
    ar_rank_game *g = calloc((size_t)(nsets * k), sizeof *g);
    if (!skill || !perm || !g) {
        fprintf(stderr, "bench_rank: out of memory\n");
        exit(1);
    }
    for (int i = 0; i < n; i++)
        skill[i] = 20.0 * gauss(&rng);
    long long m = 0;
    for (long long c = 0; c < nsets; c++) {
        for (int i = 0; i < n; i++)
            perm[i] = i;
        for (int i = 0; i < k; i++) {
            int j = i + (int)ar_rng_below(&rng, (uint32_t)(n - i));
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        double deal[AR_RANK_MAX_SEATS];
        for (int s = 0; s < k; s++)
            deal[s] = 40.0 * gauss(&rng);
        for (int r = 0; r < k; r++) {
            ar_rank_game *x = &g[m++];
            x->set = c;
            x->k = k;
            for (int s = 0; s < k; s++) {
                int e = perm[(s + r) % k];
                x->entrant[s] = e;
                x->score[s] = round(skill[e] + deal[s] + 30.0 * gauss(&rng));
            }
            for (int s = 0; s < k; s++) {
                int ahead = 0;
                for (int t = 0; t < k; t++)
                    ahead += x->score[t] > x->score[s];
                x->placement[s] = (uint8_t)(ahead + 1);
            }
        }
    }
    free(skill);
    free(perm);
    *out = m;
    return g;
}

int main(int argc, char **argv)
{
    int n = 100, boot = 200, only = 0;
    long long ngames = 100000;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--entrants") == 0)
            n = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--games") == 0)
            ngames = atoll(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--boot") == 0)
            boot = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--only") == 0)
            only = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_rank [--entrants N] [--games G] [--boot B] [--only K]\n");
            return 2;
        }
    }
    if (n < AR_RANK_MAX_SEATS || n > AR_RANK_MAX_ENTRANTS || ngames < 1 || boot < 0) {
        fprintf(stderr, "bench_rank: need %d <= entrants <= %d, games >= 1, boot >= 0\n",
                AR_RANK_MAX_SEATS, AR_RANK_MAX_ENTRANTS);
        return 2;
    }
    const int ks[3] = {2, 4, 8};
    char json[2048];
    size_t jl =
        (size_t)snprintf(json, sizeof json,
                         "{\"entrants\":%d,\"games\":%lld,\"boot\":%d,\"runs\":[", n, ngames, boot);
    printf("%-3s %8s %7s %5s %10s %10s %6s %6s %8s\n", "k", "games", "sets", "B", "wall_s", "cpu_s",
           "iters", "rho", "cpu%");
    int first = 1;
    for (int ki = 0; ki < 3; ki++) {
        int k = ks[ki];
        if (only && only != k)
            continue;
        long long m;
        ar_rank_game *g = simulate(n, k, ngames, 20240 + (uint64_t)k, &m);
        for (int pass = 0; pass < 2; pass++) {
            int b = pass ? boot : 0;
            if (pass && boot == 0)
                continue;
            ar_rank_opts o = {.bootstrap = b, .seed = 1, .prior_games = 1.0};
            ar_rank_result r;
            char err[256];
            double w0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
            int rc = ar_rank_fit(g, m, n, &o, &r, err, sizeof err);
            double w = now_s(CLOCK_MONOTONIC) - w0, c = now_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
            if (rc) {
                fprintf(stderr, "bench_rank: %s\n", err);
                return 1;
            }
            printf("%-3d %8lld %7lld %5d %10.3f %10.3f %6d %6.3f %8.0f\n", k, r.games, r.sets, b, w,
                   c, r.iterations, r.rho, 100.0 * c / w);
            if (jl < sizeof json)
                jl += (size_t)snprintf(json + jl, sizeof json - jl,
                                       "%s{\"k\":%d,\"boot\":%d,\"wall_s\":%.4f,\"cpu_s\":%.4f,"
                                       "\"iterations\":%d,\"rho\":%.4f}",
                                       first ? "" : ",", k, b, w, c, r.iterations, r.rho);
            first = 0;
            ar_rank_free(&r);
        }
        free(g);
    }
    if (jl < sizeof json)
        snprintf(json + jl, sizeof json - jl, "]}");
    printf("%s\n", json);
    return 0;
}
