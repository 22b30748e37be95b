/* browser.c - the human seat's page (play.h): the page, its state as JSON with long polling,
 * and the answers it posts. Every request has passed web.c's checks (token, host, sizes). */
#include "play.h"

#include "util/util.h"
#include "view/view.h"
#include "web/web.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern const unsigned char ap_asset_play_html[];
extern const unsigned long ap_asset_play_html_len;

enum { MAX_WAITERS = 64, POLL_S = 20 };

struct ap_browser {
    struct event_base *base;
    ap_seat *seat;
    aw_server *srv;
    aw_waitlist *polls; /* /state?since= requests held until the seat changes */
    char *page;         /* play.html with the table drawing filled in */
    size_t page_len;
    struct event *watch; /* ap_browser_set_page_timeout's check, or NULL */
    double timeout_ms;
};

/* The seat's JSON, and "polls": the long polls held now (a test waits on it: a 65th is refused
 * only once 64 are held) */
static void reply_state(struct evhttp_request *req, void *ud)
{
    ap_browser *b = ud;
    json_t *o = ap_seat_json(b->seat);
    json_object_set_new(o, "polls", json_integer(b->polls ? aw_waitlist_count(b->polls) : 0));
    aw_reply_json(req, 200, o);
}

static void on_seat_change(ap_seat *s, void *ud)
{
    (void)s;
    ap_browser *b = ud;
    aw_waitlist_wake(b->polls);
}

/* play.html's @TABLE_JS@ and @TABLE_CSS@: the replay page's own table drawing (view.h) */
static int fill(void *ctx, FILE *out, const char *name)
{
    (void)ctx;
    if (strcmp(name, "TABLE_JS") == 0)
        av_write_table_js(out);
    else if (strcmp(name, "TABLE_CSS") == 0)
        av_write_table_css(out);
    else
        fprintf(out, "@%s@", name);
    return 0;
}

static void page(struct evhttp_request *req, void *ud)
{
    ap_browser *b = ud;
    if (evhttp_request_get_command(req) != EVHTTP_REQ_GET) {
        aw_reply_error(req, 405, "GET only");
        return;
    }
    aw_reply(req, 200, "text/html; charset=utf-8", b->page, b->page_len);
}

static void state(struct evhttp_request *req, void *ud)
{
    ap_browser *b = ud;
    if (evhttp_request_get_command(req) != EVHTTP_REQ_GET) {
        aw_reply_error(req, 405, "GET only");
        return;
    }
    char since[32];
    if (aw_request_query(req, "since", since, sizeof since) < 0 || ap_seat_over(b->seat)) {
        reply_state(req, b);
        return;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(since, &end, 10);
    if (errno || end == since || *end) {
        aw_reply_error(req, 400, "since: a version number was expected");
        return;
    }
    if (v != ap_seat_version(b->seat)) {
        reply_state(req, b);
    } else if (aw_waitlist_hold(b->polls, req) < 0) {
        /* as the live server does: more pages open than held polls, so this one retries */
        evhttp_add_header(evhttp_request_get_output_headers(req), "Retry-After", "2");
        aw_reply_error(req, 503, "too many pages waiting: try again");
    }
}

/* The body's "id": a Decision id as a decimal string (JSON numbers lose 64-bit precision in
 * a browser). -1 if it is missing or not one. */
static int body_id(json_t *o, uint64_t *id)
{
    const char *ids = json_string_value(json_object_get(o, "id"));
    char *end = NULL;
    errno = 0;
    *id = ids ? strtoull(ids, &end, 10) : 0;
    return !ids || !*ids || errno || *end ? -1 : 0;
}

/* A Decision id that is not the waiting one, said plainly: not the human's turn, or an old,
 * replayed or made-up id. Nothing was changed. */
static void reply_stale(struct evhttp_request *req, const ap_seat *s)
{
    if (!ap_seat_decision(s))
        aw_reply_error(
            req, 409, "it is not your turn (no decision of yours is waiting): nothing was changed");
    else
        aw_reply_error(req, 409,
                       "that decision is not the one waiting (already answered, replayed or "
                       "made up): nothing was changed");
}

/* POST /act {"id": "<decision id>", "index": N}, or {"id", "move": "<the move in the notation>"}
 * (a refusal names its rule: 422 {"error", "rule", "reason"}); an optional "seat" must be this
 * page's seat. Whatever is refused changes nothing. */
static void act(struct evhttp_request *req, void *ud)
{
    ap_browser *b = ud;
    if (evhttp_request_get_command(req) != EVHTTP_REQ_POST) {
        aw_reply_error(req, 405, "POST only");
        return;
    }
    char err[200];
    json_t *o = aw_request_json(req, err, sizeof err);
    if (!o) {
        aw_reply_error(req, 400, err);
        return;
    }
    json_t *ix = json_object_get(o, "index"), *mv = json_object_get(o, "move"),
           *seat = json_object_get(o, "seat");
    uint64_t id;
    if (body_id(o, &id) < 0 || json_is_integer(ix) == json_is_string(mv) ||
        (seat && !json_is_integer(seat))) {
        json_decref(o);
        aw_reply_error(req, 400,
                       "expected {\"id\": \"<decision id>\", \"index\": <number>} or "
                       "{\"id\": \"<decision id>\", \"move\": \"<a move in the notation>\"}");
        return;
    }
    if (seat && json_integer_value(seat) != ap_seat_number(b->seat)) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "seat %lld is not yours: this page plays seat %d only; nothing was changed",
                 (long long)json_integer_value(seat), ap_seat_number(b->seat));
        json_decref(o);
        aw_reply_error(req, 403, msg);
        return;
    }
    long long index = json_is_integer(ix) ? (long long)json_integer_value(ix) : -1;
    if (mv && !ap_seat_over(b->seat)) {
        const Okrpb__Decision *d = ap_seat_decision(b->seat);
        if (!d || d->id != id) {
            json_decref(o);
            reply_stale(req, b->seat);
            return;
        }
        long k;
        okr_refusal why;
        if (ap_seat_move(b->seat, json_string_value(mv), &k, &why) != AP_OK) {
            char msg[400], rule[sizeof why.rule], reason[sizeof why.reason];
            ap_refusal_text(&why, msg, sizeof msg - 32);
            size_t n = strlen(msg);
            snprintf(msg + n, sizeof msg - n, "%s", "; nothing was changed");
            ar_sanitize(why.rule, strnlen(why.rule, sizeof why.rule), rule, sizeof rule);
            ar_sanitize(why.reason, strnlen(why.reason, sizeof why.reason), reason, sizeof reason);
            json_decref(o);
            aw_reply_json(req, 422,
                          json_pack("{s:s,s:s,s:s}", "error", msg, "rule", rule, "reason", reason));
            return;
        }
        index = k;
    }
    json_decref(o);
    int rc = ap_seat_choose(b->seat, id, index);
    if (rc == AP_STALE)
        reply_stale(req, b->seat);
    else if (rc == AP_RANGE)
        aw_reply_error(req, 400, "no such legal action in this decision: nothing was changed");
    else if (rc == AP_GONE)
        aw_reply_error(req, 409, "the game is over for this seat");
    else
        aw_reply_json(req, 200, json_pack("{s:b}", "ok", 1));
}

/* POST /check {"id": "<decision id>", "move": "<a move in the notation>"}: what /act would
 * do with that move, changing nothing: 200 {"ok": true, "index": N} for a legal move, 200
 * {"ok": false, "error", "rule", "reason"} for one the engine refuses (so that the page refuses
 * a typed move before sending it, without a failed request in the browser's console); 409 when
 * the id is not the waiting decision's; 400 for anything else. */
static void check(struct evhttp_request *req, void *ud)
{
    ap_browser *b = ud;
    if (evhttp_request_get_command(req) != EVHTTP_REQ_POST) {
        aw_reply_error(req, 405, "POST only");
        return;
    }
    char err[200];
    json_t *o = aw_request_json(req, err, sizeof err);
    if (!o) {
        aw_reply_error(req, 400, err);
        return;
    }
    uint64_t id;
    json_t *mv = json_object_get(o, "move");
    if (body_id(o, &id) < 0 || !json_is_string(mv)) {
        json_decref(o);
        aw_reply_error(
            req, 400,
            "expected {\"id\": \"<decision id>\", \"move\": \"<a move in the notation>\"}");
        return;
    }
    const Okrpb__Decision *d = ap_seat_decision(b->seat);
    if (ap_seat_over(b->seat) || !d || d->id != id) {
        json_decref(o);
        reply_stale(req, b->seat);
        return;
    }
    long k;
    okr_refusal why;
    int rc = ap_seat_move(b->seat, json_string_value(mv), &k, &why);
    json_decref(o);
    if (rc == AP_OK) {
        aw_reply_json(req, 200, json_pack("{s:b,s:I}", "ok", 1, "index", (json_int_t)k));
        return;
    }
    char msg[400], rule[sizeof why.rule], reason[sizeof why.reason];
    ap_refusal_text(&why, msg, sizeof msg - 32);
    size_t n = strlen(msg);
    snprintf(msg + n, sizeof msg - n, "%s", "; nothing was changed");
    ar_sanitize(why.rule, strnlen(why.rule, sizeof why.rule), rule, sizeof rule);
    ar_sanitize(why.reason, strnlen(why.reason, sizeof why.reason), reason, sizeof reason);
    aw_reply_json(
        req, 200,
        json_pack("{s:b,s:s,s:s,s:s}", "ok", 0, "error", msg, "rule", rule, "reason", reason));
}

/* A POST whose body is {"id": "<decision id>"}: the id, or -1 after answering the error */
static int post_id(struct evhttp_request *req, uint64_t *id)
{
    if (evhttp_request_get_command(req) != EVHTTP_REQ_POST) {
        aw_reply_error(req, 405, "POST only");
        return -1;
    }
    char err[200];
    json_t *o = aw_request_json(req, err, sizeof err);
    if (!o) {
        aw_reply_error(req, 400, err);
        return -1;
    }
    int rc = body_id(o, id);
    json_decref(o);
    if (rc < 0)
        aw_reply_error(req, 400, "expected {\"id\": \"<decision id>\"}");
    return rc < 0 ? -1 : 0;
}

/* POST /undo {"id": "<decision id>"}: practice only; the id rules of /act */
static void undo(struct evhttp_request *req, void *ud)
{
    ap_browser *b = ud;
    uint64_t id;
    if (post_id(req, &id) < 0)
        return;
    int rc = ap_seat_undo(b->seat, id);
    if (rc == AP_NOT_PRACTICE)
        aw_reply_error(req, 403, "takebacks only in a practice game (arena play --practice)");
    else if (rc == AP_STALE)
        aw_reply_error(req, 409, "that decision is not the one waiting: nothing was changed");
    else if (rc == AP_NOTHING)
        aw_reply_error(req, 409, "you have made no move yet in this game: nothing was changed");
    else if (rc == AP_GONE)
        aw_reply_error(req, 409, "the game is over for this seat");
    else
        aw_reply_json(req, 200, json_pack("{s:b}", "ok", 1));
}

/* POST /hint {"id": "<decision id>"}: practice with --hint-bot only; the id rules of /act. The
 * answer comes in the state ("hint"). */
static void hint(struct evhttp_request *req, void *ud)
{
    ap_browser *b = ud;
    uint64_t id;
    if (post_id(req, &id) < 0)
        return;
    int rc = ap_seat_hint(b->seat, id);
    if (rc == AP_NOT_PRACTICE)
        aw_reply_error(req, 403, "hints only in a practice game (arena play --practice)");
    else if (rc == AP_NO_HINT)
        aw_reply_error(req, 403, "no hint bot: start arena play with --hint-bot CMD");
    else if (rc == AP_STALE)
        aw_reply_error(req, 409, "that decision is not the one waiting: nothing was changed");
    else if (rc == AP_GONE)
        aw_reply_error(req, 409, "the game is over for this seat");
    else
        aw_reply_json(req, 200, json_pack("{s:b}", "ok", 1));
}

static void quit(struct evhttp_request *req, void *ud)
{
    ap_browser *b = ud;
    if (evhttp_request_get_command(req) != EVHTTP_REQ_POST) {
        aw_reply_error(req, 405, "POST only");
        return;
    }
    aw_reply_json(req, 200, json_pack("{s:b}", "ok", 1));
    ap_seat_leave(b->seat);
}

static ap_browser *browser_new(struct event_base *base, ap_seat *seat, int port, int fd, char *err,
                               size_t cap);

ap_browser *ap_browser_new(struct event_base *base, ap_seat *seat, int port, char *err, size_t cap)
{
    return browser_new(base, seat, port, 0, err, cap);
}

ap_browser *ap_browser_new_fd(struct event_base *base, ap_seat *seat, int listen_fd, char *err,
                              size_t cap)
{
    return browser_new(base, seat, 0, listen_fd, err, cap);
}

static ap_browser *browser_new(struct event_base *base, ap_seat *seat, int port, int fd, char *err,
                               size_t cap)
{
    ap_browser *b = ar_xcalloc(1, sizeof *b);
    b->base = base;
    b->seat = seat;
    aw_options o = {.port = port, .listen_fd = fd, .max_body_size = 4096, .timeout_s = POLL_S + 10};
    FILE *m = open_memstream(&b->page, &b->page_len);
    if (!m || av_template(m, ap_asset_play_html, ap_asset_play_html_len, fill, NULL) != 0 ||
        fclose(m) != 0) {
        snprintf(err, cap, "cannot make the page: %s", strerror(errno));
        free(b->page);
        free(b);
        return NULL;
    }
    b->srv = aw_server_new(base, &o, err, cap);
    if (!b->srv) {
        free(b->page);
        free(b);
        return NULL;
    }
    b->polls = aw_waitlist_new(base, MAX_WAITERS, POLL_S, reply_state, b);
    aw_server_route(b->srv, "/", page, b);
    aw_server_route(b->srv, "/state", state, b);
    aw_server_route(b->srv, "/act", act, b);
    aw_server_route(b->srv, "/check", check, b);
    aw_server_route(b->srv, "/quit", quit, b);
    aw_server_route(b->srv, "/undo", undo, b);
    aw_server_route(b->srv, "/hint", hint, b);
    ap_seat_on_change(seat, on_seat_change, b);
    return b;
}

/* The page asks again as soon as a long poll is answered, and a poll is held POLL_S at most:
 * once it has been opened, a page that has asked nothing for timeout_ms, and holds no poll,
 * is closed (a tab closed, a browser quit, a laptop shut). */
static void on_watch(evutil_socket_t fd, short what, void *ud)
{
    (void)fd;
    (void)what;
    ap_browser *b = ud;
    double last = aw_server_last_request_ms(b->srv);
    if (last > 0 && aw_waitlist_count(b->polls) == 0 && ar_now_ms() - last > b->timeout_ms) {
        char why[160];
        snprintf(why, sizeof why, "the human's page was closed: no request from it for %.0f s",
                 b->timeout_ms / 1000);
        ap_seat_gone(b->seat, why);
    }
}

void ap_browser_set_page_timeout(ap_browser *b, double seconds)
{
    if (b->watch)
        event_free(b->watch);
    b->watch = NULL;
    if (seconds <= 0)
        return;
    b->timeout_ms = seconds * 1000;
    b->watch = event_new(b->base, -1, EV_PERSIST, on_watch, b);
    double step = seconds < 4 ? seconds / 4 : 1;
    struct timeval tv = {(time_t)step, (suseconds_t)((step - (double)(time_t)step) * 1e6)};
    event_add(b->watch, &tv);
}

void ap_browser_free(ap_browser *b)
{
    if (!b)
        return;
    if (b->watch)
        event_free(b->watch);
    ap_seat_on_change(b->seat, NULL, NULL);
    aw_waitlist_wake(b->polls); /* the final state, so the page says the game is over */
    /* let those answers leave (evhttp_free drops what is not written yet): half a second
     * at most, less once nothing is pending */
    for (int i = 0; i < 50; i++) {
        event_base_loop(b->base, EVLOOP_NONBLOCK);
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    aw_waitlist_free(b->polls);
    aw_server_free(b->srv);
    free(b->page);
    free(b);
}

void ap_browser_url(const ap_browser *b, char *out, size_t cap)
{
    aw_server_url(b->srv, "/", out, cap);
}
