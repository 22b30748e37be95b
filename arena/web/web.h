/* web.h - the arena's small HTTP layer on libevent's evhttp, shared by the play server (a
 * human seat in the browser) and the live spectator server. Everything a browser sends is
 * hostile: the server listens on 127.0.0.1 only, every request must carry the server's random
 * 128-bit token (else 403 and nothing else), headers and bodies have hard size caps, only GET
 * and POST are served, and every reply carries a Content-Security-Policy that forbids fetching
 * anything from anywhere but this server. Routes are exact paths registered by the caller:
 * nothing is ever served from a directory and no part of a request is used as a file name.
 *
 * The token: the printed URL carries it as ?t=TOKEN; a request with the right ?t= gets it back
 * as an HttpOnly, SameSite=Strict cookie (named per port, so two servers do not clobber each
 * other's), and later requests may carry the cookie, the ?t= query or an X-Okr-Token header.
 * A request whose Host is not 127.0.0.1:PORT or localhost:PORT (DNS rebinding), or whose
 * Origin is another site, is refused the same way. */
#ifndef AR_WEB_H
#define AR_WEB_H

#include <event2/event.h>
#include <event2/http.h>
#include <jansson.h>
#include <stddef.h>

typedef struct aw_server aw_server;

/* A route's handler. The request has passed every check (token, host, method, sizes). The
 * handler must answer it, now or later (long poll, a stream), with the aw_reply_* calls or
 * evhttp's own. */
typedef void (*aw_handler)(struct evhttp_request *req, void *arg);

/* Limits; 0 in a field means the default in parentheses. */
typedef struct {
    int port;               /* 0 = any free port (read it back with aw_server_port) */
    size_t max_header_size; /* request line + headers, bytes (8192) */
    size_t max_body_size;   /* request body, bytes (65536) */
    int timeout_s;          /* idle connection timeout, seconds (60; a long poll must be shorter) */
    int listen_fd;          /* > 0: serve this socket from aw_listen (port is then ignored) */
    int frame_self;    /* 1: this server's pages may show its own pages in a frame (CSP frame-src
                        * and frame-ancestors 'self', X-Frame-Options SAMEORIGIN), as the live
                        * page shows a table's replay page; 0: no frames at all (DENY) */
    const char *token; /* NULL: draw a fresh token; else this one, from aw_token_new (a server
                        * run by another process than the one that printed its URL) */
    int open;          /* 1: no server token is asked: the caller's handlers check their own
                        * sign-in (the league's pages); Host, Origin, methods, sizes and the
                        * security headers are as for every server */
    const char *host;  /* NULL, or one more Host the server answers to ("league.example.org",
                        * "192.0.2.7:8080": the name a TLS proxy or the network uses); an
                        * Origin of http:// or https:// and this host is then same-site too */
} aw_options;

/* Bind and listen on 127.0.0.1:port (0: any free port) now, and return the socket, or -1
 * with a message in err. A sandboxed arena moves itself into an empty network namespace
 * before it starts its first jailed bot (jail/spawn.h, ar_spawn_share_netns); a socket made
 * before that stays reachable from the machine's loopback, one made after is not. So a
 * command that serves pages and runs jailed bots calls this before setting up the sandbox,
 * and hands the socket to aw_server_new in aw_options.listen_fd. */
int aw_listen(int port, char *err, size_t cap);
/* The same on addr (an IPv4 address: "0.0.0.0", "192.0.2.7"; NULL = 127.0.0.1). */
int aw_listen_addr(const char *addr, int port, char *err, size_t cap);
/* 1 when a request's Origin header (NULL = none) is this server's: http://127.0.0.1:PORT,
 * http://localhost:PORT, or http(s):// and the server's extra host (aw_options.host). */
int aw_server_origin_ok(const aw_server *s, const char *origin);

/* A fresh token (32 lowercase hex digits from getrandom) into out: 0, or -1 with the reason in
 * err. */
int aw_token_new(char out[33], char *err, size_t cap);
/* "http://127.0.0.1:PORT" + path + "?t=TOKEN" into out (what aw_server_url writes), for a
 * server not made yet: the port of the socket from aw_listen, the token from aw_token_new. */
void aw_url(int port, const char *path, const char *token, char *out, size_t cap);

/* Bind 127.0.0.1:opt->port on base with a fresh token. NULL with a message in err on failure
 * (port in use, no randomness). */
aw_server *aw_server_new(struct event_base *base, const aw_options *opt, char *err, size_t cap);
void aw_server_free(aw_server *s);

int aw_server_port(const aw_server *s);
/* When (ar_now_ms) a request last came with the token, whatever it asked; 0 if none has yet.
 * A page that long-polls asks at least that often: its silence means it was closed. */
double aw_server_last_request_ms(const aw_server *s);
/* The token: 32 lowercase hex digits. */
const char *aw_server_token(const aw_server *s);
/* "http://127.0.0.1:PORT" + path + "?t=TOKEN" into out: the URL to print for the user. */
void aw_server_url(const aw_server *s, const char *path, char *out, size_t cap);

/* Serve handler at exactly path ("/", "/state", ...; no prefix matching). A path never
 * registered gets 404. Returns 0, or -1 if path is already taken. */
int aw_server_route(aw_server *s, const char *path, aw_handler handler, void *arg);

/* Requests refused before any handler ran, by cause: for tests and a server's log.
 * accept_pauses: how often accept() failed (out of file descriptors: a flood of idle
 * connections) and the server stopped accepting for a moment instead of spinning. */
typedef struct {
    unsigned long served, forbidden, not_found, bad_method, accept_pauses;
} aw_counts;
aw_counts aw_server_counts(const aw_server *s);

/* ---- Answering ---- */

/* body as the reply (Content-Type given, e.g. "text/html; charset=utf-8"). */
void aw_reply(struct evhttp_request *req, int status, const char *content_type, const void *body,
              size_t n);
/* JSON reply; steals the reference to body (which may be NULL: "{}"). */
void aw_reply_json(struct evhttp_request *req, int status, json_t *body);
/* {"error": message} with status (400, 404, 409 ...). */
void aw_reply_error(struct evhttp_request *req, int status, const char *message);

/* ---- Long polls ---- */

/* Requests held until there is news (or hold_s pass), at most max at once: the same bytes
 * for every waiter, each connection's close forgets its request. */
typedef struct aw_waitlist aw_waitlist;
/* answer is called for each held request when it is released (news or its time is up). */
aw_waitlist *aw_waitlist_new(struct event_base *base, int max, double hold_s, aw_handler answer,
                             void *arg);
/* Hold req: 0, or -1 when max are already held (the caller answers it, e.g. 503). */
int aw_waitlist_hold(aw_waitlist *w, struct evhttp_request *req);
/* Release every held request now (through answer). */
void aw_waitlist_wake(aw_waitlist *w);
int aw_waitlist_count(const aw_waitlist *w);
/* Answers what is still held with 503 and frees. Accepts NULL. */
void aw_waitlist_free(aw_waitlist *w);

/* ---- Reading ---- */

/* The request's path without the query, into out (cap bytes). "" if it cannot be parsed. */
void aw_request_path(struct evhttp_request *req, char *out, size_t cap);
/* The value of query parameter key, decoded, into out; 0, or -1 if absent or too long. */
int aw_request_query(struct evhttp_request *req, const char *key, char *out, size_t cap);
/* The body parsed as one JSON object (at most depth 16). NULL with a reason in err when the
 * body is empty, not UTF-8 JSON, or not an object. */
json_t *aw_request_json(struct evhttp_request *req, char *err, size_t cap);

/* ---- Pieces, exposed for tests and the fuzzer ---- */

/* 1 when the token appears as the value of cookie `name` in a Cookie header (NULL = none). */
int aw_cookie_has(const char *cookie_header, const char *name, const char *token);
/* 1 when host (a Host header, NULL = none) names this server: 127.0.0.1:PORT or
 * localhost:PORT. */
int aw_host_ok(const char *host, int port);
/* Parse n bytes as one JSON object as aw_request_json does. */
json_t *aw_parse_object(const char *data, size_t n, char *err, size_t cap);

#endif
