/* match.c - the match driver. Synchronous on top of an asynchronous loop: the driver asks one
 * bot at a time and runs the loop until that bot answers, fails or times out, while every
 * other pipe (writes to idle bots, their stderr, crashes) is served by the same loop.
 * Game flow per bot: GameStart; Events (batched per seat) before each Decision and at each hand
 * end; Decision -> Choice (or Refused); HandEnd; GameEnd; Bye at the end of the match. */
#include "match.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <event2/event.h>

#include "codec.h"
#include "jail/cgroup.h"
#include "jail/sandbox.h"
#include "jail/seccomp.h"
#include "jail/spawn.h"
#include "json_out.h"
#include "util/util.h"

/* ---- Schedule ------------------------------------------------------------------------------- */

uint64_t ar_match_deal_seed(uint64_t seed, long long deal)
{
    ar_rng rng;
    ar_rng_seed(&rng, seed + (uint64_t)deal);
    return ar_rng_next(&rng);
}

int ar_match_seat_slot(int seat, int rotation, int players)
{
    return (seat + rotation) % players;
}

long long ar_match_deals(long long games, int players)
{
    return (games + players - 1) / players;
}

/* Whether the overrides set option `name` ("name=value", "name = value"). */
static int rule_given(const char *const *set, int nset, const char *name)
{
    size_t len = strlen(name);
    int given = 0;
    for (int i = 0; i < nset; i++) {
        const char *p = set[i];
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, name, len) != 0)
            continue;
        p += len;
        while (*p == ' ' || *p == '\t')
            p++;
        given |= *p == '=';
    }
    return given;
}

static int duplicate_refusal(okr_refusal *why, const char *rule, const char *reason)
{
    snprintf(why->rule, sizeof why->rule, "%s", rule);
    snprintf(why->reason, sizeof why->reason, "%s", reason);
    return -EINVAL;
}

int ar_match_duplicate_rules(okr_rules *r, const char *const *set, int nset, long long hands,
                             okr_refusal *why)
{
    memset(why, 0, sizeof *why);
    if (!rule_given(set, nset, "dealer"))
        r->dealer = OKR_DEALER_ROTATE;
    if (!rule_given(set, nset, "stock")) /* seat i's k-th stock card in every rotation */
        r->stock = OKR_STOCK_STREAMS;
    if (hands <= 0)
        return 0;
    if (hands > AR_MATCH_MAX_HANDS)
        return duplicate_refusal(why, "7.7", "hands: at most 1000 hands per game");
    if (r->dealer != OKR_DEALER_ROTATE)
        return duplicate_refusal(why, "2.3",
                                 "dealer: hands are scored hand by hand across the seat "
                                 "rotations, which needs dealer=rotate");
    /* the options a fixed number of hands replaces, with the rule each one comes from */
    static const char *const replaced[][2] = {
        {"target", "7.4"}, {"max_hands", "7.7"}, {"winner_bonus", "7.4"}, {"settlement", "7.6"}};
    for (size_t i = 0; i < sizeof replaced / sizeof replaced[0]; i++)
        if (rule_given(set, nset, replaced[i][0])) {
            char msg[120];
            snprintf(msg, sizeof msg,
                     "%s: does not apply to a fixed number of hands (a game is the sum of its "
                     "hands)",
                     replaced[i][0]);
            return duplicate_refusal(why, replaced[i][1], msg);
        }
    r->target = 0;
    r->max_hands = (uint16_t)hands;
    r->winner_bonus = 0;
    r->settlement = 0;
    return 0;
}

void ar_match_game_id(char *buf, size_t cap, uint64_t seed, long long deal, int rotation)
{
    snprintf(buf, cap, "m%llu-d%lld-r%d", (unsigned long long)seed, deal, rotation);
}

/* ---- State ---------------------------------------------------------------------------------- */

/* One process slot (or a built-in). Slot k plays seat (k - r) mod N in rotation r. */
typedef struct slot {
    int bot;       /* entrant index */
    ar_bot *b;     /* NULL for a built-in */
    FILE *log;     /* DIR/logs/slot<k>-<name>.log, or NULL */
    char *log_rel; /* that path relative to DIR ("logs/s3-slot0-x.log"), or NULL */
    ar_rng rng;    /* built-in policy */
    long long answered;
    int nverdicts;
    ar_verdict first;
    double *lat; /* answered Decision times (ms) */
    long long nlat, caplat;
    double ready_sum; /* spawn-to-Ready times of its processes, ms */
    int ready_n;      /* ... how many */
    int ready_seen;   /* b->starts when last counted */
} slot;

/* Per-seat event queue: what the seat has not been told yet (okr_event_redact copies). */
typedef struct evq {
    okr_event *ev;
    int n, cap;
} evq;

/* The game being played. */
typedef struct game {
    char id[96];
    long long deal;
    int rotation;
    uint64_t deal_seed;
    okr_game g;
    int seat_slot[OKR_MAX_PLAYERS];
    int entrant[OKR_MAX_PLAYERS];
    uint32_t bank[OKR_MAX_PLAYERS]; /* bank left, ms */
    int subst[OKR_MAX_PLAYERS];     /* seat's moves are substituted for the rest of the game */
    const char *sub_why[OKR_MAX_PLAYERS]; /* verdict name recorded with substituted moves */
    unsigned forfeits;
    evq q[OKR_MAX_PLAYERS];
    ar_seat_verdict *verdicts;
    int nverdicts, capverdicts;
    int32_t (*hand_scores)[OKR_MAX_PLAYERS];
    int nhands, caphands;
    long long actions;
    ar_rng sub_rng;
    ar_record *rec;
    double t0;
    double cpu0[OKR_MAX_PLAYERS];
    ar_game_outcome out;
} game;

struct ar_match {
    ar_match_config cfg;
    ar_loop *loop;
    struct event *tick;  /* a short timer for waits no bot clock covers */
    struct event *flush; /* writes out a live record's buffer (ar_record_sync) */
    slot *slots;         /* [players] */
    int *dq;             /* [nbots]: disqualified */
    long long *dq_after;
    ar_results *res;
    okrpb_arena *pa;
    okr_action *acts;      /* OKR_MAX_ACTIONS */
    Okrpb__Action **legal; /* pointers for a Decision */
    Okrpb__Event **evp;    /* pointers for an Events */
    int caplegal, capevp;
    uint64_t next_id; /* last Decision id (decision_id) */
    double handed_at; /* ar_now_ms() when the last Decision was handed to a bot (pace) */
    game gm;
    long long games_done;
    int stopping; /* check-bot: the bot erred, stop now */
    int enough;   /* check-bot: enough decisions, stop after this game */
    ar_match_totals totals;
    ar_bot_summary *summaries;
    char *logs_dir;
    /* compiled seccomp filters, one per profile in use */
    char *prof_name[8];
    ar_bpf prof_bpf[8];
    int nprof;
};

/* ---- Small helpers --------------------------------------------------------------------------- */

static void on_tick(evutil_socket_t fd, short what, void *ud)
{
    (void)fd;
    (void)what;
    (void)ud;
}

static void on_flush(evutil_socket_t fd, short what, void *ud)
{
    (void)fd;
    (void)what;
    ar_record_sync(((ar_match *)ud)->gm.rec); /* NULL once the game is closed: nothing */
}

/* One loop iteration that returns after at most ms even if nothing happens. */
static void loop_wait(ar_match *m, double ms)
{
    struct timeval tv = {(time_t)(ms / 1000), (suseconds_t)(fmod(ms, 1000.0) * 1000)};
    evtimer_add(m->tick, &tv);
    ar_loop_once(m->loop);
    evtimer_del(m->tick);
}

static const char *bot_name(const ar_match *m, int b)
{
    return m->cfg.bots[b].name;
}

static void say(const ar_match *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const ar_match *m, const char *fmt, ...)
{
    if (m->cfg.quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

static void reset_pa(ar_match *m)
{
    okrpb_arena_reset(m->pa);
}

/* ---- Setup ----------------------------------------------------------------------------------- */

void ar_match_log_name(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    for (; *s && k + 1 < cap; s++) {
        char c = *s;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '-' || c == '_' || c == '.';
        out[k++] = ok ? c : '_';
    }
    out[k] = '\0';
}

ar_match *ar_match_new(const ar_match_config *cfg)
{
    ar_match *m = ar_xcalloc(1, sizeof *m);
    m->cfg = *cfg;
    if (m->cfg.dq_min_games <= 0)
        m->cfg.dq_min_games = 4;
    if (!m->cfg.bye_ms)
        m->cfg.bye_ms = 1000;
    m->slots = ar_xcalloc((size_t)cfg->players, sizeof *m->slots);
    for (int k = 0; k < cfg->players; k++)
        m->slots[k].bot = cfg->slot_bot ? cfg->slot_bot[k] : k % cfg->nbots;
    m->dq = ar_xcalloc((size_t)cfg->nbots, sizeof *m->dq);
    m->dq_after = ar_xcalloc((size_t)cfg->nbots, sizeof *m->dq_after);
    m->summaries = ar_xcalloc((size_t)cfg->nbots, sizeof *m->summaries);
    m->pa = okrpb_arena_new();
    m->acts = ar_xmalloc((size_t)OKR_MAX_ACTIONS * sizeof *m->acts);
    if (!m->pa)
        ar_xmalloc((size_t)-1);
    return m;
}

void ar_match_free(ar_match *m)
{
    if (!m)
        return;
    for (int k = 0; k < m->cfg.players; k++) {
        ar_bot_free(m->slots[k].b);
        if (m->slots[k].log)
            fclose(m->slots[k].log);
        free(m->slots[k].log_rel);
        free(m->slots[k].lat);
    }
    for (int s = 0; s < OKR_MAX_PLAYERS; s++)
        free(m->gm.q[s].ev);
    free(m->gm.verdicts);
    free(m->gm.hand_scores);
    if (m->tick)
        event_free(m->tick);
    if (m->flush)
        event_free(m->flush);
    if (!m->cfg.loop)
        ar_loop_free(m->loop);
    ar_results_free(m->res);
    okrpb_arena_free(m->pa);
    free(m->acts);
    free(m->legal);
    free(m->evp);
    free(m->slots);
    free(m->dq);
    free(m->dq_after);
    free(m->summaries);
    free(m->logs_dir);
    for (int i = 0; i < m->nprof; i++) {
        free(m->prof_name[i]);
        ar_bpf_free(&m->prof_bpf[i]);
    }
    free(m);
}

static int open_logs(ar_match *m)
{
    if (!m->cfg.out_dir || m->cfg.log_cap == 0)
        return 0;
    size_t n = strlen(m->cfg.out_dir) + 16;
    m->logs_dir = ar_xmalloc(n);
    snprintf(m->logs_dir, n, "%s/logs", m->cfg.out_dir);
    int rc = ar_mkdir_p(m->logs_dir);
    if (rc < 0) {
        fprintf(stderr, "arena: --out: cannot create '%s': %s\n", m->logs_dir, strerror(-rc));
        return rc;
    }
    for (int k = 0; k < m->cfg.players; k++) {
        const ar_entrant *e = &m->cfg.bots[m->slots[k].bot];
        if (e->builtin)
            continue;
        char safe[128], path[4096];
        ar_match_log_name(e->name, safe, sizeof safe);
        snprintf(path, sizeof path, "%s/%sslot%d-%s.log", m->logs_dir,
                 m->cfg.log_prefix ? m->cfg.log_prefix : "", k, safe);
        size_t rl = strlen(path) - strlen(m->cfg.out_dir); /* "/logs/..." */
        m->slots[k].log_rel = ar_xstrdup(path + strlen(m->cfg.out_dir) + (rl > 0));
        m->slots[k].log = fopen(path, "w");
        if (!m->slots[k].log) {
            rc = -errno;
            fprintf(stderr, "arena: cannot write '%s': %s\n", path, strerror(errno));
            return rc;
        }
        setvbuf(m->slots[k].log, NULL, _IOLBF, 0);
    }
    return 0;
}

const char *ar_match_profile(const ar_entrant *e)
{
    if (e->builtin || e->connect)
        return "";
    return e->profile && e->profile[0] ? e->profile : ar_seccomp_auto(e->path);
}

/* The compiled filter of a profile (compiled once per match, in the parent). NULL after
 * printing why when it cannot be built. */
static const ar_bpf *profile_filter(ar_match *m, const char *profile)
{
    for (int i = 0; i < m->nprof; i++)
        if (strcmp(m->prof_name[i], profile) == 0)
            return &m->prof_bpf[i];
    if (m->nprof == (int)(sizeof m->prof_name / sizeof m->prof_name[0])) {
        fprintf(stderr, "arena: too many seccomp profiles in one match\n");
        return NULL;
    }
    char err[256] = "";
    ar_bpf *f = &m->prof_bpf[m->nprof];
    int rc = ar_seccomp_build(profile, f, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "arena: seccomp profile '%s': %s\n", profile, err[0] ? err : strerror(-rc));
        return NULL;
    }
    m->prof_name[m->nprof++] = ar_xstrdup(profile);
    return f;
}

/* The program a sandboxed bot runs: a bare name is looked up in the jail's PATH (only the
 * system's folders exist there), not in the arena's (where it may be a pyenv shim). */
const char *ar_match_jail_program(const ar_entrant *e, char *buf, size_t cap)
{
    if (!e->argv || strchr(e->argv[0], '/'))
        return e->path;
    return ar_spawn_resolve_in(e->argv[0], AR_JAIL_PATH, buf, cap) == 0 ? buf : e->path;
}

static int in_list(char *const *l, const char *s)
{
    for (int i = 0; l && l[i]; i++)
        if (strcmp(l[i], s) == 0)
            return 1;
    return 0;
}

/* Two NULL-terminated lists that grow together. */
typedef struct hidelist {
    char **path, **what;
    int n;
} hidelist;

static void hide_push(hidelist *l, const char *path, const char *what)
{
    l->path = ar_xrealloc(l->path, (size_t)(l->n + 2) * sizeof *l->path);
    l->what = ar_xrealloc(l->what, (size_t)(l->n + 2) * sizeof *l->what);
    l->path[l->n] = ar_xstrdup(path);
    l->what[l->n++] = ar_xstrdup(what);
    l->path[l->n] = l->what[l->n] = NULL;
}

static ar_jail_view view_of(const ar_match_config *cfg, const ar_entrant *e, char *prog, size_t cap)
{
    ar_jail_view v = {.path = ar_match_jail_program(e, prog, cap),
                      .argv = e->argv,
                      .cwd = e->cwd,
                      .own = e->own,
                      .extra = cfg->sandbox.binds,
                      .runtime = strcmp(ar_match_profile(e), "interpreted") == 0};
    return v;
}

char **ar_match_own(const ar_match_config *cfg, int bot)
{
    const ar_entrant *e = &cfg->bots[bot];
    if (e->builtin || e->connect)
        return ar_xcalloc(1, sizeof(char *));
    char prog[PATH_MAX];
    ar_jail_view v = view_of(cfg, e, prog, sizeof prog);
    return ar_spawn_jail_own(&v);
}

static char **view_check(const ar_match_config *cfg, int bot, char *msg, size_t cap,
                         ar_jail_clash *clash, int deep)
{
    const ar_entrant *e = &cfg->bots[bot];
    if (e->builtin || e->connect || cfg->sandbox.mode < AR_SB_ROOTLESS)
        return ar_xcalloc(1, sizeof(char *));
    char prog[PATH_MAX];
    ar_jail_view v = view_of(cfg, e, prog, sizeof prog);
    char **mine = ar_match_own(cfg, bot);
    /* what must stay hidden (hl.path), and what each is (hl.what, for the message) */
    hidelist hl = {0};
    if (cfg->out_dir)
        hide_push(&hl, cfg->out_dir, "the output folder (records hold whole deals)");
    for (int i = 0; i < cfg->nhide; i++) {
        const ar_hidden *h = &cfg->hide[i];
        if (h->owner && (strcmp(h->owner, e->name) == 0 || in_list(mine, h->path)))
            continue; /* its own, or a file it shares with that entrant (the same script) */
        hide_push(&hl, h->path, h->what);
    }
    for (int j = 0; j < cfg->nbots; j++) {
        const ar_entrant *o = &cfg->bots[j];
        if (j == bot || o->builtin || o->connect || strcmp(o->name, e->name) == 0)
            continue;
        char **theirs = ar_match_own(cfg, j), label[300];
        snprintf(label, sizeof label, "the files of entrant %s", o->name);
        for (int k = 0; theirs[k]; k++)
            if (!in_list(mine, theirs[k]))
                hide_push(&hl, theirs[k], label);
        ar_spawn_argv_free(theirs);
    }
    char **hide = hl.path, **what = hl.what;
    v.hide = hide;
    v.deep = deep;
    ar_jail_clash c;
    memset(&c, 0, sizeof c);
    char **binds = ar_spawn_jail_view(&v, &c);
    if (!binds && clash)
        *clash = c;
    struct stat st;
    const char *kind =
        !binds && c.kind == AR_SHOW_OWN && stat(c.shown, &st) == 0 && !S_ISDIR(st.st_mode)
            ? "declared file"
            : ar_spawn_show_kind(binds ? 0 : c.kind);
    static const char keep[] =
        "Keep each bot's files in a folder of its own, apart from the output folder, the .tour "
        "file and the other bots, and declare only that folder (--files DIR after its --bot; "
        "files = DIR in a .tour)";
    if (!binds && c.why == AR_CLASH_MOUNT)
        snprintf(msg, cap,
                 "its %s %s holds a mount point, %s: the jail would show whatever is mounted "
                 "there (a mount can show any folder, the .tour file's too). Unmount it, or "
                 "declare a folder that holds no mount point",
                 kind, c.shown, c.inside);
    else if (!binds && c.why == AR_CLASH_LINK && c.hide >= 0)
        snprintf(msg, cap,
                 "its %s %s holds %s, the same file (a hard link) as %s, which would show it "
                 "%s (%s). Remove the link (copy the file if the bot needs it). %s",
                 kind, c.shown, c.inside, c.same, what[c.hide], hide[c.hide], keep);
    else if (!binds && c.why == AR_CLASH_SAME && c.hide >= 0)
        snprintf(msg, cap, "its %s %s is the same %s as %s (a %s), which would show it %s (%s). %s",
                 kind, c.shown, stat(c.shown, &st) == 0 && S_ISDIR(st.st_mode) ? "folder" : "file",
                 c.same,
                 stat(c.shown, &st) == 0 && S_ISDIR(st.st_mode) ? "bind mount" : "hard link",
                 what[c.hide], hide[c.hide], keep);
    else if (!binds && c.hide >= 0)
        snprintf(msg, cap,
                 "its %s %s would show it %s (%s). Keep each bot's files in a folder of "
                 "its own, apart from the output folder, the .tour file and the other bots, and "
                 "declare only that folder (--files DIR after its --bot; files = DIR in a "
                 ".tour)",
                 kind, c.shown, what[c.hide], hide[c.hide]);
    else if (!binds)
        snprintf(msg, cap,
                 "its %s %s is / or holds a home folder; declare the bot's own folder "
                 "(bots/NAME/) instead",
                 kind, c.shown);
    ar_spawn_argv_free(hide);
    ar_spawn_argv_free(what);
    ar_spawn_argv_free(mine);
    return binds;
}

char **ar_match_view(const ar_match_config *cfg, int bot, char *msg, size_t cap,
                     ar_jail_clash *clash)
{
    return view_check(cfg, bot, msg, cap, clash, 0);
}

char **ar_match_view_check(const ar_match_config *cfg, int bot, char *msg, size_t cap,
                           ar_jail_clash *clash)
{
    return view_check(cfg, bot, msg, cap, clash, 1);
}

int ar_match_traced(const char *sel, int k, const char *name)
{
    if (!sel)
        return 0;
    if (strcmp(sel, "all") == 0 || strcmp(sel, name) == 0)
        return 1;
    char *end;
    long v = strtol(sel, &end, 10);
    return end != sel && *end == '\0' && v == k;
}

/* A connection (not started) for entrant `bot` of cfg, as a match starts it: its program in
 * the jail, its seccomp profile (filter, NULL without a jail), its view (ar_match_view: its
 * own files, never another entrant's), cfg's clocks and limits. NULL with a message in msg
 * when its view would show what must stay hidden. */
static ar_bot *jailed_bot(ar_loop *loop, const ar_match_config *cfg, int bot, const ar_bpf *filter,
                          char **sdk_env, FILE *log, const char *trace_name, char *msg, size_t cap)
{
    const ar_sandbox_cfg *sb = &cfg->sandbox;
    const ar_entrant *e = &cfg->bots[bot];
    char prog[PATH_MAX];
    const char *path =
        sb->mode != AR_SB_OFF ? ar_match_jail_program(e, prog, sizeof prog) : e->path;
    const char *profile = ar_match_profile(e);
    int interpreted = strcmp(profile, "interpreted") == 0;
    char **binds = ar_match_view(cfg, bot, msg, cap, NULL);
    if (!binds)
        return NULL;
    char **own = ar_match_own(cfg, bot);
    ar_bot_config bc = {
        .name = e->name,
        .path = path,
        .argv = e->argv,
        .clocks = cfg->clocks,
        .max_pending = cfg->max_pending,
        .eof_ms = cfg->eof_ms,
        .log = log,
        .log_cap = cfg->log_cap,
        .stdout_cap = cfg->stdout_cap,
        .sb_mode = sb->mode,
        .userns = sb->userns,
        .filter = filter,
        .profile = profile,
        .memory_mb = e->memory_mb ? e->memory_mb : sb->memory_mb,
        .pids_max = sb->pids      ? sb->pids
                    : interpreted ? 64
                                  : 8,
        .cpu_s = sb->cpu_s,
        .binds = binds,
        .env_extra = sdk_env,
        .cwd = e->cwd,
        .own = own,
        .freeze = !cfg->ponder,
    };
    if (trace_name) {
        bc.trace = cfg->trace;
        bc.trace_name = trace_name;
    }
    if (e->startup_ms)
        bc.clocks.startup_ms = e->startup_ms;
    ar_bot *b = ar_bot_new(loop, &bc);
    ar_spawn_argv_free(binds);
    ar_spawn_argv_free(own);
    return b;
}

ar_bot *ar_match_spare_bot(ar_loop *loop, const ar_match_config *cfg, int bot, const ar_bpf *filter,
                           FILE *log, char *msg, size_t cap)
{
    char **sdk_env = cfg->sandbox.mode != AR_SB_OFF ? ar_spawn_jail_sdk_env() : NULL;
    ar_bot *b = jailed_bot(loop, cfg, bot, filter, sdk_env, log, NULL, msg, cap);
    ar_spawn_argv_free(sdk_env);
    return b;
}

static int make_bots(ar_match *m)
{
    const ar_sandbox_cfg *sb = &m->cfg.sandbox;
    char **sdk_env = sb->mode != AR_SB_OFF ? ar_spawn_jail_sdk_env() : NULL;
    int rc = 0;
    for (int k = 0; k < m->cfg.players && rc == 0; k++) {
        const ar_entrant *e = &m->cfg.bots[m->slots[k].bot];
        if (e->builtin)
            continue;
        if (e->connect) { /* a human seat: no program, no jail, the same clocks */
            ar_bot_config hc = {.connect = e->connect,
                                .connect_ud = e->connect_ud,
                                .gone = e->gone,
                                .name = e->name,
                                .clocks = e->clocks ? *e->clocks : m->cfg.clocks,
                                .max_pending = m->cfg.max_pending,
                                .eof_ms = m->cfg.eof_ms};
            if (e->startup_ms)
                hc.clocks.startup_ms = e->startup_ms;
            m->slots[k].b = ar_bot_new(m->loop, &hc);
            continue;
        }
        const ar_bpf *filter = NULL;
        if (sb->mode != AR_SB_OFF && !(filter = profile_filter(m, ar_match_profile(e)))) {
            rc = -EINVAL;
            break;
        }
        char tname[160];
        int traced = m->cfg.trace && ar_match_traced(m->cfg.trace_sel, k, e->name);
        if (traced)
            snprintf(tname, sizeof tname, "%s(%d)", e->name, k);
        char msg[2 * PATH_MAX + 600];
        m->slots[k].b = jailed_bot(m->loop, &m->cfg, m->slots[k].bot, filter, sdk_env,
                                   m->slots[k].log ? m->slots[k].log : m->cfg.log_stream,
                                   traced ? tname : NULL, msg, sizeof msg);
        if (!m->slots[k].b) {
            fprintf(stderr, "arena: bot %s: %s\n", e->name, msg);
            rc = -EPERM;
            break;
        }
    }
    ar_spawn_argv_free(sdk_env);
    return rc;
}

/* ---- Messages -------------------------------------------------------------------------------- */

static void send_hello(ar_match *m, int k)
{
    const ar_entrant *e = &m->cfg.bots[m->slots[k].bot];
    char match_id[32];
    snprintf(match_id, sizeof match_id, "m%llu", (unsigned long long)m->cfg.seed);
    Okrpb__Clocks clocks = OKRPB__CLOCKS__INIT;
    clocks.startup_ms = m->slots[k].b->clocks.startup_ms; /* the entrant's own, if it has one */
    clocks.decision_ms = m->cfg.clocks.decision_ms;
    clocks.bank_ms = m->cfg.clocks.bank_ms;
    clocks.hard_ms = m->cfg.clocks.hard_ms;
    Okrpb__Hello hello = OKRPB__HELLO__INIT;
    hello.major = 1;
    hello.minor = 1; /* proto/okr.proto's version */
    hello.match_id = match_id;
    hello.players = (uint32_t)m->cfg.players;
    hello.rules = okrpb_rules_from(m->pa, &m->cfg.rules);
    hello.clocks = &clocks;
    hello.max_frame = OKRPB_MAX_FROM_BOT;
    hello.bot_name = (char *)e->name;
    Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
    tb.msg_case = OKRPB__TO_BOT__MSG_HELLO;
    tb.hello = &hello;
    ar_bot_start(m->slots[k].b, &tb);
    reset_pa(m);
}

/* The seat's bot, if it is a process that can take messages now. */
static ar_bot *live_bot(ar_match *m, int seat)
{
    game *gm = &m->gm;
    if (gm->subst[seat])
        return NULL;
    ar_bot *b = m->slots[gm->seat_slot[seat]].b;
    return b && ar_bot_alive(b) ? b : NULL;
}

/* Queue the seat's pending Events message (if any). */
static void flush_events(ar_match *m, int seat, ar_bot *b)
{
    evq *q = &m->gm.q[seat];
    if (q->n == 0)
        return;
    if (q->n > m->capevp) {
        m->capevp = q->n * 2;
        m->evp = ar_xrealloc(m->evp, (size_t)m->capevp * sizeof *m->evp);
    }
    for (int i = 0; i < q->n; i++)
        m->evp[i] = okrpb_event_from(m->pa, &q->ev[i]);
    Okrpb__Events evs = OKRPB__EVENTS__INIT;
    evs.n_events = (size_t)q->n;
    evs.events = m->evp;
    Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
    tb.msg_case = OKRPB__TO_BOT__MSG_EVENTS;
    tb.events = &evs;
    ar_bot_queue(b, &tb); /* written with the message that follows it */
    reset_pa(m);
    q->n = 0;
}

static void push_event(evq *q, const okr_event *e)
{
    if (q->n == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 16;
        q->ev = ar_xrealloc(q->ev, (size_t)q->cap * sizeof *q->ev);
    }
    q->ev[q->n++] = *e;
}

/* The game's id as bots see it (GameStart, GameEnd): the record's id without its first part,
 * "m<seed>", "t<seed>" or a league's "L<seed>", which names the seed, and with the documented
 * PRNG every card of the match (RULES 8.3). "m5-d0-r1" -> "d0-r1", "L11-s3-r0" -> "s3-r0";
 * an id of another form is sent whole. */
static const char *bot_game_id(const char *id)
{
    if ((id[0] == 'm' || id[0] == 't' || id[0] == 'L') && id[1] >= '0' && id[1] <= '9') {
        const char *p = id + 1;
        while (*p >= '0' && *p <= '9')
            p++;
        if (*p == '-' && p[1])
            return p + 1;
    }
    return id;
}

static void send_game_start(ar_match *m, int seat, ar_bot *b)
{
    game *gm = &m->gm;
    char *names[OKR_MAX_PLAYERS];
    for (int s = 0; s < m->cfg.players; s++)
        names[s] = (char *)bot_name(m, gm->entrant[s]);
    Okrpb__GameStart gs = OKRPB__GAME_START__INIT;
    gs.game_id = (char *)bot_game_id(gm->id);
    gs.seat = (uint32_t)seat;
    gs.players = (uint32_t)m->cfg.players;
    gs.n_names = (size_t)m->cfg.players;
    gs.names = names;
    gs.bank_ms = m->cfg.clocks.bank_ms;
    Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
    tb.msg_case = OKRPB__TO_BOT__MSG_GAME_START;
    tb.game_start = &gs;
    ar_bot_send(b, &tb);
}

static void send_refused(ar_match *m, ar_bot *b, uint64_t id, const okr_refusal *why,
                         const okr_action *substituted)
{
    Okrpb__Refused rf = OKRPB__REFUSED__INIT;
    rf.id = id;
    rf.rule = (char *)why->rule;
    rf.reason = (char *)why->reason;
    if (substituted)
        rf.substituted = okrpb_action_from(m->pa, substituted);
    Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
    tb.msg_case = OKRPB__TO_BOT__MSG_REFUSED;
    tb.refused = &rf;
    ar_bot_send(b, &tb);
    reset_pa(m);
}

/* The verdict name of the seat's first verdict in this game, "" if none. */
static const char *seat_verdict(const game *gm, int seat)
{
    for (int i = 0; i < gm->nverdicts; i++)
        if (gm->verdicts[i].seat == seat)
            return ar_verdict_name(gm->verdicts[i].v.kind);
    return "";
}

/* ---- Verdicts -------------------------------------------------------------------------------- */

static void add_verdict(ar_match *m, int seat, const ar_verdict *v)
{
    game *gm = &m->gm;
    if (gm->nverdicts == gm->capverdicts) {
        gm->capverdicts = gm->capverdicts ? 2 * gm->capverdicts : 8;
        gm->verdicts = ar_xrealloc(gm->verdicts, (size_t)gm->capverdicts * sizeof *gm->verdicts);
    }
    ar_seat_verdict *sv = &gm->verdicts[gm->nverdicts++];
    memset(sv, 0, sizeof *sv);
    sv->seat = seat;
    sv->v = *v;
    sv->action = gm->g.players ? gm->actions : -1;
    sv->hand = gm->g.players ? gm->g.hand_no : 0;
    ar_record_verdict(gm->rec, sv);
    slot *sl = &m->slots[gm->seat_slot[seat]];
    if (sl->nverdicts++ == 0)
        sl->first = *v;
    if (ar_verdict_left(v->kind, v->detail)) /* a person left: words, the code in brackets */
        say(m, "arena: %s: seat %d (%s) left the game (verdict RE)%s%s%s%s%s\n", gm->id, seat,
            bot_name(m, gm->entrant[seat]), sl->log_rel ? " (log: " : "",
            sl->log_rel ? m->cfg.out_dir : "", sl->log_rel ? "/" : "",
            sl->log_rel ? sl->log_rel : "", sl->log_rel ? ")" : "");
    else if (v->kind != AR_V_DQ)
        say(m, "arena: %s: seat %d (%s): %s%s%s%s%s: %s%s%s%s%s%s\n", gm->id, seat,
            bot_name(m, gm->entrant[seat]), ar_verdict_name(v->kind), v->clock[0] ? " " : "",
            v->clock, v->rule[0] ? " RULES " : "", v->rule, v->detail, sl->log_rel ? " (log: " : "",
            sl->log_rel ? m->cfg.out_dir : "", sl->log_rel ? "/" : "",
            sl->log_rel ? sl->log_rel : "", sl->log_rel ? ")" : "");
    if (m->cfg.stop_after > 0 && gm->seat_slot[seat] == 0)
        m->stopping = 1;
}

/* A seat's bot failed: note its verdict, release the connection (the slot restarts at the
 * next game), and apply the policy. Returns 1 if the game must end (forfeit). */
static int seat_failed(ar_match *m, int seat, const ar_verdict *v)
{
    game *gm = &m->gm;
    add_verdict(m, seat, v);
    ar_bot *b = m->slots[gm->seat_slot[seat]].b;
    if (b && b->state == AR_BOT_FAILED)
        ar_bot_clear(b);
    gm->q[seat].n = 0;
    if (m->cfg.on_error == AR_ON_ERROR_FORFEIT) {
        gm->forfeits |= 1u << seat;
        return 1;
    }
    gm->subst[seat] = 1;
    gm->sub_why[seat] = ar_verdict_name(v->kind);
    return 0;
}

/* Bots that failed while not asked (crashed while idle, sent something unexpected). Returns 1
 * if the game must end. */
static int check_idle_failures(ar_match *m)
{
    game *gm = &m->gm;
    int end = 0;
    for (int s = 0; s < m->cfg.players; s++) {
        ar_bot *b = m->slots[gm->seat_slot[s]].b;
        if (!gm->subst[s] && b && b->state == AR_BOT_FAILED)
            end |= seat_failed(m, s, &b->verdict);
    }
    return end;
}

/* ---- Choosing ------------------------------------------------------------------------------- */

static int substitute_index(ar_match *m, int n)
{
    if (m->cfg.substitute == AR_SUB_FIRST || n <= 1)
        return 0;
    return ar_policy_choose((ar_policy)m->cfg.substitute, &m->gm.g, m->acts, n, &m->gm.sub_rng);
}

enum { CHOSE_OK = 0, CHOSE_END = 1, CHOSE_STOP = 2 };

typedef struct pick {
    okr_action a;
    okr_event ev;
    double ms;                  /* bot's time, -1 for none */
    const char *subst;          /* verdict name if substituted */
    int applied;                /* a already applied (full actions are applied to be checked) */
    char note[AR_NOTE_MAX + 1]; /* the bot's note on its Choice (1.1), cleaned */
} pick;

/* The substitute move, to be applied by the caller. */
static void play_substitute(ar_match *m, int n, pick *p, const char *why)
{
    p->a = m->acts[substitute_index(m, n)];
    p->subst = why;
    p->applied = 0;
}

/* An illegal action (IA) by a live bot: Refused, verdict, then the policy. */
static int illegal(ar_match *m, int seat, ar_bot *b, uint64_t id, int n, const okr_refusal *why,
                   pick *p)
{
    ar_verdict v;
    memset(&v, 0, sizeof v);
    v.kind = AR_V_IA;
    snprintf(v.rule, sizeof v.rule, "%s", why->rule[0] ? why->rule : "protocol");
    snprintf(v.detail, sizeof v.detail, "%s", why->reason);
    add_verdict(m, seat, &v);
    if (m->cfg.on_error == AR_ON_ERROR_FORFEIT) {
        send_refused(m, b, id, why, NULL);
        m->gm.forfeits |= 1u << seat;
        return CHOSE_END;
    }
    play_substitute(m, n, p, "IA");
    send_refused(m, b, id, why, &p->a);
    return CHOSE_OK;
}

/* Decision ids are (game number + 1) << 32 | decisions asked so far in the game, where the game
 * number deal * players + rotation does not depend on where the match started: a game asks
 * its bots the same ids whether it is played in a long match, in a tournament's set, or
 * alone with --first-deal, so that bots seeding from the id (bots/random) replay it exactly.
 * Still unique within a process's life, as docs/protocol.md promises. */
static uint64_t decision_id(ar_match *m)
{
    uint64_t game_no = (uint64_t)(m->gm.deal * m->cfg.players + m->gm.rotation);
    m->next_id++;
    return ((game_no + 1) << 32) | ((m->next_id + m->cfg.id_base) & 0xffffffffu);
}

/* A practice game's recorded action number gm->actions (cfg.forced), played without asking
 * its seat: it must be one of the nl legal actions now, or the replay is not the game. */
static int forced_action(ar_match *m, int nl, pick *p)
{
    const char *want = m->cfg.forced[m->gm.actions];
    for (int i = 0; i < nl; i++) {
        char text[512];
        if (okr_action_format(&m->acts[i], text, sizeof text) >= 0 && strcmp(text, want) == 0) {
            p->a = m->acts[i];
            return 0;
        }
    }
    fprintf(stderr,
            "arena: %s: the taken-back game does not replay: '%s' is not legal at action %lld\n",
            m->gm.id, want, m->gm.actions);
    return -1;
}

void ar_match_stop(ar_match *m)
{
    m->stopping = 1;
}

/* Freeze every bot of the table but keep (NULL: all of them; a no-op with ponder = on and
 * for a bot already frozen). A bot that chose is left running by ask_bot (no freeze and thaw
 * when it decides again at once, as in gin's draw then discard); it is frozen here before
 * another bot runs or the match waits: at the next Decision to another seat, before a pace
 * wait, and at the start of every game. */
static void freeze_others(ar_match *m, const ar_bot *keep)
{
    for (int k = 0; k < m->cfg.players; k++) {
        ar_bot *o = m->slots[k].b;
        if (o && o != keep && o->frozen == 0 && o->freeze)
            ar_bot_freeze(o);
    }
}

/* pace: wait until pace_ms after the last Decision was handed out, the loop serving the bots'
 * stderr and exits meanwhile; the last PACE_TAIL_MS asleep until the exact moment. The loop's
 * timers round (epoll's milliseconds, a kernel tick where the clock is coarse) by an amount
 * that depends on how long the last decision took: were the loop to wake past the due time,
 * the lateness would carry the last bot's decision time to the next. Returns 1 if
 * interrupted. */
#define PACE_TAIL_MS 5.0
static int pace_wait(ar_match *m)
{
    if (m->cfg.pace_ms == 0 || m->handed_at == 0)
        return 0;
    double due = m->handed_at + (double)m->cfg.pace_ms;
    for (;;) {
        double left = due - ar_now_ms();
        if (ar_loop_interrupted(m->loop) || m->stopping)
            return 1;
        if (left <= PACE_TAIL_MS)
            break;
        loop_wait(m, left - PACE_TAIL_MS);
    }
    ar_sleep_until_ms(due);
    return 0;
}

static int ask_bot(ar_match *m, int seat, ar_bot *b, int n, pick *p)
{
    game *gm = &m->gm;
    slot *sl = &m->slots[gm->seat_slot[seat]];
    freeze_others(m, m->cfg.pace_ms ? NULL : b);
    if (pace_wait(m))
        return CHOSE_STOP;
    flush_events(m, seat, b);

    okr_view view;
    okr_view_of(&gm->g, seat, &view);
    if (n > m->caplegal) {
        m->caplegal = n > 256 ? n : 256;
        m->legal = ar_xrealloc(m->legal, (size_t)m->caplegal * sizeof *m->legal);
    }
    for (int i = 0; i < n; i++)
        m->legal[i] = okrpb_action_from(m->pa, &m->acts[i]);
    Okrpb__Decision d = OKRPB__DECISION__INIT;
    uint64_t id = decision_id(m);
    d.id = id;
    d.view = okrpb_view_from(m->pa, &view);
    if (d.view) /* 1.1: the limit the engine will check a knock against (G2) */
        d.view->knock_limit = (uint32_t)okr_knock_limit(&gm->g.rules, view.upcard);
    d.n_legal = (size_t)n;
    d.legal = m->legal;
    d.time_ms = m->cfg.clocks.decision_ms;
    d.bank_ms = gm->bank[seat];
    d.hard_ms = m->cfg.clocks.hard_ms;
    Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
    tb.msg_case = OKRPB__TO_BOT__MSG_DECISION;
    tb.decision = &d;
    int drc = ar_bot_decide(b, &tb, id, gm->bank[seat]);
    m->handed_at = ar_now_ms();
    reset_pa(m);
    /* the previous action's line, while the bot thinks; a live record's buffer is written
     * out at the latest AR_RECORD_LIVE_MS from now, however long the bot thinks */
    if (ar_record_flush(gm->rec) && !evtimer_pending(m->flush, NULL)) {
        struct timeval tv = {0, AR_RECORD_LIVE_MS * 1000};
        evtimer_add(m->flush, &tv);
    }
    if (drc < 0 && ar_bot_alive(b)) {
        /* its stdin is gone (broken pipe): its exit status, or the EOF grace, decides */
        if (!b->eof)
            ar_bot_fail(b, AR_V_RE, "", "", "its input cannot be written");
        while (ar_bot_alive(b) && !ar_loop_interrupted(m->loop))
            ar_loop_once(m->loop);
    }

    int others_failed = 0;
    while (b->state == AR_BOT_THINKING) {
        ar_loop_once(m->loop);
        if (ar_loop_interrupted(m->loop) || m->stopping) {
            ar_bot_cancel(b);
            return CHOSE_STOP;
        }
        if (m->cfg.on_error == AR_ON_ERROR_FORFEIT)
            for (int s = 0; s < m->cfg.players; s++) {
                ar_bot *o = m->slots[gm->seat_slot[s]].b;
                if (s != seat && !gm->subst[s] && o && o->state == AR_BOT_FAILED)
                    others_failed = 1;
            }
        if (others_failed) {
            ar_bot_cancel(b); /* the game ends under it; its late answer is dropped */
            check_idle_failures(m);
            return CHOSE_END;
        }
    }

    if (b->state == AR_BOT_FAILED) {
        ar_verdict v = b->verdict;
        if (seat_failed(m, seat, &v))
            return CHOSE_END;
        play_substitute(m, n, p, gm->sub_why[seat]);
        return CHOSE_OK;
    }
    if (b->state != AR_BOT_CHOSE) {
        if (ar_loop_interrupted(m->loop))
            return CHOSE_STOP;
        /* not reached: THINKING is only left for CHOSE or FAILED; never loop on it */
        ar_bot_fail(b, AR_V_RE, "", "", "lost (state %d)", (int)b->state);
        ar_verdict v = b->verdict;
        if (seat_failed(m, seat, &v))
            return CHOSE_END;
        play_substitute(m, n, p, gm->sub_why[seat]);
        return CHOSE_OK;
    }

    /* the answer */
    Okrpb__FromBot *fb = ar_bot_take_choice_awake(b); /* freeze_others freezes it */
    double ms = b->choice_ms;
    p->ms = ms;
    gm->out.decisions[seat]++;
    gm->out.wall_ms[seat] += ms;
    if (ms > gm->out.max_ms[seat])
        gm->out.max_ms[seat] = ms;
    if (ms > m->cfg.clocks.decision_ms) {
        double over = ms - m->cfg.clocks.decision_ms;
        gm->bank[seat] = over >= gm->bank[seat] ? 0 : gm->bank[seat] - (uint32_t)ceil(over);
    }
    sl->answered++;
    if (sl->nlat == sl->caplat) {
        sl->caplat = sl->caplat ? 2 * sl->caplat : 256;
        sl->lat = ar_xrealloc(sl->lat, (size_t)sl->caplat * sizeof *sl->lat);
    }
    sl->lat[sl->nlat++] = ms;
    if (m->cfg.stop_after > 0 && gm->seat_slot[seat] == 0 && sl->answered >= m->cfg.stop_after)
        m->enough = 1; /* stop after this game (whole games: the bot sees GameEnd) */

    okr_refusal why;
    memset(&why, 0, sizeof why);
    const Okrpb__Choice *c = fb->choice;
    int rc = CHOSE_OK;
    /* a note is for people: cut to a valid prefix and counted, never a reason to refuse */
    if (c->note && c->note[0] && ar_note_clean(c->note, strlen(c->note), p->note))
        gm->out.notes_cut[seat]++;
    if (c->pick_case == OKRPB__CHOICE__PICK_INDEX) {
        if (c->index < (uint32_t)n) {
            p->a = m->acts[c->index];
            p->applied = 0;
        } else {
            snprintf(why.rule, sizeof why.rule, "protocol");
            snprintf(why.reason, sizeof why.reason, "index %u is out of range: %d legal actions",
                     c->index, n);
            rc = illegal(m, seat, b, id, n, &why, p);
        }
    } else if (c->pick_case == OKRPB__CHOICE__PICK_ACTION && c->action) {
        okr_action a;
        memset(&a, 0, sizeof a);
        if (okrpb_action_to(c->action, &a, &why) != OKR_OK) {
            if (!why.rule[0])
                snprintf(why.rule, sizeof why.rule, "protocol");
            rc = illegal(m, seat, b, id, n, &why, p);
        } else if (a.seat != seat) {
            snprintf(why.rule, sizeof why.rule, "protocol");
            snprintf(why.reason, sizeof why.reason, "the action is for seat %d; seat %d must act",
                     a.seat, seat);
            rc = illegal(m, seat, b, id, n, &why, p);
        } else if (okr_apply(&gm->g, &a, &p->ev, &why) != OKR_OK) {
            rc = illegal(m, seat, b, id, n, &why, p);
        } else {
            okr_action_normalize(&gm->g.rules, &a);
            p->a = a;
            p->applied = 1;
        }
    } else {
        snprintf(why.rule, sizeof why.rule, "protocol");
        snprintf(why.reason, sizeof why.reason, "the Choice has neither an index nor an action");
        rc = illegal(m, seat, b, id, n, &why, p);
    }
    okrpb__from_bot__free_unpacked(fb, NULL);
    return rc;
}

/* ---- One game ------------------------------------------------------------------------------ */

static void game_reset(ar_match *m, long long d, int r)
{
    game *gm = &m->gm;
    int n = m->cfg.players;
    gm->deal = d;
    gm->rotation = r;
    gm->deal_seed = ar_match_deal_seed(m->cfg.seed, d);
    if (m->cfg.game_id)
        m->cfg.game_id(gm->id, sizeof gm->id, d, r, m->cfg.ud);
    else
        ar_match_game_id(gm->id, sizeof gm->id, m->cfg.seed, d, r);
    m->next_id = 0; /* decision ids restart with every game (decision_id) */
    memset(&gm->g, 0, sizeof gm->g);
    gm->forfeits = 0;
    gm->nverdicts = 0;
    gm->nhands = 0;
    gm->actions = 0;
    gm->rec = NULL;
    ar_rng_seed(&gm->sub_rng, gm->deal_seed ^ 0xa0761d6478bd642fULL ^ (uint64_t)r);
    memset(&gm->out, 0, sizeof gm->out);
    for (int s = 0; s < n; s++) {
        gm->seat_slot[s] = ar_match_seat_slot(s, r, n);
        gm->entrant[s] = m->slots[gm->seat_slot[s]].bot;
        gm->bank[s] = m->cfg.clocks.bank_ms;
        gm->subst[s] = 0;
        gm->sub_why[s] = "";
        gm->q[s].n = 0;
        gm->cpu0[s] = 0;
    }
    gm->t0 = ar_now_ms();
}

/* Fill gm->out and hand it to the results. */
static int finish_game(ar_match *m, int played, int completed)
{
    game *gm = &m->gm;
    int n = m->cfg.players;
    ar_game_outcome *o = &gm->out;
    o->game_id = gm->id;
    o->index = m->games_done;
    o->deal = gm->deal;
    o->rotation = gm->rotation;
    o->deal_seed = gm->deal_seed;
    o->players = n;
    for (int s = 0; s < n; s++) {
        o->entrant[s] = gm->entrant[s];
        o->slot[s] = gm->seat_slot[s];
        o->log[s] = m->slots[gm->seat_slot[s]].log_rel;
    }
    o->played = played;
    o->completed = completed;
    o->nhands = gm->nhands;
    o->hand = played ? gm->g.hand_no : 0;
    o->hand_scores = (const int32_t(*)[OKR_MAX_PLAYERS])gm->hand_scores;
    o->forfeits = gm->forfeits;
    if (completed) {
        for (int s = 0; s < n; s++) {
            o->final_total[s] = gm->g.result.final_total[s];
            o->placement[s] = gm->g.result.placement[s];
        }
        o->winners = gm->g.result.winners;
    } else {
        int32_t so_far[OKR_MAX_PLAYERS] = {0};
        for (int s = 0; played && s < n; s++)
            so_far[s] = gm->g.score[s] + gm->g.concealed[s];
        o->forfeit_margin = ar_forfeit_margin(&m->cfg.rules);
        ar_forfeit_result(n, so_far, gm->forfeits, o->forfeit_margin, o->final_total, o->placement,
                          &o->winners);
    }
    o->verdicts = gm->verdicts;
    o->nverdicts = gm->nverdicts;
    o->actions = gm->actions;
    o->seconds = (ar_now_ms() - gm->t0) / 1000.0;
    o->digest = played ? okr_digest(&gm->g) : 0;
    for (int s = 0; s < n; s++) {
        ar_bot *b = m->slots[gm->seat_slot[s]].b;
        if (b && played)
            o->cpu_ms[s] = ar_bot_cpu_sample(b) - gm->cpu0[s];
    }
    int rc = ar_record_close(gm->rec, o);
    gm->rec = NULL;
    int rc2 = ar_results_add(m->res, o);
    if (m->cfg.on_game)
        m->cfg.on_game(o, m->cfg.ud);
    m->games_done++;
    m->totals.games_completed += completed != 0;
    m->totals.actions += gm->actions;
    for (int s = 0; s < n; s++)
        m->totals.decisions += o->decisions[s];

    if (m->cfg.progress && !m->cfg.quiet) {
        char line[512], *p = line;
        size_t cap = sizeof line;
        int w = snprintf(p, cap, "game %lld/%lld %s:", m->games_done, m->cfg.deals * m->cfg.players,
                         gm->id);
        for (int s = 0; s < n && w > 0 && (size_t)w < cap; s++) {
            p += w;
            cap -= (size_t)w;
            w = snprintf(p, cap, " %s %d%s", bot_name(m, gm->entrant[s]), o->final_total[s],
                         o->forfeits & (1u << s) ? " (forfeit)" : "");
        }
        fprintf(stderr, "%s%s\n", line, played ? "" : " [not played]");
    }
    if (rc2 < 0) {
        fprintf(stderr, "arena: cannot write games.jsonl: %s\n", strerror(-rc2));
        return rc2;
    }
    (void)rc; /* a record that cannot be written was reported; the match goes on */
    return 0;
}

/* Send GameEnd to every live seat. Completed games use the engine's report; a forfeited game
 * sends the forfeit result (ar_forfeit_result) with the hands' scores so far. */
static void send_game_end(ar_match *m, int completed)
{
    game *gm = &m->gm;
    int n = m->cfg.players;
    int32_t so_far[OKR_MAX_PLAYERS], score[OKR_MAX_PLAYERS], conc[OKR_MAX_PLAYERS];
    int32_t fin[OKR_MAX_PLAYERS], zeros[OKR_MAX_PLAYERS] = {0};
    uint8_t place[OKR_MAX_PLAYERS];
    uint32_t pl[OKR_MAX_PLAYERS];
    protobuf_c_boolean wins[OKR_MAX_PLAYERS];
    unsigned winners = 0;
    for (int t = 0; t < n; t++) {
        score[t] = gm->g.score[t];
        conc[t] = gm->g.concealed[t];
        so_far[t] = score[t] + conc[t];
    }
    if (!completed) {
        ar_forfeit_result(n, so_far, gm->forfeits, ar_forfeit_margin(&m->cfg.rules), fin, place,
                          &winners);
        for (int t = 0; t < n; t++) {
            wins[t] = (winners >> t) & 1;
            pl[t] = place[t];
        }
    }
    for (int s = 0; s < n; s++) {
        ar_bot *b = live_bot(m, s);
        if (!b)
            continue;
        flush_events(m, s, b);
        Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
        tb.msg_case = OKRPB__TO_BOT__MSG_GAME_END;
        Okrpb__GameEnd ge = OKRPB__GAME_END__INIT;
        if (completed) {
            tb.game_end =
                okrpb_game_end_from(m->pa, &gm->g, s, bot_game_id(gm->id), seat_verdict(gm, s));
        } else {
            ge.game_id = (char *)bot_game_id(gm->id);
            ge.seat = (uint32_t)s;
            ge.n_winners = ge.n_score = ge.n_concealed = ge.n_winner_bonus = ge.n_final_total =
                ge.n_placement = ge.n_settlement = (size_t)n;
            ge.winners = wins;
            ge.score = score;
            ge.concealed = conc;
            ge.winner_bonus = zeros;
            ge.final_total = fin;
            ge.placement = pl;
            ge.settlement = zeros;
            ge.verdict = (char *)seat_verdict(gm, s);
            tb.game_end = &ge;
        }
        if (tb.game_end)
            ar_bot_send(b, &tb);
        reset_pa(m);
    }
}

static void hand_over(ar_match *m)
{
    game *gm = &m->gm;
    int n = m->cfg.players;
    ar_record_hand_end(gm->rec, &gm->g);
    if (gm->nhands == gm->caphands) {
        gm->caphands = gm->caphands ? 2 * gm->caphands : 16;
        gm->hand_scores =
            ar_xrealloc(gm->hand_scores, (size_t)gm->caphands * sizeof *gm->hand_scores);
    }
    memset(gm->hand_scores[gm->nhands], 0, sizeof gm->hand_scores[0]);
    for (int s = 0; s < n; s++)
        gm->hand_scores[gm->nhands][s] = gm->g.last.score[s];
    gm->nhands++;
    /* Each bot gets its pending events, then the one HandEnd every seat shares. */
    for (int s = 0; s < n; s++) {
        ar_bot *b = live_bot(m, s);
        if (b)
            flush_events(m, s, b);
    }
    Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
    tb.msg_case = OKRPB__TO_BOT__MSG_HAND_END;
    tb.hand_end = okrpb_hand_end_from(m->pa, &gm->g);
    for (int s = 0; s < n && tb.hand_end; s++) {
        ar_bot *b = live_bot(m, s);
        if (b)
            ar_bot_send(b, &tb);
    }
    reset_pa(m);
}

/* Start the processes of this game that are not running, and wait for their Ready. */
static void ensure_ready(ar_match *m)
{
    game *gm = &m->gm;
    int n = m->cfg.players;
    for (int s = 0; s < n; s++) {
        slot *sl = &m->slots[gm->seat_slot[s]];
        if (!sl->b || ar_bot_alive(sl->b))
            continue;
        if (sl->b->state == AR_BOT_FAILED || sl->b->state == AR_BOT_CLOSING) {
            /* failed between games (after its last GameEnd): restart, not a game's error */
            if (sl->b->state == AR_BOT_FAILED)
                say(m, "arena: %s (slot %d) failed between games (%s: %s); restarting\n",
                    bot_name(m, sl->bot), gm->seat_slot[s], ar_verdict_name(sl->b->verdict.kind),
                    sl->b->verdict.detail);
            ar_bot_clear(sl->b);
        }
        send_hello(m, gm->seat_slot[s]);
    }
    for (;;) {
        int waiting = 0;
        for (int s = 0; s < n; s++) {
            ar_bot *b = m->slots[gm->seat_slot[s]].b;
            if (b && (b->state == AR_BOT_HELLO || b->state == AR_BOT_IDENTIFIED))
                waiting = 1;
        }
        if (!waiting || ar_loop_interrupted(m->loop))
            break;
        ar_loop_once(m->loop);
    }
}

/* Play game (d, r) to its end or to a forfeit. Returns 0, -EINTR, or -errno (arena error). */
static int play_game(ar_match *m, long long d, int r)
{
    game *gm = &m->gm;
    int n = m->cfg.players;
    game_reset(m, d, r);

    /* disqualified bots forfeit without playing */
    for (int s = 0; s < n; s++)
        if (m->dq[gm->entrant[s]]) {
            ar_verdict v;
            memset(&v, 0, sizeof v);
            v.kind = AR_V_DQ;
            snprintf(v.detail, sizeof v.detail, "disqualified after %lld games",
                     m->dq_after[gm->entrant[s]]);
            add_verdict(m, s, &v);
            gm->forfeits |= 1u << s;
        }
    if (gm->forfeits)
        return finish_game(m, 0, 0);

    /* a marker in every log, so that one file per slot reads game by game */
    for (int s = 0; s < n; s++) {
        slot *sl = &m->slots[gm->seat_slot[s]];
        if (sl->log)
            fprintf(sl->log, "[arena: game %s, seat %d]\n", gm->id, s);
    }
    ar_loop_poll(m->loop);
    freeze_others(m, NULL); /* the last game's last decider, before any start-up */
    ensure_ready(m);
    if (ar_loop_interrupted(m->loop))
        return -EINTR;
    for (int s = 0; s < n; s++) {
        slot *sl = &m->slots[gm->seat_slot[s]];
        if (!sl->b)
            continue;
        if (sl->b->state == AR_BOT_FAILED) {
            ar_verdict v = sl->b->verdict;
            seat_failed(m, s, &v);
        } else if (sl->b->ready_ms >= 0 && sl->ready_seen < sl->b->starts) {
            sl->ready_sum += sl->b->ready_ms; /* each process's startup counts once */
            sl->ready_n++;
            sl->ready_seen = sl->b->starts;
        }
    }
    if (gm->forfeits)
        return finish_game(m, 0, 0);

    okr_refusal why;
    memset(&why, 0, sizeof why);
    if (okr_game_init(&gm->g, &m->cfg.rules, n, gm->deal_seed, NULL, 0, &why) != OKR_OK) {
        fprintf(stderr, "arena: %s: the engine cannot start the game: %s (RULES %s)\n", gm->id,
                why.reason, why.rule);
        return -EINVAL;
    }
    if (m->res && ar_results_records_dir(m->res)) {
        char path[4096];
        const char *names[OKR_MAX_PLAYERS];
        for (int s = 0; s < n; s++)
            names[s] = bot_name(m, gm->entrant[s]);
        snprintf(path, sizeof path, "%s/%s.jsonl", ar_results_records_dir(m->res), gm->id);
        ar_record_header h = {
            .game_id = gm->id,
            .rules = &m->cfg.rules,
            .players = n,
            .match_seed = m->cfg.seed,
            .deal_seed = gm->deal_seed,
            .deal = d,
            .rotation = r,
            .names = names,
            .entrant = gm->entrant,
            .on_error = m->cfg.on_error == AR_ON_ERROR_FORFEIT ? "forfeit" : "substitute",
            .live = m->cfg.live_records,
            .practice = m->cfg.practice,
            .takebacks = m->cfg.takebacks,
        };
        gm->rec = ar_record_open(path, &h);
        for (int i = 0; i < gm->nverdicts; i++)
            ar_record_verdict(gm->rec, &gm->verdicts[i]);
    }
    for (int s = 0; s < n; s++) {
        slot *sl = &m->slots[gm->seat_slot[s]];
        if (sl->b)
            gm->cpu0[s] = ar_bot_cpu_sample(sl->b);
        else
            ar_rng_seed(&sl->rng, gm->deal_seed ^ 0x3c6ef372fe94f82bULL ^ (uint64_t)(s + 1));
        ar_bot *b = live_bot(m, s);
        if (b)
            send_game_start(m, s, b);
    }

    int completed = 0;
    for (;;) {
        if (ar_loop_interrupted(m->loop) || m->stopping) {
            ar_record_abort(gm->rec, m->stopping ? "stopped" : "interrupted");
            gm->rec = NULL;
            return m->stopping ? 0 : -EINTR;
        }
        if (gm->g.phase == OKR_PH_HAND_OVER || gm->g.phase == OKR_PH_GAME_OVER) {
            hand_over(m);
            if (gm->g.phase == OKR_PH_GAME_OVER) {
                completed = 1;
                break;
            }
            memset(&why, 0, sizeof why);
            if (okr_next_hand(&gm->g, NULL, 0, &why) != OKR_OK) {
                fprintf(stderr, "arena: %s: the engine cannot deal the next hand: %s\n", gm->id,
                        why.reason);
                return -EINVAL;
            }
            continue;
        }
        int seat = gm->g.to_act;
        int nl = okr_legal(&gm->g, m->acts, OKR_MAX_ACTIONS);
        if (nl <= 0) {
            fprintf(stderr, "arena: %s: the engine lists no legal action (%d) in phase %s\n",
                    gm->id, nl, ar_phase_name(gm->g.phase));
            return -EINVAL;
        }
        pick p;
        memset(&p, 0, sizeof p);
        p.ms = -1;
        p.subst = "";
        slot *sl = &m->slots[gm->seat_slot[seat]];
        int rc = CHOSE_OK;
        if (gm->actions < m->cfg.nforced) {
            if (forced_action(m, nl, &p) < 0)
                return -EINVAL;
        } else if (!sl->b) {
            p.a = m->acts[ar_policy_choose(m->cfg.bots[sl->bot].policy, &gm->g, m->acts, nl,
                                           &sl->rng)];
        } else if (gm->subst[seat]) {
            play_substitute(m, nl, &p, gm->sub_why[seat]);
        } else {
            ar_bot *b = live_bot(m, seat);
            if (!b) {
                /* failed while idle and not noticed yet */
                rc = check_idle_failures(m) ? CHOSE_END : CHOSE_OK;
                if (rc == CHOSE_OK && !gm->subst[seat]) {
                    ar_verdict v;
                    memset(&v, 0, sizeof v);
                    v.kind = AR_V_RE;
                    snprintf(v.detail, sizeof v.detail, "not connected");
                    rc = seat_failed(m, seat, &v) ? CHOSE_END : CHOSE_OK;
                }
                if (rc == CHOSE_OK)
                    play_substitute(m, nl, &p, gm->sub_why[seat]);
            } else {
                rc = ask_bot(m, seat, b, nl, &p);
            }
        }
        if (rc == CHOSE_STOP)
            continue; /* interrupted: handled at the top */
        if (rc == CHOSE_END)
            break;
        if (!p.applied) {
            memset(&why, 0, sizeof why);
            if (okr_apply(&gm->g, &p.a, &p.ev, &why) != OKR_OK) {
                char text[512];
                okr_action_format(&p.a, text, sizeof text);
                fprintf(stderr, "arena: %s: the engine refused its own legal action '%s': %s\n",
                        gm->id, text, why.reason);
                return -EINVAL;
            }
        }
        /* the bot that chose, if the next Decision goes to another seat (or none follows):
         * frozen now, while it may still be on its way back to its read, not after the
         * record is written (a sleeping bot must wake to be frozen) */
        if (sl->b && (gm->g.phase == OKR_PH_HAND_OVER || gm->g.phase == OKR_PH_GAME_OVER ||
                      m->slots[gm->seat_slot[gm->g.to_act]].b != sl->b))
            ar_bot_freeze(sl->b);
        if (p.subst[0])
            gm->out.substituted[seat]++;
        char text[512];
        if (okr_action_format(&p.a, text, sizeof text) < 0)
            snprintf(text, sizeof text, "?");
        ar_record_action(gm->rec, gm->actions, gm->g.hand_no, seat, text, p.ms, p.subst, p.note);
        if (m->cfg.on_action)
            m->cfg.on_action(gm->actions, seat, text, m->cfg.action_ud);
        gm->actions++;
        for (int s = 0; s < n; s++)
            if (live_bot(m, s)) {
                okr_event red;
                okr_event_redact(&p.ev, s, &red);
                push_event(&gm->q[s], &red);
            }
        if (check_idle_failures(m))
            break;
    }

    send_game_end(m, completed);
    return finish_game(m, 1, completed);
}

/* ---- Disqualification -------------------------------------------------------------------------
 */

static void check_dq(ar_match *m)
{
    for (int b = 0; b < m->cfg.nbots; b++) {
        if (m->dq[b] || m->cfg.bots[b].builtin)
            continue;
        long long games, err;
        ar_results_error_share(m->res, b, &games, &err);
        if (games < m->cfg.dq_min_games || (double)err <= m->cfg.max_error_share * (double)games)
            continue;
        m->dq[b] = 1;
        m->dq_after[b] = games;
        say(m, "arena: %s is disqualified: errors in %lld of %lld games (more than %.0f%%)\n",
            bot_name(m, b), err, games, m->cfg.max_error_share * 100);
        char reason[128];
        snprintf(reason, sizeof reason, "disqualified: errors in %lld of %lld games", err, games);
        for (int k = 0; k < m->cfg.players; k++)
            if (m->slots[k].bot == b && m->slots[k].b)
                ar_bot_close(m->slots[k].b, reason, m->cfg.bye_ms);
    }
}

/* ---- Shutdown ------------------------------------------------------------------------------ */

static void shutdown_bots(ar_match *m, const char *reason)
{
    for (int k = 0; k < m->cfg.players; k++) {
        ar_bot *b = m->slots[k].b;
        if (!b)
            continue;
        if (b->state == AR_BOT_FAILED)
            ar_bot_clear(b);
        if (b->state != AR_BOT_CLOSING)
            ar_bot_close(b, reason, m->cfg.bye_ms);
    }
    /* wait for the goodbyes (each bot's own timer kills it after bye_ms) */
    double deadline = ar_now_ms() + m->cfg.bye_ms + 2000;
    for (;;) {
        int closing = 0;
        for (int k = 0; k < m->cfg.players; k++)
            if (m->slots[k].b && m->slots[k].b->state == AR_BOT_CLOSING)
                closing = 1;
        if (!closing || ar_now_ms() > deadline)
            break;
        loop_wait(m, 50);
    }
    /* whatever is left of any process group, and descendants that escaped their group */
    for (int k = 0; k < m->cfg.players; k++)
        if (m->slots[k].b && m->slots[k].b->pid > 0)
            ar_spawn_kill(m->slots[k].b->pid);
    ar_spawn_kill_adopted(NULL, 0);
    /* reap them all, adopted ones too, so that nothing outlives the match (not even a zombie) */
    deadline = ar_now_ms() + 3000;
    while (ar_loop_reap(m->loop) && ar_spawn_children() > 0 && ar_now_ms() < deadline) {
        ar_spawn_kill_adopted(NULL, 0);
        loop_wait(m, 10);
    }
}

/* ---- The match ------------------------------------------------------------------------------ */

static void summarize(ar_match *m)
{
    for (int b = 0; b < m->cfg.nbots; b++) {
        ar_bot_summary *s = &m->summaries[b];
        memset(s, 0, sizeof *s);
        s->disqualified = m->dq[b];
        s->dq_after = m->dq_after[b];
        double rs = 0;
        int rn = 0;
        for (int k = 0; k < m->cfg.players; k++) {
            slot *sl = &m->slots[k];
            if (sl->bot != b || !sl->b)
                continue;
            const ar_bot *bt = sl->b;
            s->restarts += bt->starts > 1 ? bt->starts - 1 : 0;
            s->cpu_ms += bt->cpu_ms;
            s->log_bytes += bt->log_total;
            rs += sl->ready_sum;
            rn += sl->ready_n;
            if (bt->bot_name[0] || bt->major) {
                snprintf(s->id_name, sizeof s->id_name, "%s", bt->bot_name);
                snprintf(s->id_version, sizeof s->id_version, "%s", bt->bot_version);
                s->major = bt->major;
                s->minor = bt->minor;
            }
            m->totals.connection_bytes += sizeof *bt + bt->rd.cap + bt->out.cap;
            m->totals.bytes_to_bots += bt->bytes_to_bot;
            m->totals.bytes_from_bots += bt->bytes_from_bot;
        }
        s->startup_ms = rn ? rs / rn : -1;
    }
    m->totals.bots = m->summaries;
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        m->totals.arena_max_rss_kb = ru.ru_maxrss;
        m->totals.arena_user_ms = (double)ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3;
        m->totals.arena_sys_ms = (double)ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3;
    }
}

/* Stop before the next game: slot 0 erred (check-bot), or enough was played (stop_after's
 * Decisions, once min_games games were played; or max_games). */
static int done(const ar_match *m, long long played)
{
    return m->stopping || (m->enough && played >= m->cfg.min_games);
}

int ar_match_run(ar_match *m)
{
    const ar_match_config *c = &m->cfg;
    double t0 = ar_now_ms();
    int rc = 0;

    ar_spawn_init(); /* best effort: orphans of bots become ours to kill */
    /* the precise clock only where the pace waits on the loop: elsewhere the loop's timers
     * are the clocks' limits, where a tick late is nothing, and the precise clock costs a
     * timerfd_settime per decision */
    m->loop = c->loop ? c->loop : ar_loop_new_timers(c->pace_ms > 0);
    if (!m->loop) {
        fprintf(stderr, "arena: cannot create the event loop\n");
        return -ENOMEM;
    }
    m->tick = evtimer_new(ar_loop_base(m->loop), on_tick, NULL);
    m->flush = evtimer_new(ar_loop_base(m->loop), on_flush, m);
    if (!m->tick || !m->flush)
        return -ENOMEM;

    const char **names = ar_xcalloc((size_t)c->nbots, sizeof *names);
    const char **cmds = ar_xcalloc((size_t)c->nbots, sizeof *cmds);
    const char **profs = ar_xcalloc((size_t)c->nbots, sizeof *profs);
    int *slots = ar_xcalloc((size_t)c->nbots, sizeof *slots);
    for (int b = 0; b < c->nbots; b++) {
        names[b] = c->bots[b].name;
        cmds[b] = c->bots[b].command;
        profs[b] = c->sandbox.mode != AR_SB_OFF ? ar_match_profile(&c->bots[b]) : "";
    }
    for (int k = 0; k < c->players; k++)
        slots[m->slots[k].bot]++;
    ar_results_info info = {
        .out_dir = c->out_dir,
        .rules = &c->rules,
        .players = c->players,
        .seed = c->seed,
        .deals = c->deals,
        .games_requested = c->games_requested,
        .max_games = c->max_games,
        .hands = c->hands,
        .first_deal = c->first_deal,
        .no_summary = c->no_summary,
        .nbots = c->nbots,
        .names = names,
        .commands = cmds,
        .slots = slots,
        .on_error = c->on_error == AR_ON_ERROR_FORFEIT ? "forfeit" : "substitute",
        .substitute = c->substitute == AR_SUB_FIRST ? "first" : ar_policy_name(c->substitute),
        .max_error_share = c->max_error_share,
        .clocks = c->clocks,
        .sandbox = ar_sb_mode_name(c->sandbox.mode),
        .profiles = profs,
        .memory_mb = c->sandbox.mode != AR_SB_OFF ? c->sandbox.memory_mb : 0,
    };
    m->res = ar_results_new(&info);
    free(names);
    free(cmds);
    free(profs);
    free(slots);
    if (!m->res)
        return -EIO;
    if ((rc = open_logs(m)) < 0)
        return rc;
    if (c->sandbox.mode == AR_SB_FULL)
        ar_cgroup_sweep(); /* what arenas killed before us left behind */
    if ((rc = make_bots(m)) < 0)
        return rc;

    long long played = 0;
    for (long long d = c->first_deal; d < c->first_deal + c->deals && rc == 0 && !done(m, played);
         d++)
        for (int r = 0; r < c->players && rc == 0 && !done(m, played); r++) {
            rc = play_game(m, d, r);
            if (rc == 0)
                check_dq(m);
            if (++played >= c->max_games && c->max_games > 0)
                m->enough = 1;
        }

    shutdown_bots(m, rc == -EINTR ? "interrupted" : "match over");
    m->totals.seconds = (ar_now_ms() - t0) / 1000.0;
    m->totals.interrupted = ar_loop_interrupted(m->loop);
    summarize(m);
    int wrc = ar_results_finish(m->res, &m->totals);
    if (rc == 0 && wrc < 0)
        rc = wrc;
    return rc;
}

const ar_results *ar_match_results(const ar_match *m)
{
    return m->res;
}

const ar_match_totals *ar_match_totals_of(const ar_match *m)
{
    return &m->totals;
}

const ar_bot *ar_match_bot(const ar_match *m, int slot_k)
{
    return slot_k >= 0 && slot_k < m->cfg.players ? m->slots[slot_k].b : NULL;
}

int ar_match_verdicts(const ar_match *m, int slot_k, const ar_verdict **first)
{
    const slot *sl = &m->slots[slot_k];
    *first = sl->nverdicts ? &sl->first : NULL;
    return sl->nverdicts;
}

const double *ar_match_latencies(const ar_match *m, int slot_k, long long *n)
{
    *n = m->slots[slot_k].nlat;
    return m->slots[slot_k].lat;
}
