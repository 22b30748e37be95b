/* fuzz_journal.c - a tournament's journal through a real `--resume`, in-process: a tiny
 * tournament (two built-in entrants, gin, 2 deals: 4 games) is run once; each input then
 * replaces the journal of a copy of its folder and the tournament is resumed. It must finish
 * (exit 0, results written) or refuse (exit 1 or 2) with a message, and whatever it repairs,
 * the journal as it was must be kept byte for byte beside the repaired one (journal.h):
 * repair never deletes. */
#include <sys/stat.h>

#include "cli/cli.h"
#include "fuzzkit.h"
#include "util/util.h"

static char tour[128], ref[128], out[128];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    static const char text[] = "[tournament]\nname = fz\nrules = gin\nseats = 2\ndeals = 2\n"
                               "seed = 5\nbootstrap = 20\njobs = 1\n"
                               "[entrant a]\ncommand = @random\n[entrant b]\ncommand = @greedy\n";
    fk_write(fk_path(tour, sizeof tour, "fz.tour"), text, sizeof text - 1);
    fk_path(ref, sizeof ref, "ref");
    fk_path(out, sizeof out, "out");
    const char *run[] = {"tournament", tour, "--out", ref, "--quiet", "--no-progress", NULL};
    if (fk_main(ar_tournament_main, run) != AR_EXIT_OK) {
        fprintf(stderr, "fuzz_journal: the reference tournament failed\n");
        abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char j[192], kept[200];
    fk_sh("rm -rf %A && mkdir %B", out, out);
    fk_sh("cp %A/tournament.json %B/", ref, out);
    snprintf(j, sizeof j, "%s/journal.jsonl", out);
    fk_write(j, data, size);
    const char *argv[] = {"tournament", tour,      "--out",         out,
                          "--resume",   "--quiet", "--no-progress", NULL};
    int rc = fk_main(ar_tournament_main, argv);
    if (rc != AR_EXIT_OK && rc != AR_EXIT_FAIL && rc != AR_EXIT_USAGE) {
        fprintf(stderr, "fuzz_journal: exit %d\n", rc);
        abort();
    }
    struct stat st;
    snprintf(kept, sizeof kept, "%s.orig-1", j);
    if (stat(kept, &st) == 0) {
        size_t n;
        char *b = fk_read(kept, &n);
        if (!b || n != size || memcmp(b, data, size) != 0) {
            fprintf(stderr, "fuzz_journal: the kept journal is not the one given\n");
            abort();
        }
        free(b);
    }
    if (rc == AR_EXIT_OK) {
        char res[200];
        snprintf(res, sizeof res, "%s/results.json", out);
        if (stat(res, &st) != 0) {
            fprintf(stderr, "fuzz_journal: exit 0 without results.json\n");
            abort();
        }
    }
    return 0;
}
