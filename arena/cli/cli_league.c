/* cli_league.c - `arena league SUBCOMMAND`: a league that runs for weeks (docs/league.md).
 * The work is the league room's (league/league.h); this file reads the command line. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "jail/sandbox.h"
#include "league/league.h"
#include "lweb/lweb.h"
#include "tour/tourfile.h"
#include "util/util.h"

void ar_league_usage(FILE *out)
{
    fputs("usage: arena league init DIR FILE\n"
          "       arena league add DIR NAME [--files PATH]... -- COMMAND [ARGS...]\n"
          "       arena league add DIR NAME --archive FILE --cmd \"COMMAND\"\n"
          "                        [--build \"COMMAND\"] [--build-secs N] [--build-mb M]\n"
          "       arena league retire DIR NAME\n"
          "       arena league status DIR\n"
          "       arena league standings DIR [--format text|json] [--all]\n"
          "       arena league final DIR [--deals N] [--jobs J] [--quiet] [sandbox flags]\n"
          "       arena league export DIR OUT\n"
          "       arena league export DIR -o SITE   (the public pages, static)\n"
          "       arena league author add|revoke DIR NAME\n"
          "       arena league slurm-set JOBDIR [sandbox flags]   (what a Slurm job runs)\n"
          "       arena league run DIR [--init FILE] [--jobs J] [--sets N] [--hold-s S]\n"
          "                            [--serve [ADDR:]PORT [--serve-host NAME]]\n"
          "                            [--quiet] [sandbox flags]\n"
          "A league is a folder that stays up while bots join and improve (docs/league.md).\n"
          "  init       make DIR from FILE: a .tour file with [league] (name, rules, rule, seats,\n"
          "             seed, hands, bootstrap, jobs, runner, sbatch; the web face's\n"
          "             test_sets_per_hour and upload limits) for [tournament], [clocks]\n"
          "             [errors] [sandbox], and [entrant NAME] sections for the first entrants\n"
          "  add        a new entrant, or a new version of NAME (its own entrant, linked to the\n"
          "             one before, which retires when the new one passes its check); works\n"
          "             while `run` runs; paths are taken against the current folder now\n"
          "             --archive FILE (.tar.gz, .tar, .zip): unpacked into DIR.bots/NAME/vN\n"
          "             (plain files and folders; the league file's upload_max_bytes,\n"
          "             upload_max_unpacked, upload_max_files: 64 MiB, 64 MiB, 4096); --build\n"
          "             runs in the jail there (no network, the C SDK shown; --build-secs,\n"
          "             default build_seconds, 120; --build-mb, default build_mb, 1024; 64\n"
          "             tasks), its log DIR.bots/NAME/vN.build.log;\n"
          "             --cmd runs in that folder (./PROGRAM for a program of its own). A\n"
          "             refused archive or build is stored as a refused version, with why\n"
          "  retire     NAME's live version leaves the table; its games stay counted\n"
          "  status     entrants with status (new checking active refused retired held) and\n"
          "             why; the sets and games counted; the running `run`'s pid\n"
          "  standings  the last refit's standings (DIR/results.json; retired versions with\n"
          "             --all); `arena report DIR` reads the same folder\n"
          "  final      freeze the league (no add, no run) and play a balanced rerun of the\n"
          "             latest live versions: a round-robin tournament, N deals a table\n"
          "             (default 4), into DIR/final (`final` again resumes it)\n"
          "  export     OUT/entrants.json (every version, links, status, reason), ratings.csv\n"
          "             (the snapshot of every round), sets.csv and the latest results\n"
          "  run        play until SIGINT/SIGTERM (the sets in flight finish) or --sets N counted\n"
          "             sets: new versions are checked first (one set against @random and\n"
          "             @greedy; any verdict refuses), then whole duplicate sets by matchmaking;\n"
          "             ratings refitted each round. After a kill, run again: it goes on.\n"
          "             --init FILE  `init DIR FILE` first when DIR holds no league yet\n"
          "             --jobs J   sets at once (default: the file's jobs, else the CPUs)\n"
          "             --hold-s S how long an entrant failing most of its recent games is\n"
          "                        held back (default 60)\n"
          "             --serve [ADDR:]PORT  the league's web face (leaderboard, entrant pages,\n"
          "                        authors' sign-in, uploads and test games, the host's page)\n"
          "                        on 127.0.0.1:PORT, or on ADDR (behind a TLS proxy: say its\n"
          "                        name with --serve-host); when the host starts the final\n"
          "                        there, run plays it and keeps the pages up until stopped\n"
          "  author     add NAME: print a sign-in link for a new author (or a new link);\n"
          "             revoke NAME: the author's link and sessions stop working\n",
          out);
    ar_sb_usage(out);
}

static int need(int argc, int n, const char *what)
{
    if (argc < n) {
        fprintf(stderr, "arena league %s: missing arguments\n", what);
        ar_league_usage(stderr);
        return 0;
    }
    return 1;
}

/* The sandbox a league's runs take: the flags given, else the league file's [sandbox]
 * minimum (t); prints why it cannot be had. */
static int league_sandbox(ar_sb_args *sb, const ar_tour *t, int quiet, ar_sandbox_cfg *cfg)
{
    if (!sb->min)
        sb->min = t->sandbox_min;
    cfg->memory_mb = (uint32_t)sb->memory_mb;
    cfg->pids = (int)sb->pids;
    return ar_sb_setup(sb, quiet, NULL, 0, cfg);
}

static int run_main(int argc, char **argv)
{
    /* argv[0] = "run", argv[1] = DIR */
    const char *dir = NULL, *init = NULL;
    ar_league_run_opts o;
    memset(&o, 0, sizeof o);
    o.hold_s = 60;
    ar_sb_args sb;
    ar_sb_args_init(&sb);
    sb.min = NULL;
    int status = AR_EXIT_USAGE;
    ar_tour t;
    memset(&t, 0, sizeof t);
    const char *serve = NULL, *serve_host = NULL;
    lw_server *web = NULL;
    /* the sandbox flags as given, for the Slurm jobs (runner = slurm), which choose their own
     * sandbox on their node with them */
    char **sb_argv = ar_xcalloc((size_t)argc + 1, sizeof *sb_argv);
    int nsb = 0;
    o.sb_argv = sb_argv;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int r;
        long long x;
        if ((r = ar_flag(argc, argv, &i, "--serve", &v)) != 0) {
            if (r < 0)
                goto out;
            serve = v;
            continue;
        }
        if ((r = ar_flag(argc, argv, &i, "--serve-host", &v)) != 0) {
            if (r < 0)
                goto out;
            serve_host = v;
            continue;
        }
        if ((r = ar_flag(argc, argv, &i, "--jobs", &v)) != 0) {
            if (r < 0 || ar_parse_long("--jobs", v, 1, 4096, &x) < 0)
                goto out;
            o.jobs = (int)x;
        } else if ((r = ar_flag(argc, argv, &i, "--sets", &v)) != 0) {
            if (r < 0 || ar_parse_long("--sets", v, 1, LLONG_MAX, &o.max_sets) < 0)
                goto out;
        } else if ((r = ar_flag(argc, argv, &i, "--init", &v)) != 0) {
            if (r < 0)
                goto out;
            init = v;
        } else if ((r = ar_flag(argc, argv, &i, "--hold-s", &v)) != 0) {
            if (r < 0 || ar_parse_long("--hold-s", v, 0, 86400 * 30, &x) < 0)
                goto out;
            o.hold_s = (double)x;
        } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            o.quiet = 1;
        } else if ((x = i, r = ar_sb_flag(argc, argv, &i, &sb)) != 0) {
            if (r < 0)
                goto out;
            for (long long q = x; q <= i; q++)
                sb_argv[nsb++] = argv[q];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "arena league run: unknown argument '%s'\n", argv[i]);
            ar_league_usage(stderr);
            goto out;
        } else if (!dir) {
            dir = argv[i];
        } else {
            fprintf(stderr, "arena league run: one DIR only\n");
            goto out;
        }
    }
    if (!dir) {
        fprintf(stderr, "arena league run: which DIR?\n");
        goto out;
    }
    /* the file's [sandbox] minimum, unless --sandbox gives one */
    char ini[PATH_MAX], err[1024];
    snprintf(ini, sizeof ini, "%s/league.ini", dir);
    if (init && access(ini, F_OK) != 0) {
        status = ar_league_init(dir, init);
        if (status != AR_EXIT_OK)
            goto out;
        status = AR_EXIT_USAGE;
    } else if (init && !o.quiet)
        fprintf(stderr, "arena league run: %s holds its league already: --init %s is not read\n",
                dir, init);
    if (access(ini, F_OK) != 0) {
        fprintf(stderr, "arena league run: %s is not a league's folder (no league.ini)\n", dir);
        goto out;
    }
    if (ar_tour_load_league(ini, &t, err, sizeof err) < 0) {
        fprintf(stderr, "arena league: %s\n", err);
        goto out;
    }
    if (serve) {
        /* [ADDR:]PORT; bound now, before the sandbox takes the network away */
        char addr[64] = "";
        const char *colon = strrchr(serve, ':');
        long long port;
        if (colon && (size_t)(colon - serve) < sizeof addr)
            memcpy(addr, serve, (size_t)(colon - serve)), addr[colon - serve] = 0;
        if (ar_parse_long("--serve", colon ? colon + 1 : serve, 0, 65535, &port) < 0)
            goto out;
        lw_opts lo = {
            .dir = dir, .addr = addr[0] ? addr : NULL, .port = (int)port, .host = serve_host};
        web = lw_bind(&lo, err, sizeof err);
        if (!web) {
            fprintf(stderr, "arena league run: %s\n", err);
            status = AR_EXIT_FAIL;
            goto out;
        }
        if (addr[0] && strcmp(addr, "127.0.0.1") != 0)
            fprintf(stderr,
                    "arena league run: warning: --serve %s listens beyond this machine; the pages "
                    "and sign-in links travel in clear: put it behind a TLS proxy (--serve-host "
                    "NAME names it)\n",
                    serve);
    }
    /* runner = slurm: the run talks to slurmctld and plays no bot here (its checks too are
     * jobs), so it keeps the host's network; the jobs take the sandbox on their nodes */
    if (t.runner_slurm)
        ar_sandbox_keep_network(1);
    status = league_sandbox(&sb, &t, o.quiet, &o.sandbox);
    if (status != AR_EXIT_OK)
        goto out;
    o.stdout_cap = (uint64_t)sb.stdout_cap;
    if (web) {
        lw_set_sandbox(web, &o.sandbox);
        if (lw_start(web, err, sizeof err) < 0) {
            fprintf(stderr, "arena league run: %s\n", err);
            status = AR_EXIT_FAIL;
            goto out;
        }
        printf("arena league: the league's pages are on %s/\n"
               "arena league: the host signs in with %s (also in %s/host.token)\n",
               lw_url(web), lw_host_link(web), dir);
        fflush(stdout);
    }
    status = ar_league_run(dir, &o);
    long long deals = status == AR_EXIT_OK ? ar_league_final_asked(dir) : 0;
    if (deals > 0) {
        /* the host started the final on its page: the run has let its sets in; the final
         * plays now, its pages still up */
        ar_tour_run_opts fo;
        memset(&fo, 0, sizeof fo);
        fo.jobs = o.jobs;
        fo.quiet = o.quiet;
        fo.sandbox = o.sandbox;
        fo.stdout_cap = o.stdout_cap;
        if (!o.quiet)
            fprintf(stderr, "arena league: the host started the final (%lld deals a table)\n",
                    deals);
        status = ar_league_final(dir, deals, &fo);
        if (web && status == AR_EXIT_OK) {
            /* the pages stay up (the host reads the final's results there) until stopped */
            sigset_t set;
            sigemptyset(&set);
            sigaddset(&set, SIGINT);
            sigaddset(&set, SIGTERM);
            sigprocmask(SIG_BLOCK, &set, NULL);
            /* said once the signals wait for sigwait: a stop sent after this line is seen */
            fprintf(stderr,
                    "arena league: the final is in %s/final; the pages stay up until "
                    "SIGINT or SIGTERM\n",
                    dir);
            int sig;
            sigwait(&set, &sig);
        }
    }
out:
    lw_stop(web);
    ar_tour_free(&t);
    ar_sb_args_free(&sb);
    free(sb_argv);
    return status;
}

/* `slurm-set JOBDIR [sandbox flags]`: one set of a league's Slurm job (what job.sh runs). */
static int slurm_set_main(int argc, char **argv)
{
    /* argv[0] = "slurm-set", argv[1] = JOBDIR */
    ar_league_run_opts o;
    memset(&o, 0, sizeof o);
    ar_sb_args sb;
    ar_sb_args_init(&sb);
    sb.min = NULL;
    int status = AR_EXIT_USAGE;
    ar_tour t;
    memset(&t, 0, sizeof t);
    for (int i = 2; i < argc; i++) {
        int r = ar_sb_flag(argc, argv, &i, &sb);
        if (r < 0)
            goto out;
        if (r == 0) {
            fprintf(stderr, "arena league slurm-set: unknown argument '%s'\n", argv[i]);
            goto out;
        }
    }
    /* the league's [sandbox] minimum, as `run`: the job.json names the league */
    char p[PATH_MAX], ini[PATH_MAX + 16], err[1024];
    snprintf(p, sizeof p, "%s/../..", argv[1]);
    snprintf(ini, sizeof ini, "%s/league.ini", p);
    if (ar_tour_load_league(ini, &t, err, sizeof err) < 0) {
        fprintf(stderr, "arena league slurm-set: %s\n", err);
        goto out;
    }
    status = league_sandbox(&sb, &t, 0, &o.sandbox);
    if (status != AR_EXIT_OK)
        goto out;
    o.stdout_cap = (uint64_t)sb.stdout_cap;
    status = ar_league_slurm_set(argv[1], &o);
out:
    ar_tour_free(&t);
    ar_sb_args_free(&sb);
    return status;
}

static int final_main(int argc, char **argv)
{
    /* argv[0] = "final", argv[1] = DIR */
    const char *dir = argv[1];
    long long deals = 4, jobs = 0;
    ar_tour_run_opts o;
    memset(&o, 0, sizeof o);
    o.progress = isatty(2);
    ar_sb_args sb;
    ar_sb_args_init(&sb);
    sb.min = NULL;
    int status = AR_EXIT_USAGE;
    ar_tour t;
    memset(&t, 0, sizeof t);
    for (int i = 2; i < argc; i++) {
        const char *v = NULL;
        int r;
        if ((r = ar_flag(argc, argv, &i, "--deals", &v)) != 0) {
            if (r < 0 || ar_parse_long("--deals", v, 1, 1000000, &deals) < 0)
                goto out;
        } else if ((r = ar_flag(argc, argv, &i, "--jobs", &v)) != 0) {
            if (r < 0 || ar_parse_long("--jobs", v, 1, 4096, &jobs) < 0)
                goto out;
        } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            o.quiet = 1;
        } else if ((r = ar_sb_flag(argc, argv, &i, &sb)) != 0) {
            if (r < 0)
                goto out;
        } else {
            fprintf(stderr, "arena league final: unknown argument '%s'\n", argv[i]);
            ar_league_usage(stderr);
            goto out;
        }
    }
    char ini[PATH_MAX], err[1024];
    snprintf(ini, sizeof ini, "%s/league.ini", dir);
    if (ar_tour_load_league(ini, &t, err, sizeof err) < 0) {
        fprintf(stderr, "arena league: %s\n", err);
        goto out;
    }
    o.jobs = (int)jobs;
    status = league_sandbox(&sb, &t, o.quiet, &o.sandbox);
    if (status != AR_EXIT_OK)
        goto out;
    o.stdout_cap = (uint64_t)sb.stdout_cap;
    status = ar_league_final(dir, deals, &o);
out:
    ar_tour_free(&t);
    ar_sb_args_free(&sb);
    return status;
}

/* `add DIR NAME --archive FILE --cmd COMMAND [--build COMMAND] [--build-secs N]`: an upload. */
static int add_archive_main(int argc, char **argv)
{
    /* argv[0] = "add", argv[1] = DIR, argv[2] = NAME */
    const char *dir = argv[1], *name = argv[2], *file = NULL;
    ar_league_upload up;
    memset(&up, 0, sizeof up);
    long long x;
    for (int i = 3; i < argc; i++) {
        const char *v = NULL;
        int r;
        if ((r = ar_flag(argc, argv, &i, "--archive", &v)) != 0) {
            if (r < 0)
                return AR_EXIT_USAGE;
            file = v;
        } else if ((r = ar_flag(argc, argv, &i, "--cmd", &v)) != 0) {
            if (r < 0)
                return AR_EXIT_USAGE;
            up.cmd = v;
        } else if ((r = ar_flag(argc, argv, &i, "--build", &v)) != 0) {
            if (r < 0)
                return AR_EXIT_USAGE;
            up.build = v;
        } else if ((r = ar_flag(argc, argv, &i, "--build-secs", &v)) != 0) {
            if (r < 0 || ar_parse_long("--build-secs", v, 1, 86400, &x) < 0)
                return AR_EXIT_USAGE;
            up.build_secs = (double)x;
        } else if ((r = ar_flag(argc, argv, &i, "--build-mb", &v)) != 0) {
            if (r < 0 || ar_parse_long("--build-mb", v, 16, 1 << 20, &x) < 0)
                return AR_EXIT_USAGE;
            up.build_mb = (uint32_t)x;
        } else {
            fprintf(stderr,
                    "arena league add: '%s': with --archive, expected --cmd, --build, "
                    "--build-secs or --build-mb\n",
                    argv[i]);
            return AR_EXIT_USAGE;
        }
    }
    if (!up.cmd) {
        fprintf(stderr, "arena league add: --archive needs --cmd \"COMMAND\" (./PROGRAM for a "
                        "program in the archive)\n");
        return AR_EXIT_USAGE;
    }
    /* the league file's limits (upload_max_bytes ...), which ar_league_add_archive applies */
    ar_tour t;
    memset(&t, 0, sizeof t);
    {
        char ini[PATH_MAX], err[1024];
        snprintf(ini, sizeof ini, "%s/league.ini", dir);
        if (ar_tour_load_league(ini, &t, err, sizeof err) < 0) {
            fprintf(stderr, "arena league: %s\n", err);
            return AR_EXIT_USAGE;
        }
    }
    FILE *f = fopen(file, "rb");
    if (!f) {
        fprintf(stderr, "arena league add: --archive %s: %s\n", file, strerror(errno));
        ar_tour_free(&t);
        return AR_EXIT_USAGE;
    }
    /* at most the league's upload_max_bytes, and one byte more to know it is over */
    size_t cap = (size_t)t.upload_max_bytes + 1, n = 0;
    char *data = ar_xmalloc(cap);
    for (size_t k; n < cap && (k = fread(data + n, 1, cap - n, f)) > 0;)
        n += k;
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "arena league add: --archive %s: read error\n", file);
        free(data);
        ar_tour_free(&t);
        return AR_EXIT_FAIL;
    }
    up.data = data;
    up.len = n;
    int status = AR_EXIT_OK;
    ar_sb_args sb;
    ar_sb_args_init(&sb);
    sb.min = NULL;
    if (up.build) {
        /* the build runs in the jail: the league's [sandbox] minimum, as `run` */
        sb.min = t.sandbox_min;
        status = ar_sb_setup(&sb, 1, NULL, 0, &up.sandbox);
    }
    if (status == AR_EXIT_OK) {
        char why[8192];
        status = ar_league_add_archive(dir, name, &up, why, sizeof why);
        if (status != AR_EXIT_OK)
            fprintf(stderr, "arena league add: %s: %s\n", name, why);
    }
    ar_tour_free(&t);
    ar_sb_args_free(&sb);
    free(data);
    return status;
}

int ar_league_main(int argc, char **argv)
{
    if (argc < 2) {
        ar_league_usage(stderr);
        return AR_EXIT_USAGE;
    }
    const char *sub = argv[1];
    argc--;
    argv++;
    if (strcmp(sub, "init") == 0) {
        if (!need(argc, 3, sub))
            return AR_EXIT_USAGE;
        return ar_league_init(argv[1], argv[2]);
    }
    if (strcmp(sub, "add") == 0) {
        if (!need(argc, 3, sub))
            return AR_EXIT_USAGE;
        for (int i = 3; i < argc && strcmp(argv[i], "--") != 0; i++)
            if (strcmp(argv[i], "--archive") == 0)
                return add_archive_main(argc, argv);
        char **files = calloc((size_t)argc, sizeof *files);
        int nfiles = 0, i = 3;
        for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
            const char *v;
            int r = ar_flag(argc, argv, &i, "--files", &v);
            if (r <= 0) {
                if (r == 0)
                    fprintf(stderr, "arena league add: '%s': expected --files PATH or -- COMMAND\n",
                            argv[i]);
                free(files);
                return AR_EXIT_USAGE;
            }
            files[nfiles++] = (char *)v;
        }
        if (i >= argc) {
            fprintf(stderr, "arena league add: the command comes after --\n");
            free(files);
            return AR_EXIT_USAGE;
        }
        int st = ar_league_add(argv[1], argv[2], files, nfiles, argv + i + 1, argc - i - 1);
        free(files);
        return st;
    }
    if (strcmp(sub, "author") == 0) {
        if (argc != 4 || (strcmp(argv[1], "add") != 0 && strcmp(argv[1], "revoke") != 0)) {
            fprintf(stderr, "usage: arena league author add|revoke DIR NAME\n");
            return AR_EXIT_USAGE;
        }
        return strcmp(argv[1], "add") == 0 ? ar_league_author_add(argv[2], argv[3])
                                           : ar_league_author_revoke(argv[2], argv[3]);
    }
    if (strcmp(sub, "retire") == 0) {
        if (!need(argc, 3, sub))
            return AR_EXIT_USAGE;
        return ar_league_retire(argv[1], argv[2]);
    }
    if (strcmp(sub, "status") == 0) {
        if (!need(argc, 2, sub))
            return AR_EXIT_USAGE;
        return ar_league_status(argv[1]);
    }
    if (strcmp(sub, "standings") == 0) {
        if (!need(argc, 2, sub))
            return AR_EXIT_USAGE;
        int json = 0, all = 0;
        for (int i = 2; i < argc; i++) {
            const char *v;
            int r = ar_flag(argc, argv, &i, "--format", &v);
            if (r > 0 && (strcmp(v, "json") == 0 || strcmp(v, "text") == 0))
                json = strcmp(v, "json") == 0;
            else if (r == 0 && strcmp(argv[i], "--all") == 0)
                all = 1;
            else {
                fprintf(stderr, "arena league standings: expected --format text|json or --all\n");
                return AR_EXIT_USAGE;
            }
        }
        return ar_league_standings(argv[1], json, all);
    }
    if (strcmp(sub, "export") == 0) {
        if (!need(argc, 3, sub))
            return AR_EXIT_USAGE;
        if (argc == 4 && strcmp(argv[2], "-o") == 0)
            return lw_export(argv[1], argv[3]);
        return ar_league_export(argv[1], argv[2]);
    }
    if (strcmp(sub, "final") == 0) {
        if (!need(argc, 2, sub))
            return AR_EXIT_USAGE;
        return final_main(argc, argv);
    }
    if (strcmp(sub, "run") == 0) {
        if (!need(argc, 2, sub))
            return AR_EXIT_USAGE;
        return run_main(argc, argv);
    }
    if (strcmp(sub, "slurm-set") == 0) {
        if (!need(argc, 2, sub))
            return AR_EXIT_USAGE;
        return slurm_set_main(argc, argv);
    }
    fprintf(stderr, "arena league: unknown subcommand '%s'\n", sub);
    ar_league_usage(stderr);
    return AR_EXIT_USAGE;
}
