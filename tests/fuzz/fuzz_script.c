/* fuzz_script.c - script files (`arena script`, docs/notation.md) in-process: the first byte
 * picks the preset and the seat count, the rest is the file. Every line is accepted, refused
 * with its rule, or an error with FILE:LINE; exit 0 or 1, never a crash. */
#include "cli/cli.h"
#include "fuzzkit.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const presets[] = {"laws", "parlett", "arlington", "german", "gin"};
    static const char *const seats[] = {"2", "3", "4", "5"};
    if (size < 1)
        return 0;
    char path[128];
    fk_write(fk_path(path, sizeof path, "s.txt"), data + 1, size - 1);
    const char *p = presets[data[0] % 5];
    const char *argv[] = {
        "script", "--rules", p, "--players", data[0] % 5 == 4 ? "2" : seats[data[0] / 5 % 4],
        path,     NULL};
    int rc = fk_main(ar_script_main, argv);
    if (rc != AR_EXIT_OK && rc != AR_EXIT_FAIL && rc != AR_EXIT_USAGE) {
        fprintf(stderr, "fuzz_script: exit %d\n", rc);
        abort();
    }
    return 0;
}
