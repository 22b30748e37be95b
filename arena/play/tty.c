/* tty.c - the human seat in a terminal (play.h): the table after every change, numbered legal
 * actions grouped by kind, and commands read line by line. */
#include "play.h"

#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ap_tty {
    ap_seat *seat;
    FILE *out;
    int colour, in_fd;
    struct event *ev;
    char line[1024];
    size_t len;
    uint64_t drawn;   /* seat version last drawn */
    int ends;         /* hand and game ends drawn */
    uint64_t sel_for; /* the decision the selection was made in */
    ap_select sel;
};

static void draw(ap_tty *t)
{
    if (ap_seat_version(t->seat) == t->drawn)
        return;
    t->drawn = ap_seat_version(t->seat);
    const Okrpb__Decision *d = ap_seat_decision(t->seat);
    /* once per move: when a decision waits, a hand or the game ends, or the seat is over;
     * not again when the human's own answer leaves the table as it was */
    if (!d && !ap_seat_over(t->seat) && ap_seat_ends(t->seat) == t->ends)
        return;
    t->ends = ap_seat_ends(t->seat);
    if (!d || d->id != t->sel_for) { /* a new decision starts with nothing selected */
        t->sel.n = 0;
        t->sel.all = 0;
        t->sel_for = d ? d->id : 0;
    }
    char *s = ap_seat_text(t->seat, t->colour, &t->sel);
    fprintf(t->out, "\n%s", s);
    if (ap_seat_decision(t->seat))
        fputs("> ", t->out);
    fflush(t->out);
    free(s);
}

static void on_change(ap_seat *s, void *ud)
{
    (void)s;
    draw(ud);
}

static void say(ap_tty *t, const char *msg)
{
    fprintf(t->out, "%s\n%s", msg, ap_seat_decision(t->seat) ? "> " : "");
    fflush(t->out);
}

static void command(ap_tty *t, char *cmd)
{
    while (*cmd == ' ' || *cmd == '\t')
        cmd++;
    size_t n = strlen(cmd);
    while (n && (cmd[n - 1] == ' ' || cmd[n - 1] == '\r' || cmd[n - 1] == '\t'))
        cmd[--n] = 0;
    if (!n) {
        say(t, "");
        return;
    }
    if (strcmp(cmd, "quit") == 0 || strcmp(cmd, "q") == 0) {
        fputs("you left the game (it counts as your seat's runtime error)\n", t->out);
        ap_seat_leave(t->seat);
        return;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "?") == 0) {
        say(t, ap_seat_practice(t->seat)
                   ? "type the number of a move from the list, or the move itself in the notation "
                     "(docs/notation.md): draw, take, discard qs, meld 4h 5h 6h, knock ... ;\n"
                     "'sel 1 4 5' selects cards of your hand by position (again: unselects), and "
                     "the list shows the moves that use them; 'clear'; 'all' lists every move; "
                     "'sort rank', 'sort suit';\n"
                     "'table' draws the table again; 'undo' takes back your last move (practice); "
                     "'hint' asks the hint bot (--hint-bot) for its move; "
                     "'quit' leaves the game"
                   : "type the number of a move from the list, or the move itself in the notation "
                     "(docs/notation.md): draw, take, discard qs, meld 4h 5h 6h, knock ... ;\n"
                     "'sel 1 4 5' selects cards of your hand by position (again: unselects), and "
                     "the list shows the moves that use them; 'clear'; 'all' lists every move; "
                     "'sort rank', 'sort suit';\n"
                     "'table' draws the table again; 'quit' leaves the game");
        return;
    }
    if (strcmp(cmd, "sort rank") == 0 || strcmp(cmd, "sort suit") == 0 ||
        strcmp(cmd, "sort") == 0 || strcmp(cmd, "all") == 0 || strcmp(cmd, "clear") == 0 ||
        strncmp(cmd, "sel ", 4) == 0) {
        if (strncmp(cmd, "sort", 4) == 0) {
            /* the selection is of positions in the hand as shown: sorting clears it */
            t->sel.by_rank = strcmp(cmd, "sort") == 0 ? !t->sel.by_rank : cmd[5] == 'r';
            t->sel.n = 0;
        } else if (strcmp(cmd, "all") == 0)
            t->sel.all = !t->sel.all;
        else if (strcmp(cmd, "clear") == 0)
            t->sel.n = 0;
        else {
            int hand = ap_seat_hand_size(t->seat);
            for (char *p = cmd + 4, *end; *p; p = end) {
                while (*p == ' ')
                    p++;
                if (!*p)
                    break;
                long k = strtol(p, &end, 10);
                if (end == p || k < 1 || k > hand) {
                    char msg[120];
                    snprintf(msg, sizeof msg, "sel: card positions 1 to %d, as the hand shows them",
                             hand);
                    say(t, msg);
                    return;
                }
                size_t at = 0;
                while (at < t->sel.n && t->sel.pos[at] != (int)k - 1)
                    at++;
                if (at < t->sel.n) /* selected again: unselected */
                    t->sel.pos[at] = t->sel.pos[--t->sel.n];
                else if (t->sel.n < AP_MAX_SEL)
                    t->sel.pos[t->sel.n++] = (int)k - 1;
            }
        }
        t->drawn = 0;
        draw(t);
        return;
    }
    if (strcmp(cmd, "table") == 0) {
        t->ends = -1; /* drawn even while nothing waits */
        t->drawn = 0;
        draw(t);
        return;
    }
    const Okrpb__Decision *d = ap_seat_decision(t->seat);
    if (!d) {
        say(t, "it is not your turn");
        return;
    }
    if (strcmp(cmd, "undo") == 0) {
        int rc = ap_seat_undo(t->seat, d->id);
        if (rc == AP_NOT_PRACTICE)
            say(t, "undo: only in a practice game (arena play --practice)");
        else if (rc == AP_NOTHING)
            say(t, "undo: you have made no move yet in this game");
        else if (rc == AP_OK) {
            fputs("taking back your last move: the game is replayed to your previous decision\n",
                  t->out);
            fflush(t->out);
        }
        return;
    }
    if (strcmp(cmd, "hint") == 0) {
        int rc = ap_seat_hint(t->seat, d->id);
        if (rc == AP_NOT_PRACTICE)
            say(t, "hint: only in a practice game (arena play --practice --hint-bot CMD)");
        else if (rc == AP_NO_HINT)
            say(t, "hint: no hint bot (arena play --practice --hint-bot CMD)");
        return;
    }
    char *end;
    long k = strtol(cmd, &end, 10);
    long index = -1;
    if (end != cmd && *end == 0) {
        if (k < 1 || (size_t)k > d->n_legal) {
            char msg[80];
            snprintf(msg, sizeof msg, "no move %ld: pick 1 to %zu", k, d->n_legal);
            say(t, msg);
            return;
        }
        index = k - 1;
    } else {
        /* a move in the notation: the engine says why it is refused (RULES x.y), on a copy
         * of the table as this seat sees it; nothing is changed */
        okr_refusal why;
        if (ap_seat_move(t->seat, cmd, &index, &why) != AP_OK) {
            char msg[400];
            ap_refusal_text(&why, msg, sizeof msg);
            snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "%s",
                     " -- nothing changed (type a move's number, or 'help')");
            say(t, msg);
            return;
        }
    }
    ap_seat_choose(t->seat, d->id, index);
}

static void on_input(evutil_socket_t fd, short what, void *ud)
{
    (void)what;
    ap_tty *t = ud;
    char buf[512];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n <= 0) { /* the terminal closed without 'quit': the human's timeout */
        event_del(t->ev);
        ap_seat_gone(t->seat, "the human's terminal closed without 'quit'");
        return;
    }
    for (ssize_t i = 0; i < n; i++) {
        if (buf[i] == '\n') {
            t->line[t->len] = 0;
            t->len = 0;
            command(t, t->line);
        } else if (t->len + 1 < sizeof t->line)
            t->line[t->len++] = buf[i];
    }
}

ap_tty *ap_tty_new(struct event_base *base, ap_seat *seat, int in_fd, FILE *out, int colour)
{
    ap_tty *t = ar_xcalloc(1, sizeof *t);
    t->seat = seat;
    t->out = out;
    t->colour = colour;
    t->in_fd = in_fd;
    t->ev = event_new(base, in_fd, EV_READ | EV_PERSIST, on_input, t);
    /* epoll cannot watch a regular file or /dev/null: no human can type there, so say so at
     * once instead of waiting out --human-ms */
    if (!t->ev || event_add(t->ev, NULL) < 0)
        ap_seat_gone(seat, "the human's input is not a terminal or a pipe (a file or /dev/null)");
    ap_seat_on_change(seat, on_change, t);
    return t;
}

void ap_tty_free(ap_tty *t)
{
    if (!t)
        return;
    ap_seat_on_change(t->seat, NULL, NULL);
    if (t->ev)
        event_free(t->ev);
    free(t);
}
