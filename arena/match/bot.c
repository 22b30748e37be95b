/* bot.c - one bot connection: non-blocking pipes on the match's libevent loop, a bounded
 * frame reader (OKRPB_MAX_FROM_BOT), a bounded write queue, one timer for whichever clock
 * runs, and the protocol state machine. Everything a bot can do wrong ends in ar_bot_fail();
 * nothing here returns an error to the match for a bot's behaviour. */
#include "bot.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event2/event.h>

#include "fastpack.h"
#include "jail/cgroup.h"
#include "jail/sandbox.h"
#include "jail/seccomp.h"
#include "jail/spawn.h"
#include "text.h"
#include "util/util.h"

enum { PROTO_MAJOR = 1 };

const char *ar_verdict_name(int kind)
{
    static const char *const names[AR_V_COUNT] = {"",   "RE", "TLE", "MLE", "OLE",
                                                  "PE", "IA", "SV",  "DQ"};
    return kind >= 0 && kind < AR_V_COUNT ? names[kind] : "?";
}

int ar_verdict_left(int kind, const char *detail)
{
    return kind == AR_V_RE && detail && strcmp(detail, AR_LEFT_DETAIL) == 0;
}

static const char *state_name(int s)
{
    static const char *const names[] = {"off",      "hello", "identified", "ready",
                                        "thinking", "chose", "failed",     "closing"};
    return s >= 0 && s < (int)(sizeof names / sizeof names[0]) ? names[s] : "?";
}

int ar_bot_alive(const ar_bot *b)
{
    return b->state >= AR_BOT_HELLO && b->state <= AR_BOT_CHOSE;
}

/* ---- Trace ------------------------------------------------------------------------------- */

/* One line of the trace: seconds since the first traced line of this process, the direction
 * ('>' to the bot, '<' from it, '!' the arena's own note), the bot, the text. Like
 * cutechess-cli's debug output. */
static void trace_line(const ar_bot *b, char dir, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void trace_line(const ar_bot *b, char dir, const char *fmt, ...)
{
    static double t0;
    if (!b->trace)
        return;
    double now = ar_now_ms();
    if (t0 == 0)
        t0 = now;
    fprintf(b->trace, "%10.3f %c%s: ", (now - t0) / 1000.0, dir, b->trace_name);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(b->trace, fmt, ap);
    va_end(ap);
    fputc('\n', b->trace);
    fflush(b->trace);
}

static void trace_msg(const ar_bot *b, char dir, const ProtobufCMessage *m)
{
    if (!b->trace)
        return;
    static char text[1 << 16];
    okrpb_text(m, text, sizeof text);
    trace_line(b, dir, "%s", text);
}

static void trace_bytes(const ar_bot *b, const char *what, const uint8_t *p, size_t n)
{
    if (!b->trace)
        return;
    char hex[3 * 32 + 8];
    size_t h = 0;
    for (size_t i = 0; i < n && i < 32; i++)
        h += (size_t)snprintf(hex + h, sizeof hex - h, "%s%02x", i ? " " : "", p[i]);
    trace_line(b, '<', "%s (%zu bytes): %s%s", what, n, hex, n > 32 ? " ..." : "");
}

/* ---- Setup ------------------------------------------------------------------------------- */

static void on_timer(evutil_socket_t fd, short what, void *ud);

static char **copy_strv(char *const *v)
{
    int n = 0;
    while (v && v[n])
        n++;
    char **c = ar_xcalloc((size_t)n + 1, sizeof *c);
    for (int i = 0; i < n; i++)
        c[i] = ar_xstrdup(v[i]);
    return c;
}

ar_bot *ar_bot_new(ar_loop *loop, const ar_bot_config *cfg)
{
    ar_bot *b = ar_xcalloc(1, sizeof *b);
    b->loop = loop;
    b->connect = cfg->connect;
    b->connect_ud = cfg->connect_ud;
    b->gone = cfg->gone;
    b->name = ar_xstrdup(cfg->name ? cfg->name : "bot");
    b->path = ar_xstrdup(cfg->path ? cfg->path : "");
    b->cwd = cfg->cwd ? ar_xstrdup(cfg->cwd) : NULL;
    b->own = cfg->own ? copy_strv(cfg->own) : NULL;
    int n = 0;
    while (cfg->argv && cfg->argv[n])
        n++;
    b->argv = ar_xcalloc((size_t)n + 1, sizeof *b->argv);
    for (int i = 0; i < n; i++)
        b->argv[i] = ar_xstrdup(cfg->argv[i]);
    b->clocks = cfg->clocks;
    b->max_pending = cfg->max_pending ? cfg->max_pending : (size_t)16 << 20;
    b->eof_ms = cfg->eof_ms ? cfg->eof_ms : 500;
    b->log = cfg->log;
    b->log_cap = cfg->log_cap;
    b->stdout_cap = cfg->stdout_cap;
    b->jail.mode = cfg->sb_mode;
    b->jail.userns = cfg->userns;
    b->jail.filter = cfg->filter;
    b->jail.profile = ar_xstrdup(cfg->profile ? cfg->profile : "native");
    b->jail.mem_bytes = (uint64_t)cfg->memory_mb << 20;
    b->jail.cpu_s = cfg->cpu_s;
    b->jail.binds = copy_strv(cfg->binds);
    b->jail.env_extra = copy_strv(cfg->env_extra);
    b->memory_mb = cfg->memory_mb;
    b->pids_max = cfg->pids_max;
    b->freeze = cfg->freeze && !cfg->connect;
    b->in_fd = b->out_fd = b->err_fd = b->status_fd = -1;
    b->ready_ms = -1;
    b->trace = cfg->trace;
    b->trace_name = ar_xstrdup(cfg->trace_name ? cfg->trace_name : b->name);
    if (okrpb_reader_init(&b->rd, OKRPB_MAX_FROM_BOT) < 0)
        ar_xmalloc((size_t)-1); /* reports "out of memory" and aborts */
    b->ev_timer = evtimer_new(ar_loop_base(loop), on_timer, b);
    if (!b->ev_timer)
        abort();
    return b;
}

static void drop_event(struct event **ev)
{
    if (*ev) {
        event_free(*ev);
        *ev = NULL;
    }
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Close the pipes and their events. The process (if any) is left alone. */
static void close_conn(ar_bot *b)
{
    drop_event(&b->ev_in);
    drop_event(&b->ev_out);
    drop_event(&b->ev_err);
    close_fd(&b->in_fd);
    close_fd(&b->out_fd);
    close_fd(&b->err_fd);
    if (b->exited)
        close_fd(&b->status_fd); /* else the init may still leave the program's status */
    evtimer_del(b->ev_timer);
    b->out.len = 0;
    b->out_off = 0;
}

static void drop_choice(ar_bot *b)
{
    if (b->choice) {
        okrpb__from_bot__free_unpacked(b->choice, NULL);
        b->choice = NULL;
    }
}

void ar_bot_free(ar_bot *b)
{
    if (!b)
        return;
    if (b->pid > 0 && !b->exited) {
        ar_bot_thaw(b); /* its init must run to die with it */
        ar_spawn_kill(b->pid);
        ar_loop_unwatch(b->loop, b->pid);
    }
    close_conn(b);
    close_fd(&b->status_fd);
    ar_cgroup_free(b->cgroup);
    b->cgroup = NULL;
    drop_event(&b->ev_timer);
    drop_choice(b);
    okrpb_reader_free(&b->rd);
    okrpb_buf_free(&b->out);
    for (char **a = b->argv; a && *a; a++)
        free(*a);
    free(b->argv);
    free(b->name);
    free(b->trace_name);
    free(b->path);
    free(b->cwd);
    ar_spawn_argv_free(b->own);
    free((char *)b->jail.profile);
    ar_spawn_argv_free((char **)b->jail.binds);
    ar_spawn_argv_free((char **)b->jail.env_extra);
    free(b);
}

static void arm(ar_bot *b, double ms)
{
    if (ms < 0)
        ms = 0;
    struct timeval tv;
    tv.tv_sec = (time_t)(ms / 1000.0);
    tv.tv_usec = (suseconds_t)((ms - (double)tv.tv_sec * 1000.0) * 1000.0);
    evtimer_add(b->ev_timer, &tv);
}

/* ---- Freezing ----------------------------------------------------------------------------- */

static void set_frozen(ar_bot *b, int on)
{
    if (!b->freeze || b->pid <= 0 || b->exited || b->frozen == on)
        return;
    int how = ar_spawn_freeze(b->pid, b->prog_pid, b->cgroup, on);
    if (how < 0)
        return; /* gone: its exit is on its way */
    b->frozen = on;
    b->freeze_how = how;
    if (on)
        b->freezes++;
}

void ar_bot_thaw(ar_bot *b)
{
    set_frozen(b, 0);
}

void ar_bot_freeze(ar_bot *b)
{
    set_frozen(b, 1);
}

/* ---- Failure ------------------------------------------------------------------------------ */

static void copy_str(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

void ar_bot_fail(ar_bot *b, int kind, const char *clock, const char *rule, const char *fmt, ...)
{
    if (b->state == AR_BOT_FAILED)
        return;
    memset(&b->verdict, 0, sizeof b->verdict);
    b->verdict.kind = kind;
    copy_str(b->verdict.clock, sizeof b->verdict.clock, clock);
    copy_str(b->verdict.rule, sizeof b->verdict.rule, rule);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->verdict.detail, sizeof b->verdict.detail, fmt, ap);
    va_end(ap);
    trace_line(b, '!', "verdict %s%s%s: %s", ar_verdict_name(kind), b->verdict.clock[0] ? " " : "",
               b->verdict.clock, b->verdict.detail);
    if (b->pid > 0 && !b->exited) {
        ar_bot_thaw(b);
        ar_spawn_kill(b->pid);
    }
    close_conn(b);
    drop_choice(b);
    b->state = AR_BOT_FAILED;
}

void ar_bot_clear(ar_bot *b)
{
    if (b->state == AR_BOT_FAILED)
        b->state = AR_BOT_OFF;
}

static void describe_status(int st, char *buf, size_t cap)
{
    if (WIFEXITED(st))
        snprintf(buf, cap, "exited with status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st)) {
        const char *abbrev = sigabbrev_np(WTERMSIG(st));
        snprintf(buf, cap, "killed by signal %d (SIG%s)", WTERMSIG(st), abbrev ? abbrev : "?");
    } else
        snprintf(buf, cap, "ended with wait status 0x%x", (unsigned)st);
}

/* ---- Writing ------------------------------------------------------------------------------ */

static void broken(ar_bot *b, const char *what);

static void started_clock(ar_bot *b)
{
    if (b->state == AR_BOT_THINKING && b->written_at == 0 && b->out_written >= b->decision_mark) {
        b->written_at = ar_now_ms();
        arm(b, b->limit_ms);
    }
}

static void flush(ar_bot *b)
{
    while (b->in_fd >= 0 && b->out_off < b->out.len) {
        ssize_t n = write(b->in_fd, b->out.data + b->out_off, b->out.len - b->out_off);
        if (n > 0) {
            b->out_off += (size_t)n;
            b->out_written += (uint64_t)n;
            b->bytes_to_bot += (uint64_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (b->ev_out && !event_pending(b->ev_out, EV_WRITE, NULL))
                event_add(b->ev_out, NULL);
            started_clock(b);
            return;
        }
        /* EPIPE: the bot closed its stdin, or died; find out which before judging */
        if (b->state == AR_BOT_CLOSING) {
            b->out.len = b->out_off = 0;
            close_fd(&b->in_fd);
            drop_event(&b->ev_out);
            return;
        }
        broken(b, "closed its input (stdin)");
        return;
    }
    if (b->out_off == b->out.len) {
        b->out.len = b->out_off = 0;
        if (b->ev_out)
            event_del(b->ev_out);
    }
    started_clock(b);
}

static void on_writable(evutil_socket_t fd, short what, void *ud)
{
    (void)fd;
    (void)what;
    flush(ud);
}

int ar_bot_queue(ar_bot *b, const Okrpb__ToBot *m)
{
    if (!ar_bot_alive(b) || b->in_fd < 0)
        return -EPIPE;
    if (b->out_off > 0 && b->out_off >= b->out.len - b->out_off) {
        memmove(b->out.data, b->out.data + b->out_off, b->out.len - b->out_off);
        b->out.len -= b->out_off;
        b->out_off = 0;
    }
    trace_msg(b, '>', &m->base);
    size_t before = b->out.len;
    if (okrpb_frame_append(&b->out, &m->base) < 0)
        ar_xmalloc((size_t)-1); /* out of memory: abort with the message */
    b->out_queued += b->out.len - before;
    size_t pending = b->out.len - b->out_off;
    if (pending > b->max_pending) {
        ar_bot_fail(b, AR_V_TLE, "input", "",
                    "does not read its input: %zu bytes waiting, more than the %zu allowed",
                    pending, b->max_pending);
        return -ENOBUFS;
    }
    return 0;
}

int ar_bot_send(ar_bot *b, const Okrpb__ToBot *m)
{
    int rc = ar_bot_queue(b, m);
    if (rc < 0)
        return rc;
    flush(b);
    return ar_bot_alive(b) ? 0 : -EPIPE;
}

int ar_bot_decide(ar_bot *b, const Okrpb__ToBot *m, uint64_t id, uint32_t bank_left_ms)
{
    if (b->state != AR_BOT_READY)
        return -EPIPE;
    double now = ar_now_ms();
    int rc = ar_bot_queue(b, m);
    if (rc < 0)
        return rc;
    b->decision_id = id;
    b->out_since = 0;
    b->decision_mark = b->out_queued;
    b->queued_at = now;
    b->written_at = 0;
    double limit = (double)b->clocks.decision_ms + (double)bank_left_ms;
    b->limit_is_hard = limit >= (double)b->clocks.hard_ms;
    b->limit_ms = b->limit_is_hard ? (double)b->clocks.hard_ms : limit;
    b->state = AR_BOT_THINKING;
    arm(b, b->clocks.hard_ms); /* until the Decision is out: the bot must read it */
    flush(b);
    /* after the write: the bot wakes once, to its Decision, not once to the thaw and again to
     * the bytes (its clock, from the last byte written, holds the thaw's microseconds) */
    ar_bot_thaw(b);
    return ar_bot_alive(b) ? 0 : -EPIPE;
}

Okrpb__FromBot *ar_bot_take_choice_awake(ar_bot *b)
{
    if (b->state != AR_BOT_CHOSE)
        return NULL;
    Okrpb__FromBot *c = b->choice;
    b->choice = NULL;
    b->state = AR_BOT_READY;
    return c;
}

Okrpb__FromBot *ar_bot_take_choice(ar_bot *b)
{
    Okrpb__FromBot *c = ar_bot_take_choice_awake(b);
    if (c)
        ar_bot_freeze(b); /* its decision is over */
    return c;
}

void ar_bot_cancel(ar_bot *b)
{
    if (b->state == AR_BOT_THINKING) {
        b->stale[b->nstale] = b->decision_id;
        b->nstale = (b->nstale + 1) % 8;
    }
    if (b->state == AR_BOT_THINKING || b->state == AR_BOT_CHOSE) {
        drop_choice(b);
        evtimer_del(b->ev_timer);
        b->state = AR_BOT_READY;
        ar_bot_freeze(b);
    }
}

/* ---- Reading ------------------------------------------------------------------------------ */

static int find_oom(const char *buf, size_t n, char *out, size_t cap);

static void handle_frame(ar_bot *b, const uint8_t *msg, size_t len)
{
    b->frames_from_bot++;
    Okrpb__FromBot *fb = okrpb_from_bot_unpack(len, msg); /* protobuf-c's, fast for a Choice */
    if (fb)
        trace_msg(b, '<', &fb->base);
    else
        trace_bytes(b, "not a FromBot", msg, len);
    if (!fb) {
        /* the JVM prints "There is insufficient memory for the Java Runtime Environment" on
         * stdout whatever its flags say: a dying runtime's message, not a protocol error */
        char line[100];
        if (find_oom((const char *)msg, len, line, sizeof line))
            ar_bot_fail(b, AR_V_MLE, "", "", "out of memory (limit %u MiB): \"%s\" on stdout",
                        b->memory_mb, line);
        else
            ar_bot_fail(b, AR_V_PE, "", "", "sent %zu bytes that are not a FromBot message", len);
        return;
    }
    switch (fb->msg_case) {
    case OKRPB__FROM_BOT__MSG_IDENTIFY: {
        if (b->state != AR_BOT_HELLO) {
            ar_bot_fail(b, AR_V_PE, "", "", "sent Identify while %s", state_name(b->state));
            break;
        }
        const Okrpb__Identify *id = fb->identify;
        b->major = id->major;
        b->minor = id->minor;
        ar_sanitize(id->name ? id->name : "", 63, b->bot_name, sizeof b->bot_name);
        ar_sanitize(id->version ? id->version : "", 63, b->bot_version, sizeof b->bot_version);
        if (id->major != PROTO_MAJOR) {
            char reason[128];
            snprintf(reason, sizeof reason,
                     "protocol version %u.%u is not supported: the arena speaks %d.x", id->major,
                     id->minor, PROTO_MAJOR);
            Okrpb__Bye bye = OKRPB__BYE__INIT;
            bye.reason = reason;
            Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
            tb.msg_case = OKRPB__TO_BOT__MSG_BYE;
            tb.bye = &bye;
            ar_bot_send(b, &tb);
            ar_bot_fail(b, AR_V_PE, "", "", "%s", reason);
            break;
        }
        b->state = AR_BOT_IDENTIFIED;
        break;
    }
    case OKRPB__FROM_BOT__MSG_READY:
        if (b->state != AR_BOT_IDENTIFIED) {
            ar_bot_fail(b, AR_V_PE, "", "", "sent Ready while %s%s", state_name(b->state),
                        b->state == AR_BOT_HELLO ? " (Identify comes first)" : "");
            break;
        }
        b->ready_ms = ar_now_ms() - b->started_at;
        evtimer_del(b->ev_timer);
        b->state = AR_BOT_READY;
        ar_bot_freeze(b); /* until its first Decision */
        break;
    case OKRPB__FROM_BOT__MSG_CHOICE: {
        uint64_t id = fb->choice->id;
        int late = 0;
        for (int k = 0; k < 8 && !late; k++)
            if (id && b->stale[k] == id) {
                b->stale[k] = 0; /* the late answer to a decision the arena withdrew */
                late = 1;
            }
        if (late && (b->state == AR_BOT_READY || b->state == AR_BOT_THINKING))
            break;
        if (b->state != AR_BOT_THINKING) {
            ar_bot_fail(b, AR_V_PE, "", "", "sent a Choice (id %llu) while %s",
                        (unsigned long long)id, state_name(b->state));
            break;
        }
        if (id != b->decision_id) {
            ar_bot_fail(b, AR_V_PE, "", "", "sent a Choice for decision %llu, expected %llu",
                        (unsigned long long)id, (unsigned long long)b->decision_id);
            break;
        }
        double now = ar_now_ms();
        double took = b->written_at > 0 ? now - b->written_at : 0;
        if (took > b->limit_ms) {
            /* the reply and the timer raced; the measured time decides */
            ar_bot_fail(b, AR_V_TLE,
                        b->limit_is_hard ? "hard" : (b->clocks.bank_ms ? "bank" : "decision"), "",
                        "answered after %.1f ms, the limit was %.0f ms", took, b->limit_ms);
            break;
        }
        evtimer_del(b->ev_timer);
        b->choice = fb;
        b->choice_ms = took;
        b->state = AR_BOT_CHOSE;
        b->out_since = 0;
        return; /* the bot keeps fb */
    }
    default:
        ar_bot_fail(b, AR_V_PE, "", "", "sent an empty message (no Identify, Ready or Choice)");
        break;
    }
    okrpb__from_bot__free_unpacked(fb, NULL);
}

/* The line of buf that says the runtime ran out of memory ("MemoryError", "JavaScript heap
 * out of memory", Go's "fatal error: runtime: out of memory", Java's "There is insufficient
 * memory for the Java Runtime Environment", ...), sanitized into out; 0 if there is none. */
static int find_oom(const char *buf, size_t n, char *out, size_t cap)
{
    static const char *const marks[] = {
        "out of memory", "memoryerror",          "cannot allocate memory", "outofmemoryerror",
        "bad_alloc",     "memory allocation of", "insufficient memory",    NULL};
    char low[16384 + 1];
    if (n > sizeof low - 1)
        n = sizeof low - 1;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)tolower((unsigned char)buf[i]);
    low[n] = '\0';
    for (int m = 0; marks[m]; m++) {
        const char *hit = memmem(low, n, marks[m], strlen(marks[m]));
        if (!hit)
            continue;
        size_t at = (size_t)(hit - low), s = at, e = at;
        while (s > 0 && buf[s - 1] != '\n')
            s--;
        while (e < n && buf[e] != '\n')
            e++;
        char line[16384 + 1];
        memcpy(line, buf + s, e - s);
        line[e - s] = '\0';
        ar_sanitize(line, 80, out, cap);
        return 1;
    }
    return 0;
}

/* The out-of-memory line of the bot's stderr: the first one seen early (log_bytes), else one
 * in the last AR_BOT_TAIL bytes. */
static int tail_says_oom(const ar_bot *b, char *out, size_t cap)
{
    if (b->oom_line[0]) {
        snprintf(out, cap, "%s", b->oom_line);
        return 1;
    }
    return find_oom(b->tail, b->tail_len, out, cap);
}

int ar_bot_missing_file(const ar_bot *b, char *line, size_t cap)
{
    static const char *const marks[] = {"No module named",
                                        "Cannot find module",
                                        "can't open file",
                                        "No such file",
                                        "cannot open shared object",
                                        "Could not find or load main class",
                                        "FileNotFoundError",
                                        "ENOENT",
                                        NULL};
    const char *t = b->tail, *end = b->tail + b->tail_len, *hit = NULL, *hit_end = NULL;
    while (t < end) {
        const char *nl = memchr(t, '\n', (size_t)(end - t));
        const char *e = nl ? nl : end;
        for (int m = 0; marks[m]; m++)
            if (memmem(t, (size_t)(e - t), marks[m], strlen(marks[m]))) {
                hit = t;
                hit_end = e;
                break;
            }
        t = e + 1;
    }
    if (!hit)
        return 0;
    char raw[AR_BOT_TAIL + 1];
    memcpy(raw, hit, (size_t)(hit_end - hit));
    raw[hit_end - hit] = '\0';
    ar_sanitize(raw, 64, line, cap);
    return 1;
}

/* "bot.py, helper.py" (the file names of what the jail shows as the bot's own), at most cap. */
static void own_names(const ar_bot *b, char *out, size_t cap)
{
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; b->own && b->own[i] && k + 1 < cap; i++) {
        const char *s = strrchr(b->own[i], '/');
        int n = snprintf(out + k, cap - k, "%s%s", i ? ", " : "", s && s[1] ? s + 1 : b->own[i]);
        if (n < 0 || (size_t)n >= cap - k) {
            snprintf(out + (cap > 4 ? cap - 4 : 0), cap > 4 ? 4 : cap, "...");
            return;
        }
        k += (size_t)n;
    }
}

/* Is this line only a traceback's underline ("    ^^^^^~~~")? It says nothing on one line. */
static int underline_only(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strchr(" \t\r^~", s[i]))
            return 0;
    return 1;
}

/* The last lines of the current process's stderr as evidence: up to 3 lines that say
 * something (a traceback's last frame and its exception, "can't open file"), joined with
 * " | ", sanitized, cut from the front to fit cap - 20. "" if it wrote nothing. */
static void stderr_ending(const ar_bot *b, char *out, size_t cap)
{
    out[0] = '\0';
    const char *t = b->tail;
    size_t e = b->tail_len, pieces[3][2];
    int k = 0;
    while (e > 0 && k < 3) {
        while (e > 0 && (t[e - 1] == '\n' || t[e - 1] == '\r'))
            e--;
        size_t s = e;
        while (s > 0 && t[s - 1] != '\n')
            s--;
        if (e > s && !underline_only(t + s, e - s)) {
            pieces[k][0] = s;
            pieces[k][1] = e;
            k++;
        }
        e = s;
    }
    if (k == 0 || cap < 40)
        return;
    char joined[AR_BOT_TAIL + 16];
    size_t j = 0;
    for (int i = k - 1; i >= 0; i--) {
        size_t s = pieces[i][0], len = pieces[i][1] - s;
        while (len > 0 && (t[s] == ' ' || t[s] == '\t')) /* indentation says nothing here */
            s++, len--;
        if (j && j + 3 < sizeof joined)
            memcpy(joined + j, " | ", 3), j += 3;
        if (len > sizeof joined - 1 - j)
            len = sizeof joined - 1 - j;
        memcpy(joined + j, t + s, len);
        j += len;
    }
    joined[j] = '\0';
    size_t room = cap - 20, from = j > room ? j - room : 0;
    char clean[AR_BOT_TAIL + 16];
    ar_sanitize(joined + from, j - from, clean, sizeof clean);
    if (snprintf(out, cap, "; stderr ends: \"%s%s\"", from ? "..." : "", clean) >= (int)cap)
        out[cap - 1] = '\0'; /* cut to fit (cannot happen: clean is at most room bytes) */
}

/* The program has ended (b->exit_status is its own status, never the init's): the verdict
 * with its evidence. */
static void judge_exit(ar_bot *b)
{
    char what[96], line[100];
    int st = b->exit_status;
    describe_status(st, what, sizeof what);
    const char *when =
        b->state == AR_BOT_HELLO || b->state == AR_BOT_IDENTIFIED ? " before Ready" : "";
    int abnormal = WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) != 0);
    int ooms = b->cgroup ? ar_cgroup_oom_kills(b->cgroup) : -1;
    if (ooms > 0) {
        uint64_t peak = ar_cgroup_mem_peak(b->cgroup);
        ar_bot_fail(b, AR_V_MLE, "", "",
                    "the kernel's OOM killer ended it at the memory limit of %u MiB (peak %llu "
                    "MiB, %d kill%s): %s%s",
                    b->memory_mb, (unsigned long long)(peak >> 20), ooms, ooms == 1 ? "" : "s",
                    what, when);
        return;
    }
    if (abnormal && tail_says_oom(b, line, sizeof line)) {
        ar_bot_fail(b, AR_V_MLE, "", "", "out of memory (limit %u MiB): \"%s\"; %s%s", b->memory_mb,
                    line, what, when);
        return;
    }
    if (WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS && b->jail.filter) {
        uint32_t arch = 0;
        long nr = b->prog_pid > 0 ? ar_seccomp_killer_arch(b->prog_pid, b->started_at, &arch) : -1;
        char call[96];
        if (nr >= 0) {
            ar_seccomp_describe(nr, arch, call, sizeof call);
            ar_bot_fail(b, AR_V_SV, "", "", "%s%s", call, when);
        } else
            ar_bot_fail(b, AR_V_SV, "", "", "killed by SIGSYS (a forbidden system call)%s", when);
        return;
    }
    if (WIFSIGNALED(st) && WTERMSIG(st) == SIGXCPU && b->jail.cpu_s) {
        ar_bot_fail(b, AR_V_TLE, "cpu", "", "used its CPU time limit of %u s: %s%s", b->jail.cpu_s,
                    what, when);
        return;
    }
    char ending[260];
    stderr_ending(b, ending, sizeof ending);
    if (abnormal && b->jail.mode >= AR_SB_ROOTLESS && ar_bot_missing_file(b, line, sizeof line)) {
        /* most often a file the jail does not show it: say what it sees, how to show more */
        char names[64];
        own_names(b, names, sizeof names);
        ar_bot_fail(b, AR_V_RE, "", "",
                    "%s%s%s; the jail shows it only %s%s; declare more: --files DIR "
                    "(.tour: files = DIR)",
                    what, when, ending[0] ? ending : "", names[0] ? names : "the runtime",
                    strcmp(b->jail.profile, "interpreted") == 0 ? " and the SDK" : "");
        return;
    }
    ar_bot_fail(b, AR_V_RE, "", "", "%s%s%s", what, when, ending);
}

/* EOF on stdout or EPIPE on stdin. The exit status makes the better verdict, so wait up to
 * eof_ms for it. */
static void broken(ar_bot *b, const char *what)
{
    if (!ar_bot_alive(b))
        return;
    if (b->exited) {
        judge_exit(b);
        return;
    }
    if (b->connect) { /* no process, no exit status to wait for: the seat has left */
        (void)what;   /* "closed its output" says nothing to a person */
        char why[200] = "";
        if (b->gone && b->gone(b->connect_ud, why, sizeof why) == AR_V_TLE)
            ar_bot_fail(b, AR_V_TLE, "gone", "", "%s", why);
        else
            ar_bot_fail(b, AR_V_RE, "", "", "%s", AR_LEFT_DETAIL);
        return;
    }
    if (!b->eof) {
        b->eof = 1;
        ar_bot_thaw(b); /* its init must run to reap it and pass on its status */
        drop_event(&b->ev_in);
        drop_event(&b->ev_out);
        close_fd(&b->in_fd);
        copy_str(b->verdict.detail, sizeof b->verdict.detail, what);
        arm(b, b->eof_ms);
    }
}

/* 1 if `name` (a path or a bare name) is a file whose name starts with one of the words, or
 * ends with the suffix (a script run directly). */
static int named(const char *name, const char *const *words, const char *suffix)
{
    if (!name)
        return 0;
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    for (int i = 0; words[i]; i++)
        if (strncmp(base, words[i], strlen(words[i])) == 0)
            return 1;
    size_t n = strlen(base), k = strlen(suffix);
    return n > k && strcmp(base + n - k, suffix) == 0;
}

/* The hint of a stray print, by the program (python3 bot.py, ./bot.py, node bot.js): the SDKs
 * move print() and console.log off the channel when they are loaded, so in Python and
 * JavaScript the usual cause is output before that import (or a bot without the SDK). */
static const char *stray_hint(const ar_bot *b)
{
    static const char *const py[] = {"python", "pypy", NULL}, *const js[] = {"node", NULL};
    if (named(b->path, py, ".py"))
        return "stdout is the protocol channel: import okbot before anything prints (it sends "
               "print() to stderr), or print to sys.stderr";
    if (named(b->path, js, ".js"))
        return "stdout is the protocol channel: require('okbot') before anything writes (it "
               "sends console.log to stderr), or write to stderr";
    return "stdout is the protocol channel: write debug output to stderr";
}

/* Bytes that cannot begin a FromBot frame: PE, with the bytes as the evidence (hex and as
 * text) and the usual cause, a print() to stdout. p[0..n) starts at the frame's first byte. */
static void stray_output(ar_bot *b, const uint8_t *p, size_t n)
{
    /* the JVM prints its out-of-memory message on stdout whatever its flags say: a dying
     * runtime's message, not a protocol error */
    char line[100];
    if (find_oom((const char *)p, n, line, sizeof line)) {
        ar_bot_fail(b, AR_V_MLE, "", "", "out of memory (limit %u MiB): \"%s\" on stdout",
                    b->memory_mb, line);
        return;
    }
    trace_bytes(b, "stray bytes", p, n);
    enum { SHOW = 12 };
    char hex[SHOW * 3 + 4] = "", text[SHOW * 2 + 4] = "";
    size_t k = n < SHOW ? n : SHOW, h = 0, t = 0;
    int printable = 0;
    for (size_t i = 0; i < k; i++) {
        h += (size_t)snprintf(hex + h, sizeof hex - h, "%s%02x", i ? " " : "", p[i]);
        if (p[i] == '\n' || p[i] == '\r' || p[i] == '\t') {
            text[t++] = '\\';
            text[t++] = p[i] == '\n' ? 'n' : p[i] == '\r' ? 'r' : 't';
        } else
            text[t++] = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '.';
        printable += p[i] >= 0x20 && p[i] < 0x7f;
    }
    text[t] = '\0';
    if (n > k)
        snprintf(hex + h, sizeof hex - h, " ...");
    const char *hint = printable * 2 >= (int)k ? stray_hint(b)
                                               : "stdout carries only length-prefixed FromBot "
                                                 "frames (docs/protocol.md)";
    ar_bot_fail(b, AR_V_PE, "", "", "sent bytes that are not a FromBot frame: %s \"%s\"; %s", hex,
                text, hint);
}

/* Read what is there (a bounded number of times) and act on every whole frame. */
static void read_some(ar_bot *b, int max_reads)
{
    for (int i = 0; i < max_reads && b->out_fd >= 0; i++) {
        size_t room = 0;
        uint8_t *space = okrpb_reader_space(&b->rd, &room);
        if (!space || room == 0) {
            /* a whole frame is pending: cannot happen after process_frames, but never spin */
            ar_bot_fail(b, AR_V_PE, "", "", "frame reader stalled");
            return;
        }
        ssize_t n = read(b->out_fd, space, room);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n < 0) {
            ar_bot_fail(b, AR_V_RE, "", "", "reading its output failed: %s", strerror(errno));
            return;
        }
        if (n == 0) {
            if (b->state == AR_BOT_CLOSING) {
                drop_event(&b->ev_in);
                close_fd(&b->out_fd);
                return;
            }
            broken(b, "closed its output (stdout)");
            return;
        }
        b->bytes_from_bot += (uint64_t)n;
        b->out_since += (uint64_t)n;
        if (b->stdout_cap && b->out_since > b->stdout_cap && b->state != AR_BOT_CLOSING) {
            ar_bot_fail(b, AR_V_OLE, "", "", "wrote more than %llu bytes on stdout %s",
                        (unsigned long long)b->stdout_cap,
                        b->state == AR_BOT_THINKING ? "in one decision" : "outside a decision");
            return;
        }
        if (b->state == AR_BOT_CLOSING) {
            b->rd.len = b->rd.consumed = 0; /* saying goodbye: read and drop */
            continue;
        }
        okrpb_reader_commit(&b->rd, (size_t)n);
        const uint8_t *msg;
        size_t len;
        int rc;
        for (;;) {
            /* judge each frame by its first bytes: text on stdout is caught now, not after a
             * clock runs out waiting for the length its first character spelled */
            const uint8_t *head = b->rd.buf + b->rd.consumed;
            size_t have = b->rd.len - b->rd.consumed;
            int ok = okrpb_from_bot_head(head, have);
            rc = okrpb_reader_next(&b->rd, &msg, &len);
            if (ok < 0 && rc != OKRPB_FRAME_EVARINT && rc != OKRPB_FRAME_ETOOBIG) {
                stray_output(b, head, have);
                return;
            }
            if (rc != OKRPB_FRAME_OK)
                break;
            handle_frame(b, msg, len);
            if (!ar_bot_alive(b))
                return;
        }
        if (rc == OKRPB_FRAME_EVARINT) {
            ar_bot_fail(b, AR_V_PE, "", "", "sent a malformed frame length (varint)");
            return;
        }
        if (rc == OKRPB_FRAME_ETOOBIG) {
            ar_bot_fail(b, AR_V_PE, "", "", "sent a frame longer than %d bytes",
                        OKRPB_MAX_FROM_BOT);
            return;
        }
        if ((size_t)n < room)
            return; /* the pipe is most likely empty; level-triggered events call again */
    }
}

static void on_readable(evutil_socket_t fd, short what, void *ud)
{
    (void)fd;
    (void)what;
    read_some(ud, 8);
}

static void log_bytes(ar_bot *b, const char *p, size_t n)
{
    b->log_total += n;
    if (b->log && b->log_written < b->log_cap) {
        size_t k = n < b->log_cap - b->log_written ? n : b->log_cap - b->log_written;
        fwrite(p, 1, k, b->log);
        b->log_written += k;
        if (b->log_written >= b->log_cap)
            fprintf(b->log, "\n[arena: log of %s truncated at %zu bytes]\n", b->name, b->log_cap);
    }
    /* an early out-of-memory line (runtimes print it first, then a long dump) */
    if (!b->oom_line[0] && b->log_total - n < 65536)
        find_oom(p, n, b->oom_line, sizeof b->oom_line);
    /* keep the last AR_BOT_TAIL bytes */
    if (n >= AR_BOT_TAIL) {
        memcpy(b->tail, p + n - AR_BOT_TAIL, AR_BOT_TAIL);
        b->tail_len = AR_BOT_TAIL;
    } else {
        if (b->tail_len + n > AR_BOT_TAIL) {
            size_t drop = b->tail_len + n - AR_BOT_TAIL;
            memmove(b->tail, b->tail + drop, b->tail_len - drop);
            b->tail_len -= drop;
        }
        memcpy(b->tail + b->tail_len, p, n);
        b->tail_len += n;
    }
}

static void on_stderr(evutil_socket_t fd, short what, void *ud)
{
    (void)fd;
    (void)what;
    ar_bot *b = ud;
    char buf[16384];
    for (int i = 0; i < 4 && b->err_fd >= 0; i++) {
        ssize_t n = read(b->err_fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            drop_event(&b->ev_err);
            close_fd(&b->err_fd);
            return;
        }
        log_bytes(b, buf, (size_t)n);
        if ((size_t)n < sizeof buf)
            return;
    }
}

/* ---- Clocks and exits ------------------------------------------------------------------------ */

static void on_timer(evutil_socket_t fd, short what, void *ud)
{
    (void)fd;
    (void)what;
    ar_bot *b = ud;
    if (b->state == AR_BOT_CLOSING) {
        ar_spawn_kill(b->pid); /* grace is over */
        b->bye_exit = 2;
        close_conn(b);
        return;
    }
    if (!ar_bot_alive(b))
        return;
    if (b->eof) {
        char what_[sizeof b->verdict.detail];
        copy_str(what_, sizeof what_, b->verdict.detail);
        ar_bot_fail(b, AR_V_RE, "", "", "%s but did not exit", what_);
        return;
    }
    switch (b->state) {
    case AR_BOT_HELLO:
    case AR_BOT_IDENTIFIED:
        ar_bot_fail(b, AR_V_TLE, "startup", "",
                    "no %s within the startup budget of %u ms (--startup-ms)",
                    b->state == AR_BOT_HELLO ? "Identify" : "Ready", b->clocks.startup_ms);
        break;
    case AR_BOT_THINKING:
        if (b->written_at == 0)
            ar_bot_fail(b, AR_V_TLE, "input", "",
                        "does not read its input: the Decision was not taken within %u ms",
                        b->clocks.hard_ms);
        else if (b->limit_is_hard)
            ar_bot_fail(b, AR_V_TLE, "hard", "",
                        "no Choice within %.0f ms, the hard limit of one decision (%s)",
                        b->limit_ms, b->connect ? "--human-ms" : "--hard-ms");
        else if (b->clocks.bank_ms)
            ar_bot_fail(b, AR_V_TLE, "bank", "",
                        "no Choice within %.0f ms: %u ms per decision (--decision-ms) + %.0f ms "
                        "left of its bank for the game (--bank-ms)",
                        b->limit_ms, b->clocks.decision_ms,
                        b->limit_ms - (double)b->clocks.decision_ms);
        else
            ar_bot_fail(b, AR_V_TLE, "decision", "",
                        "no Choice within %.0f ms, the time per decision (--decision-ms)",
                        b->limit_ms);
        break;
    default:
        break;
    }
}

static void on_exit_cb(pid_t pid, int status, const struct rusage *ru, void *ud)
{
    ar_bot *b = ud;
    if (pid != b->pid)
        return;
    b->exited = 1;
    b->exit_status = status;
    if (b->status_fd >= 0) {
        /* jailed: the init's own status says nothing; the program's comes over the pipe
         * (nothing there: we killed the init, and its status is the verdict's evidence) */
        ar_proc pr = {.status_fd = b->status_fd};
        int st;
        if (ar_spawn_prog_status(&pr, &st))
            b->exit_status = st;
        b->status_fd = -1;
    }
    double total = (double)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1e3 +
                   (double)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1e3;
    double tree = b->cgroup ? ar_cgroup_cpu_ms(b->cgroup) : -1;
    if (tree > total)
        total = tree;
    if (total > b->cpu_counted)
        b->cpu_ms += total - b->cpu_counted;
    b->cpu_counted = total;
    if (b->state == AR_BOT_CLOSING) {
        if (b->bye_exit == 0) {
            b->bye_exit = 1;
            b->bye_ms = ar_now_ms() - b->closed_at;
        }
        /* drain what it said last (its stderr may still hold a parting message) */
        if (b->ev_err)
            on_stderr(b->err_fd, EV_READ, b);
        close_conn(b);
        b->state = AR_BOT_OFF;
        return;
    }
    if (!ar_bot_alive(b))
        return;
    read_some(b, 64); /* frames it wrote before dying come first */
    if (b->ev_err)
        on_stderr(b->err_fd, EV_READ, b);
    if (ar_bot_alive(b))
        judge_exit(b);
}

double ar_bot_cpu_sample(ar_bot *b)
{
    if (b->pid > 0 && !b->exited) {
        /* the whole tree from its cgroup, else the program's own clock (not the init's) */
        double c = b->cgroup ? ar_cgroup_cpu_ms(b->cgroup) : -1;
        if (c < 0 && b->prog_pid > 0)
            c = ar_spawn_cpu_ms(b->prog_pid);
        if (c > b->cpu_counted) {
            b->cpu_ms += c - b->cpu_counted;
            b->cpu_counted = c;
        }
    }
    return b->cpu_ms;
}

/* ---- Start and stop ---------------------------------------------------------------------- */

int ar_bot_start(ar_bot *b, const Okrpb__ToBot *hello)
{
    if (b->state != AR_BOT_OFF && b->state != AR_BOT_FAILED)
        return -EBUSY;
    if (b->pid > 0 && !b->exited) {
        /* the previous process was killed but not reaped yet: the loop reaps it */
        ar_bot_cpu_sample(b);
        ar_loop_unwatch(b->loop, b->pid);
    }
    close_conn(b);
    drop_choice(b);
    b->rd.len = b->rd.consumed = 0;
    b->out_queued = b->out_written = 0;
    b->eof = 0;
    b->exited = 0;
    b->pid = 0;
    b->frozen = 0; /* a new process runs until its Ready */
    b->ready_ms = -1;
    b->cpu_counted = 0;
    b->decision_id = 0;
    memset(b->stale, 0, sizeof b->stale);
    b->written_at = 0;
    b->major = b->minor = 0;
    b->bot_name[0] = b->bot_version[0] = '\0';
    b->tail_len = 0; /* the evidence of a verdict is this process's stderr */
    memset(&b->verdict, 0, sizeof b->verdict);
    b->state = AR_BOT_OFF;

    if (b->log && b->log_written < b->log_cap) {
        int n = fprintf(b->log, "[arena: start %d of %s]\n", b->starts + 1, b->name);
        if (n > 0)
            b->log_written += (size_t)n;
    }

    ar_proc p;
    char err[PATH_MAX + 200];
    close_fd(&b->status_fd);
    ar_cgroup_free(b->cgroup); /* the previous process tree's */
    b->cgroup = NULL;
    b->out_since = 0;
    b->prog_pid = 0;
    if (b->jail.mode == AR_SB_FULL) {
        char cgerr[256];
        b->cgroup =
            ar_cgroup_new(b->name, (uint64_t)b->memory_mb << 20, b->pids_max, cgerr, sizeof cgerr);
        if (!b->cgroup) {
            /* the arena's problem, not the bot's: run on with the rlimits, say so once */
            static int warned;
            if (!warned++)
                fprintf(stderr,
                        "arena: warning: no cgroup for %s (%s); memory is limited by "
                        "rlimits only\n",
                        b->name, cgerr);
        }
    }
    if (b->connect) {
        int fds[2] = {-1, -1};
        b->starts++;
        b->started_at = ar_now_ms();
        int crc = b->connect(b->connect_ud, ar_loop_base(b->loop), fds, err, sizeof err);
        if (crc < 0) {
            ar_bot_fail(b, AR_V_RE, "", "", "%s", err);
            return crc;
        }
        trace_line(b, '!', "connected %s (no process, start %d)", b->name, b->starts);
        b->in_fd = fds[0];
        b->out_fd = fds[1];
        b->err_fd = -1;
        b->exec_ms = 0;
        struct event_base *cbase = ar_loop_base(b->loop);
        b->ev_in = event_new(cbase, b->out_fd, EV_READ | EV_PERSIST, on_readable, b);
        b->ev_out = event_new(cbase, b->in_fd, EV_WRITE | EV_PERSIST, on_writable, b);
        if (!b->ev_in || !b->ev_out)
            abort();
        event_add(b->ev_in, NULL);
        b->state = AR_BOT_HELLO;
        arm(b, b->clocks.startup_ms);
        ar_bot_send(b, hello);
        return 0;
    }
    b->jail.cgroup = b->cgroup;
    ar_spawn_opts o = {.path = b->path,
                       .argv = b->argv,
                       .envp = NULL,
                       .cwd = b->cwd,
                       .jail = b->jail.mode != AR_SB_OFF ? &b->jail : NULL};
    b->starts++;
    b->started_at = ar_now_ms();
    int rc = ar_spawn_start(&o, &p, err, sizeof err);
    if (rc < 0) {
        ar_bot_fail(b, AR_V_RE, "", "", "%s", err);
        return rc;
    }
    trace_line(b, '!', "started %s (pid %d, start %d)", b->path, (int)p.pid, b->starts);
    b->pid = p.pid;
    b->prog_pid = p.prog_pid;
    b->status_fd = p.status_fd;
    b->exec_ms = p.exec_ms;
    b->in_fd = p.in_fd;
    b->out_fd = p.out_fd;
    b->err_fd = p.err_fd;
    ar_loop_watch(b->loop, b->pid, on_exit_cb, b);
    struct event_base *base = ar_loop_base(b->loop);
    b->ev_in = event_new(base, b->out_fd, EV_READ | EV_PERSIST, on_readable, b);
    b->ev_out = event_new(base, b->in_fd, EV_WRITE | EV_PERSIST, on_writable, b);
    b->ev_err = event_new(base, b->err_fd, EV_READ | EV_PERSIST, on_stderr, b);
    if (!b->ev_in || !b->ev_out || !b->ev_err)
        abort();
    event_add(b->ev_in, NULL);
    event_add(b->ev_err, NULL);
    b->state = AR_BOT_HELLO;
    arm(b, b->clocks.startup_ms);
    ar_bot_send(b, hello);
    return 0;
}

void ar_bot_close(ar_bot *b, const char *reason, uint32_t grace_ms)
{
    int was_alive = ar_bot_alive(b);
    ar_bot_thaw(b); /* it must read its Bye, or at least exit */
    if (was_alive && reason) {
        Okrpb__Bye bye = OKRPB__BYE__INIT;
        bye.reason = (char *)reason;
        Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
        tb.msg_case = OKRPB__TO_BOT__MSG_BYE;
        tb.bye = &bye;
        ar_bot_send(b, &tb);
    }
    drop_choice(b);
    b->closed_at = ar_now_ms();
    b->bye_exit = was_alive ? 0 : 3;
    /* whatever did not fit in the pipe is lost: a bot that does not read gets no goodbye */
    drop_event(&b->ev_out);
    close_fd(&b->in_fd);
    b->out.len = b->out_off = 0;
    if (b->pid > 0 && !b->exited) {
        b->state = AR_BOT_CLOSING;
        arm(b, grace_ms);
    } else {
        close_conn(b);
        b->state = AR_BOT_OFF;
    }
}
