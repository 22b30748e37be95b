/* web.c - the HTTP layer (web.h): evhttp bound to 127.0.0.1, a token on every request, size
 * caps, exact routes, JSON replies, and the headers that keep a page from reaching out. */
#include "web.h"

#include "util/util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <event2/buffer.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#define AW_MAX_ROUTES 32
#define AW_MAX_DEPTH 16

typedef struct {
    char *path;
    aw_handler fn;
    void *arg;
} route;

struct aw_server {
    struct evhttp *http;
    int port;
    char token[33];
    char cookie[32]; /* okr_t_PORT */
    route routes[AW_MAX_ROUTES];
    int n_routes;
    aw_counts counts;
    int frame_self;
    int open;
    char *host;        /* one more Host answered, or NULL */
    double last_ok_ms; /* when a request last passed the token check (0: never) */
    struct evconnlistener *listener;
    struct event *resume; /* re-enables the listener after an accept() failure */
};

/* Everything a page from this server may do: run its own inline script and style, draw its
 * own images, and talk back to this server. No other origin, no frames, no forms elsewhere. */
#define CSP_COMMON                                                                                 \
    "default-src 'none'; script-src 'self' 'unsafe-inline'; "                                      \
    "style-src 'self' 'unsafe-inline'; img-src 'self' data:; "                                     \
    "connect-src 'self'; base-uri 'none'; form-action 'self'; "
static const char CSP[] = CSP_COMMON "frame-ancestors 'none'";
/* frame_self: a page of this server may frame, and be framed by, this server's pages only */
static const char CSP_FRAME_SELF[] = CSP_COMMON "frame-src 'self'; frame-ancestors 'self'";

static void set_header(struct evkeyvalq *h, const char *name, const char *value)
{
    if (!evhttp_find_header(h, name))
        evhttp_add_header(h, name, value);
}

/* Set on every answer; dispatch sets them first with the server's frame policy, so a later
 * aw_reply (which has no server at hand) keeps that and only fills in what is missing. */
static void security_headers(struct evhttp_request *req, int frame_self)
{
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    set_header(h, "Content-Security-Policy", frame_self ? CSP_FRAME_SELF : CSP);
    set_header(h, "X-Content-Type-Options", "nosniff");
    set_header(h, "Referrer-Policy", "no-referrer"); /* the token is in the URL */
    set_header(h, "X-Frame-Options", frame_self ? "SAMEORIGIN" : "DENY");
    set_header(h, "Cache-Control", "no-store");
}

/* Compare without stopping at the first difference: the time a wrong guess takes says
 * nothing about how many of its leading digits were right. */
static int token_eq(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    unsigned diff = (unsigned)(na ^ nb);
    for (size_t i = 0; i < na && i < nb; i++)
        diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0 && na == 32;
}

int aw_cookie_has(const char *cookie_header, const char *name, const char *token)
{
    if (!cookie_header || !name || !token)
        return 0;
    size_t name_len = strlen(name);
    const char *p = cookie_header;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ';')
            p++;
        const char *end = strchr(p, ';');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > name_len && memcmp(p, name, name_len) == 0 && p[name_len] == '=') {
            char value[64];
            size_t vlen = len - name_len - 1;
            while (vlen &&
                   (p[name_len + 1 + vlen - 1] == ' ' || p[name_len + 1 + vlen - 1] == '\t'))
                vlen--;
            if (vlen < sizeof value) {
                memcpy(value, p + name_len + 1, vlen);
                value[vlen] = 0;
                if (token_eq(value, token))
                    return 1;
            }
        }
        p += len;
    }
    return 0;
}

int aw_host_ok(const char *host, int port)
{
    if (!host)
        return 0;
    char want[40];
    snprintf(want, sizeof want, "127.0.0.1:%d", port);
    if (strcmp(host, want) == 0)
        return 1;
    snprintf(want, sizeof want, "localhost:%d", port);
    return strcmp(host, want) == 0;
}

static int host_ok(const aw_server *s, const char *host)
{
    return aw_host_ok(host, s->port) || (host && s->host && strcmp(host, s->host) == 0);
}

int aw_server_origin_ok(const aw_server *s, const char *origin)
{
    if (!origin)
        return 0;
    if (strncmp(origin, "http://", 7) == 0 && host_ok(s, origin + 7))
        return 1;
    return s->host && strncmp(origin, "https://", 8) == 0 && strcmp(origin + 8, s->host) == 0;
}

static int origin_ok(const aw_server *s, const char *origin)
{
    if (!origin)
        return 1; /* same-origin GETs and non-browser clients send none */
    return aw_server_origin_ok(s, origin);
}

static void forbid(aw_server *s, struct evhttp_request *req)
{
    s->counts.forbidden++;
    aw_reply(req, 403, "text/plain; charset=utf-8", "forbidden\n", 10);
}

static void dispatch(struct evhttp_request *req, void *arg)
{
    aw_server *s = arg;
    struct evkeyvalq *in = evhttp_request_get_input_headers(req);
    struct evkeyvalq *out = evhttp_request_get_output_headers(req);
    /* what a handler (or evhttp) may have left from nothing: start clean */
    evhttp_remove_header(out, "Content-Security-Policy");
    evhttp_remove_header(out, "X-Frame-Options");
    security_headers(req, s->frame_self);

    if (!host_ok(s, evhttp_find_header(in, "Host")) ||
        !origin_ok(s, evhttp_find_header(in, "Origin"))) {
        forbid(s, req);
        return;
    }
    char qtoken[64];
    int by_query =
        aw_request_query(req, "t", qtoken, sizeof qtoken) == 0 && token_eq(qtoken, s->token);
    const char *htoken = evhttp_find_header(in, "X-Okr-Token");
    int ok = s->open || by_query || (htoken && token_eq(htoken, s->token)) ||
             aw_cookie_has(evhttp_find_header(in, "Cookie"), s->cookie, s->token);
    if (!ok) {
        forbid(s, req);
        return;
    }
    s->last_ok_ms = ar_now_ms();
    if (by_query && !s->open) {
        char set[160];
        snprintf(set, sizeof set, "%s=%s; Path=/; HttpOnly; SameSite=Strict", s->cookie, s->token);
        evhttp_add_header(evhttp_request_get_output_headers(req), "Set-Cookie", set);
    }

    enum evhttp_cmd_type cmd = evhttp_request_get_command(req);
    if (cmd != EVHTTP_REQ_GET && cmd != EVHTTP_REQ_POST) {
        s->counts.bad_method++;
        evhttp_add_header(evhttp_request_get_output_headers(req), "Allow", "GET, POST");
        aw_reply_error(req, 405, "only GET and POST are served");
        return;
    }
    char path[256];
    aw_request_path(req, path, sizeof path);
    for (int i = 0; i < s->n_routes; i++)
        if (strcmp(s->routes[i].path, path) == 0) {
            s->counts.served++;
            s->routes[i].fn(req, s->routes[i].arg);
            return;
        }
    s->counts.not_found++;
    aw_reply_error(req, 404, "no such page");
}

/* An accept() that fails for want of descriptors (EMFILE, ENFILE, ENOBUFS: anyone on the
 * machine can open idle connections, token or not) leaves the connection queued, so the
 * listening socket stays readable and libevent would call accept() again at once, forever,
 * printing a warning each time. Instead stop accepting for a moment; the idle timeout frees
 * descriptors meanwhile, and the queued connections are taken when there is room. */
#define ACCEPT_PAUSE_MS 100

static void accept_resume(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    aw_server *s = arg;
    evconnlistener_enable(s->listener);
}

/* libevent hands the error callback the evhttp (the listener's user data), not the server:
 * the live servers of this process by their evhttp. A process runs one or two. */
#define AW_MAX_SERVERS 16
static struct {
    struct evhttp *http;
    aw_server *s;
} by_http[AW_MAX_SERVERS];

static void accept_failed(struct evconnlistener *l, void *arg)
{
    for (size_t i = 0; i < AW_MAX_SERVERS; i++)
        if (by_http[i].http == arg) {
            aw_server *s = by_http[i].s;
            s->counts.accept_pauses++;
            evconnlistener_disable(l);
            struct timeval tv = {0, ACCEPT_PAUSE_MS * 1000};
            evtimer_add(s->resume, &tv);
            return;
        }
}

aw_server *aw_server_new(struct event_base *base, const aw_options *opt, char *err, size_t cap)
{
    aw_options o = opt ? *opt : (aw_options){0};
    if (o.port < 0 || o.port > 65535) {
        snprintf(err, cap, "port %d is not between 0 and 65535", o.port);
        return NULL;
    }
    char token[33];
    if (o.token) {
        if (strlen(o.token) != 32 || strspn(o.token, "0123456789abcdef") != 32) {
            snprintf(err, cap, "the token must be 32 lowercase hex digits");
            return NULL;
        }
        memcpy(token, o.token, sizeof token);
    } else if (aw_token_new(token, err, cap) < 0)
        return NULL;
    aw_server *s = ar_xcalloc(1, sizeof *s);
    memcpy(s->token, token, sizeof token);
    s->http = evhttp_new(base);
    if (!s->http) {
        snprintf(err, cap, "evhttp_new failed");
        free(s);
        return NULL;
    }
    evhttp_set_max_headers_size(s->http,
                                (ev_ssize_t)(o.max_header_size ? o.max_header_size : 8192));
    evhttp_set_max_body_size(s->http, (ev_ssize_t)(o.max_body_size ? o.max_body_size : 65536));
    evhttp_set_timeout(s->http, o.timeout_s > 0 ? o.timeout_s : 60);
    /* Every method reaches dispatch, which answers what is neither GET nor POST with 405 after
     * the token check (evhttp's own refusal would carry none of our headers). */
    evhttp_set_allowed_methods(s->http, EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_HEAD |
                                            EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE |
                                            EVHTTP_REQ_OPTIONS | EVHTTP_REQ_TRACE |
                                            EVHTTP_REQ_CONNECT | EVHTTP_REQ_PATCH);
    evhttp_set_gencb(s->http, dispatch, s);
    struct evhttp_bound_socket *h =
        o.listen_fd > 0 ? evhttp_accept_socket_with_handle(s->http, o.listen_fd)
                        : evhttp_bind_socket_with_handle(s->http, "127.0.0.1", (ev_uint16_t)o.port);
    if (!h) {
        snprintf(err, cap, "cannot listen on 127.0.0.1:%d: %s", o.port, strerror(errno));
        evhttp_free(s->http);
        free(s);
        return NULL;
    }
    size_t slot = 0;
    while (slot < AW_MAX_SERVERS && by_http[slot].http)
        slot++;
    s->listener = evhttp_bound_socket_get_listener(h);
    s->resume = slot < AW_MAX_SERVERS ? evtimer_new(base, accept_resume, s) : NULL;
    if (!s->resume) {
        snprintf(err, cap, "%s",
                 slot < AW_MAX_SERVERS ? "evtimer_new failed" : "too many servers in one process");
        evhttp_free(s->http);
        free(s);
        return NULL;
    }
    by_http[slot].http = s->http;
    by_http[slot].s = s;
    evconnlistener_set_error_cb(s->listener, accept_failed);
    struct sockaddr_in sa;
    socklen_t len = sizeof sa;
    if (getsockname(evhttp_bound_socket_get_fd(h), (struct sockaddr *)&sa, &len) == 0)
        s->port = ntohs(sa.sin_port);
    snprintf(s->cookie, sizeof s->cookie, "okr_t_%d", s->port);
    s->frame_self = o.frame_self != 0;
    s->open = o.open != 0;
    s->host = o.host && *o.host ? ar_xstrdup(o.host) : NULL;
    return s;
}

int aw_token_new(char out[33], char *err, size_t cap)
{
    unsigned char raw[16];
    if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw) {
        snprintf(err, cap, "getrandom: %s", strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(out + 2 * i, 3, "%02x", raw[i]);
    return 0;
}

void aw_url(int port, const char *path, const char *token, char *out, size_t cap)
{
    snprintf(out, cap, "http://127.0.0.1:%d%s?t=%s", port, path && *path ? path : "/", token);
}

int aw_listen(int port, char *err, size_t cap)
{
    return aw_listen_addr(NULL, port, err, cap);
}

int aw_listen_addr(const char *addr, int port, char *err, size_t cap)
{
    if (port < 0 || port > 65535) {
        snprintf(err, cap, "port %d is not between 0 and 65535", port);
        return -1;
    }
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        snprintf(err, cap, "socket: %s", strerror(errno));
        return -1;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (addr && inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
        snprintf(err, cap, "'%s' is not an IPv4 address", addr);
        close(fd);
        return -1;
    }
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(fd, 128) < 0) {
        snprintf(err, cap, "cannot listen on %s:%d: %s", addr ? addr : "127.0.0.1", port,
                 strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

void aw_server_free(aw_server *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < AW_MAX_SERVERS; i++)
        if (by_http[i].s == s)
            by_http[i].http = NULL, by_http[i].s = NULL;
    evhttp_free(s->http);
    event_free(s->resume);
    for (int i = 0; i < s->n_routes; i++)
        free(s->routes[i].path);
    free(s->host);
    free(s);
}

double aw_server_last_request_ms(const aw_server *s)
{
    return s->last_ok_ms;
}

int aw_server_port(const aw_server *s)
{
    return s->port;
}

const char *aw_server_token(const aw_server *s)
{
    return s->token;
}

void aw_server_url(const aw_server *s, const char *path, char *out, size_t cap)
{
    aw_url(s->port, path, s->token, out, cap);
}

int aw_server_route(aw_server *s, const char *path, aw_handler handler, void *arg)
{
    if (s->n_routes >= AW_MAX_ROUTES)
        return -1;
    for (int i = 0; i < s->n_routes; i++)
        if (strcmp(s->routes[i].path, path) == 0)
            return -1;
    s->routes[s->n_routes++] = (route){ar_xstrdup(path), handler, arg};
    return 0;
}

aw_counts aw_server_counts(const aw_server *s)
{
    return s->counts;
}

void aw_reply(struct evhttp_request *req, int status, const char *content_type, const void *body,
              size_t n)
{
    security_headers(req, 0);
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_remove_header(h, "Content-Type");
    evhttp_add_header(h, "Content-Type", content_type);
    struct evbuffer *buf = evbuffer_new();
    if (buf && n)
        evbuffer_add(buf, body, n);
    const char *reason = status == 200   ? "OK"
                         : status == 303 ? "See Other"
                         : status == 400 ? "Bad Request"
                         : status == 403 ? "Forbidden"
                         : status == 404 ? "Not Found"
                         : status == 405 ? "Method Not Allowed"
                         : status == 409 ? "Conflict"
                         : status == 413 ? "Payload Too Large"
                         : status == 422 ? "Unprocessable Content"
                         : status == 500 ? "Internal Server Error"
                         : status == 503 ? "Service Unavailable"
                                         : NULL;
    evhttp_send_reply(req, status, reason, buf);
    if (buf)
        evbuffer_free(buf);
}

void aw_reply_json(struct evhttp_request *req, int status, json_t *body)
{
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    if (body && !text)
        text = ar_xstrdup("{\"error\":\"reply could not be encoded\"}");
    const char *t = text ? text : "{}";
    aw_reply(req, status, "application/json; charset=utf-8", t, strlen(t));
    free(text);
    json_decref(body);
}

void aw_reply_error(struct evhttp_request *req, int status, const char *message)
{
    aw_reply_json(req, status, json_pack("{s:s}", "error", message ? message : "error"));
}

/* ---- Long polls ---- */

typedef struct {
    aw_waitlist *w;
    struct evhttp_request *req; /* NULL: the slot is free */
    struct event *timer;
} hold;

struct aw_waitlist {
    int max, n;
    struct timeval tv;
    aw_handler answer;
    void *arg;
    hold *h;
};

static void unhold(hold *h)
{
    struct evhttp_connection *c = evhttp_request_get_connection(h->req);
    if (c)
        evhttp_connection_set_closecb(c, NULL, NULL);
    evtimer_del(h->timer);
    h->req = NULL;
    h->w->n--;
}

static void release(hold *h)
{
    struct evhttp_request *req = h->req;
    unhold(h);
    h->w->answer(req, h->w->arg);
}

static void on_hold_timeout(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    release(arg);
}

/* The client went away while its request was held: forget it (evhttp frees it). */
static void on_hold_closed(struct evhttp_connection *c, void *arg)
{
    (void)c;
    hold *h = arg;
    if (h->req)
        unhold(h);
}

aw_waitlist *aw_waitlist_new(struct event_base *base, int max, double hold_s, aw_handler answer,
                             void *arg)
{
    aw_waitlist *w = ar_xcalloc(1, sizeof *w);
    w->max = max > 0 ? max : 1;
    w->tv.tv_sec = (time_t)hold_s;
    w->tv.tv_usec = (suseconds_t)((hold_s - (double)(time_t)hold_s) * 1e6);
    w->answer = answer;
    w->arg = arg;
    w->h = ar_xcalloc((size_t)w->max, sizeof *w->h);
    for (int i = 0; i < w->max; i++) {
        w->h[i].w = w;
        w->h[i].timer = evtimer_new(base, on_hold_timeout, &w->h[i]);
    }
    return w;
}

int aw_waitlist_hold(aw_waitlist *w, struct evhttp_request *req)
{
    struct evhttp_connection *c = evhttp_request_get_connection(req);
    if (w->n >= w->max || !c)
        return -1;
    for (int i = 0; i < w->max; i++)
        if (!w->h[i].req) {
            w->h[i].req = req;
            w->n++;
            evhttp_connection_set_closecb(c, on_hold_closed, &w->h[i]);
            evtimer_add(w->h[i].timer, &w->tv);
            return 0;
        }
    return -1;
}

void aw_waitlist_wake(aw_waitlist *w)
{
    for (int i = 0; i < w->max && w->n > 0; i++)
        if (w->h[i].req)
            release(&w->h[i]);
}

int aw_waitlist_count(const aw_waitlist *w)
{
    return w->n;
}

void aw_waitlist_free(aw_waitlist *w)
{
    if (!w)
        return;
    for (int i = 0; i < w->max; i++) {
        if (w->h[i].req) {
            struct evhttp_request *req = w->h[i].req;
            unhold(&w->h[i]);
            aw_reply_error(req, 503, "the server is stopping");
        }
        event_free(w->h[i].timer);
    }
    free(w->h);
    free(w);
}

void aw_request_path(struct evhttp_request *req, char *out, size_t cap)
{
    const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
    const char *p = uri ? evhttp_uri_get_path(uri) : NULL;
    if (!p || !*p)
        p = uri ? "/" : "";
    if (strlen(p) >= cap)
        p = "";
    snprintf(out, cap, "%s", p);
}

int aw_request_query(struct evhttp_request *req, const char *key, char *out, size_t cap)
{
    const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
    const char *q = uri ? evhttp_uri_get_query(uri) : NULL;
    if (!q)
        return -1;
    struct evkeyvalq kv;
    TAILQ_INIT(&kv);
    int rc = -1;
    if (evhttp_parse_query_str(q, &kv) == 0) {
        const char *v = evhttp_find_header(&kv, key);
        if (v && strlen(v) < cap) {
            snprintf(out, cap, "%s", v);
            rc = 0;
        }
    }
    evhttp_clear_headers(&kv);
    return rc;
}

json_t *aw_parse_object(const char *data, size_t n, char *err, size_t cap)
{
    if (n == 0) {
        snprintf(err, cap, "empty body: a JSON object was expected");
        return NULL;
    }
    /* jansson would accept thousands of nested arrays; nothing we read nests past a few. */
    int depth = 0, in_str = 0, esc = 0;
    for (size_t i = 0; i < n; i++) {
        char c = data[i];
        if (in_str) {
            if (esc)
                esc = 0;
            else if (c == '\\')
                esc = 1;
            else if (c == '"')
                in_str = 0;
        } else if (c == '"') {
            in_str = 1;
        } else if (c == '{' || c == '[') {
            if (++depth > AW_MAX_DEPTH) {
                snprintf(err, cap, "JSON nested deeper than %d", AW_MAX_DEPTH);
                return NULL;
            }
        } else if (c == '}' || c == ']') {
            depth--;
        }
    }
    json_error_t je;
    json_t *v = json_loadb(data, n, JSON_REJECT_DUPLICATES, &je);
    if (!v) {
        snprintf(err, cap, "bad JSON at line %d column %d: %s", je.line, je.column, je.text);
        return NULL;
    }
    if (!json_is_object(v)) {
        json_decref(v);
        snprintf(err, cap, "a JSON object was expected");
        return NULL;
    }
    return v;
}

json_t *aw_request_json(struct evhttp_request *req, char *err, size_t cap)
{
    struct evbuffer *in = evhttp_request_get_input_buffer(req);
    size_t n = in ? evbuffer_get_length(in) : 0;
    const char *data = n ? (const char *)evbuffer_pullup(in, (ev_ssize_t)n) : "";
    return aw_parse_object(data, n, err, cap);
}
