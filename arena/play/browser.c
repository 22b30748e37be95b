/* browser.c - the human seat's page (play.h): the page, its state as JSON with long polling,
 * and the answers it posts. Every request has passed web.c's checks (token, host, sizes). */
#include "play.h"

#include "util/util.h"
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

typedef struct waiter {
    struct evhttp_request *req;
    struct ap_browser *b;
    struct event *timer;
    uint64_t since;
} waiter;

struct ap_browser {
    struct event_base *base;
    ap_seat *seat;
    aw_server *srv;
    waiter w[MAX_WAITERS];
};

static void reply_state(ap_browser *b, struct evhttp_request *req)
{
    aw_reply_json(req, 200, ap_seat_json(b->seat));
}

static void drop_waiter(waiter *w)
{
    if (w->timer)
        event_free(w->timer);
    w->timer = NULL;
    if (w->req) {
        struct evhttp_connection *c = evhttp_request_get_connection(w->req);
        if (c)
            evhttp_connection_set_closecb(c, NULL, NULL);
    }
    w->req = NULL;
}

static void wake(waiter *w)
{
    struct evhttp_request *req = w->req;
    ap_browser *b = w->b;
    drop_waiter(w);
    if (req)
        reply_state(b, req);
}

static void on_poll_timeout(evutil_socket_t fd, short what, void *ud)
{
    (void)fd;
    (void)what;
    wake(ud);
}

/* The browser went away while its poll was held: forget the request (evhttp frees it). */
static void on_poll_closed(struct evhttp_connection *c, void *ud)
{
    (void)c;
    waiter *w = ud;
    if (w->timer)
        event_free(w->timer);
    w->timer = NULL;
    w->req = NULL;
}

static void on_seat_change(ap_seat *s, void *ud)
{
    (void)s;
    ap_browser *b = ud;
    for (int i = 0; i < MAX_WAITERS; i++)
        if (b->w[i].req)
            wake(&b->w[i]);
}

static void page(struct evhttp_request *req, void *ud)
{
    (void)ud;
    if (evhttp_request_get_command(req) != EVHTTP_REQ_GET) {
        aw_reply_error(req, 405, "GET only");
        return;
    }
    aw_reply(req, 200, "text/html; charset=utf-8", ap_asset_play_html, ap_asset_play_html_len);
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
        reply_state(b, req);
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
        reply_state(b, req);
        return;
    }
    for (int i = 0; i < MAX_WAITERS; i++)
        if (!b->w[i].req) {
            waiter *w = &b->w[i];
            w->req = req;
            w->b = b;
            w->since = v;
            w->timer = evtimer_new(b->base, on_poll_timeout, w);
            struct timeval tv = {POLL_S, 0};
            evtimer_add(w->timer, &tv);
            evhttp_connection_set_closecb(evhttp_request_get_connection(req), on_poll_closed, w);
            return;
        }
    reply_state(b, req); /* too many pages open: they poll instead of waiting */
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
    json_t *ix = json_object_get(o, "index");
    uint64_t id;
    if (body_id(o, &id) < 0 || !json_is_integer(ix)) {
        json_decref(o);
        aw_reply_error(req, 400, "expected {\"id\": \"<decision id>\", \"index\": <number>}");
        return;
    }
    int rc = ap_seat_choose(b->seat, id, (long long)json_integer_value(ix));
    json_decref(o);
    if (rc == AP_STALE)
        aw_reply_error(req, 409,
                       "that decision is not the one waiting (already answered, or "
                       "not yours now): nothing was changed");
    else if (rc == AP_RANGE)
        aw_reply_error(req, 400, "no such legal action in this decision: nothing was changed");
    else if (rc == AP_GONE)
        aw_reply_error(req, 409, "the game is over for this seat");
    else
        aw_reply_json(req, 200, json_pack("{s:b}", "ok", 1));
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
    b->srv = aw_server_new(base, &o, err, cap);
    if (!b->srv) {
        free(b);
        return NULL;
    }
    aw_server_route(b->srv, "/", page, b);
    aw_server_route(b->srv, "/state", state, b);
    aw_server_route(b->srv, "/act", act, b);
    aw_server_route(b->srv, "/quit", quit, b);
    aw_server_route(b->srv, "/undo", undo, b);
    aw_server_route(b->srv, "/hint", hint, b);
    ap_seat_on_change(seat, on_seat_change, b);
    return b;
}

void ap_browser_free(ap_browser *b)
{
    if (!b)
        return;
    ap_seat_on_change(b->seat, NULL, NULL);
    for (int i = 0; i < MAX_WAITERS; i++)
        if (b->w[i].req)
            wake(&b->w[i]); /* the final state, so the page says the game is over */
    /* let those answers leave (evhttp_free drops what is not written yet): half a second
     * at most, less once nothing is pending */
    for (int i = 0; i < 50; i++) {
        event_base_loop(b->base, EVLOOP_NONBLOCK);
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    aw_server_free(b->srv);
    free(b);
}

void ap_browser_url(const ap_browser *b, char *out, size_t cap)
{
    aw_server_url(b->srv, "/", out, cap);
}
