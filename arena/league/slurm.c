/* slurm.c - a league's sets as Slurm jobs (slurm.h): the run's side (the job folder, the proxy
 * worker that submits and waits) and the node's side (ar_league_slurm_set). */
#include "slurm.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "jail/spawn.h"
#include "league.h"
#include "match/match.h"
#include "match/policy.h"
#include "tour/journal.h"
#include "tour/tourfile.h"
#include "util/util.h"

/* A path (or a line) that may not fit: cut (no path of the league's comes near PATH_MAX). */
static void pathf(char *out, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void pathf(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, cap, fmt, ap);
    va_end(ap);
}

void lg_game_id(char *buf, size_t cap, uint64_t seed, int check, long long set, int rotation)
{
    snprintf(buf, cap, "L%" PRIu64 "-%c%lld-r%d", seed, check ? 'c' : 's', set, rotation);
}

int lg_slurm_init(lg_slurm *S, const char *dir, const char *sbatch, char *const *sb_argv)
{
    memset(S, 0, sizeof *S);
    ssize_t n = readlink("/proc/self/exe", S->self, sizeof S->self - 1);
    if (n <= 0 || (size_t)n >= sizeof S->self - 1) {
        fprintf(stderr, "arena league: runner = slurm: which program am I? (/proc/self/exe: %s)\n",
                n < 0 ? strerror(errno) : "too long");
        return -1;
    }
    S->self[n] = '\0';
    if (!realpath(dir, S->dir)) {
        fprintf(stderr, "arena league: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    S->sbatch = sbatch;
    S->sb_argv = sb_argv;
    snprintf(S->tag, sizeof S->tag, "okrl-%08" PRIx32,
             (uint32_t)ar_fnv1a64(S->dir, strlen(S->dir)));
    char p[PATH_MAX + 8];
    pathf(p, sizeof p, "%s/slurm", S->dir);
    if (ar_mkdir_p(p) < 0) {
        fprintf(stderr, "arena league: cannot make %s: %s\n", p, strerror(errno));
        return -1;
    }
    return 0;
}

void lg_slurm_jobdir(const lg_slurm *S, long long set, char *out, size_t cap)
{
    pathf(out, cap, "%s/slurm/s%lld", S->dir, set);
}

/* Run argv (a program in PATH) to its end: its stdout into out, its stderr into err (each cut
 * to its buffer, NUL-terminated). Returns its wait status, or -1 when it could not start (err
 * says why). */
static int run_cmd(char *const *argv, char *out, size_t ocap, char *err, size_t ecap)
{
    char path[PATH_MAX], why[512];
    out[0] = err[0] = '\0';
    int rc = ar_spawn_resolve(argv[0], path, sizeof path);
    if (rc < 0) {
        snprintf(err, ecap, "%s: %s (is Slurm installed here?)", argv[0], strerror(-rc));
        return -1;
    }
    ar_spawn_opts o = {.path = path, .argv = argv};
    ar_proc p;
    if (ar_spawn_start(&o, &p, why, sizeof why) < 0) {
        snprintf(err, ecap, "%s: %s", argv[0], why);
        return -1;
    }
    close(p.in_fd);
    struct pollfd pf[2] = {{p.out_fd, POLLIN, 0}, {p.err_fd, POLLIN, 0}};
    char *buf[2] = {out, err};
    size_t cap[2] = {ocap, ecap}, len[2] = {0, 0};
    int open_fds = 2;
    while (open_fds > 0) {
        if (poll(pf, 2, 1000) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; i++) {
            if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char tmp[4096];
            ssize_t k = read(pf[i].fd, tmp, sizeof tmp);
            if (k < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            if (k <= 0) {
                close(pf[i].fd);
                pf[i].fd = -1;
                open_fds--;
                continue;
            }
            size_t take = (size_t)k < cap[i] - 1 - len[i] ? (size_t)k : cap[i] - 1 - len[i];
            memcpy(buf[i] + len[i], tmp, take);
            len[i] += take;
            buf[i][len[i]] = '\0';
        }
    }
    for (int i = 0; i < 2; i++)
        if (pf[i].fd >= 0)
            close(pf[i].fd);
    int st = 0;
    while (waitpid(p.pid, &st, 0) < 0 && errno == EINTR)
        ;
    return st;
}

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
        s[--n] = '\0';
}

/* The job's id from its jobid file, or 0. */
static long long read_jobid(const char *jobdir)
{
    char p[PATH_MAX + 16], line[64] = "";
    pathf(p, sizeof p, "%s/jobid", jobdir);
    FILE *f = fopen(p, "r");
    if (!f)
        return 0;
    long long id = fgets(line, sizeof line, f) ? atoll(line) : 0;
    fclose(f);
    return id;
}

int lg_slurm_submitted(const lg_slurm *S, long long set)
{
    char d[PATH_MAX];
    lg_slurm_jobdir(S, set, d, sizeof d);
    return read_jobid(d) > 0;
}

/* Is the job still known to Slurm as pending or running? 1 yes, 0 gone, -1 cannot tell (the
 * controller does not answer: asked again later). */
static int job_alive(long long id)
{
    char ids[32], out[256], err[512];
    pathf(ids, sizeof ids, "%lld", id);
    char *argv[] = {"squeue", "-h", "-j", ids, "-o", "%T", NULL};
    int st = run_cmd(argv, out, sizeof out, err, sizeof err);
    if (st == 0) {
        chomp(out);
        return out[0] != '\0';
    }
    /* a job Slurm has forgotten (past MinJobAge) */
    if (strstr(err, "Invalid job id"))
        return 0;
    return -1;
}

static int write_text(FILE *f, void *ud)
{
    const char *t = ud;
    size_t n = strlen(t);
    return fwrite(t, 1, n, f) == n ? 0 : -EIO;
}

/* s single-quoted for sh. */
static void sh_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

/* ---- The run's side ------------------------------------------------------------------------- */

static json_t *str_array(char *const *v)
{
    if (!v)
        return json_null();
    json_t *a = json_array();
    for (int i = 0; v[i]; i++)
        json_array_append_new(a, json_string(v[i]));
    return a;
}

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

/* job.json: everything the node needs to play the set as a local worker would. */
static char *job_json(const lg_slurm *S, const ar_tour_set_job *job, int check)
{
    const ar_set_plan *p = job->plan;
    int k = job->t->seats;
    json_t *j = json_object();
    json_object_set_new(j, "league", json_string(S->dir));
    json_object_set_new(j, "out", json_string(job->o->out_dir));
    json_object_set_new(j, "check", json_boolean(check));
    json_object_set_new(j, "set", json_integer(p->set));
    json_object_set_new(j, "deal", json_integer(p->deal));
    char seed[32];
    pathf(seed, sizeof seed, "%" PRIu64, p->deal_seed);
    json_object_set_new(j, "deal_seed", json_string(seed));
    json_t *es = json_array();
    for (int i = 0; i < k; i++) {
        const ar_entrant *e = &job->e[i];
        json_t *x = json_object();
        json_object_set_new(x, "id", json_integer(job->id ? job->id[i] : i));
        json_object_set_new(x, "name", json_string(e->name));
        json_object_set_new(x, "command", str_or_null(e->command));
        json_object_set_new(x, "argv", str_array(e->argv));
        json_object_set_new(x, "path", str_or_null(e->path));
        json_object_set_new(x, "builtin", json_boolean(e->builtin));
        json_object_set_new(x, "policy", json_string(ar_policy_name(e->policy)));
        json_object_set_new(x, "profile", str_or_null(e->profile));
        json_object_set_new(x, "memory_mb", json_integer(e->memory_mb));
        json_object_set_new(x, "startup_ms", json_integer(e->startup_ms));
        json_object_set_new(x, "own", str_array(e->own));
        json_object_set_new(x, "cwd", str_or_null(e->cwd));
        json_array_append_new(es, x);
    }
    json_object_set_new(j, "entrants", es);
    json_t *order = json_array();
    for (int i = 0; i < k; i++)
        json_array_append_new(order, json_integer(p->order[i]));
    json_object_set_new(j, "order", order);
    json_t *hs = json_array();
    for (int i = 0; i < job->nhide; i++) {
        json_t *h = json_object();
        json_object_set_new(h, "path", json_string(job->hide[i].path));
        json_object_set_new(h, "what", json_string(job->hide[i].what));
        json_object_set_new(h, "owner", str_or_null(job->hide[i].owner));
        json_array_append_new(hs, h);
    }
    json_object_set_new(j, "hide", hs);
    char *text = json_dumps(j, JSON_INDENT(1) | JSON_ENSURE_ASCII);
    json_decref(j);
    return text;
}

/* job.sh: what the job runs (the user can read it, or run it again by hand). */
static int job_script(FILE *f, void *ud)
{
    const lg_slurm *S = ((const void *const *)ud)[0];
    const char *jobdir = ((const void *const *)ud)[1];
    fputs("#!/bin/sh\n# one set of the league ", f);
    fputs(S->dir, f);
    fputs(" (docs/league.md, runner = slurm)\nexec ", f);
    sh_quote(f, S->self);
    fputs(" league slurm-set ", f);
    sh_quote(f, jobdir);
    for (int i = 0; S->sb_argv && S->sb_argv[i]; i++) {
        fputc(' ', f);
        sh_quote(f, S->sb_argv[i]);
    }
    fputc('\n', f);
    return ferror(f) ? -EIO : 0;
}

typedef struct proxy {
    const lg_slurm *S;
    char jobdir[PATH_MAX];
    long long set;
    int attach;
} proxy;

static volatile sig_atomic_t g_proxy_term;

static void proxy_term(int sig)
{
    (void)sig;
    g_proxy_term = 1;
}

/* Stream the job's games file on fd 3, as a set worker's lines. 0, or -1 if it is not there. */
static int send_games(const char *jobdir)
{
    char p[PATH_MAX + 16];
    pathf(p, sizeof p, "%s/games", jobdir);
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        for (ssize_t off = 0; off < n;) {
            ssize_t w = write(3, buf + off, (size_t)(n - off));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                _exit(1); /* the run is gone */
            off += w;
        }
    close(fd);
    return 0;
}

/* The last line of the job's log, for the message of a job that ended without its games. */
static void log_tail(const char *jobdir, char *out, size_t cap)
{
    char p[PATH_MAX + 16], line[512];
    pathf(p, sizeof p, "%s/slurm.log", jobdir);
    out[0] = '\0';
    FILE *f = fopen(p, "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f))
        if (line[0] != '\n')
            pathf(out, cap, "%s", line);
    fclose(f);
    chomp(out);
}

static void proxy_main(void *arg)
{
    proxy *x = arg;
    const lg_slurm *S = x->S;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = proxy_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    /* Ctrl-C at a terminal reaches the whole process group: the run lets the sets in flight
     * finish, so their proxies wait on (the run's second Ctrl-C sends SIGTERM: cancelled) */
    signal(SIGINT, SIG_IGN);
    long long id = 0;
    char out[512], err[1024];
    if (x->attach) {
        id = read_jobid(x->jobdir);
    } else {
        char script[PATH_MAX + 16], log[PATH_MAX + 16], name[64], outopt[PATH_MAX + 32],
            chdir[PATH_MAX + 16];
        pathf(script, sizeof script, "%s/job.sh", x->jobdir);
        pathf(log, sizeof log, "%s/slurm.log", x->jobdir);
        pathf(name, sizeof name, "--job-name=%s-s%lld", S->tag, x->set);
        pathf(outopt, sizeof outopt, "--output=%s", log);
        pathf(chdir, sizeof chdir, "--chdir=%s", x->jobdir);
        char **extra = NULL;
        int nextra = 0;
        if (S->sbatch && S->sbatch[0] &&
            ar_spawn_split(S->sbatch, &extra, &nextra, err, sizeof err) < 0) {
            fprintf(stderr, "arena league: sbatch = %s: %s\n", S->sbatch, err);
            _exit(1);
        }
        char **argv = ar_xcalloc((size_t)nextra + 8, sizeof *argv);
        int n = 0;
        argv[n++] = "sbatch";
        argv[n++] = "--parsable";
        argv[n++] = name;
        argv[n++] = outopt;
        argv[n++] = chdir;
        for (int i = 0; i < nextra; i++)
            argv[n++] = extra[i];
        argv[n++] = script;
        int st = run_cmd(argv, out, sizeof out, err, sizeof err);
        chomp(err);
        id = st == 0 ? atoll(out) : 0;
        if (id <= 0) {
            fprintf(stderr, "arena league: set %lld: sbatch failed: %s\n", x->set,
                    err[0] ? err : "no job id");
            _exit(1);
        }
        char p[PATH_MAX + 16], text[32];
        pathf(p, sizeof p, "%s/jobid", x->jobdir);
        pathf(text, sizeof text, "%lld\n", id);
        if (ar_file_replace(p, write_text, text) < 0) {
            fprintf(stderr, "arena league: set %lld: cannot write %s\n", x->set, p);
            char ids[32];
            pathf(ids, sizeof ids, "%lld", id);
            char *cancel[] = {"scancel", ids, NULL};
            run_cmd(cancel, out, sizeof out, err, sizeof err);
            _exit(1);
        }
    }
    if (id <= 0)
        _exit(1);
    /* the games file is the job's last act: look for it often, ask Slurm now and then */
    double next_ask = ar_now_ms() + 1000;
    for (;;) {
        if (g_proxy_term) {
            char ids[32];
            pathf(ids, sizeof ids, "%lld", id);
            char *cancel[] = {"scancel", ids, NULL};
            run_cmd(cancel, out, sizeof out, err, sizeof err);
            _exit(1);
        }
        if (send_games(x->jobdir) == 0)
            _exit(0);
        if (ar_now_ms() >= next_ask) {
            int alive = job_alive(id);
            next_ask = ar_now_ms() + 2000;
            /* gone: the file may have come just before it left, and a network filesystem
             * may show it to this machine some seconds after the node wrote it */
            if (alive == 0) {
                for (int i = 0; i < 50; i++) {
                    if (send_games(x->jobdir) == 0)
                        _exit(0);
                    struct timespec ts = {0, 200 * 1000000L};
                    nanosleep(&ts, NULL);
                }
                char tail[400];
                log_tail(x->jobdir, tail, sizeof tail);
                fprintf(stderr,
                        "arena league: set %lld: Slurm job %lld ended without its games (log: "
                        "%s/slurm.log%s%s)\n",
                        x->set, id, x->jobdir, tail[0] ? ": " : "", tail);
                _exit(1);
            }
        }
        struct timespec ts = {0, 200 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

int lg_slurm_start(const lg_slurm *S, const ar_tour_set_job *job, int check, int attach,
                   ar_tour_set_proc *w)
{
    int k = job->t->seats;
    static proxy x; /* read by the forked proxy only, at its start */
    memset(&x, 0, sizeof x);
    x.S = S;
    x.set = job->plan->set;
    x.attach = attach;
    lg_slurm_jobdir(S, x.set, x.jobdir, sizeof x.jobdir);
    if (!attach) {
        ar_rm_tree(x.jobdir); /* a set number is never used twice: left from nothing we count */
        if (ar_mkdir_p(x.jobdir) < 0) {
            fprintf(stderr, "arena league: cannot make %s: %s\n", x.jobdir, strerror(errno));
            return -1;
        }
        char p[PATH_MAX + 16];
        char *text = job_json(S, job, check);
        pathf(p, sizeof p, "%s/job.json", x.jobdir);
        int rc = ar_file_replace(p, write_text, text);
        free(text);
        const void *ud[2] = {S, x.jobdir};
        pathf(p, sizeof p, "%s/job.sh", x.jobdir);
        if (rc < 0 || ar_file_replace(p, job_script, (void *)ud) < 0 || chmod(p, 0755) < 0) {
            fprintf(stderr, "arena league: cannot write the job of set %lld into %s\n", x.set,
                    x.jobdir);
            return -1;
        }
    }
    int pp[2];
    if (pipe2(pp, O_CLOEXEC) < 0) {
        fprintf(stderr, "arena league: pipe2: %s\n", strerror(errno));
        return -1;
    }
    pid_t pid = ar_spawn_worker(proxy_main, &x, pp[1]);
    close(pp[1]);
    if (pid < 0) {
        close(pp[0]);
        fprintf(stderr, "arena league: fork: %s\n", strerror((int)-pid));
        return -1;
    }
    memset(w, 0, sizeof *w);
    w->pid = pid;
    w->fd = pp[0];
    w->set = x.set;
    w->k = k;
    w->games = ar_xcalloc((size_t)k, sizeof *w->games);
    return 0;
}

void lg_slurm_cancel(const lg_slurm *S, long long set)
{
    char d[PATH_MAX], out[512], err[1024], arg[96];
    lg_slurm_jobdir(S, set, d, sizeof d);
    long long id = read_jobid(d);
    if (id > 0)
        pathf(arg, sizeof arg, "%lld", id);
    else
        pathf(arg, sizeof arg, "--name=%s-s%lld", S->tag, set); /* killed before its id */
    char *cancel[] = {"scancel", arg, NULL};
    run_cmd(cancel, out, sizeof out, err, sizeof err);
    if (id <= 0)
        return; /* by name: nothing to wait on by id; its records are removed afterwards */
    for (int i = 0; i < 240 && job_alive(id) != 0; i++) {
        struct timespec ts = {0, 250 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* ---- The node's side ------------------------------------------------------------------------ */

static char **argv_of(const json_t *a)
{
    if (!json_is_array(a))
        return NULL;
    size_t n = json_array_size(a);
    char **v = ar_xcalloc(n + 1, sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = ar_xstrdup(
            json_string_value(json_array_get(a, i)) ? json_string_value(json_array_get(a, i)) : "");
    return v;
}

typedef struct node_ud {
    uint64_t seed;
    int check;
} node_ud;

static void node_game_id(char *buf, size_t cap, const ar_set_plan *p, int rotation, void *ud)
{
    const node_ud *u = ud;
    lg_game_id(buf, cap, u->seed, u->check, p->set, rotation);
}

int ar_league_slurm_set(const char *jobdir, const ar_league_run_opts *o)
{
    char p[PATH_MAX + 16], err[1024];
    pathf(p, sizeof p, "%s/job.json", jobdir);
    json_error_t je;
    json_t *j = json_load_file(p, 0, &je);
    if (!j) {
        fprintf(stderr, "arena league slurm-set: %s: %s\n", p, je.text);
        return AR_EXIT_USAGE;
    }
    const char *dir = json_string_value(json_object_get(j, "league"));
    const char *out = json_string_value(json_object_get(j, "out"));
    const json_t *es = json_object_get(j, "entrants"), *hs = json_object_get(j, "hide");
    ar_tour t;
    memset(&t, 0, sizeof t);
    char ini[PATH_MAX + 16];
    pathf(ini, sizeof ini, "%s/league.ini", dir ? dir : ".");
    int status = AR_EXIT_USAGE;
    if (!dir || !out || !json_is_array(es) || !json_is_array(hs)) {
        fprintf(stderr, "arena league slurm-set: %s: not a set's job\n", p);
        json_decref(j);
        return AR_EXIT_USAGE;
    }
    if (ar_tour_load_league(ini, &t, err, sizeof err) < 0) {
        fprintf(stderr, "arena league slurm-set: %s\n", err);
        json_decref(j);
        return AR_EXIT_USAGE;
    }
    int k = t.seats;
    size_t nh = json_array_size(hs);
    ar_entrant bots[AR_SCHED_MAX_SEATS];
    int ids[AR_SCHED_MAX_SEATS];
    char **argvs[AR_SCHED_MAX_SEATS] = {0}, **owns[AR_SCHED_MAX_SEATS] = {0};
    ar_hidden *hide = ar_xcalloc(nh + 1, sizeof *hide);
    ar_set_plan plan;
    memset(&plan, 0, sizeof plan);
    ar_tour_set_proc w;
    memset(&w, 0, sizeof w);
    w.pid = -1;
    if ((int)json_array_size(es) != k) {
        fprintf(stderr, "arena league slurm-set: %s: %zu entrants for %d seats\n", p,
                json_array_size(es), k);
        goto out;
    }
    for (int i = 0; i < k; i++) {
        const json_t *x = json_array_get(es, (size_t)i);
        ar_entrant *e = &bots[i];
        memset(e, 0, sizeof *e);
        ids[i] = (int)json_integer_value(json_object_get(x, "id"));
        e->name = json_string_value(json_object_get(x, "name"));
        e->command = json_string_value(json_object_get(x, "command"));
        e->path = json_string_value(json_object_get(x, "path"));
        e->builtin = json_is_true(json_object_get(x, "builtin"));
        e->profile = json_string_value(json_object_get(x, "profile"));
        e->memory_mb = (uint32_t)json_integer_value(json_object_get(x, "memory_mb"));
        e->startup_ms = (uint32_t)json_integer_value(json_object_get(x, "startup_ms"));
        e->cwd = json_string_value(json_object_get(x, "cwd"));
        e->argv = argvs[i] = argv_of(json_object_get(x, "argv"));
        e->own = owns[i] = argv_of(json_object_get(x, "own"));
        const char *pol = json_string_value(json_object_get(x, "policy"));
        if (!e->name || (e->builtin ? !pol || ar_policy_from_name(pol, &e->policy) < 0
                                    : !e->argv || !e->path)) {
            fprintf(stderr, "arena league slurm-set: %s: entrant %d is not whole\n", p, i);
            goto out;
        }
        plan.order[i] =
            (int)json_integer_value(json_array_get(json_object_get(j, "order"), (size_t)i));
        if (plan.order[i] < 0 || plan.order[i] >= k) {
            fprintf(stderr, "arena league slurm-set: %s: a bad seat order\n", p);
            goto out;
        }
    }
    for (size_t i = 0; i < nh; i++) {
        const json_t *h = json_array_get(hs, i);
        hide[i].path = json_string_value(json_object_get(h, "path"));
        hide[i].what = json_string_value(json_object_get(h, "what"));
        hide[i].owner = json_string_value(json_object_get(h, "owner"));
        if (!hide[i].path || !hide[i].what) {
            fprintf(stderr, "arena league slurm-set: %s: a bad hidden path\n", p);
            goto out;
        }
    }
    plan.set = json_integer_value(json_object_get(j, "set"));
    plan.deal = json_integer_value(json_object_get(j, "deal"));
    const char *ds = json_string_value(json_object_get(j, "deal_seed"));
    plan.deal_seed = ds ? strtoull(ds, NULL, 10) : 0;
    node_ud ud = {t.seed, json_is_true(json_object_get(j, "check"))};
    /* the plan must be the league's own deal: a job file cannot pick another */
    if (plan.set <= 0 || plan.deal != plan.set ||
        plan.deal_seed != ar_match_deal_seed(t.seed, plan.set)) {
        fprintf(stderr, "arena league slurm-set: %s: the set's deal is not the league's\n", p);
        goto out;
    }
    ar_tour_run_opts ro = {
        .out_dir = out, .jobs = 1, .quiet = 1, .sandbox = o->sandbox, .stdout_cap = o->stdout_cap};
    ar_tour_set_job job = {.t = &t,
                           .o = &ro,
                           .e = bots,
                           .id = ids,
                           .plan = &plan,
                           .hide = hide,
                           .nhide = (int)nh,
                           .game_id = node_game_id,
                           .ud = &ud};
    status = AR_EXIT_FAIL;
    if (ar_tour_set_start(&job, &w) < 0)
        goto out;
    while (ar_tour_set_read(&w) != 0)
        ;
    int st = ar_tour_set_reap(&w);
    close(w.fd);
    int whole = ar_tour_set_whole(&w, st);
    /* the games, then the marker: games.tmp renamed to games once written and synced */
    char tmp[PATH_MAX + 16], fin[PATH_MAX + 16];
    pathf(tmp, sizeof tmp, "%s/games.tmp", jobdir);
    pathf(fin, sizeof fin, "%s/games", jobdir);
    FILE *f = fopen(tmp, "w");
    int ok = f != NULL;
    for (int r = 0; ok && r < k; r++)
        if (w.games[r])
            ok = fprintf(f, "G %s\n", w.games[r]) > 0;
    if (f) {
        ok = fflush(f) == 0 && fsync(fileno(f)) == 0 && ok;
        ok = fclose(f) == 0 && ok;
    }
    if (!ok || rename(tmp, fin) < 0) {
        fprintf(stderr, "arena league slurm-set: cannot write %s: %s\n", fin, strerror(errno));
        goto out;
    }
    fprintf(stderr, "arena league slurm-set: set %lld: %d of %d games%s\n", plan.set, w.ngames, k,
            whole ? "" : " (not whole: the league does not count it)");
    status = whole ? AR_EXIT_OK : AR_EXIT_FAIL;
out:
    ar_tour_set_reset(&w);
    for (int i = 0; i < k && i < AR_SCHED_MAX_SEATS; i++) {
        ar_spawn_argv_free(argvs[i]);
        ar_spawn_argv_free(owns[i]);
    }
    free(hide);
    ar_tour_free(&t);
    json_decref(j);
    return status;
}
