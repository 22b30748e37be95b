/* live.c - the spectator server (live.h): one thread, one libevent base, evhttp on a socket
 * bound to 127.0.0.1 before the run starts.
 *
 * Every request is hostile until shown otherwise: only GET and HEAD, headers and bodies
 * capped by evhttp (431/413), a Host that is not 127.0.0.1 or localhost refused (a DNS
 * rebinding page cannot reach us), the token compared in constant time (from ?token= or the
 * HttpOnly cookie the page sets), paths matched against a short fixed list and game ids
 * against [A-Za-z0-9_.-] without "..", so nothing outside the run's folder is ever opened.
 * Long polls are capped; beyond the cap a viewer gets 503 and retries. The run never waits
 * for this thread: it only reads files. */
#include "live.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/queue.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "feed.h"
#include "util/util.h"
#include "view/view.h"

extern const unsigned char al_asset_live_html[], al_asset_live_js[], al_asset_live_css[];
extern const unsigned long al_asset_live_html_len, al_asset_live_js_len, al_asset_live_css_len;
extern const unsigned char av_asset_report_css[]; /* okr_view's: both pages look alike */
extern const unsigned long av_asset_report_css_len;

enum {
    MAX_WAITERS = 512,   /* long polls held at once */
    POLL_HOLD_S = 25,    /* a long poll is answered after this long even without news */
    TICK_MS = 100,       /* how often the run's files are looked at */
    MAX_HEADERS = 8192,  /* bytes of request line and headers */
    IDLE_TIMEOUT_S = 40, /* a connection that sends nothing is closed */
};

typedef struct waiter {
    struct evhttp_request *req;
    double until;
} waiter;

struct al_server {
    al_opts o;
    char *dir, *kind, *title;
    int fd, port, ino, ino_wd;
    char token[33];
    char url[128];
    char cookie[96];
    pthread_t th;
    int running;
    atomic_int stop;
    int wake; /* eventfd: al_stop wakes the loop at once (not at the next tick) */
    struct event *woke;
    struct event_base *base;
    struct evhttp *http;
    struct event *tick;
    al_feed *feed;
    waiter w[MAX_WAITERS];
    int nw;
    char *report; /* the report page, made once the results are released */
    size_t report_len;
};

/* ---- Routes and the token ------------------------------------------------------------------ */

int al_token_ok(const char *given, const char *token)
{
    if (!given || !token)
        return 0;
    size_t n = strlen(token), g = strlen(given);
    unsigned char d = (unsigned char)(n != g);
    for (size_t i = 0; i < n; i++)
        d |= (unsigned char)(token[i] ^ (i < g ? given[i] : 0));
    return d == 0;
}

static int id_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
}

static int take_id(const char *p, const char *suffix, char *id, size_t cap)
{
    size_t n = strlen(p), s = strlen(suffix);
    if (n <= s || strcmp(p + n - s, suffix) != 0 || n - s >= cap || n - s >= 128)
        return 0;
    for (size_t i = 0; i < n - s; i++)
        if (!id_char(p[i]))
            return 0;
    memcpy(id, p, n - s);
    id[n - s] = '\0';
    return id[0] != '.' && strstr(id, "..") == NULL;
}

int al_route(const char *path, char *id, size_t idcap)
{
    if (!path)
        return AL_R_NONE;
    if (strcmp(path, "/") == 0)
        return AL_R_PAGE;
    if (strcmp(path, "/state") == 0)
        return AL_R_STATE;
    if (strcmp(path, "/report") == 0)
        return AL_R_REPORT;
    if (strncmp(path, "/replay/", 8) == 0 && take_id(path + 8, ".html", id, idcap))
        return AL_R_REPLAY;
    if (strncmp(path, "/table/", 7) == 0 && take_id(path + 7, ".html", id, idcap))
        return AL_R_TABLE;
    return AL_R_NONE;
}

/* ---- Replies ------------------------------------------------------------------------------- */

static void headers(struct evhttp_request *req, const char *type)
{
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "Content-Type", type);
    evhttp_add_header(h, "Cache-Control", "no-store");
    evhttp_add_header(h, "X-Content-Type-Options", "nosniff");
    evhttp_add_header(h, "Referrer-Policy", "no-referrer");
    /* the pages are self-contained: the live page may only ask this server for its state and
     * show this server's pages in its frame; nothing else may be fetched */
    evhttp_add_header(h, "Content-Security-Policy",
                      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                      "img-src data:; connect-src 'self'; frame-src 'self'; "
                      "frame-ancestors 'self'; base-uri 'none'; form-action 'none'");
}

static void reply(struct evhttp_request *req, int code, const char *type, const char *body,
                  size_t len)
{
    headers(req, type);
    struct evbuffer *b = evbuffer_new();
    if (b && len)
        evbuffer_add(b, body, len);
    evhttp_send_reply(req, code, NULL, b);
    if (b)
        evbuffer_free(b);
}

static void fail(struct evhttp_request *req, int code, const char *why)
{
    char body[256];
    int n = snprintf(body, sizeof body, "{\"error\":\"%s\"}\n", why);
    if (code == 405)
        evhttp_add_header(evhttp_request_get_output_headers(req), "Allow", "GET, HEAD");
    evhttp_add_header(evhttp_request_get_output_headers(req), "Connection", "close");
    reply(req, code, "application/json", body, (size_t)n);
}

static void send_state(al_server *s, struct evhttp_request *req)
{
    size_t len;
    const char *snap = al_feed_snapshot(s->feed, &len, NULL);
    reply(req, 200, "application/json", snap, len);
}

/* ---- Pages ----------------------------------------------------------------------------------- */

typedef struct fillctx {
    al_server *s;
} fillctx;

static int fill(void *ctx, FILE *out, const char *name)
{
    al_server *s = ((fillctx *)ctx)->s;
    if (strcmp(name, "REPORT_CSS") == 0)
        fwrite(av_asset_report_css, 1, av_asset_report_css_len, out);
    else if (strcmp(name, "CSS") == 0)
        fwrite(al_asset_live_css, 1, al_asset_live_css_len, out);
    else if (strcmp(name, "JS") == 0)
        fwrite(al_asset_live_js, 1, al_asset_live_js_len, out);
    else if (strcmp(name, "TITLE") == 0)
        av_html_text(out, s->title);
    else if (strcmp(name, "STATE") == 0) {
        json_t *j = json_loads(al_feed_snapshot(s->feed, NULL, NULL), 0, NULL);
        int rc = av_json_script(out, j);
        json_decref(j);
        return rc;
    } else
        return -1;
    return 0;
}

static void send_page(al_server *s, struct evhttp_request *req)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    fillctx c = {s};
    int rc = m ? av_template(m, al_asset_live_html, al_asset_live_html_len, fill, &c) : -1;
    if (m)
        fclose(m);
    if (rc != 0) {
        fail(req, 500, "cannot make the page");
    } else {
        /* the token goes into an HttpOnly cookie, so the page's requests and links need not
         * carry it (and a copied link from the address bar does not give it away) */
        evhttp_add_header(evhttp_request_get_output_headers(req), "Set-Cookie", s->cookie);
        reply(req, 200, "text/html; charset=utf-8", buf, len);
    }
    free(buf);
}

/* A replay page of a finished game, or of a game in progress as far as it is released. */
static void send_replay(al_server *s, struct evhttp_request *req, const char *id, int live)
{
    char path[4096], err[512] = "";
    char *rec = NULL;
    size_t rlen = 0;
    int tmpfd = -1;
    if (live) {
        rec = al_feed_table_record(s->feed, id, &rlen);
        if (!rec) {
            /* a game that ended between the page's update and this request: a short page
             * that says so rather than an error in the frame */
            static const char gone[] =
                "<!doctype html><meta charset=\"utf-8\"><title>ended</title>"
                "<body data-ready=\"1\" style=\"font:14px system-ui,sans-serif\"><p>This game is "
                "not being played now: it has ended (its replay is listed under Finished games "
                "once its set is over) or it has not begun.</p>";
            reply(req, 200, "text/html; charset=utf-8", gone, sizeof gone - 1);
            return;
        }
        /* the page maker reads a file: the released part goes to an unlinked temporary */
        char tmpl[] = "/tmp/okr-live-XXXXXX";
        tmpfd = mkstemp(tmpl);
        if (tmpfd < 0 || write(tmpfd, rec, rlen) != (ssize_t)rlen) {
            if (tmpfd >= 0) {
                unlink(tmpl);
                close(tmpfd);
            }
            free(rec);
            fail(req, 500, "cannot write a temporary file");
            return;
        }
        unlink(tmpl);
        snprintf(path, sizeof path, "/proc/self/fd/%d", tmpfd);
    } else {
        if (!al_feed_game_released(s->feed, id)) {
            fail(req, 404, "no such finished game");
            return;
        }
        snprintf(path, sizeof path, "%s/records/%s.jsonl", s->dir, id);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    av_replay_opts ro = {.seat = AV_SPECTATOR, .back = NULL, .partial = live};
    ro.clocks = av_folder_clocks(s->dir);
    int rc = m ? av_replay_html(path, &ro, m, err, sizeof err) : -1;
    if (m)
        fclose(m);
    if (rc == 0)
        reply(req, 200, "text/html; charset=utf-8", buf, len);
    else
        fail(req, 500, "the record could not be replayed");
    free(buf);
    free(rec);
    if (tmpfd >= 0)
        close(tmpfd);
}

static void send_report(al_server *s, struct evhttp_request *req)
{
    if (!al_feed_finished(s->feed)) {
        fail(req, 404, "the report is made when the run has finished");
        return;
    }
    if (!s->report) {
        char err[512] = "";
        FILE *m = open_memstream(&s->report, &s->report_len);
        av_report_opts ro = {.format = AV_FMT_HTML, .max_games = 200};
        int rc = m ? av_report(s->dir, &ro, m, err, sizeof err) : -1;
        if (m)
            fclose(m);
        if (rc != 0) {
            free(s->report);
            s->report = NULL;
            fail(req, 500, "the report could not be made");
            return;
        }
    }
    reply(req, 200, "text/html; charset=utf-8", s->report, s->report_len);
}

/* ---- Requests -------------------------------------------------------------------------------- */

static const char *cookie_token(struct evhttp_request *req)
{
    const char *c = evhttp_find_header(evhttp_request_get_input_headers(req), "Cookie");
    static _Thread_local char tok[40];
    while (c && *c) {
        while (*c == ' ' || *c == ';')
            c++;
        if (strncmp(c, "okrlive=", 8) == 0) {
            c += 8;
            size_t n = strcspn(c, ";");
            if (n >= sizeof tok)
                return NULL;
            memcpy(tok, c, n);
            tok[n] = '\0';
            return tok;
        }
        c += strcspn(c, ";");
    }
    return NULL;
}

static int host_ok(al_server *s, struct evhttp_request *req)
{
    const char *h = evhttp_find_header(evhttp_request_get_input_headers(req), "Host");
    char a[48], b[48];
    snprintf(a, sizeof a, "127.0.0.1:%d", s->port);
    snprintf(b, sizeof b, "localhost:%d", s->port);
    return h && (strcmp(h, a) == 0 || strcmp(h, b) == 0);
}

static void on_request(struct evhttp_request *req, void *arg)
{
    al_server *s = arg;
    enum evhttp_cmd_type cmd = evhttp_request_get_command(req);
    if (cmd != EVHTTP_REQ_GET && cmd != EVHTTP_REQ_HEAD) {
        fail(req, 405, "only GET");
        return;
    }
    if (!host_ok(s, req)) {
        fail(req, 421, "wrong Host: use the address the arena printed");
        return;
    }
    const struct evhttp_uri *u = evhttp_request_get_evhttp_uri(req);
    const char *path = u ? evhttp_uri_get_path(u) : NULL;
    const char *query = u ? evhttp_uri_get_query(u) : NULL;
    char id[128] = "";
    int route = al_route(path, id, sizeof id);
    struct evkeyvalq q;
    TAILQ_INIT(&q);
    if (query && strlen(query) < 1024)
        evhttp_parse_query_str(query, &q);
    const char *tok = evhttp_find_header(&q, "token");
    int ok = al_token_ok(tok, s->token) || al_token_ok(cookie_token(req), s->token);
    long long since = -1;
    const char *sv = evhttp_find_header(&q, "since");
    if (sv) {
        char *end;
        since = strtoll(sv, &end, 10);
        if (*end)
            since = -1;
    }
    evhttp_clear_headers(&q);
    if (!ok) {
        fail(req, 403, "wrong or missing token: use the address the arena printed");
        return;
    }
    switch (route) {
    case AL_R_PAGE:
        send_page(s, req);
        return;
    case AL_R_STATE: {
        long long v;
        al_feed_snapshot(s->feed, NULL, &v);
        if (since < v || cmd == EVHTTP_REQ_HEAD) {
            send_state(s, req);
        } else if (s->nw == MAX_WAITERS) {
            evhttp_add_header(evhttp_request_get_output_headers(req), "Retry-After", "2");
            fail(req, 503, "too many viewers waiting: try again");
        } else {
            s->w[s->nw].req = req;
            s->w[s->nw].until = ar_now_ms() + POLL_HOLD_S * 1000.0;
            s->nw++;
        }
        return;
    }
    case AL_R_REPLAY:
        send_replay(s, req, id, 0);
        return;
    case AL_R_TABLE:
        send_replay(s, req, id, 1);
        return;
    case AL_R_REPORT:
        send_report(s, req);
        return;
    default:
        fail(req, 404, "no such page");
    }
}

/* ---- The thread ------------------------------------------------------------------------------ */

static void watch_records(al_server *s)
{
    if (s->ino < 0 || s->ino_wd >= 0)
        return;
    s->ino_wd = inotify_add_watch(s->ino, al_feed_records_dir(s->feed), IN_CREATE | IN_MOVED_TO);
    if (s->ino_wd < 0)
        return; /* not there yet */
    /* the games begun before the watch: those written to in the last seconds */
    DIR *d = opendir(al_feed_records_dir(s->feed));
    struct dirent *de;
    time_t now = time(NULL);
    while (d && (de = readdir(d)) != NULL) {
        struct stat st;
        if (de->d_name[0] != '.' && fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISREG(st.st_mode) && now - st.st_mtime < 5)
            al_feed_touch(s->feed, de->d_name);
    }
    if (d)
        closedir(d);
}

static void read_inotify(al_server *s)
{
    char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
    for (;;) {
        ssize_t n = read(s->ino, buf, sizeof buf);
        if (n <= 0)
            return;
        for (char *p = buf; p < buf + n;) {
            struct inotify_event *ev = (struct inotify_event *)p;
            if (ev->len && ev->wd == s->ino_wd)
                al_feed_touch(s->feed, ev->name);
            if (ev->mask & IN_IGNORED && ev->wd == s->ino_wd)
                s->ino_wd = -1; /* the folder went away */
            p += sizeof *ev + ev->len;
        }
    }
}

static void on_tick(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    al_server *s = arg;
    if (atomic_load(&s->stop)) {
        event_base_loopbreak(s->base);
        return;
    }
    watch_records(s);
    read_inotify(s);
    double now = ar_now_ms();
    long long before, after;
    al_feed_snapshot(s->feed, NULL, &before);
    al_feed_poll(s->feed, now);
    al_feed_snapshot(s->feed, NULL, &after);
    /* answer the long polls: every waiter gets the same bytes */
    for (int i = 0; i < s->nw;) {
        if (after != before || now >= s->w[i].until) {
            send_state(s, s->w[i].req);
            s->w[i] = s->w[--s->nw];
        } else
            i++;
    }
}

static void on_wake(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    al_server *s = arg;
    event_base_loopbreak(s->base);
}

static void *thread_main(void *arg)
{
    al_server *s = arg;
    event_base_dispatch(s->base);
    for (int i = 0; i < s->nw; i++)
        fail(s->w[i].req, 503, "the server is stopping");
    s->nw = 0;
    return NULL;
}

/* A connection closed while its long poll waited: forget the request (evhttp frees it). */
static void on_conn_close(struct evhttp_connection *c, void *arg)
{
    al_server *s = arg;
    for (int i = 0; i < s->nw;) {
        if (evhttp_request_get_connection(s->w[i].req) == c)
            s->w[i] = s->w[--s->nw];
        else
            i++;
    }
}

static void on_any_request(struct evhttp_request *req, void *arg)
{
    struct evhttp_connection *c = evhttp_request_get_connection(req);
    if (c)
        evhttp_connection_set_closecb(c, on_conn_close, arg);
    on_request(req, arg);
}

al_server *al_bind(const al_opts *o, char *err, size_t cap)
{
    al_server *s = ar_xcalloc(1, sizeof *s);
    s->o = *o;
    s->dir = ar_xstrdup(o->dir);
    s->kind = ar_xstrdup(o->kind);
    s->title = ar_xstrdup(o->title ? o->title : o->kind);
    s->o.dir = s->dir;
    s->ino = -1;
    s->ino_wd = -1;
    s->wake = -1;
    s->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)o->port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int one = 1;
    socklen_t al = sizeof a;
    unsigned char rnd[16];
    if (s->fd < 0 || setsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
        bind(s->fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(s->fd, 128) < 0 ||
        getsockname(s->fd, (struct sockaddr *)&a, &al) < 0) {
        snprintf(err, cap, "--serve: cannot listen on 127.0.0.1:%d: %s", o->port, strerror(errno));
        goto bad;
    }
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
        snprintf(err, cap, "--serve: no random token: %s", strerror(errno));
        goto bad;
    }
    for (int i = 0; i < 16; i++)
        snprintf(s->token + 2 * i, 3, "%02x", rnd[i]);
    s->port = ntohs(a.sin_port);
    snprintf(s->url, sizeof s->url, "http://127.0.0.1:%d/?token=%s", s->port, s->token);
    snprintf(s->cookie, sizeof s->cookie, "okrlive=%s; HttpOnly; SameSite=Strict; Path=/",
             s->token);
    return s;
bad:
    if (s->fd >= 0)
        close(s->fd);
    free(s->dir);
    free(s->kind);
    free(s->title);
    free(s);
    return NULL;
}

int al_start(al_server *s, char *err, size_t cap)
{
    s->feed = al_feed_new(s->dir, s->kind, s->title, s->o.delay_s);
    s->ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    s->base = event_base_new();
    s->http = s->base ? evhttp_new(s->base) : NULL;
    if (!s->http || evhttp_accept_socket(s->http, s->fd) < 0) {
        snprintf(err, cap, "--serve: cannot start the HTTP server");
        return -1;
    }
    s->fd = -1; /* evhttp owns it now */
    evhttp_set_max_headers_size(s->http, MAX_HEADERS);
    evhttp_set_max_body_size(s->http, 0);
    evhttp_set_timeout(s->http, IDLE_TIMEOUT_S);
    /* other methods reach on_request, which answers 405 (evhttp would answer 501) */
    evhttp_set_allowed_methods(s->http, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD | EVHTTP_REQ_POST |
                                            EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE |
                                            EVHTTP_REQ_OPTIONS | EVHTTP_REQ_PATCH);
    evhttp_set_gencb(s->http, on_any_request, s);
    struct timeval tv = {0, TICK_MS * 1000};
    s->tick = event_new(s->base, -1, EV_PERSIST, on_tick, s);
    event_add(s->tick, &tv);
    s->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (s->wake >= 0) {
        s->woke = event_new(s->base, s->wake, EV_READ, on_wake, s);
        event_add(s->woke, NULL);
    }
    /* the thread takes no signal: Ctrl-C stays the run's */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = pthread_create(&s->th, NULL, thread_main, s);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        snprintf(err, cap, "--serve: cannot start a thread: %s", strerror(rc));
        return -1;
    }
    s->running = 1;
    return 0;
}

const char *al_url(const al_server *s)
{
    return s->url;
}

void al_linger(al_server *s, double seconds)
{
    if (!s || !s->running || seconds == 0)
        return;
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, &old);
    if (seconds < 0) {
        int sig = 0;
        sigwait(&set, &sig);
    } else {
        struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
        while (sigtimedwait(&set, NULL, &ts) < 0 && errno == EINTR)
            ;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void al_stop(al_server *s)
{
    if (!s)
        return;
    atomic_store(&s->stop, 1);
    if (s->wake >= 0) {
        uint64_t one = 1;
        if (write(s->wake, &one, sizeof one) < 0) {
            /* the tick sees s->stop within TICK_MS */
        }
    }
    if (s->running)
        pthread_join(s->th, NULL);
    if (s->woke)
        event_free(s->woke);
    if (s->wake >= 0)
        close(s->wake);
    if (s->fd >= 0)
        close(s->fd);
    if (s->tick)
        event_free(s->tick);
    if (s->http)
        evhttp_free(s->http);
    if (s->base)
        event_base_free(s->base);
    if (s->ino >= 0)
        close(s->ino);
    al_feed_free(s->feed);
    free(s->report);
    free(s->dir);
    free(s->kind);
    free(s->title);
    free(s);
}
