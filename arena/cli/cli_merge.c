/* cli_merge.c - `arena merge DIR... --out DIR`: the shards of one tournament into its
 * results (tournament.c does the checking and the writing). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tour/tournament.h"
#include "util/util.h"

int ar_merge_main(int argc, char **argv)
{
    const char **dirs = ar_xcalloc((size_t)argc, sizeof *dirs);
    const char *out = NULL;
    int n = 0, quiet = 0, status = AR_EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int r;
        if ((r = ar_flag(argc, argv, &i, "--out", &v)) != 0) {
            if (r < 0)
                goto out;
            out = v;
        } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            quiet = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "arena merge: unknown argument '%s'\n", argv[i]);
            ar_merge_usage(stderr);
            goto out;
        } else {
            dirs[n++] = argv[i];
        }
    }
    if (n == 0 || !out) {
        fprintf(stderr, "arena merge: give the shards' folders and --out DIR\n");
        ar_merge_usage(stderr);
        goto out;
    }
    status = ar_tournament_merge(dirs, n, out, quiet);
out:
    free(dirs);
    return status;
}
