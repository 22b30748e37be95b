/* helper_bot.c - a small bot for the arena's tests, well-behaved or misbehaving on purpose.
 * Built once per mode as okrh_<mode> (tests/match/CMakeLists.txt compiles it with
 * -DHB_MODE="<mode>"), so that each misbehaviour has its own process name for pgrep; --mode
 * overrides. Speaks the protocol with blocking reads on stdin and writes on stdout.
 *
 *   okrh_<mode> [--mode M] [--after N] [--seed S] [--sleep-ms MS] [--name NAME]
 *               [--crash-if FILE]
 *
 * Modes: good (a uniformly random legal index), full (answers with the full action instead
 * of an index), seatless (full, but with the action's seat left at 0, the protobuf default,
 * as a bot that builds { type: PASS } without an SDK sends it: right at seat 0 only), slow
 * (good, but sleeps --sleep-ms before each answer), and, once it has
 * answered N decisions (--after, default 2) in its life:
 *   crash     abort(): SIGABRT                  exit      exit(3)
 *   hang      stops answering, sleeps forever   garbage   a frame that is not protobuf
 *   oversized a frame header of 1 MiB           wrongid   a Choice with another decision id
 *   illegal   a full action the rules refuse     badindex  an index past the legal list
 *   closeout  closes stdout, keeps running      flood     writes junk frames as fast as it can
 *   print     prints "debug: thinking\n" on stdout (a stray print()), then answers
 * and at the start:
 *   noread    sends Identify + Ready without reading its input, then never reads
 *   badmajor  Identify with protocol major 2    noready   Identify, then never Ready
 *   slowstart sleeps --sleep-ms before Identify
 *   printhello prints "starting up\n" on stdout before its Identify
 * and otherwise good:
 *   crashhand abort()s when a hand ends (HandEnd), between two decisions
 *   idlecrash dies of SIGALRM 100 ms after its N-th answer, while another seat thinks
 *   chatty    writes 64 KiB to stderr per decision   nobye   ignores Bye and EOF
 *   notes     a note on every Choice (protocol 1.1), hostile: markup that would close the
 *             page's script, a newline, 400 bytes of two-byte characters and a byte that is
 *             not UTF-8; on every 3rd decision a note that is invalid after 3 bytes
 *   --crash-if FILE (any mode): abort()s at a decision once FILE exists (a bot that passes
 *             its check and fails later, tests/league/hold.sh)
 *   fork      leaves a sleeping child in its process group
 *   daemon    leaves a sleeping child in a new session (escapes the group)
 * and, for the live protocol's fuzzing (tests/match/protofuzz.sh):
 *   protofuzz one fault chosen by --seed: messages out of order, repeated, empty, oversized,
 *             with a wrong id or index, during the handshake or at its K-th decision, or
 *             after Bye, each frame maybe written a byte at a time with pauses of 0-2 ms;
 *             `--plan` prints "FAULT VERDICT" (the verdict docs/protocol.md promises, "-"
 *             for none) and exits.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "frame.h"
#include "frame_in.h"
#include "okr.pb-c.h"

#ifndef HB_MODE
#define HB_MODE "good"
#endif

static const char *mode = HB_MODE;
static long after = 2;
static long sleep_ms = 0;
static const char *crash_if = NULL;
static uint64_t rng_state;
static const char *bot_name = "okrh";

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int is(const char *m)
{
    return strcmp(mode, m) == 0;
}

static void sleep_for(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

_Noreturn static void sleep_forever(void)
{
    for (;;)
        pause();
}

static int split_writes; /* protofuzz: every byte its own write(), 0-2 ms apart */

static void write_all(const void *p, size_t n);

static void write_raw(const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(1, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            exit(0); /* the arena is gone */
        c += w;
        n -= (size_t)w;
    }
}

static void write_all(const void *p, size_t n)
{
    if (!split_writes) {
        write_raw(p, n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        write_raw((const char *)p + i, 1);
        sleep_for((long)(rnd() % 3));
    }
}

static void send_msg(const Okrpb__FromBot *m)
{
    okrpb_buf b = {0};
    if (okrpb_frame_append(&b, &m->base) < 0)
        abort();
    write_all(b.data, b.len);
    okrpb_buf_free(&b);
}

static void send_identify(uint32_t major)
{
    Okrpb__Identify id = OKRPB__IDENTIFY__INIT;
    id.major = major;
    id.minor = 0;
    id.name = (char *)bot_name;
    id.version = "1.0";
    Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_IDENTIFY;
    fb.identify = &id;
    send_msg(&fb);
}

static void send_ready(void)
{
    Okrpb__Ready r = OKRPB__READY__INIT;
    Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_READY;
    fb.ready = &r;
    send_msg(&fb);
}

static void send_index(uint64_t id, uint32_t index)
{
    Okrpb__Choice c = OKRPB__CHOICE__INIT;
    c.id = id;
    c.pick_case = OKRPB__CHOICE__PICK_INDEX;
    c.index = index;
    Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_CHOICE;
    fb.choice = &c;
    send_msg(&fb);
}

static void send_index_note(uint64_t id, uint32_t index, const char *note)
{
    Okrpb__Choice c = OKRPB__CHOICE__INIT;
    c.id = id;
    c.pick_case = OKRPB__CHOICE__PICK_INDEX;
    c.index = index;
    c.note = (char *)note;
    Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_CHOICE;
    fb.choice = &c;
    send_msg(&fb);
}

static void send_action(uint64_t id, Okrpb__Action *a)
{
    Okrpb__Choice c = OKRPB__CHOICE__INIT;
    c.id = id;
    c.pick_case = OKRPB__CHOICE__PICK_ACTION;
    c.action = a;
    Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_CHOICE;
    fb.choice = &c;
    send_msg(&fb);
}

static void misbehave(const Okrpb__Decision *d)
{
    if (is("crash"))
        abort();
    if (is("exit"))
        exit(3);
    if (is("hang"))
        sleep_forever();
    if (is("garbage")) {
        /* a 16-byte frame of 0xff: field 31, wire type 7, which does not exist */
        uint8_t junk[17];
        junk[0] = 16;
        memset(junk + 1, 0xff, 16);
        write_all(junk, sizeof junk);
        sleep_forever();
    }
    if (is("oversized")) {
        uint8_t hdr[10];
        size_t n = okrpb_varint_put((uint64_t)1 << 20, hdr);
        write_all(hdr, n);
        uint8_t zero[4096] = {0};
        for (int i = 0; i < 256; i++)
            write_all(zero, sizeof zero);
        sleep_forever();
    }
    if (is("wrongid")) {
        send_index(d->id + 1000, 0);
        sleep_forever();
    }
    if (is("badindex")) {
        send_index(d->id, (uint32_t)d->n_legal + 5);
        return;
    }
    if (is("illegal")) {
        /* discard a card this seat does not hold: refused by the rules */
        int held[53] = {0};
        for (size_t i = 0; d->view && i < d->view->n_hand; i++)
            if (d->view->hand[i] < 53)
                held[d->view->hand[i]] = 1;
        uint32_t card = 0;
        while (card < 52 && held[card])
            card++;
        Okrpb__Action a = OKRPB__ACTION__INIT;
        a.type = OKRPB__ACTION_TYPE__DISCARD;
        a.seat = d->view ? d->view->seat : 0;
        a.card = card;
        send_action(d->id, &a);
        return;
    }
    if (is("print")) {
        /* a debug print on the protocol channel: 'd' reads as a length of 100 */
        write_all("debug: thinking\n", 16);
        send_index(d->id, 0);
        sleep_forever();
    }
    if (is("closeout")) {
        close(1);
        sleep_forever();
    }
    if (is("flood")) {
        uint8_t junk[4099];
        size_t n = okrpb_varint_put(4096, junk);
        memset(junk + n, 0x08, sizeof junk - n);
        for (;;)
            write_all(junk, n + 4096);
    }
}

/* ---- protofuzz ---------------------------------------------------------------------------- */

typedef struct fault {
    const char *name, *verdict; /* the verdict docs/protocol.md section 8 promises */
    int in_game;                /* 1: at the K-th decision, 0: in the handshake, 2: after Bye */
} fault;

static const fault faults[] = {
    {"none", "-", 1},         {"ready-first", "PE", 0},   {"identify-twice", "PE", 0},
    {"ready-twice", "PE", 0}, {"choice-early", "PE", 0},  {"empty", "PE", 1},
    {"wrongid", "PE", 1},     {"double-choice", "PE", 1}, {"identify-mid", "PE", 1},
    {"ready-mid", "PE", 1},   {"badindex", "IA", 1},      {"oversized", "PE", 1},
    {"garbage", "PE", 1},     {"after-bye", "-", 2},
};
static const fault *pf; /* the chosen fault; NULL outside protofuzz */
static long pf_at;      /* the decision (counted from 0 in this process) it happens at */

static void protofuzz_plan(void)
{
    /* seeds 0, 1, 2, ... take the faults in turn; the rest of the plan is random */
    pf = &faults[rng_state % (sizeof faults / sizeof faults[0])];
    pf_at = (long)(rnd() % 6);
    split_writes = (int)(rnd() % 2);
}

static int pf_is(const char *name)
{
    return pf && strcmp(pf->name, name) == 0;
}

/* The handshake, with its fault. */
static void protofuzz_handshake(void)
{
    if (pf_is("ready-first"))
        send_ready();
    send_identify(1);
    if (pf_is("identify-twice"))
        send_identify(1);
    if (pf_is("choice-early"))
        send_index(1, 0);
    send_ready();
    if (pf_is("ready-twice"))
        send_ready();
}

/* At the chosen decision: 1 if the fault answered it (or will never answer). */
static int protofuzz_decision(const Okrpb__Decision *d)
{
    if (pf_is("empty")) {
        uint8_t zero = 0; /* a frame of length 0: an empty FromBot */
        write_all(&zero, 1);
    } else if (pf_is("wrongid")) {
        send_index(d->id ^ 0x40, 0);
    } else if (pf_is("double-choice")) {
        send_index(d->id, 0);
        send_index(d->id, 0);
        return 1;
    } else if (pf_is("identify-mid")) {
        send_identify(1);
    } else if (pf_is("ready-mid")) {
        send_ready();
    } else if (pf_is("badindex")) {
        send_index(d->id, (uint32_t)d->n_legal);
        pf = NULL; /* an IA keeps the process: behave from now on */
        return 1;
    } else if (pf_is("oversized")) {
        uint8_t hdr[10];
        size_t n = okrpb_varint_put((uint64_t)OKRPB_MAX_FROM_BOT + 1, hdr);
        write_all(hdr, n);
    } else if (pf_is("garbage")) {
        static const uint8_t junk[] = {5, 0xff, 0xff, 0xff, 0xff, 0xff};
        write_all(junk, sizeof junk);
    } else {
        return 0;
    }
    return 0;
}

/* After Bye: messages nobody waits for any more; the arena must ignore them. */
static void protofuzz_after_bye(void)
{
    if (!pf_is("after-bye"))
        return;
    send_index(12345, 0);
    send_identify(1);
    send_ready();
}

static void leave_child(int new_session)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (new_session)
            setsid();
        /* keep no pipe of the arena open: the child must not hold the protocol up */
        close(0);
        close(1);
        sleep_forever();
    }
}

int main(int argc, char **argv)
{
    int print_plan = 0;
    rng_state = (uint64_t)getpid() * 0x2545f4914f6cdd1dULL ^ (uint64_t)time(NULL);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--mode") == 0 && i + 1 < argc)
            mode = argv[++i];
        else if (strcmp(argv[i], "--after") == 0 && i + 1 < argc)
            after = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            rng_state = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--sleep-ms") == 0 && i + 1 < argc)
            sleep_ms = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
            bot_name = argv[++i];
        else if (strcmp(argv[i], "--crash-if") == 0 && i + 1 < argc)
            crash_if = argv[++i];
        else if (strcmp(argv[i], "--plan") == 0)
            print_plan = 1;
        else {
            fprintf(stderr, "helper_bot: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (is("protofuzz")) {
        protofuzz_plan();
        if (print_plan) {
            printf("%s %s\n", pf->name, pf->verdict);
            return 0;
        }
        protofuzz_handshake();
    }
    if (is("noread")) {
        send_identify(1);
        send_ready();
        sleep_forever();
    }
    if (is("fork"))
        leave_child(0);
    if (is("daemon"))
        leave_child(1);

    uint8_t *buf = NULL;
    size_t cap = 0;
    long answered = 0;
    for (;;) {
        long len = read_frame(&buf, &cap);
        if (len < 0)
            break;
        Okrpb__ToBot *m = okrpb__to_bot__unpack(NULL, (size_t)len, buf);
        if (!m) {
            fprintf(stderr, "helper_bot: bad frame from the arena\n");
            return 1;
        }
        switch (m->msg_case) {
        case OKRPB__TO_BOT__MSG_HELLO:
            if (is("protofuzz"))
                break; /* it answered before reading Hello */
            if (is("slowstart"))
                sleep_for(sleep_ms ? sleep_ms : 5000);
            if (is("printhello"))
                write_all("starting up\n", 12);
            send_identify(is("badmajor") ? 2 : 1);
            if (!is("noready"))
                send_ready();
            break;
        case OKRPB__TO_BOT__MSG_DECISION: {
            const Okrpb__Decision *d = m->decision;
            if (pf && pf->in_game == 1 && answered == pf_at && protofuzz_decision(d)) {
                answered++;
                break;
            }
            if (crash_if && access(crash_if, F_OK) == 0)
                abort();
            if (answered >= after)
                misbehave(d);
            if (is("badindex") || is("illegal")) {
                /* misbehave() answered: one error per game is enough, then behave */
                if (answered >= after) {
                    after = answered + 1000000;
                    answered++;
                    break;
                }
            }
            if (is("slow"))
                sleep_for(sleep_ms);
            if (is("chatty")) {
                static char noise[65536];
                memset(noise, 'x', sizeof noise - 1);
                noise[sizeof noise - 1] = '\n';
                fwrite(noise, 1, sizeof noise, stderr);
            }
            uint32_t n = (uint32_t)d->n_legal;
            uint32_t pick = n ? (uint32_t)(rnd() % n) : 0;
            if (is("full") && n)
                send_action(d->id, d->legal[pick]);
            else if (is("seatless") && n) {
                Okrpb__Action a = *d->legal[pick];
                a.seat = 0;
                send_action(d->id, &a);
            } else if (is("notes")) {
                static char note[600];
                if (answered % 3 == 2) {
                    snprintf(note, sizeof note, "ok \xc3(rest");
                } else {
                    size_t k = (size_t)snprintf(note, sizeof note, "%s",
                                                "</script><img src=x onerror=alert(1)>\nwhy ");
                    for (int i = 0; i < 200; i++, k += 2)
                        memcpy(note + k, "\xc3\xa9", 2); /* U+00E9 */
                    note[k++] = (char)0xff;
                    note[k] = '\0';
                }
                send_index_note(d->id, pick, note);
            } else
                send_index(d->id, pick);
            answered++;
            if (is("idlecrash") && answered == after) {
                struct itimerval it = {{0, 0}, {0, 100000}};
                setitimer(ITIMER_REAL, &it, NULL); /* SIGALRM's default action ends us */
            }
            break;
        }
        case OKRPB__TO_BOT__MSG_GAME_START:
            /* the id a bot is given, in its log: tests check it never names the seed */
            if (m->game_start && m->game_start->game_id)
                fprintf(stderr, "helper_bot: game %s\n", m->game_start->game_id);
            break;
        case OKRPB__TO_BOT__MSG_HAND_END:
            if (is("crashhand"))
                abort();
            break;
        case OKRPB__TO_BOT__MSG_BYE:
            okrpb__to_bot__free_unpacked(m, NULL);
            free(buf);
            protofuzz_after_bye();
            if (is("nobye"))
                sleep_forever();
            return 0;
        default:
            break;
        }
        okrpb__to_bot__free_unpacked(m, NULL);
    }
    free(buf);
    if (is("nobye"))
        sleep_forever();
    return 0;
}
