/* live.c - the spectator server (live.h): one thread, one libevent base, and okr_web's HTTP
 * layer (web/web.h) on a socket bound to 127.0.0.1 before the run starts.
 *
 * okr_web refuses what is not for us before a handler runs: a wrong Host or Origin, a missing
 * or wrong token (?t=, its HttpOnly cookie or a header), oversized headers or bodies, unknown
 * paths. The handlers here take GET only, and game ids from ?game= against [A-Za-z0-9_.-]
 * without "..", so nothing outside the run's folder is ever opened. Long polls are held in
 * okr_web's capped wait list; beyond the cap a viewer gets 503 and retries. The run never
 * waits for this thread: it only reads files. */
#include "live.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/http.h>

#include "feed.h"
#include "util/util.h"
#include "view/view.h"
#include "web/web.h"

extern const unsigned char al_asset_live_html[], al_asset_live_js[], al_asset_live_css[];
extern const unsigned long al_asset_live_html_len, al_asset_live_js_len, al_asset_live_css_len;
extern const unsigned char av_asset_report_css[]; /* okr_view's: both pages look alike */
extern const unsigned long av_asset_report_css_len;

enum {
    MAX_WAITERS = 512,   /* long polls held at once */
    POLL_HOLD_S = 25,    /* a long poll is answered after this long even without news */
    TICK_MS = 100,       /* how often the run's files are looked at */
    MAX_HEADERS = 8192,  /* bytes of request line and headers */
    MAX_BODY = 1024,     /* every route is GET: no request needs a body */
    IDLE_TIMEOUT_S = 40, /* a connection that sends nothing is closed */
};

struct al_server {
    al_opts o;
    char *dir, *kind, *title;
    int ino, ino_wd;
    char url[128];
    pthread_t th;
    int running;
    atomic_int stop;
    int wake; /* eventfd: al_stop wakes the loop at once (not at the next tick) */
    struct event *woke;
    struct event_base *base;
    aw_server *web;
    aw_waitlist *polls;
    struct event *tick;
    al_feed *feed;
    char *report; /* the report page, made once the results are released */
    size_t report_len;
};

/* ---- Game ids -------------------------------------------------------------------------------- */

static int id_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
}

int al_game_id_ok(const char *id)
{
    if (!id || !id[0] || id[0] == '.' || strlen(id) >= AL_MAX_ID || strstr(id, "..") != NULL)
        return 0;
    for (const char *p = id; *p; p++)
        if (!id_char(*p))
            return 0;
    return 1;
}

/* ---- Replies ------------------------------------------------------------------------------- */

static void send_state(struct evhttp_request *req, void *arg)
{
    al_server *s = arg;
    size_t len;
    const char *snap = al_feed_snapshot(s->feed, &len, NULL);
    aw_reply(req, 200, "application/json; charset=utf-8", snap, len);
}

/* Every page here is read-only: anything but GET is refused (okr_web has already answered
 * methods other than GET and POST). */
static int get_only(struct evhttp_request *req)
{
    if (evhttp_request_get_command(req) == EVHTTP_REQ_GET)
        return 1;
    evhttp_add_header(evhttp_request_get_output_headers(req), "Allow", "GET");
    aw_reply_error(req, 405, "only GET");
    return 0;
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

static void send_page(struct evhttp_request *req, void *arg)
{
    al_server *s = arg;
    if (!get_only(req))
        return;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    fillctx c = {s};
    int rc = m ? av_template(m, al_asset_live_html, al_asset_live_html_len, fill, &c) : -1;
    if (m)
        fclose(m);
    /* okr_web put the token in an HttpOnly cookie, so the page's requests and links need not
     * carry it (and a copied link from the address bar does not give it away) */
    if (rc != 0)
        aw_reply_error(req, 500, "cannot make the page");
    else
        aw_reply(req, 200, "text/html; charset=utf-8", buf, len);
    free(buf);
}

/* A replay page of a finished game, or of a game in progress as far as it is released. */
static void send_replay(al_server *s, struct evhttp_request *req, int live)
{
    char id[AL_MAX_ID];
    if (!get_only(req))
        return;
    if (aw_request_query(req, "game", id, sizeof id) < 0 || !al_game_id_ok(id)) {
        aw_reply_error(req, 400, "game: a game id ([A-Za-z0-9_.-]) was expected");
        return;
    }
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
            aw_reply(req, 200, "text/html; charset=utf-8", gone, sizeof gone - 1);
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
            aw_reply_error(req, 500, "cannot write a temporary file");
            return;
        }
        unlink(tmpl);
        snprintf(path, sizeof path, "/proc/self/fd/%d", tmpfd);
    } else {
        if (!al_feed_game_released(s->feed, id)) {
            aw_reply_error(req, 404, "no such finished game");
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
        aw_reply(req, 200, "text/html; charset=utf-8", buf, len);
    else
        aw_reply_error(req, 500, "the record could not be replayed");
    free(buf);
    free(rec);
    if (tmpfd >= 0)
        close(tmpfd);
}

static void send_table(struct evhttp_request *req, void *arg)
{
    send_replay(arg, req, 1);
}

static void send_finished(struct evhttp_request *req, void *arg)
{
    send_replay(arg, req, 0);
}

static void send_report(struct evhttp_request *req, void *arg)
{
    al_server *s = arg;
    if (!get_only(req))
        return;
    if (!al_feed_finished(s->feed)) {
        aw_reply_error(req, 404, "the report is made when the run has finished");
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
            aw_reply_error(req, 500, "the report could not be made");
            return;
        }
    }
    aw_reply(req, 200, "text/html; charset=utf-8", s->report, s->report_len);
}

/* The state now, or (with ?since=VERSION, the version the viewer has) when it next changes. */
static void on_state(struct evhttp_request *req, void *arg)
{
    al_server *s = arg;
    if (!get_only(req))
        return;
    char sv[32];
    long long since = -1, v;
    if (aw_request_query(req, "since", sv, sizeof sv) == 0) {
        char *end;
        errno = 0;
        since = strtoll(sv, &end, 10);
        if (!sv[0] || *end || errno) {
            aw_reply_error(req, 400, "since: a version number was expected");
            return;
        }
    }
    al_feed_snapshot(s->feed, NULL, &v);
    if (since < v) {
        send_state(req, s);
    } else if (aw_waitlist_hold(s->polls, req) < 0) {
        evhttp_add_header(evhttp_request_get_output_headers(req), "Retry-After", "2");
        aw_reply_error(req, 503, "too many viewers waiting: try again");
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
    if (after != before)
        aw_waitlist_wake(s->polls);
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
    return NULL;
}

al_server *al_bind(const al_opts *o, char *err, size_t cap)
{
    char why[256];
    int fd = aw_listen(o->port, why, sizeof why);
    if (fd < 0) {
        snprintf(err, cap, "--serve: %s", why);
        return NULL;
    }
    al_server *s = ar_xcalloc(1, sizeof *s);
    s->o = *o;
    s->dir = ar_xstrdup(o->dir);
    s->kind = ar_xstrdup(o->kind);
    s->title = ar_xstrdup(o->title ? o->title : o->kind);
    s->o.dir = s->dir;
    s->ino = -1;
    s->ino_wd = -1;
    s->wake = -1;
    /* the thread's base exists before the thread: requests wait in the socket's backlog
     * until al_start runs its loop */
    s->base = event_base_new();
    aw_options wo = {.listen_fd = fd,
                     .max_header_size = MAX_HEADERS,
                     .max_body_size = MAX_BODY,
                     .timeout_s = IDLE_TIMEOUT_S,
                     .frame_self = 1}; /* the page frames a table's replay page */
    s->web = s->base ? aw_server_new(s->base, &wo, why, sizeof why) : NULL;
    if (!s->web) {
        snprintf(err, cap, "--serve: %s", s->base ? why : "no event base");
        close(fd);
        al_stop(s);
        return NULL;
    }
    aw_server_route(s->web, "/", send_page, s);
    aw_server_route(s->web, "/state", on_state, s);
    aw_server_route(s->web, "/report", send_report, s);
    aw_server_route(s->web, "/replay", send_finished, s);
    aw_server_route(s->web, "/table", send_table, s);
    s->polls = aw_waitlist_new(s->base, MAX_WAITERS, POLL_HOLD_S, send_state, s);
    aw_server_url(s->web, "/", s->url, sizeof s->url);
    return s;
}

int al_start(al_server *s, char *err, size_t cap)
{
    s->feed = al_feed_new(s->dir, s->kind, s->title, s->o.delay_s);
    s->ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
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
    if (s->tick)
        event_free(s->tick);
    aw_waitlist_free(s->polls); /* the polls still held get 503 */
    aw_server_free(s->web);
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
