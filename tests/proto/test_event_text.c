/* test_event_text.c - Event.text, written by hand in proto/codec.c since it runs for every
 * event sent to every seat, is exactly what the snprintf formulation below (the one it
 * replaced) writes, for every action type (known or not), how, card byte and many meld
 * numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "codec.h"

static const char *type_word(int type)
{
    static const char *const words[] = {"",        "draw",    "take",  "meld",  "add",
                                        "replace", "discard", "claim", "knock", "pass"};
    return type >= 0 && type < (int)(sizeof words / sizeof words[0]) ? words[type] : "";
}

static void reference(const okr_event *e, char *buf, size_t cap)
{
    char card[3] = "";
    if (e->card < OKR_KINDS)
        okr_card_str(e->card, card);
    const char *sep = card[0] ? " " : "";
    switch (e->type) {
    case OKR_A_TAKE:
    case OKR_A_CLAIM:
        if (e->how == OKR_HOW_NEW)
            snprintf(buf, cap, "%s new%s%s", type_word(e->type), sep, card);
        else if (e->how == OKR_HOW_ADD || e->how == OKR_HOW_JOKER)
            snprintf(buf, cap, "%s %s %u%s%s", type_word(e->type),
                     e->how == OKR_HOW_ADD ? "add" : "joker", (unsigned)e->meld, sep, card);
        else
            snprintf(buf, cap, "%s%s%s", type_word(e->type), sep, card);
        break;
    case OKR_A_ADD:
    case OKR_A_REPLACE:
        snprintf(buf, cap, "%s %u%s%s", type_word(e->type), (unsigned)e->meld, sep, card);
        break;
    case OKR_A_MELD:
    case OKR_A_PASS:
        snprintf(buf, cap, "%s", type_word(e->type));
        break;
    default:
        snprintf(buf, cap, "%s%s%s", type_word(e->type), sep, card);
        break;
    }
}

static void test_same_as_snprintf(void **state)
{
    (void)state;
    okrpb_arena *a = okrpb_arena_new();
    assert_non_null(a);
    static const int melds[] = {0, 1, 9, 10, 63, 99, 100, 254, 255};
    long n = 0;
    for (int type = 0; type < 13; type++)
        for (int how = 0; how < 5; how++)
            for (int card = 0; card < 256; card++)
                for (size_t m = 0; m < sizeof melds / sizeof melds[0]; m++) {
                    okr_event e;
                    memset(&e, 0, sizeof e);
                    e.type = (uint8_t)type;
                    e.how = (uint8_t)how;
                    e.card = (uint8_t)card;
                    e.meld = (uint8_t)melds[m];
                    char want[64];
                    reference(&e, want, sizeof want);
                    Okrpb__Event *got = okrpb_event_from(a, &e);
                    assert_non_null(got);
                    assert_string_equal(got->text, want);
                    okrpb_arena_reset(a);
                    n++;
                }
    print_message("event text: %ld events, identical\n", n);
    okrpb_arena_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_as_snprintf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
