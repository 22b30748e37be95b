/* cli_serve.c - `--serve [PORT]`, `--serve-delay S` and `--serve-linger S` of `arena match` and
 * `arena tournament`: the spectator server (arena/live, docs/live.md) around a run. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "live/live.h"

int ar_serve_flag(int argc, char **argv, int *i, ar_serve_args *sa)
{
    const char *v = NULL;
    int r;
    const char *a = argv[*i];
    if (strcmp(a, "--serve") == 0 || strncmp(a, "--serve=", 8) == 0) {
        sa->on = 1;
        /* the port is optional: "--serve 8080" or "--serve=8080", else any free port */
        if (a[7] == '=')
            v = a + 8;
        else if (*i + 1 < argc && argv[*i + 1][0] >= '0' && argv[*i + 1][0] <= '9')
            v = argv[++*i];
        if (v && ar_parse_long("--serve", v, 0, 65535, &sa->port) < 0)
            return -1;
        return 1;
    }
    long long n;
    if ((r = ar_flag(argc, argv, i, "--serve-delay", &v)) != 0) {
        if (r < 0 || ar_parse_long("--serve-delay", v, 0, 3600, &n) < 0)
            return -1;
        sa->delay = (double)n;
        return 1;
    }
    if ((r = ar_flag(argc, argv, i, "--serve-linger", &v)) != 0) {
        if (r < 0 || ar_parse_long("--serve-linger", v, 0, 86400 * 7, &n) < 0)
            return -1;
        sa->linger = (double)n;
        return 1;
    }
    return 0;
}

void ar_serve_usage(FILE *out)
{
    fprintf(out,
            "  --serve [PORT]  watch the run live in a browser: a page on 127.0.0.1 (any free\n"
            "                  port without PORT) whose address, with its token, is printed;\n"
            "                  nothing is opened. After the run it serves on until Ctrl-C\n"
            "  --serve-delay S moves are shown S seconds after they are played (default 0)\n"
            "  --serve-linger S  after the run, serve S more seconds instead of until Ctrl-C\n");
}

struct al_server *ar_serve_bind(const ar_serve_args *sa, const char *dir, const char *kind,
                                const char *title, int *status)
{
    if (!sa->on)
        return NULL;
    al_opts o = {
        .dir = dir, .kind = kind, .title = title, .port = (int)sa->port, .delay_s = sa->delay};
    char err[256] = "";
    al_server *s = al_bind(&o, err, sizeof err);
    if (!s) {
        fprintf(stderr, "arena: %s\n", err);
        *status = AR_EXIT_USAGE;
        return NULL;
    }
    /* the token is the only way in: whoever can read this line may watch */
    fprintf(stderr, "arena: watch live at %s\n", al_url(s));
    return s;
}

int ar_serve_start(struct al_server *s)
{
    char err[256] = "";
    if (s && al_start(s, err, sizeof err) < 0) {
        fprintf(stderr, "arena: %s\n", err);
        return AR_EXIT_FAIL;
    }
    return AR_EXIT_OK;
}

void ar_serve_end(struct al_server *s, const ar_serve_args *sa, int status)
{
    if (!s)
        return;
    if (status == AR_EXIT_OK && sa->linger != 0) {
        if (sa->linger < 0)
            fprintf(stderr, "arena: the run is over; still serving %s until Ctrl-C\n", al_url(s));
        else
            fprintf(stderr, "arena: the run is over; serving %s for %.0f s more\n", al_url(s),
                    sa->linger);
        al_linger(s, sa->linger);
    }
    al_stop(s);
}
