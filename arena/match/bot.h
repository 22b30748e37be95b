/* bot.h - one connection to a bot process: its pipes, bounded frame buffers, the clocks of
 * the current request, and the protocol state machine (docs/protocol.md). A bot's misbehaviour
 * is never an arena error: it becomes an ar_verdict on the bot, the process group is killed,
 * and the match decides what that means. A bot never frees itself in a callback; the owner
 * frees it with ar_bot_free. */
#ifndef AR_BOT_H
#define AR_BOT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "frame.h"
#include "jail/spawn.h"
#include "loop.h"
#include "okr.pb-c.h"

struct event_base;

/* ---- Verdicts --------------------------------------------------------------------------- */

typedef enum ar_verdict_kind {
    AR_V_NONE = 0,
    AR_V_RE,  /* runtime error: crashed, exited, closed its pipes, could not be started */
    AR_V_TLE, /* a clock ran out (startup, decision + bank, hard ceiling, or its input), or
                 the CPU-time backstop (clock "cpu") */
    AR_V_MLE, /* memory limit: the cgroup's OOM killer, or a runtime's out-of-memory exit */
    AR_V_OLE, /* output limit: more than stdout_cap bytes in one decision or between two */
    AR_V_PE,  /* protocol error: garbage, oversized or unexpected frame, wrong decision id,
                 unsupported protocol version */
    AR_V_IA,  /* illegal action: refused by the rules (or an out-of-range index) */
    AR_V_SV,  /* sandbox violation: killed by the system-call filter (SIGSYS) */
    AR_V_DQ,  /* disqualified: game forfeited without being played */
    AR_V_COUNT
} ar_verdict_kind;

/* The verdicts that are errors of a bot, in the order results.json lists them. */
#define AR_V_FIRST_ERROR AR_V_RE
#define AR_V_LAST_ERROR AR_V_SV

/* "RE", "TLE", "MLE", "OLE", "PE", "IA", "SV", "DQ" ("" for AR_V_NONE). */
const char *ar_verdict_name(int kind);

/* A human seat that leaves (quit, Leave the game) is judged RE with this detail: the record
 * and results.json keep the code RE, as for a bot that exits; what a person reads says
 * "left the game" instead (a code reads as a crash). Only the arena writes RE details. */
#define AR_LEFT_DETAIL "left the game (quit)"
/* 1 if a verdict of this kind and detail is a human seat leaving the game. */
int ar_verdict_left(int kind, const char *detail);

typedef struct ar_verdict {
    int kind;         /* ar_verdict_kind */
    char clock[12];   /* TLE: "startup" "decision" "bank" "hard" "input"; else "" */
    char rule[16];    /* IA: RULES number or "protocol"; else "" */
    char detail[400]; /* one line for people: "killed by signal 11 (SIGSEGV); stderr ends:
                         \"Segmentation fault in move()\"" */
} ar_verdict;

/* ---- Clocks ------------------------------------------------------------------------------ */

typedef struct ar_clocks {
    uint32_t startup_ms;  /* spawn to Ready */
    uint32_t decision_ms; /* free time per decision */
    uint32_t bank_ms;     /* per game, used by decisions that take longer than decision_ms */
    uint32_t hard_ms;     /* ceiling of one decision, always */
} ar_clocks;

/* ---- Connection --------------------------------------------------------------------------- */

typedef enum ar_bot_state {
    AR_BOT_OFF = 0,    /* no process (never started, or reaped after Bye) */
    AR_BOT_HELLO,      /* Hello sent; waiting for Identify */
    AR_BOT_IDENTIFIED, /* waiting for Ready */
    AR_BOT_READY,      /* idle */
    AR_BOT_THINKING,   /* a Decision is outstanding */
    AR_BOT_CHOSE,      /* its Choice is in b->choice (ar_bot_take_choice) */
    AR_BOT_FAILED,     /* b->verdict is set; the process group was killed */
    AR_BOT_CLOSING     /* Bye sent and stdin closed; waiting for it to exit */
} ar_bot_state;

/* A seat with no process (a human at a page or a terminal, arena/play): instead of starting
 * a program, ar_bot_start asks connect for the two ends the arena speaks the protocol over:
 * fds[0] is written (the seat's "stdin"), fds[1] read (its "stdout"); both are the arena's
 * to close. The seat is refereed like any bot (clocks, verdicts, record); pid stays 0, and
 * when its end closes it is judged at once (no exit status to wait for). 0, or -errno with a
 * message in err. */
typedef int (*ar_seat_connect)(void *ud, struct event_base *base, int fds[2], char *err,
                               size_t cap);
/* Why such a seat's end closed, asked when it does (ud = connect_ud): AR_V_TLE with the
 * detail when the human went away without leaving (a closed page or terminal counts as the
 * human's timeout), AR_V_RE when they left ("quit"). NULL: always RE. */
typedef int (*ar_seat_gone)(void *ud, char *detail, size_t cap);

typedef struct ar_bot_config {
    ar_seat_connect connect; /* NULL: a program (path, argv) */
    void *connect_ud;
    ar_seat_gone gone;    /* with connect: why its end closed (NULL: RE) */
    const char *name;     /* entrant name, for messages (copied) */
    const char *path;     /* absolute program path (copied) */
    char *const *argv;    /* copied */
    ar_clocks clocks;     /* copied */
    size_t max_pending;   /* bound on queued output, bytes (e.g. 16 MiB) */
    uint32_t eof_ms;      /* after EOF on stdout: how long to wait for the exit status */
    FILE *log;            /* the bot's stderr goes here (not owned; may be NULL) */
    size_t log_cap;       /* at most this many bytes of stderr are written to log */
    const char *log_head; /* written to log before each start ("== start 2 ==\n"), may be NULL */
    uint64_t stdout_cap;  /* OLE beyond this many stdout bytes in one decision or between two
                             (0: no cap) */
    /* the sandbox (spawn.h, sandbox.h); sb_mode AR_SB_OFF (0) = a plain child process */
    int sb_mode;
    int userns;                  /* jailed modes: create a user namespace */
    const struct ar_bpf *filter; /* not owned; NULL: no seccomp */
    const char *profile;         /* "native" / "interpreted" (copied) */
    uint32_t memory_mb;          /* 0: no memory limit */
    int pids_max;                /* tasks in the bot's cgroup (FULL), 0: none */
    uint32_t cpu_s;              /* RLIMIT_CPU backstop per process, 0: none */
    char *const *binds;          /* folders shown in the jail (copied) */
    char *const *env_extra;      /* "NAME=value" for the bot's environment (copied) */
    const char *cwd;             /* its working folder (copied); NULL: the arena's */
    char *const *own;            /* its own files and folders as the jail shows them (copied),
                                    named when it dies for want of a file */
    /* 1: the bot runs only while it starts (spawn to Ready), decides (Decision written to
     * Choice read) or says goodbye; frozen the rest of the time (ar_spawn_freeze: SIGSTOP to
     * a jailed program, else the cgroup freezer or SIGSTOP to its group). 0: it runs all the
     * time (ponder = on). No effect on a seat with no process. */
    int freeze;
    /* the protocol trace (--trace): every frame each way as one line of text, with the
     * starts and verdicts; NULL: none (not owned) */
    FILE *trace;
    const char *trace_name; /* how the trace names this bot, "random(0)" (copied) */
} ar_bot_config;

enum { AR_BOT_TAIL = 2048 };

/* One bot connection. Fields are read-only outside bot.c. */
typedef struct ar_bot {
    /* configuration */
    ar_seat_connect connect; /* a seat with no process (ar_bot_config) */
    void *connect_ud;
    ar_seat_gone gone;
    char *name, *path;
    char **argv;
    char *cwd;  /* NULL: the arena's working folder */
    char **own; /* ar_bot_config.own; NULL: none */
    ar_clocks clocks;
    size_t max_pending;
    uint32_t eof_ms;
    FILE *log;
    size_t log_cap;
    ar_loop *loop;
    uint64_t stdout_cap;
    ar_jail jail; /* the sandbox of every start (binds, env_extra, profile owned) */
    uint32_t memory_mb;
    int pids_max;
    struct ar_cgroup *cgroup; /* FULL mode: the current process tree's cgroup, else NULL */
    int freeze;               /* ar_bot_config.freeze */
    int frozen;               /* the current process tree is frozen now */
    int freeze_how;           /* AR_FREEZE_CGROUP or AR_FREEZE_SIGNALS, 0 never frozen */
    uint64_t freezes;         /* times a process of this bot was frozen */

    /* process: pid > 0 while a process of ours may run (until it is reaped) */
    ar_bot_state state;
    pid_t pid;
    int in_fd, out_fd, err_fd; /* -1 when closed */
    struct event *ev_in, *ev_out, *ev_err, *ev_timer;
    int starts;         /* processes started so far */
    int exited;         /* the current pid has been reaped */
    int exit_status;    /* wait status of the last reaped program (pid 2's when jailed) */
    pid_t prog_pid;     /* the program itself (!= pid when jailed), 0 unknown */
    int status_fd;      /* jailed: where the init leaves the program's status, else -1 */
    double exec_ms;     /* spawn to execve of the current process, ms */
    uint64_t out_since; /* stdout bytes since the last Decision was sent or answered */
    int eof;            /* stdout reached EOF */
    double started_at;  /* ar_now_ms() at spawn */
    double ready_ms;    /* spawn to Ready of the current process, ms; -1 before Ready */
    double cpu_ms;      /* CPU of every process so far (user + system), as far as sampled */
    double cpu_counted; /* part of cpu_ms that belongs to the current process */

    /* frames */
    okrpb_reader rd;       /* stdout, at most OKRPB_MAX_FROM_BOT per frame */
    okrpb_buf out;         /* queued stdin bytes: out.data[out_off..out.len) are pending */
    size_t out_off;        /* bytes of out already written */
    uint64_t out_queued;   /* bytes queued since the start of this process */
    uint64_t out_written;  /* bytes written since the start of this process */
    uint64_t bytes_to_bot; /* all processes, for statistics */
    uint64_t bytes_from_bot;
    uint64_t frames_from_bot;

    /* the outstanding request */
    uint64_t decision_id;   /* id of the last Decision */
    uint64_t stale[8];      /* cancelled Decisions whose late Choice is dropped (0 = none) */
    int nstale;             /* next slot of stale[] to reuse */
    uint64_t decision_mark; /* out_queued just after the Decision frame */
    double queued_at;       /* ar_now_ms() when the Decision was queued */
    double written_at;      /* ... and when its last byte was written; 0 while not */
    double limit_ms;        /* decision_ms + bank left, capped by hard_ms */
    int limit_is_hard;      /* limit_ms came from hard_ms */
    Okrpb__FromBot *choice; /* AR_BOT_CHOSE: the reply, owned by the bot */
    double choice_ms;       /* its time: Decision written to Choice read, ms */

    /* what the bot said about itself */
    uint32_t major, minor;
    char bot_name[64], bot_version[64];

    ar_verdict verdict; /* AR_BOT_FAILED: why */

    FILE *trace; /* see ar_bot_config */
    char *trace_name;

    /* the last goodbye */
    double closed_at; /* ar_now_ms() of ar_bot_close */
    int bye_exit;     /* 0 not yet, 1 exited by itself within the grace, 2 had to be killed,
                         3 no goodbye: it was not connected (failed or never started) */
    double bye_ms;    /* Bye to exit, when bye_exit == 1 */

    /* stderr */
    size_t log_written;
    uint64_t log_total; /* bytes received, written or not */
    char tail[AR_BOT_TAIL];
    size_t tail_len;    /* the last bytes of stderr (ring not needed: shifted) */
    char oom_line[100]; /* the first out-of-memory line in the first 64 KiB of stderr: Go
                           prints it before kilobytes of stack dump, past the tail */
} ar_bot;

/* A connection with no process (AR_BOT_OFF). Never NULL (aborts on OOM). */
ar_bot *ar_bot_new(ar_loop *loop, const ar_bot_config *cfg);
/* Kills the process group if one may still run, frees everything. Accepts NULL. The pid
 * stays watched by nobody and is reaped by the loop's SIGCHLD handler. */
void ar_bot_free(ar_bot *b);

/* Start a process and queue Hello (hello is a complete Okrpb__ToBot with the hello set).
 * The startup clock runs from now to Ready. Returns 0 (state HELLO), or -errno when the
 * process could not be started: the bot is then AR_BOT_FAILED with verdict RE ("spawn failed
 * at exec: ..."). Only from AR_BOT_OFF or AR_BOT_FAILED. */
int ar_bot_start(ar_bot *b, const Okrpb__ToBot *hello);

/* Queue one message (fire and forget). Returns 0, or -EPIPE if the bot is not connected
 * (FAILED, CLOSING, OFF: the message is dropped), or -ENOBUFS after failing the bot with TLE
 * "input" because more than max_pending bytes would be waiting for it. Writing starts at
 * once; the rest is written as the pipe drains. */
int ar_bot_send(ar_bot *b, const Okrpb__ToBot *m);

/* Like ar_bot_send, but only appends the frame: it goes out with the next send or decide (so
 * that the Events before a Decision and the Decision leave in one write, one wakeup). */
int ar_bot_queue(ar_bot *b, const Okrpb__ToBot *m);

/* Queue a Decision (m->decision->id == id) and start its clocks: the decision may take
 * min(decision_ms + bank_left_ms, hard_ms) from the moment its last byte is written; until
 * then, hard_ms from now (a bot that does not read its input is TLE "input"). Only in
 * AR_BOT_READY. Returns like ar_bot_send; on 0 the state is THINKING. */
int ar_bot_decide(ar_bot *b, const Okrpb__ToBot *m, uint64_t id, uint32_t bank_left_ms);

/* AR_BOT_CHOSE: hand the Choice to the caller (who frees it with
 * okrpb__from_bot__free_unpacked(m, NULL)) and return to READY; with cfg.freeze the bot is
 * frozen (its decision is over). */
Okrpb__FromBot *ar_bot_take_choice(ar_bot *b);
/* The same, but the bot is left running: the caller freezes it (ar_bot_freeze) before any
 * other bot runs or anything waits, or asks it again at once (the match: a seat that decides
 * twice in a row, gin's draw then discard, costs no freeze and thaw). */
Okrpb__FromBot *ar_bot_take_choice_awake(ar_bot *b);

/* THINKING or CHOSE: forget the outstanding Decision (the game ended under it). A Choice for
 * it that arrives later is dropped without a verdict (the last 8 withdrawn ids are kept).
 * Back to READY. */
void ar_bot_cancel(ar_bot *b);

/* Fail the bot: record the verdict, kill its process group, close its pipes. Keeps the
 * first verdict if it already failed. fmt is printf-like, for verdict.detail. */
void ar_bot_fail(ar_bot *b, int kind, const char *clock, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* FAILED -> OFF: the caller has taken note of the verdict (the process is dead or dying). */
void ar_bot_clear(ar_bot *b);

/* Say goodbye: queue Bye (if connected), close stdin, and give the process grace_ms to exit
 * before its group is killed. State CLOSING, then OFF once reaped. From any state. */
void ar_bot_close(ar_bot *b, const char *reason, uint32_t grace_ms);

/* Is the bot connected and able to take messages (HELLO..CHOSE)? */
int ar_bot_alive(const ar_bot *b);

/* The last line of the bot's stderr (its last 2 KiB) that says a file or module was not found
 * ("No module named 'helper'", "Cannot find module", "can't open file", "No such file or
 * directory", ...), sanitized into line; 0 if there is none. A jailed bot sees only what it
 * declares (docs/sandbox.md): RE details and check-bot then say how to declare more. */
int ar_bot_missing_file(const ar_bot *b, char *line, size_t cap);

/* With cfg.freeze: let the bot's process tree run again (it must answer, say goodbye or
 * exit), or stop it where it is (it is not deciding). ar_bot_decide, ar_bot_close, the
 * Ready and the Choice call them; a no-op without freeze, without a process, or when the
 * tree is already in that state. */
void ar_bot_thaw(ar_bot *b);
void ar_bot_freeze(ar_bot *b);

/* Update b->cpu_ms from /proc (live process). Returns b->cpu_ms. */
double ar_bot_cpu_sample(ar_bot *b);

#endif
