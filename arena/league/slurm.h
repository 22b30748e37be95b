/* slurm.h - a league's sets as Slurm jobs (`runner = slurm`, docs/league.md). Private to the
 * league room.
 *
 * The run writes each set's job into DIR/slurm/s<SET>/ (job.json: the set's plan, its
 * entrants as the match wants them and what no bot may see; job.sh: the command the job runs)
 * and starts a proxy worker in place of the local set worker. The proxy submits job.sh with
 * sbatch, waits for the job (squeue) and, once the job has written its games file, streams it
 * on its pipe: the run takes the set in through the very path of a local set (the worker's
 * "G <payload>" lines, ar_tour_set_read / ar_tour_set_whole, one transaction per set).
 *
 * On the node, `arena league slurm-set DIR/slurm/s<SET>` (ar_league_slurm_set) plays the set
 * with the tournament's set worker into DIR (records/, logs/) as a local set would, and
 * writes games.tmp, renamed to games when the set is over: the job's done marker. It never
 * opens league.db (SQLite's WAL needs one machine's shared memory). */
#ifndef AR_LEAGUE_SLURM_H
#define AR_LEAGUE_SLURM_H

#include <limits.h>
#include <stdint.h>

#include "tour/tournament.h"

typedef struct lg_slurm {
    char self[PATH_MAX];  /* the arena's program, which the jobs run */
    char dir[PATH_MAX];   /* the league's folder, absolute (the nodes see it at this path) */
    const char *sbatch;   /* the file's `sbatch =` options (a command string), or NULL */
    char *const *sb_argv; /* the run's sandbox flags, passed on to the jobs; NULL: none */
    char tag[24];         /* okrl-<hash of dir>: the jobs' names start with it */
} lg_slurm;

/* Fill S for the league in dir. 0, or -1 after printing why. */
int lg_slurm_init(lg_slurm *S, const char *dir, const char *sbatch, char *const *sb_argv);

/* DIR/slurm/s<set> into out. */
void lg_slurm_jobdir(const lg_slurm *S, long long set, char *out, size_t cap);

/* Start set job->plan->set as a Slurm job: with attach 0 write its job folder and submit it;
 * with attach 1 wait for the job a killed run submitted (its jobid file). w is filled as
 * ar_tour_set_start fills it. 0, or -1 after printing why. */
int lg_slurm_start(const lg_slurm *S, const ar_tour_set_job *job, int check, int attach,
                   ar_tour_set_proc *w);

/* Is set's job known to Slurm (its jobid file written)? */
int lg_slurm_submitted(const lg_slurm *S, long long set);

/* A set a killed run left: cancel its job (by id, else by name) and wait, at most 60 s, until
 * Slurm has stopped it, so that nothing of it lands in the folder after its records are
 * removed. */
void lg_slurm_cancel(const lg_slurm *S, long long set);

/* A game's id: L<seed>-s<set>-r<rotation>, a check's L<seed>-c<set>-r<rotation>. */
void lg_game_id(char *buf, size_t cap, uint64_t seed, int check, long long set, int rotation);

#endif
