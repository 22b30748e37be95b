/* test_web.c - the HTTP layer (arena/web/web.h) over real loopback connections: the token
 * (query, cookie, header; wrong or missing = 403 and no handler runs), the Host and Origin
 * checks, exact routes, 404/405, the size caps, the security headers on every answer, JSON
 * bodies (garbage, deep nesting, not an object), that the server listens on 127.0.0.1
 * only, the frame policy (frame_self), the wait list of long polls, and a server out of file
 * descriptors (it pauses accepting instead of spinning, then recovers). One thread: a client socket
 * connects (the kernel completes it from the backlog), writes its whole request, and the test turns
 * the event loop until the server has answered. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "web/web.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct {
    struct event_base *base;
    aw_server *srv;
    int hits; /* handler calls */
    char last_body[256];
} fixture;

static void hello(struct evhttp_request *req, void *arg)
{
    fixture *f = arg;
    f->hits++;
    aw_reply(req, 200, "text/html; charset=utf-8", "<p>hi</p>", 9);
}

static void echo(struct evhttp_request *req, void *arg)
{
    fixture *f = arg;
    f->hits++;
    char err[200];
    json_t *o = aw_request_json(req, err, sizeof err);
    if (!o) {
        aw_reply_error(req, 400, err);
        return;
    }
    json_t *a = json_object_get(o, "a");
    aw_reply_json(req, 200, json_pack("{s:O?}", "a", a));
    json_decref(o);
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->base = event_base_new();
    char err[200];
    aw_options o = {0};
    o.max_body_size = 1024;
    o.max_header_size = 2048;
    f->srv = aw_server_new(f->base, &o, err, sizeof err);
    assert_non_null(f->srv);
    assert_int_equal(aw_server_route(f->srv, "/", hello, f), 0);
    assert_int_equal(aw_server_route(f->srv, "/echo", echo, f), 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    aw_server_free(f->srv);
    event_base_free(f->base);
    free(f);
    return 0;
}

/* Send raw bytes, turn the loop until the server closes or 3 s pass; the answer in out. */
static size_t exchange(fixture *f, const char *raw, size_t n, char *out, size_t cap)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in sa = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)aw_server_port(f->srv))};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    fcntl(fd, F_SETFL, O_NONBLOCK);
    size_t sent = 0, got = 0;
    for (int rounds = 0; rounds < 3000; rounds++) {
        if (sent < n) {
            ssize_t w = write(fd, raw + sent, n - sent);
            if (w > 0)
                sent += (size_t)w;
            else if (w < 0 && errno != EAGAIN)
                sent = n; /* the server closed on us: read what it said */
        }
        event_base_loop(f->base, EVLOOP_NONBLOCK);
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 1) > 0) {
            ssize_t r = read(fd, out + got, cap - 1 - got);
            if (r == 0 || (r < 0 && errno != EAGAIN))
                break;
            if (r > 0)
                got += (size_t)r;
            if (got >= cap - 1)
                break;
        }
    }
    close(fd);
    out[got] = 0;
    return got;
}

static int status_of(const char *resp)
{
    int code = 0;
    if (sscanf(resp, "HTTP/1.%*d %d", &code) != 1)
        return -1;
    return code;
}

static char resp[16384];

static int get(fixture *f, const char *target, const char *extra_headers)
{
    char req[4096];
    snprintf(req, sizeof req,
             "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%sConnection: close\r\n\r\n", target,
             aw_server_port(f->srv), extra_headers ? extra_headers : "");
    exchange(f, req, strlen(req), resp, sizeof resp);
    return status_of(resp);
}

static int post(fixture *f, const char *target, const char *headers, const char *body)
{
    char req[8192];
    snprintf(req, sizeof req,
             "POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%sContent-Type: application/json\r\n"
             "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
             target, aw_server_port(f->srv), headers ? headers : "", strlen(body), body);
    exchange(f, req, strlen(req), resp, sizeof resp);
    return status_of(resp);
}

static void token_in_query_sets_cookie(void **state)
{
    fixture *f = *state;
    const char *tok = aw_server_token(f->srv);
    assert_int_equal(strlen(tok), 32);
    assert_int_equal(strspn(tok, "0123456789abcdef"), 32);
    char target[100];
    snprintf(target, sizeof target, "/?t=%s", tok);
    assert_int_equal(get(f, target, NULL), 200);
    assert_non_null(strstr(resp, "<p>hi</p>"));
    char cookie[120];
    snprintf(cookie, sizeof cookie, "Set-Cookie: okr_t_%d=%s; Path=/; HttpOnly; SameSite=Strict",
             aw_server_port(f->srv), tok);
    assert_non_null(strstr(resp, cookie));
    assert_non_null(strstr(resp, "Content-Security-Policy: default-src 'none'"));
    assert_non_null(strstr(resp, "Referrer-Policy: no-referrer"));
    assert_non_null(strstr(resp, "X-Content-Type-Options: nosniff"));
    assert_int_equal(f->hits, 1);

    /* the cookie alone, among others, and the header alone */
    char hdr[200];
    snprintf(hdr, sizeof hdr, "Cookie: theme=dark; okr_t_%d=%s; x=1\r\n", aw_server_port(f->srv),
             tok);
    assert_int_equal(get(f, "/", hdr), 200);
    snprintf(hdr, sizeof hdr, "X-Okr-Token: %s\r\n", tok);
    assert_int_equal(get(f, "/", hdr), 200);
    assert_null(strstr(resp, "Set-Cookie")); /* only a ?t= load hands out the cookie */
    assert_int_equal(f->hits, 3);
    char url[200];
    aw_server_url(f->srv, "/", url, sizeof url);
    char want[200];
    snprintf(want, sizeof want, "http://127.0.0.1:%d/?t=%s", aw_server_port(f->srv), tok);
    assert_string_equal(url, want);
}

static void wrong_token_is_403_and_nothing_else(void **state)
{
    fixture *f = *state;
    char tok[33];
    snprintf(tok, sizeof tok, "%s", aw_server_token(f->srv));
    tok[31] = tok[31] == '0' ? '1' : '0'; /* one digit off */
    char target[100], hdr[200];
    assert_int_equal(get(f, "/", NULL), 403);
    assert_non_null(strstr(resp, "\r\n\r\nforbidden\n"));
    assert_null(strstr(resp, "hi"));
    assert_null(strstr(resp, "Set-Cookie"));
    snprintf(target, sizeof target, "/?t=%s", tok);
    assert_int_equal(get(f, target, NULL), 403);
    snprintf(hdr, sizeof hdr, "Cookie: okr_t_%d=%s\r\n", aw_server_port(f->srv), tok);
    assert_int_equal(get(f, "/", hdr), 403);
    /* the right token under another port's cookie name is not this server's cookie */
    snprintf(hdr, sizeof hdr, "Cookie: okr_t_1=%s\r\n", aw_server_token(f->srv));
    assert_int_equal(get(f, "/", hdr), 403);
    snprintf(hdr, sizeof hdr, "X-Okr-Token: %.31s\r\n", aw_server_token(f->srv));
    assert_int_equal(get(f, "/", hdr), 403);
    /* a 404 is not told to someone without the token either */
    assert_int_equal(get(f, "/nowhere", NULL), 403);
    assert_int_equal(post(f, "/echo", NULL, "{\"a\":1}"), 403);
    assert_int_equal(f->hits, 0);
    assert_int_equal(aw_server_counts(f->srv).forbidden, 7);
}

static void host_and_origin_checked(void **state)
{
    fixture *f = *state;
    char hdr[300], raw[600];
    const char *tok = aw_server_token(f->srv);
    /* DNS rebinding: the right token but the page was loaded as evil.example */
    snprintf(raw, sizeof raw,
             "GET /?t=%s HTTP/1.1\r\nHost: evil.example:%d\r\nConnection: close\r\n\r\n", tok,
             aw_server_port(f->srv));
    exchange(f, raw, strlen(raw), resp, sizeof resp);
    assert_int_equal(status_of(resp), 403);
    snprintf(hdr, sizeof hdr, "X-Okr-Token: %s\r\nOrigin: http://evil.example\r\n", tok);
    assert_int_equal(post(f, "/echo", hdr, "{\"a\":1}"), 403);
    snprintf(hdr, sizeof hdr, "X-Okr-Token: %s\r\nOrigin: http://localhost:%d\r\n", tok,
             aw_server_port(f->srv));
    assert_int_equal(post(f, "/echo", hdr, "{\"a\":1}"), 200);
    assert_int_equal(f->hits, 1);
    assert_true(aw_host_ok("localhost:80", 80));
    assert_false(aw_host_ok("localhost:8080", 80));
    assert_false(aw_host_ok("127.0.0.1", 80));
    assert_false(aw_host_ok(NULL, 80));
}

static void routes_exact_and_methods(void **state)
{
    fixture *f = *state;
    char hdr[200];
    snprintf(hdr, sizeof hdr, "X-Okr-Token: %s\r\n", aw_server_token(f->srv));
    assert_int_equal(get(f, "/echo/../", hdr), 404);
    assert_int_equal(get(f, "/etc/passwd", hdr), 404);
    assert_int_equal(get(f, "/%2e%2e/", hdr), 404);
    assert_non_null(strstr(resp, "application/json"));
    assert_non_null(strstr(resp, "{\"error\":\"no such page\"}"));
    assert_int_equal(get(f, "/echox", hdr), 404);
    char raw[400];
    snprintf(raw, sizeof raw,
             "DELETE / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Okr-Token: %s\r\nConnection: "
             "close\r\n\r\n",
             aw_server_port(f->srv), aw_server_token(f->srv));
    exchange(f, raw, strlen(raw), resp, sizeof resp);
    assert_int_equal(status_of(resp), 405);
    assert_non_null(strstr(resp, "Allow: GET, POST"));
    assert_int_equal(f->hits, 0);
    assert_int_equal(aw_server_route(f->srv, "/echo", hello, f), -1); /* taken */
}

static void json_bodies(void **state)
{
    fixture *f = *state;
    char hdr[200];
    snprintf(hdr, sizeof hdr, "X-Okr-Token: %s\r\n", aw_server_token(f->srv));
    assert_int_equal(post(f, "/echo", hdr, "{\"a\":[1,2]}"), 200);
    assert_non_null(strstr(resp, "{\"a\":[1,2]}"));
    assert_non_null(strstr(resp, "Content-Type: application/json"));
    assert_int_equal(post(f, "/echo", hdr, "{\"a\":"), 400);
    assert_non_null(strstr(resp, "bad JSON"));
    assert_int_equal(post(f, "/echo", hdr, "[1]"), 400);
    assert_non_null(strstr(resp, "object was expected"));
    assert_int_equal(post(f, "/echo", hdr, "{\"a\":1,\"a\":2}"), 400);
    assert_int_equal(post(f, "/echo", hdr, ""), 400);
    char deep[200] = "{\"a\":";
    for (int i = 0; i < 40; i++)
        strcat(deep, "[");
    assert_int_equal(post(f, "/echo", hdr, deep), 400);
    assert_non_null(strstr(resp, "nested deeper"));
    /* a bracket inside a string does not count as nesting */
    assert_int_equal(post(f, "/echo", hdr, "{\"a\":\"[[[[[[[[[[[[[[[[[[[[[[[[\"}"), 200);
}

static void size_caps(void **state)
{
    fixture *f = *state;
    char hdr[4000];
    int n = snprintf(hdr, sizeof hdr, "X-Okr-Token: %s\r\nX-Pad: ", aw_server_token(f->srv));
    memset(hdr + n, 'x', 3000);
    strcpy(hdr + n + 3000, "\r\n");
    int code = get(f, "/", hdr);
    assert_true(code == 400 || code == 413 || code == 431 || code == -1); /* closed is fine */
    char body[3000];
    memset(body, ' ', sizeof body - 1);
    body[sizeof body - 1] = 0;
    body[0] = '{';
    body[sizeof body - 2] = '}';
    snprintf(hdr, sizeof hdr, "X-Okr-Token: %s\r\n", aw_server_token(f->srv));
    code = post(f, "/echo", hdr, body);
    assert_true(code == 413 || code == 400 || code == -1);
    assert_int_equal(f->hits, 0);
    /* garbage that is not HTTP at all */
    const char *junk = "\x01\x02 not http at all\r\n\r\n";
    exchange(f, junk, strlen(junk), resp, sizeof resp);
    assert_true(status_of(resp) == 400 || resp[0] == 0);
    /* and the server still answers afterwards */
    assert_int_equal(get(f, "/", hdr), 200);
    assert_int_equal(f->hits, 1);
}

static void loopback_only(void **state)
{
    fixture *f = *state;
    /* the port is not reachable on another local address: bind took 127.0.0.1 only, so a
     * second server may take the same port on 127.0.0.2 */
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)aw_server_port(f->srv))};
    inet_pton(AF_INET, "127.0.0.2", &sa.sin_addr);
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    close(fd);
    /* the same port on 127.0.0.1 is taken: a second server says so */
    char err[200];
    aw_options o = {.port = aw_server_port(f->srv)};
    aw_server *two = aw_server_new(f->base, &o, err, sizeof err);
    assert_null(two);
    assert_non_null(strstr(err, "cannot listen on 127.0.0.1:"));
    o.port = 70000;
    assert_null(aw_server_new(f->base, &o, err, sizeof err));
    /* two servers get different tokens */
    o.port = 0;
    two = aw_server_new(f->base, &o, err, sizeof err);
    assert_non_null(two);
    assert_string_not_equal(aw_server_token(two), aw_server_token(f->srv));
    aw_server_free(two);
}

static void listen_first_then_serve(void **state)
{
    fixture *f = *state;
    char err[200];
    int fd = aw_listen(0, err, sizeof err);
    assert_true(fd > 0);
    aw_options o = {.listen_fd = fd, .port = 1}; /* port is ignored with a socket */
    aw_server *two = aw_server_new(f->base, &o, err, sizeof err);
    assert_non_null(two);
    assert_int_not_equal(aw_server_port(two), 1);
    assert_int_equal(aw_server_route(two, "/", hello, f), 0);
    aw_server *keep = f->srv;
    f->srv = two;
    char hdr[100];
    snprintf(hdr, sizeof hdr, "X-Okr-Token: %s\r\n", aw_server_token(two));
    assert_int_equal(get(f, "/", hdr), 200);
    assert_int_equal(f->hits, 1);
    f->srv = keep;
    aw_server_free(two);
    assert_int_equal(aw_listen(70000, err, sizeof err), -1);
}

/* A token drawn before the server exists (the live server is made in another process than the
 * one that prints its URL): the server takes it, and its URL is aw_url's; a token that is not
 * 32 lowercase hex digits is refused. */
static void token_given(void **state)
{
    fixture *f = *state;
    char err[200], tok[33], url[128], want[128];
    assert_int_equal(aw_token_new(tok, err, sizeof err), 0);
    assert_int_equal(strlen(tok), 32);
    assert_int_equal(strspn(tok, "0123456789abcdef"), 32);
    aw_options o = {.token = tok};
    aw_server *two = aw_server_new(f->base, &o, err, sizeof err);
    assert_non_null(two);
    assert_string_equal(aw_server_token(two), tok);
    aw_server_url(two, "/x", url, sizeof url);
    aw_url(aw_server_port(two), "/x", tok, want, sizeof want);
    assert_string_equal(url, want);
    assert_int_equal(aw_server_route(two, "/", hello, f), 0);
    aw_server *keep = f->srv;
    f->srv = two;
    char hdr[100];
    snprintf(hdr, sizeof hdr, "X-Okr-Token: %s\r\n", tok);
    assert_int_equal(get(f, "/", hdr), 200);
    f->srv = keep;
    aw_server_free(two);
    const char *bad[] = {"", "abc", "0123456789ABCDEF0123456789abcdef",
                         "0123456789abcdef0123456789abcdef0", "0123456789abcdef0123456789abcdeg"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        o.token = bad[i];
        assert_null(aw_server_new(f->base, &o, err, sizeof err));
        assert_non_null(strstr(err, "token"));
    }
}

/* aw_options.frame_self: the default server forbids every frame (the play page must never be
 * framed by another page: clickjacking a seat); a server with frame_self lets its own pages
 * frame its own pages, on answers of handlers and on refusals alike. */
static void frame_policy(void **state)
{
    fixture *f = *state;
    char hdr[200];
    snprintf(hdr, sizeof hdr, "X-Okr-Token: %s\r\n", aw_server_token(f->srv));
    assert_int_equal(get(f, "/", hdr), 200);
    assert_non_null(strstr(resp, "frame-ancestors 'none'"));
    assert_null(strstr(resp, "frame-src"));
    assert_non_null(strstr(resp, "X-Frame-Options: DENY"));

    char err[200];
    aw_options o = {.frame_self = 1};
    aw_server *framed = aw_server_new(f->base, &o, err, sizeof err);
    assert_non_null(framed);
    assert_int_equal(aw_server_route(framed, "/", hello, f), 0);
    aw_server *keep = f->srv;
    f->srv = framed;
    snprintf(hdr, sizeof hdr, "X-Okr-Token: %s\r\n", aw_server_token(framed));
    for (int i = 0; i < 3; i++) {
        /* a handler's answer, a 404 and a 403 */
        int want = i == 0 ? 200 : i == 1 ? 404 : 403;
        assert_int_equal(get(f, i == 1 ? "/nope" : "/", i == 2 ? NULL : hdr), want);
        assert_non_null(strstr(resp, "frame-src 'self'; frame-ancestors 'self'"));
        assert_null(strstr(resp, "'none'\r\n"));
        assert_non_null(strstr(resp, "X-Frame-Options: SAMEORIGIN"));
        assert_null(strstr(resp, "DENY"));
        assert_non_null(strstr(resp, "default-src 'none'"));
    }
    f->srv = keep;
    aw_server_free(framed);
}

/* aw_options.open and .host (the league's pages): no token is asked, the handler runs; the
 * Host and Origin checks stay, with the extra host (a TLS proxy's name) accepted as Host and as
 * an https:// or http:// Origin; no cookie is handed out. aw_listen_addr takes only IPv4. */
static void open_server_and_extra_host(void **state)
{
    fixture *f = *state;
    char err[200];
    aw_options o = {.open = 1, .host = "league.example.org"};
    aw_server *open = aw_server_new(f->base, &o, err, sizeof err);
    assert_non_null(open);
    assert_int_equal(aw_server_route(open, "/", hello, f), 0);
    aw_server *keep = f->srv;
    f->srv = open;
    int hits = f->hits;
    assert_int_equal(get(f, "/", NULL), 200);
    assert_int_equal(f->hits, hits + 1);
    assert_null(strstr(resp, "Set-Cookie"));
    assert_non_null(strstr(resp, "default-src 'none'"));
    char req[512];
    snprintf(req, sizeof req,
             "GET / HTTP/1.1\r\nHost: league.example.org\r\nOrigin: "
             "https://league.example.org\r\nConnection: close\r\n\r\n");
    exchange(f, req, strlen(req), resp, sizeof resp);
    assert_int_equal(status_of(resp), 200);
    snprintf(req, sizeof req,
             "GET / HTTP/1.1\r\nHost: evil.example.org\r\nConnection: "
             "close\r\n\r\n");
    exchange(f, req, strlen(req), resp, sizeof resp);
    assert_int_equal(status_of(resp), 403);
    assert_int_equal(get(f, "/", "Origin: https://evil.example.org\r\n"), 403);
    assert_int_equal(get(f, "/", "Origin: https://league.example.org.evil\r\n"), 403);
    assert_int_equal(f->hits, hits + 2);
    assert_true(aw_server_origin_ok(open, "https://league.example.org"));
    assert_false(aw_server_origin_ok(open, NULL));
    assert_false(aw_server_origin_ok(open, "null"));
    assert_false(aw_server_origin_ok(keep, "https://league.example.org"));
    f->srv = keep;
    aw_server_free(open);
    assert_int_equal(aw_listen_addr("not-an-address", 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "IPv4"));
    int fd = aw_listen_addr("127.0.0.1", 0, err, sizeof err);
    assert_true(fd > 0);
    close(fd);
}

/* ---- the wait list of long polls ---- */

static int answered;

static void news(struct evhttp_request *req, void *arg)
{
    (void)arg;
    answered++;
    aw_reply(req, 200, "text/plain", "news", 4);
}

static aw_waitlist *polls;

static void wait_route(struct evhttp_request *req, void *arg)
{
    fixture *f = arg;
    f->hits++;
    if (aw_waitlist_hold(polls, req) < 0)
        aw_reply_error(req, 503, "too many waiting");
}

/* A connection that has sent a whole request for /wait and is not read yet. */
static int send_wait(fixture *f)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)aw_server_port(f->srv))};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    char req[300];
    int n = snprintf(req, sizeof req,
                     "GET /wait HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Okr-Token: %s\r\n\r\n",
                     aw_server_port(f->srv), aw_server_token(f->srv));
    assert_int_equal(write(fd, req, (size_t)n), n);
    fcntl(fd, F_SETFL, O_NONBLOCK);
    return fd;
}

static void turn(fixture *f, int ms)
{
    for (int i = 0; i < ms; i++) {
        event_base_loop(f->base, EVLOOP_NONBLOCK);
        poll(NULL, 0, 1);
    }
}

/* What has come on fd so far ("" for nothing yet). */
static const char *answer_on(int fd)
{
    static char buf[2048];
    ssize_t r = read(fd, buf, sizeof buf - 1);
    buf[r > 0 ? r : 0] = 0;
    return buf;
}

/* Turn the loop until cond holds, for up to 5 s: a loaded machine (CI's two cores, ctest -j2)
 * can take far longer than the few milliseconds these steps need on a quiet one. */
#define TURN_UNTIL(f, cond)                                                                        \
    for (int turn_i_ = 0; turn_i_ < 5000 && !(cond); turn_i_++)                                    \
    turn(f, 1)

/* The whole answer on fd (headers and a body of at least a byte), waiting up to 5 s. */
static const char *answer_wait(fixture *f, int fd)
{
    static char all[4096];
    size_t n = 0;
    all[0] = 0;
    for (int i = 0; i < 5000; i++) {
        turn(f, 1);
        ssize_t r = read(fd, all + n, sizeof all - 1 - n);
        if (r > 0) {
            n += (size_t)r;
            all[n] = 0;
        }
        const char *end = strstr(all, "\r\n\r\n");
        if (end && end[4])
            break;
    }
    return all;
}

static void waitlist_caps_wakes_times_out_forgets(void **state)
{
    fixture *f = *state;
    answered = 0;
    char hdr[200];
    snprintf(hdr, sizeof hdr, "X-Okr-Token: %s\r\n", aw_server_token(f->srv));
    polls = aw_waitlist_new(f->base, 2, 0.3, news, NULL);
    assert_int_equal(aw_server_route(f->srv, "/wait", wait_route, f), 0);
    /* the cap: two held, the third refused at once */
    int a = send_wait(f), b = send_wait(f);
    TURN_UNTIL(f, aw_waitlist_count(polls) == 2);
    int c = send_wait(f);
    assert_int_equal(status_of(answer_wait(f, c)), 503);
    assert_int_equal(aw_waitlist_count(polls), 2);
    assert_string_equal(answer_on(a), "");
    /* news: both answered, the same bytes */
    aw_waitlist_wake(polls);
    assert_int_equal(answered, 2);
    assert_int_equal(aw_waitlist_count(polls), 0);
    const char *got = answer_wait(f, a);
    assert_int_equal(status_of(got), 200);
    assert_non_null(strstr(got, "\r\n\r\nnews"));
    assert_non_null(strstr(answer_wait(f, b), "\r\n\r\nnews"));
    close(a);
    close(b);
    close(c);
    /* no news: answered once its hold time is up, not before */
    a = send_wait(f);
    TURN_UNTIL(f, aw_waitlist_count(polls) == 1);
    assert_int_equal(aw_waitlist_count(polls), 1);
    assert_string_equal(answer_on(a), "");
    TURN_UNTIL(f, aw_waitlist_count(polls) == 0);
    assert_int_equal(aw_waitlist_count(polls), 0);
    assert_int_equal(answered, 3);
    assert_non_null(strstr(answer_wait(f, a), "\r\n\r\nnews"));
    close(a);
    /* a viewer that goes away: evhttp does not read a connection while its request is held,
     * so the slot is freed when the answer is due (or evhttp frees the connection first, and
     * the close callback forgets it); the answer to a closed socket harms nothing */
    a = send_wait(f);
    TURN_UNTIL(f, aw_waitlist_count(polls) == 1);
    assert_int_equal(aw_waitlist_count(polls), 1);
    close(a);
    turn(f, 20);
    aw_waitlist_wake(polls);
    turn(f, 20);
    assert_int_equal(aw_waitlist_count(polls), 0);
    assert_int_equal(answered, 4);
    assert_int_equal(get(f, "/", hdr), 200);
    /* freed with a request held: that one gets 503 */
    a = send_wait(f);
    TURN_UNTIL(f, aw_waitlist_count(polls) == 1);
    assert_int_equal(aw_waitlist_count(polls), 1);
    aw_waitlist_free(polls);
    polls = NULL;
    assert_int_equal(status_of(answer_wait(f, a)), 503);
    assert_int_equal(answered, 4);
    close(a);
    assert_int_equal(f->hits, 7);
}

static int open_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    assert_non_null(d);
    while (readdir(d))
        n++;
    closedir(d);
    return n; /* . and .. and the DIR's own fd: a few over, which only lowers the limit */
}

/* Anyone on the machine may open idle connections, token or not, until the server has no file
 * descriptor left: accept() then fails with the connection still queued, and a server that
 * called it again at once would spin. It must pause (counted), and answer again once the
 * connections are gone. Without the pause accept_pauses stays 0. */
static void out_of_descriptors_pauses_then_recovers(void **state)
{
    fixture *f = *state;
    struct rlimit old;
    assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
    struct rlimit low = old;
    low.rlim_cur = (rlim_t)open_fds() + 12; /* room for the clients and a few accepts */
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
    int fds[10], n = 0;
    struct sockaddr_in sa = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)aw_server_port(f->srv))};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (; n < 10; n++) {
        fds[n] = socket(AF_INET, SOCK_STREAM, 0);
        assert_true(fds[n] >= 0);
        assert_int_equal(connect(fds[n], (struct sockaddr *)&sa, sizeof sa), 0);
    }
    for (int i = 0; i < 50; i++) { /* 0.5 s of the server's loop */
        event_base_loop(f->base, EVLOOP_NONBLOCK);
        usleep(10000);
    }
    unsigned long pauses = aw_server_counts(f->srv).accept_pauses;
    assert_true(pauses >= 1);
    assert_true(pauses <= 10); /* one every 100 ms at most, not one per loop turn */
    for (int i = 0; i < n; i++)
        close(fds[i]);
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
    for (int i = 0; i < 30; i++) { /* the queued connections are taken and found closed */
        event_base_loop(f->base, EVLOOP_NONBLOCK);
        usleep(10000);
    }
    char hdr[128];
    snprintf(hdr, sizeof hdr, "X-Okr-Token: %s\r\n", aw_server_token(f->srv));
    assert_int_equal(get(f, "/", hdr), 200);
}

static void cookie_parsing(void **state)
{
    (void)state;
    const char *t = "0123456789abcdef0123456789abcdef";
    assert_true(aw_cookie_has("okr_t_5=0123456789abcdef0123456789abcdef", "okr_t_5", t));
    assert_true(aw_cookie_has("a=b;okr_t_5=0123456789abcdef0123456789abcdef ", "okr_t_5", t));
    assert_false(aw_cookie_has("xokr_t_5=0123456789abcdef0123456789abcdef", "okr_t_5", t));
    assert_false(aw_cookie_has("okr_t_55=0123456789abcdef0123456789abcdef", "okr_t_5", t));
    assert_false(aw_cookie_has("okr_t_5=0123456789abcdef0123456789abcde", "okr_t_5", t));
    assert_false(aw_cookie_has("okr_t_5=0123456789abcdef0123456789abcdef0", "okr_t_5", t));
    assert_false(aw_cookie_has("okr_t_5=", "okr_t_5", t));
    assert_false(aw_cookie_has(";;;", "okr_t_5", t));
    assert_false(aw_cookie_has(NULL, "okr_t_5", t));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(token_in_query_sets_cookie, setup, teardown),
        cmocka_unit_test_setup_teardown(wrong_token_is_403_and_nothing_else, setup, teardown),
        cmocka_unit_test_setup_teardown(host_and_origin_checked, setup, teardown),
        cmocka_unit_test_setup_teardown(routes_exact_and_methods, setup, teardown),
        cmocka_unit_test_setup_teardown(json_bodies, setup, teardown),
        cmocka_unit_test_setup_teardown(size_caps, setup, teardown),
        cmocka_unit_test_setup_teardown(loopback_only, setup, teardown),
        cmocka_unit_test_setup_teardown(listen_first_then_serve, setup, teardown),
        cmocka_unit_test_setup_teardown(token_given, setup, teardown),
        cmocka_unit_test_setup_teardown(frame_policy, setup, teardown),
        cmocka_unit_test_setup_teardown(open_server_and_extra_host, setup, teardown),
        cmocka_unit_test_setup_teardown(waitlist_caps_wakes_times_out_forgets, setup, teardown),
        cmocka_unit_test_setup_teardown(out_of_descriptors_pauses_then_recovers, setup, teardown),
        cmocka_unit_test(cookie_parsing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
