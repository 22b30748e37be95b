/* fuzz_merge.c - shard manifests and journals through `arena merge`, in-process: a tiny
 * tournament is run once as two shards; each input replaces one of their four files (the
 * first byte picks which: shard 0 or 1, tournament.json or journal.jsonl) and the shards are
 * merged. Exit 0 (merged, results written) or 1/2 (refused with a message), never a crash. */
#include <sys/stat.h>

#include "cli/cli.h"
#include "fuzzkit.h"
#include "util/util.h"

static char tour[128], s0[128], s1[128], w0[128], w1[128], out[128];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    static const char text[] = "[tournament]\nname = fz\nrules = gin\nseats = 2\ndeals = 2\n"
                               "seed = 5\nbootstrap = 20\njobs = 1\n"
                               "[entrant a]\ncommand = @random\n[entrant b]\ncommand = @greedy\n";
    fk_write(fk_path(tour, sizeof tour, "fz.tour"), text, sizeof text - 1);
    fk_path(s0, sizeof s0, "s0");
    fk_path(s1, sizeof s1, "s1");
    fk_path(w0, sizeof w0, "w0");
    fk_path(w1, sizeof w1, "w1");
    fk_path(out, sizeof out, "out");
    const char *a[] = {"tournament", tour, "--out", s0, "--shard", "0/2", "--quiet", NULL};
    const char *b[] = {"tournament", tour, "--out", s1, "--shard", "1/2", "--quiet", NULL};
    if (fk_main(ar_tournament_main, a) != AR_EXIT_OK ||
        fk_main(ar_tournament_main, b) != AR_EXIT_OK) {
        fprintf(stderr, "fuzz_merge: the reference shards failed\n");
        abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char f[200];
    fk_sh("rm -rf %A %B", w0, w1);
    fk_sh("rm -rf %A %B", out, out);
    fk_sh("cp -r %A %B", s0, w0);
    fk_sh("cp -r %A %B", s1, w1);
    snprintf(f, sizeof f, "%s/%s", data[0] & 1 ? w1 : w0,
             data[0] & 2 ? "journal.jsonl" : "tournament.json");
    fk_write(f, data + 1, size - 1);
    const char *argv[] = {"merge", w0, w1, "--out", out, "--quiet", NULL};
    int rc = fk_main(ar_merge_main, argv);
    if (rc != AR_EXIT_OK && rc != AR_EXIT_FAIL && rc != AR_EXIT_USAGE) {
        fprintf(stderr, "fuzz_merge: exit %d\n", rc);
        abort();
    }
    return 0;
}
