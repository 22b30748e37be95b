/* test_text.c - okrpb_text (proto/text.c), the one-line text of a message that the protocol
 * trace prints: field names, enums by name, nesting, repeated fields, proto3 defaults left
 * out, strings escaped, and a cut line that still ends in "..." and a NUL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "okr.pb-c.h"
#include "text.h"

static void test_identify_and_ready(void **state)
{
    (void)state;
    char buf[256];
    Okrpb__Identify id = OKRPB__IDENTIFY__INIT;
    id.major = 1;
    id.name = "my \"bot\"\n";
    id.version = "";
    Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_IDENTIFY;
    fb.identify = &id;
    okrpb_text(&fb.base, buf, sizeof buf);
    assert_string_equal(buf, "identify { major: 1 name: \"my \\\"bot\\\"\\x0a\" }");
    Okrpb__Ready r = OKRPB__READY__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_READY;
    fb.ready = &r;
    okrpb_text(&fb.base, buf, sizeof buf);
    assert_string_equal(buf, "ready { }");
}

static void test_choice_action_enum_and_repeated(void **state)
{
    (void)state;
    char buf[512];
    uint32_t cards[] = {3, 17, 40};
    Okrpb__MeldSpec spec = OKRPB__MELD_SPEC__INIT;
    spec.n_cards = 3;
    spec.cards = cards;
    Okrpb__Action a = OKRPB__ACTION__INIT;
    a.type = OKRPB__ACTION_TYPE__DISCARD;
    a.card = 12;
    a.spec = &spec;
    Okrpb__Choice c = OKRPB__CHOICE__INIT;
    c.id = 7;
    c.pick_case = OKRPB__CHOICE__PICK_ACTION;
    c.action = &a;
    Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_CHOICE;
    fb.choice = &c;
    okrpb_text(&fb.base, buf, sizeof buf);
    assert_non_null(strstr(buf, "choice { id: 7 action { type: DISCARD "));
    assert_non_null(strstr(buf, "card: 12"));
    assert_non_null(strstr(buf, "spec { cards: [3, 17, 40] }"));
    /* the oneof's other member (index) is not shown */
    assert_null(strstr(buf, "index"));
}

static void test_cut(void **state)
{
    (void)state;
    char buf[20];
    Okrpb__Identify id = OKRPB__IDENTIFY__INIT;
    id.name = "a name much longer than the buffer";
    Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_IDENTIFY;
    fb.identify = &id;
    size_t n = okrpb_text(&fb.base, buf, sizeof buf);
    assert_int_equal(n, strlen(buf));
    assert_true(n < sizeof buf);
    assert_string_equal(buf + n - 3, "...");
    assert_int_equal(okrpb_text(&fb.base, buf, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identify_and_ready),
        cmocka_unit_test(test_choice_action_enum_and_repeated),
        cmocka_unit_test(test_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
