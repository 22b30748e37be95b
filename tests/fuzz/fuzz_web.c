/* fuzz_web.c - what a browser (or anything on the machine) sends the arena's HTTP layer
 * (arena/web/web.h). The first byte picks the path: odd, the input is a whole request written
 * to a real server on 127.0.0.1 (the token's placeholder TOKEN is replaced with the server's
 * token, so inputs get past the check and reach the routes) and the loop is turned until the
 * server has answered and closed; even, the rest goes straight to the pieces a request meets:
 * the JSON body parser, the Cookie header and the Host check. Nothing may crash, leak or hang;
 * a handler that runs must see a parsed object or answer 400. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "web/web.h"

static struct event_base *base;
static aw_server *srv;

static void act(struct evhttp_request *req, void *ud)
{
    (void)ud;
    char err[200];
    json_t *o = aw_request_json(req, err, sizeof err);
    if (!o) {
        aw_reply_error(req, 400, err);
        return;
    }
    if (!json_is_object(o))
        abort();
    char q[64];
    aw_request_query(req, "since", q, sizeof q);
    aw_reply_json(req, 200, o);
}

static void page(struct evhttp_request *req, void *ud)
{
    (void)ud;
    aw_reply(req, 200, "text/html; charset=utf-8", "<p>", 3);
}

static void setup(void)
{
    if (srv)
        return;
    base = event_base_new();
    char err[200];
    aw_options o = {.max_body_size = 4096, .max_header_size = 4096, .timeout_s = 2};
    srv = aw_server_new(base, &o, err, sizeof err);
    if (!srv) {
        fprintf(stderr, "fuzz_web: %s\n", err);
        abort();
    }
    aw_server_route(srv, "/", page, NULL);
    aw_server_route(srv, "/act", act, NULL);
}

static void over_tcp(const uint8_t *p, size_t n)
{
    /* TOKEN -> the server's token */
    char *req = malloc(n * 7 + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + 5 <= n && memcmp(p + i, "TOKEN", 5) == 0) {
            memcpy(req + k, aw_server_token(srv), 32);
            k += 32;
            i += 4;
        } else
            req[k++] = (char)p[i];
    }
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)aw_server_port(srv))};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0)
        abort();
    fcntl(fd, F_SETFL, O_NONBLOCK);
    size_t sent = 0;
    char buf[8192];
    int closed = 0;
    for (int round = 0; round < 400 && !closed; round++) {
        if (sent < k) {
            ssize_t w = write(fd, req + sent, k - sent);
            if (w > 0)
                sent += (size_t)w;
            else if (w < 0 && errno != EAGAIN)
                sent = k;
            if (sent == k)
                shutdown(fd, SHUT_WR);
        }
        event_base_loop(base, EVLOOP_NONBLOCK);
        struct pollfd pf = {fd, POLLIN, 0};
        if (poll(&pf, 1, 1) > 0) {
            ssize_t r = read(fd, buf, sizeof buf);
            if (r == 0 || (r < 0 && errno != EAGAIN))
                closed = 1;
        }
    }
    close(fd);
    for (int i = 0; i < 20; i++) /* let the server see the close and free the connection */
        event_base_loop(base, EVLOOP_NONBLOCK);
    free(req);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 16384)
        return 0;
    setup();
    if (data[0] & 1) {
        over_tcp(data + 1, size - 1);
        return 0;
    }
    char err[200];
    json_t *o = aw_parse_object((const char *)data + 1, size - 1, err, sizeof err);
    if (o && !json_is_object(o))
        abort();
    json_decref(o);
    char *s = malloc(size);
    memcpy(s, data + 1, size - 1);
    s[size - 1] = 0;
    aw_cookie_has(s, "okr_t_1", "0123456789abcdef0123456789abcdef");
    aw_host_ok(s, 8080);
    free(s);
    return 0;
}
