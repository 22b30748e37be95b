/* policy.h - built-in move policies for in-process play (arena selfplay), and the small
 * seeded generator they use. Nothing here does I/O. */
#ifndef AR_POLICY_H
#define AR_POLICY_H

#include <stdint.h>

#include "okr/okr.h"

/* splitmix64: a tiny, well-mixed 64-bit generator. The state is a plain value; the same
 * seed gives the same sequence on every machine. Never rand(). */
typedef struct ar_rng {
    uint64_t state;
} ar_rng;

void ar_rng_seed(ar_rng *rng, uint64_t seed);
uint64_t ar_rng_next(ar_rng *rng);
/* Uniform in [0, n) without modulo bias; n >= 1. */
uint32_t ar_rng_below(ar_rng *rng, uint32_t n);

typedef enum ar_policy {
    AR_POLICY_RANDOM = 0, /* uniform over the legal actions */
    AR_POLICY_GREEDY = 1  /* deterministic heuristic, see policy.c */
} ar_policy;

/* "random" / "greedy" -> *out; returns 0, or -1 for an unknown name. */
int ar_policy_from_name(const char *name, ar_policy *out);
const char *ar_policy_name(ar_policy p);
/* A space-separated list of the names, for usage messages. */
const char *ar_policy_names(void);

/* Pick one of acts[0..n) (n >= 1, the list okr_legal gave for g->to_act) and return its
 * index. The policy reads only what the acting seat may know: its own hand, the table and
 * the rules. */
int ar_policy_choose(ar_policy p, const okr_game *g, const okr_action *acts, int n, ar_rng *rng);

#endif
