/* cli_tournament.c - `arena tournament FILE`: read the tour file (tourfile.h), apply the
 * command line's overrides, and hand it to the driver (tournament.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "live/live.h"
#include "tour/tourfile.h"
#include "tour/tournament.h"
#include "util/util.h"

void ar_tournament_usage(FILE *out)
{
    fprintf(
        out,
        "usage: arena tournament FILE [--jobs J] [--out DIR] [--resume] [--shard K/N]\n"
        "                        [--set SECTION.KEY=VALUE]... [--seed S] [--deals D]\n"
        "                        [--bootstrap B] [--quiet] [--progress | --no-progress]\n"
        "                        [--plan] [--trace NAME|all]\n"
        "  Play the tournament of a .tour file (docs/tournaments.md): every duplicate set of\n"
        "  its schedule is one match in a worker process, J at once; each finished game is\n"
        "  journaled (DIR/journal.jsonl) and the results are computed from the journal:\n"
        "  DIR/results.json, DIR/standings.csv, DIR/games.jsonl, records/, logs/, and a table.\n"
        "  --jobs J        sets played at once (default: the file's jobs, else online CPUs)\n"
        "  --out DIR       output folder (default: the file's out, else results/NAME); it\n"
        "                  must be empty or missing unless --resume\n"
        "  --resume        continue the tournament in DIR (the same file and overrides):\n"
        "                  checks and repairs the journal, plays only the unfinished sets\n"
        "  --shard K/N     play only the sets with set %% N == K (0 <= K < N) into DIR;\n"
        "                  `arena merge` joins the N folders; re-running a shard resumes it\n"
        "  --set S.K=V     override any key of the file, e.g. --set clocks.decision_ms=50,\n"
        "                  --set entrant.greedy.memory_mb=512 (repeatable, in order)\n"
        "  --seed S, --deals D, --bootstrap B   short for --set tournament.seed=S etc.;\n"
        "                  --memory-mb M for --set sandbox.memory_mb=M\n"
        "  --plan          print the schedule (tables, sets, games) and stop: nothing runs\n"
        "  --trace WHO     every frame to and from the entrant named WHO (or all), as text\n"
        "                  with timestamps, into DIR/traces/s<set>.trace\n"
        "  --quiet         no progress and no table\n"
        "  --progress      a progress bar (default when stderr is a terminal); --no-progress:\n"
        "                  a plain line every 10 s\n"
        "  --serve [PORT], --serve-delay S, --serve-linger S: watch it live (docs/live.md)\n"
        "  Exit: 0 done, 1 failure or interrupted (resume with --resume), 2 bad file or use.\n"
        "  Sandbox flags as for `arena match` (below); --sandbox MIN defaults to the file's\n"
        "  [sandbox] minimum; --profile is per entrant here: --set entrant.NAME.profile=P.\n");
    ar_sb_usage(out);
}

void ar_merge_usage(FILE *out)
{
    fprintf(out,
            "usage: arena merge DIR... --out DIR [--quiet]\n"
            "  Join the folders of the shards 0..N-1 of one tournament (arena tournament --shard\n"
            "  K/N) into the outputs the whole tournament would have written, byte for byte. It\n"
            "  refuses a missing, duplicated or unfinished shard, a shard of another tournament,\n"
            "  and a non-empty --out.\n");
}

static int parse_shard(const char *v, int *k, int *n)
{
    char *end;
    errno = 0;
    long a = strtol(v, &end, 10);
    if (errno || end == v || *end != '/')
        goto bad;
    const char *s = end + 1;
    long b = strtol(s, &end, 10);
    if (errno || end == s || *end || b < 1 || b > 1000000 || a < 0 || a >= b)
        goto bad;
    *k = (int)a;
    *n = (int)b;
    return 0;
bad:
    fprintf(stderr, "arena: --shard: expected K/N with 0 <= K < N, got '%s'\n", v);
    return -1;
}

int ar_tournament_main(int argc, char **argv)
{
    const char *file = NULL, *out = NULL;
    long long jobs = 0;
    ar_tour_run_opts o;
    memset(&o, 0, sizeof o);
    o.progress = isatty(2);
    const char **sets = ar_xcalloc((size_t)argc, sizeof *sets);
    char **owned = ar_xcalloc((size_t)argc, sizeof *owned);
    int nsets = 0, nowned = 0;
    /* the resume hint: program, file and --set values, each quoted at worst 4 bytes a byte */
    size_t hcap = 64 + 4 * strlen(ar_cli_program());
    for (int i = 1; i < argc; i++)
        hcap += 4 * strlen(argv[i]) + 16;
    char *hint = ar_xmalloc(hcap);
    int status = AR_EXIT_USAGE;
    ar_tour t;
    memset(&t, 0, sizeof t);
    ar_sb_args sb;
    ar_sb_args_init(&sb);
    sb.min = NULL; /* not given: the file's [sandbox] minimum */
    ar_serve_args serve = AR_SERVE_ARGS_INIT;
    al_server *live = NULL;

    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int r;
        const char *shortcut = NULL;
        if ((r = ar_flag(argc, argv, &i, "--jobs", &v)) != 0) {
            if (r < 0 || ar_parse_long("--jobs", v, 1, 4096, &jobs) < 0)
                goto out;
        } else if ((r = ar_flag(argc, argv, &i, "--out", &v)) != 0) {
            if (r < 0)
                goto out;
            out = v;
        } else if ((r = ar_flag(argc, argv, &i, "--shard", &v)) != 0) {
            if (r < 0 || parse_shard(v, &o.shard_k, &o.shard_n) < 0)
                goto out;
        } else if ((r = ar_flag(argc, argv, &i, "--set", &v)) != 0) {
            if (r < 0)
                goto out;
            sets[nsets++] = v;
        } else if ((r = ar_flag(argc, argv, &i, "--seed", &v)) != 0) {
            shortcut = "tournament.seed";
        } else if ((r = ar_flag(argc, argv, &i, "--deals", &v)) != 0) {
            shortcut = "tournament.deals";
        } else if ((r = ar_flag(argc, argv, &i, "--bootstrap", &v)) != 0) {
            shortcut = "tournament.bootstrap";
        } else if ((r = ar_flag(argc, argv, &i, "--memory-mb", &v)) != 0) {
            shortcut = "sandbox.memory_mb"; /* recorded in the configuration like the file's */
        } else if ((r = ar_sb_flag(argc, argv, &i, &sb)) != 0) {
            if (r < 0)
                goto out;
        } else if ((r = ar_serve_flag(argc, argv, &i, &serve)) != 0) {
            if (r < 0)
                goto out;
        } else if ((r = ar_flag(argc, argv, &i, "--trace", &v)) != 0) {
            if (r < 0)
                goto out;
            o.trace = v;
        } else if (strcmp(argv[i], "--plan") == 0) {
            o.plan = 1;
        } else if (strcmp(argv[i], "--resume") == 0) {
            o.resume = 1;
        } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            o.quiet = 1;
        } else if (strcmp(argv[i], "--progress") == 0) {
            o.progress = 1;
        } else if (strcmp(argv[i], "--no-progress") == 0) {
            o.progress = 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "arena tournament: unknown argument '%s'\n", argv[i]);
            /* a key of the file given as a flag: say how to override it */
            char key[64];
            const char *k = argv[i] + strspn(argv[i], "-");
            size_t n = strcspn(k, "=");
            const char *sec = NULL;
            if (n > 0 && n < sizeof key) {
                for (size_t c = 0; c < n; c++)
                    key[c] = k[c] == '-' ? '_' : k[c];
                key[n] = '\0';
                sec = ar_tour_key_section(key);
            }
            if (sec) {
                const char *val = k[n] == '=' ? k + n + 1 : i + 1 < argc ? argv[i + 1] : "VALUE";
                fprintf(stderr,
                        "arena tournament: '%s' is a key of the .tour file: override it with "
                        "--set %s.%s=%s\n",
                        key, sec, key, val);
            } else
                ar_tournament_usage(stderr);
            goto out;
        } else if (!file) {
            file = argv[i];
        } else {
            fprintf(stderr, "arena tournament: one FILE only ('%s' and '%s')\n", file, argv[i]);
            goto out;
        }
        if (shortcut) {
            if (r < 0)
                goto out;
            size_t n = strlen(shortcut) + strlen(v) + 2;
            owned[nowned] = ar_xmalloc(n);
            snprintf(owned[nowned], n, "%s=%s", shortcut, v);
            sets[nsets++] = owned[nowned++];
        }
    }
    if (!file) {
        fprintf(stderr, "arena tournament: which .tour FILE?\n");
        ar_tournament_usage(stderr);
        goto out;
    }
    char err[1024] = "";
    if (ar_tour_load(file, &t, err, sizeof err) < 0) {
        fprintf(stderr, "arena: %s\n", err);
        goto out;
    }
    /* the resume hint names the program as it was run, and quotes what a shell would split */
    size_t hl = 0;
    ar_cli_shell_word(hint, hcap, &hl, ar_cli_program());
    hl += (size_t)snprintf(hint + hl, hcap - hl, " tournament ");
    ar_cli_shell_word(hint, hcap, &hl, file);
    if (nsets && ar_tour_set_many(&t, sets, nsets, err, sizeof err) < 0) {
        fprintf(stderr, "arena: %s\n", err);
        goto out;
    }
    for (int i = 0; i < nsets; i++) {
        hl += (size_t)snprintf(hint + hl, hcap - hl, " --set ");
        ar_cli_shell_word(hint, hcap, &hl, sets[i]);
    }
    if (o.trace) {
        int found = strcmp(o.trace, "all") == 0;
        for (int i = 0; i < t.nentrants && !found; i++)
            found = strcmp(o.trace, t.entrant[i].name) == 0;
        if (!found) {
            fprintf(stderr, "arena: --trace '%s': expected all or an entrant's name:", o.trace);
            for (int i = 0; i < t.nentrants; i++)
                fprintf(stderr, " %s", t.entrant[i].name);
            fprintf(stderr, "\n");
            goto out;
        }
    }
    o.out_dir = out ? out : t.out ? t.out : "tournament-out";
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = jobs ? (int)jobs : t.jobs > 0 ? t.jobs : cpus > 0 ? (int)cpus : 1;
    o.command = hint;
    /* the limits the configuration records (and --plan's hash shows) even without a run */
    o.sandbox.memory_mb = (uint32_t)sb.memory_mb;
    o.sandbox.pids = (int)sb.pids;
    o.stdout_cap = (uint64_t)sb.stdout_cap;
    if (!o.plan && serve.on) {
        live = ar_serve_bind(&serve, o.out_dir, "tournament", t.name, &status);
        if (!live)
            goto out;
        o.live = 1;
    }
    if (!o.plan) {
        /* --sandbox wins over the file's [sandbox] minimum. Memory limits and profiles come
         * from the file (--set sandbox.memory_mb=M, --set entrant.NAME.profile=P). */
        if (!sb.min)
            sb.min = t.sandbox_min;
        status = ar_sb_setup(&sb, o.quiet, NULL, 0, &o.sandbox);
        if (status != AR_EXIT_OK)
            goto out;
        o.stdout_cap = (uint64_t)sb.stdout_cap;
    }
    if (live && (status = ar_serve_start(live)) != AR_EXIT_OK)
        goto out;
    status = ar_tournament_run(&t, &o);
    ar_serve_end(live, &serve, status);
    live = NULL;
out:
    al_stop(live);
    ar_sb_args_free(&sb);
    ar_tour_free(&t);
    for (int i = 0; i < nowned; i++)
        free(owned[i]);
    free(owned);
    free(sets);
    free(hint);
    return status;
}
