/* cli_bots.c - --bot/--name handling shared by `arena match` and `arena check-bot`. */
#include "cli_bots.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "jail/spawn.h"
#include "util/util.h"

int ar_cli_bots_add(ar_cli_bots *l, const char *flag, const char *cmd)
{
    ar_cli_bot nb;
    memset(&nb, 0, sizeof nb);
    nb.command = ar_xstrdup(cmd);
    if (cmd[0] == '@') {
        if (ar_policy_from_name(cmd + 1, &nb.policy) < 0) {
            fprintf(stderr, "arena: %s '%s': unknown built-in (known: @random @greedy)\n", flag,
                    cmd);
            free(nb.command);
            return -1;
        }
        nb.builtin = 1;
    } else {
        char err[128];
        int argc;
        if (ar_spawn_split(cmd, &nb.argv, &argc, err, sizeof err) < 0) {
            fprintf(stderr, "arena: %s '%s': %s\n", flag, cmd, err);
            free(nb.command);
            return -1;
        }
        char path[PATH_MAX];
        int rc = ar_spawn_resolve(nb.argv[0], path, sizeof path);
        struct stat st;
        int here = stat(nb.argv[0], &st) == 0; /* as a path from the current folder */
        if (here && S_ISDIR(st.st_mode))
            rc = -EISDIR;
        if (rc < 0) {
            fprintf(stderr, "arena: %s '%s': %s: %s\n", flag, cmd, nb.argv[0],
                    rc == -ENOENT ? (strchr(nb.argv[0], '/') ? "no such file" : "not found in PATH")
                    : rc == -EACCES ? "not an executable file"
                    : rc == -EISDIR ? "a folder, not a program"
                                    : strerror(-rc));
            if (here && S_ISDIR(st.st_mode))
                fprintf(stderr,
                        "arena: give the program inside it, e.g. --bot '%s/bot' or --bot "
                        "'python3 %s/bot.py'\n",
                        nb.argv[0], nb.argv[0]);
            else if (here && !strchr(nb.argv[0], '/'))
                /* a bare name is looked up in PATH only, like a shell does */
                fprintf(stderr,
                        "arena: there is a '%s' in this folder: did you mean --bot '%s%s'?\n",
                        nb.argv[0], access(nb.argv[0], X_OK) == 0 ? "./" : "python3 ", cmd);
            else if (here && access(nb.argv[0], X_OK) != 0)
                fprintf(stderr,
                        "arena: make it executable (chmod +x %s) or name its interpreter, "
                        "e.g. --bot 'python3 %s'\n",
                        nb.argv[0], cmd);
            ar_spawn_argv_free(nb.argv);
            free(nb.command);
            return -1;
        }
        nb.path = ar_xstrdup(path);
    }
    l->b = ar_xrealloc(l->b, (size_t)(l->n + 1) * sizeof *l->b);
    l->b[l->n++] = nb;
    return 0;
}

int ar_cli_bots_name(ar_cli_bots *l, const char *name)
{
    if (l->n == 0) {
        fprintf(stderr, "arena: --name '%s': give it after the --bot it names\n", name);
        return -1;
    }
    if (!name[0]) {
        fprintf(stderr, "arena: --name: empty name\n");
        return -1;
    }
    free(l->b[l->n - 1].name);
    l->b[l->n - 1].name = ar_xstrdup(name);
    return 0;
}

int ar_cli_bots_files(ar_cli_bots *l, const char *path)
{
    struct stat st;
    if (l->n == 0 || l->b[l->n - 1].builtin) {
        fprintf(stderr, "arena: --files '%s': give it after the --bot program it belongs to\n",
                path);
        return -1;
    }
    if (!path[0] || stat(path, &st) < 0) {
        fprintf(stderr, "arena: --files '%s': %s\n", path, path[0] ? strerror(errno) : "empty");
        return -1;
    }
    ar_cli_bot *b = &l->b[l->n - 1];
    int n = 0;
    while (b->own && b->own[n])
        n++;
    b->own = ar_xrealloc(b->own, (size_t)(n + 2) * sizeof *b->own);
    b->own[n] = ar_xstrdup(path);
    b->own[n + 1] = NULL;
    return 0;
}

int ar_cli_bots_check_views(const ar_match_config *cfg)
{
    for (int i = 0; i < cfg->nbots; i++) {
        char msg[2 * PATH_MAX + 600];
        char **v = ar_match_view_check(cfg, i, msg, sizeof msg, NULL);
        if (!v) {
            fprintf(stderr, "arena: bot %s: %s\n", cfg->bots[i].name, msg);
            ar_spawn_view_forget();
            return AR_EXIT_USAGE;
        }
        ar_spawn_argv_free(v);
    }
    ar_spawn_view_forget();
    return AR_EXIT_OK;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* python3 x.py, node x.js ...: the script names the bot better than the interpreter. */
static int is_interpreter(const char *prog)
{
    static const char *const known[] = {"python", "python3", "pypy", "pypy3", "node", "nodejs",
                                        "ruby",   "perl",    "sh",   "bash",  "deno", "bun",
                                        "java",   "env",     "lua",  "php"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        size_t n = strlen(known[i]);
        if (strncmp(prog, known[i], n) == 0 &&
            (prog[n] == '\0' || (prog[n] == '.' || (prog[n] >= '0' && prog[n] <= '9'))))
            return 1;
    }
    return 0;
}

static char *default_name(const ar_cli_bot *b)
{
    if (b->builtin)
        return ar_xstrdup(b->command);
    const char *pick = base_name(b->argv[0]);
    if (is_interpreter(pick))
        for (int i = 1; b->argv[i]; i++)
            if (b->argv[i][0] != '-') {
                pick = base_name(b->argv[i]);
                break;
            }
    char *name = ar_xstrdup(pick[0] ? pick : "bot");
    char *dot = strrchr(name, '.');
    if (dot && dot != name)
        *dot = '\0';
    return name;
}

int ar_cli_bots_finish(ar_cli_bots *l)
{
    for (int i = 0; i < l->n; i++)
        for (int j = 0; j < i; j++)
            if (l->b[i].name && l->b[j].name && strcmp(l->b[i].name, l->b[j].name) == 0) {
                fprintf(stderr, "arena: --name '%s' is given twice\n", l->b[i].name);
                return AR_EXIT_USAGE;
            }
    for (int i = 0; i < l->n; i++) {
        if (l->b[i].name)
            continue;
        char *base = default_name(&l->b[i]);
        for (int k = 1;; k++) {
            char cand[256];
            if (k == 1)
                snprintf(cand, sizeof cand, "%s", base);
            else
                snprintf(cand, sizeof cand, "%s#%d", base, k);
            int taken = 0;
            for (int j = 0; j < l->n; j++)
                if (j != i && l->b[j].name && strcmp(l->b[j].name, cand) == 0)
                    taken = 1;
            if (!taken) {
                l->b[i].name = ar_xstrdup(cand);
                break;
            }
        }
        free(base);
    }
    l->e = ar_xcalloc((size_t)(l->n ? l->n : 1), sizeof *l->e);
    for (int i = 0; i < l->n; i++) {
        l->e[i].name = l->b[i].name;
        l->e[i].command = l->b[i].command;
        l->e[i].argv = l->b[i].argv;
        l->e[i].path = l->b[i].path;
        l->e[i].builtin = l->b[i].builtin;
        l->e[i].policy = l->b[i].policy;
        l->e[i].own = l->b[i].own;
    }
    return AR_EXIT_OK;
}

void ar_cli_bots_free(ar_cli_bots *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->b[i].name);
        free(l->b[i].command);
        ar_spawn_argv_free(l->b[i].argv);
        free(l->b[i].path);
        ar_spawn_argv_free(l->b[i].own);
    }
    free(l->b);
    free(l->e);
    memset(l, 0, sizeof *l);
}

int ar_cli_trace_check(const char *sel, const ar_cli_bots *l, int slots)
{
    for (int k = 0; k < slots; k++)
        for (int b = 0; b < l->n; b++)
            if (ar_match_traced(sel, k, l->b[b].name))
                return AR_EXIT_OK;
    fprintf(stderr, "arena: --trace '%s': expected all, a slot from 0 to %d, or a bot's name:", sel,
            slots - 1);
    for (int b = 0; b < l->n; b++)
        fprintf(stderr, " %s", l->b[b].name);
    fprintf(stderr, "\n");
    return AR_EXIT_USAGE;
}
