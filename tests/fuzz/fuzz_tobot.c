/* fuzz_tobot.c - the C SDK's ToBot decoders, differentially: every frame goes through the
 * fast decoder (proto/fastread.c) and the slow path (protobuf-c + codec.h + the SDK's checks,
 * tests/helpers/tobot_slow.h). The fast path may decline anything, but what it accepts the
 * slow path must accept with every field equal. Every message protobuf-c accepts also goes
 * through the remaining codec decoders (the rules of a Hello, a refused Choice's substitute), which
 * must not crash. */
#include <stdio.h>
#include <stdlib.h>

#include "../helpers/tobot_slow.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static okrpb_fast_in f, s;
    int fast = okrpb_fast_decode(&f, data, size);
    int slow = okrt_slow_decode(data, size, &s);
    if (fast < 0)
        abort(); /* out of memory */
    if (fast == 1 && !slow) {
        fprintf(stderr, "fuzz_tobot: the fast path accepts what the slow path refuses\n");
        abort();
    }
    if (fast == 1 && !okrt_fast_same(&f, &s)) {
        fprintf(stderr, "fuzz_tobot: the fast and slow paths decode different values\n");
        abort();
    }
    Okrpb__ToBot *m = okrpb__to_bot__unpack(NULL, size, data);
    if (m) {
        okr_refusal why;
        okr_rules r;
        if (m->msg_case == OKRPB__TO_BOT__MSG_HELLO && m->hello->rules)
            okrpb_rules_to(m->hello->rules, &r, &why);
        if (m->msg_case == OKRPB__TO_BOT__MSG_REFUSED && m->refused->substituted) {
            okr_action a;
            okrpb_action_to(m->refused->substituted, &a, &why);
        }
        okrpb__to_bot__free_unpacked(m, NULL);
    }
    return 0;
}
