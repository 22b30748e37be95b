/* live.c - the spectator server (live.h): a process of its own, forked by the arena before the
 * run (jail's ar_spawn_worker) with nothing of the arena's but stdio and the listening socket
 * bound to 127.0.0.1 before the sandbox took the network away; one libevent base there, and
 * okr_web's HTTP layer (web/web.h).
 *
 * Why a process and not a thread: the tournament forks its set workers while the server runs,
 * and a fork copies only the forking thread. A lock another thread held at that moment (an
 * allocator's: gcc 12's AddressSanitizer has no fork handler for its own) stays locked forever
 * in the child. With the server in its own process the arena has no other thread to fork
 * across, and the server never forks.
 *
 * okr_web refuses what is not for us before a handler runs: a wrong Host or Origin, a missing
 * or wrong token (?t=, its HttpOnly cookie or a header), oversized headers or bodies, unknown
 * paths. The handlers here take GET only, and game ids from ?game= against [A-Za-z0-9_.-]
 * without "..", so nothing outside the run's folder is ever opened. Long polls are held in
 * okr_web's capped wait list; beyond the cap a viewer gets 503 and retries. The run never
 * waits for the server: the server only reads files. */
#include "live.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/http.h>

#include "feed.h"
#include "jail/spawn.h"
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
    TICK_MS = 250,       /* how often the run's files are read, and at most how often the held long
                            polls are answered (each answer costs every viewer a request) */
    MAX_HEADERS = 8192,  /* bytes of request line and headers */
    MAX_BODY = 1024,     /* every route is GET: no request needs a body */
    IDLE_TIMEOUT_S = 40, /* a connection that sends nothing is closed */
};

/* Both sides: the arena fills the first part and forks; the server process makes the rest. */
struct al_server {
    al_opts o;
    char *dir, *kind, *title;
    int listen_fd; /* the arena's until the fork, then the server's fd 3 */
    int port;
    char token[33];
    char url[160];
    pid_t pid; /* the server process (arena side), 0 once reaped */
    /* the server process */
    int ino, ino_wd;
    struct event_base *base;
    struct event *term;
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
        const char *full = al_feed_game_released(s->feed, id);
        if (!full) {
            aw_reply_error(req, 404, "no such finished game");
            return;
        }
        snprintf(path, sizeof path, "%s/records/%s.jsonl", s->dir, full);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    /* no seed: a spectator who had it could work out the deals of games not played yet */
    av_replay_opts ro = {.seat = AV_SPECTATOR, .back = NULL, .partial = live, .no_seed = 1};
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
        av_report_opts ro = {.format = AV_FMT_HTML, .max_games = 200, .no_seed = 1};
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

/* ---- The server process --------------------------------------------------------------------- */

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

/* SIGTERM from al_stop: leave the loop, so that the held polls get their 503 */
static void on_term(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    event_base_loopbreak(((al_server *)arg)->base);
}

/* Everything the server process made (al_server's second part). */
static void server_free(al_server *s)
{
    if (s->term)
        event_free(s->term);
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
}

/* The server process (ar_spawn_worker: it dies with the arena, the listening socket is fd 3,
 * nothing else of the arena's is open). Serves until SIGTERM. */
static void server_main(void *arg)
{
    al_server *s = arg;
    prctl(PR_SET_NAME, "arena:live", 0, 0, 0);
    /* Ctrl-C goes to the whole foreground group: the arena decides when the server stops
     * (it lingers, or stops it at once), so the server waits for the arena's SIGTERM */
    signal(SIGINT, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    char why[256];
    s->ino = -1;
    s->ino_wd = -1;
    s->base = event_base_new();
    aw_options wo = {.listen_fd = 3,
                     .token = s->token,
                     .max_header_size = MAX_HEADERS,
                     .max_body_size = MAX_BODY,
                     .timeout_s = IDLE_TIMEOUT_S,
                     .frame_self = 1}; /* the page frames a table's replay page */
    s->web = s->base ? aw_server_new(s->base, &wo, why, sizeof why) : NULL;
    if (!s->web) {
        fprintf(stderr, "arena: --serve: %s; the run goes on without it\n",
                s->base ? why : "no event base");
        server_free(s);
        _exit(1);
    }
    aw_server_route(s->web, "/", send_page, s);
    aw_server_route(s->web, "/state", on_state, s);
    aw_server_route(s->web, "/report", send_report, s);
    aw_server_route(s->web, "/replay", send_finished, s);
    aw_server_route(s->web, "/table", send_table, s);
    s->polls = aw_waitlist_new(s->base, MAX_WAITERS, POLL_HOLD_S, send_state, s);
    s->feed = al_feed_new(s->dir, s->kind, s->title, s->o.delay_s);
    s->ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    struct timeval tv = {0, TICK_MS * 1000};
    s->tick = event_new(s->base, -1, EV_PERSIST, on_tick, s);
    event_add(s->tick, &tv);
    s->term = evsignal_new(s->base, SIGTERM, on_term, s);
    event_add(s->term, NULL);
    event_base_dispatch(s->base);
    server_free(s);
}

/* ---- The arena's side --------------------------------------------------------------------------
 */

al_server *al_bind(const al_opts *o, char *err, size_t cap)
{
    char why[256];
    int fd = aw_listen(o->port, why, sizeof why);
    if (fd < 0) {
        snprintf(err, cap, "--serve: %s", why);
        return NULL;
    }
    al_server *s = ar_xcalloc(1, sizeof *s);
    s->listen_fd = fd;
    if (aw_token_new(s->token, why, sizeof why) < 0) {
        snprintf(err, cap, "--serve: %s", why);
        al_stop(s);
        return NULL;
    }
    struct sockaddr_in sa;
    socklen_t len = sizeof sa;
    s->port = getsockname(fd, (struct sockaddr *)&sa, &len) == 0 ? ntohs(sa.sin_port) : o->port;
    s->o = *o;
    s->dir = ar_xstrdup(o->dir);
    s->kind = ar_xstrdup(o->kind);
    s->title = ar_xstrdup(o->title ? o->title : o->kind);
    s->o.dir = s->dir;
    aw_url(s->port, "/", s->token, s->url, sizeof s->url);
    /* requests wait in the socket's backlog until the server process runs */
    return s;
}

int al_start(al_server *s, char *err, size_t cap)
{
    pid_t pid = ar_spawn_worker(server_main, s, s->listen_fd);
    if (pid < 0) {
        snprintf(err, cap, "--serve: cannot start the server: %s", strerror((int)-pid));
        return -1;
    }
    s->pid = pid;
    ar_spawn_spare(pid); /* a match run here must not take it for a bot's orphan */
    /* the socket is the server's alone now: once it exits, the port is closed */
    close(s->listen_fd);
    s->listen_fd = -1;
    return 0;
}

const char *al_url(const al_server *s)
{
    return s->url;
}

/* Has the server process ended? Reaps it (0 if it is still running); says so when it ended
 * badly by itself (say: not when al_stop ended it). */
static int server_gone(al_server *s, int say)
{
    if (s->pid <= 0)
        return 1;
    int st;
    pid_t r = waitpid(s->pid, &st, WNOHANG);
    if (r == 0 || (r < 0 && errno == EINTR))
        return 0;
    if (say && r == s->pid && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
        fprintf(stderr, "arena: the live server stopped (%s %d)\n",
                WIFSIGNALED(st) ? "signal" : "status",
                WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
    ar_spawn_reaped(s->pid);
    s->pid = 0; /* reaped here, or already by a match's reaper (ECHILD) */
    return 1;
}

void al_linger(al_server *s, double seconds)
{
    if (!s || seconds == 0 || server_gone(s, 1))
        return;
    /* SIGCHLD too: a server that died ends the lingering (nothing is served any more) */
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGCHLD);
    sigprocmask(SIG_BLOCK, &set, &old);
    double end = seconds < 0 ? 0 : ar_now_ms() + seconds * 1000;
    while (!server_gone(s, 1)) {
        double left = seconds < 0 ? 3600e3 : end - ar_now_ms();
        if (left <= 0)
            break;
        struct timespec ts = {(time_t)(left / 1000),
                              (long)((left - 1000.0 * (double)(time_t)(left / 1000)) * 1e6)};
        int sig = sigtimedwait(&set, NULL, &ts);
        if (sig == SIGINT || sig == SIGTERM)
            break;
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
}

void al_stop(al_server *s)
{
    if (!s)
        return;
    if (s->pid > 0) {
        /* SIGTERM: the server answers its held polls and exits; SIGKILL if it has not within
         * 2 s. Reaped either way: no server outlives the arena's command */
        kill(s->pid, SIGTERM);
        double deadline = ar_now_ms() + 2000;
        while (!server_gone(s, 0) && ar_now_ms() < deadline) {
            struct timespec ts = {0, 5 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        if (s->pid > 0) {
            kill(s->pid, SIGKILL);
            while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
                ;
            ar_spawn_reaped(s->pid);
        }
    }
    if (s->listen_fd >= 0)
        close(s->listen_fd);
    free(s->dir);
    free(s->kind);
    free(s->title);
    free(s);
}
