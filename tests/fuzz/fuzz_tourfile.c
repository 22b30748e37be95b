/* fuzz_tourfile.c - tour files (docs/tournaments.md) with --set overrides, through
 * `arena tournament FILE --plan` in-process: the file is read, checked, overridden and
 * scheduled, never run. The input is the file; after a line "--set", each further line is
 * one override. Exit 0 (planned) or 2 (refused with FILE:LINE or the override), never a crash
 * or a hang; the dictionary (tour.dict) gives libFuzzer the sections, keys and values. */
#include "cli/cli.h"
#include "fuzzkit.h"
#include "util/util.h"

enum { MAX_SETS = 8 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    const char *argv[6 + 2 * MAX_SETS + 1];
    int argc = 0;
    char path[128];
    argv[argc++] = "tournament";
    argv[argc++] = fk_path(path, sizeof path, "t.tour");
    argv[argc++] = "--plan";
    argv[argc++] = "--quiet";
    char *sets = strstr(text, "\n--set\n");
    size_t flen = sets ? (size_t)(sets - text) + 1 : size;
    if (sets) {
        char *line = sets + 7;
        while (line && *line && argc < 4 + 2 * MAX_SETS) {
            char *nl = strchr(line, '\n');
            if (nl)
                *nl = '\0';
            argv[argc++] = "--set";
            argv[argc++] = line;
            line = nl ? nl + 1 : NULL;
        }
    }
    argv[argc] = NULL;
    fk_write(path, data, flen);
    int rc = fk_main(ar_tournament_main, argv);
    if (rc != AR_EXIT_OK && rc != AR_EXIT_USAGE) {
        fprintf(stderr, "fuzz_tourfile: exit %d\n", rc);
        abort();
    }
    free(text);
    return 0;
}
