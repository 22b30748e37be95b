/* fuzz_replay.c - game records (DIR/records/ID.jsonl, docs/cli.md) through `arena replay`,
 * in-process: the whole record as the engine replays it, then as seat 1 saw it. It must end
 * with an exit status of 0 (verified) or 1 (a mismatch with FILE:LINE), never a crash; the
 * dictionary (record.dict) gives libFuzzer the record's keys. */
#include "cli/cli.h"
#include "fuzzkit.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[128];
    fk_write(fk_path(path, sizeof path, "r.jsonl"), data, size);
    const char *quiet[] = {"replay", "--quiet", path, NULL};
    const char *seat[] = {"replay", path, "--seat", "1", NULL};
    int rc = fk_main(ar_replay_main, quiet);
    if (rc != AR_EXIT_OK && rc != AR_EXIT_FAIL) {
        fprintf(stderr, "fuzz_replay: exit %d\n", rc);
        abort();
    }
    fk_main(ar_replay_main, seat);
    return 0;
}
