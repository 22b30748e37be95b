/* test_streams.c - option stock=streams (docs/rules.md, Decision "Per-seat stock streams",
 * RULES 2.4, 4.2, G4, 8.3): the stock is cut into one stream per seat, so that seat i's k-th
 * card from the stock is the same card however the play diverges; under the default
 * stock=deck every digest is the one the engine gave before the option existed. */
#include "testkit.h"

#include "internal.h"

static okr_action acts[OKR_MAX_ACTIONS];

static uint64_t xs(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* The default digests are the ones the engine gave before the option `stock` existed: the
 * final digest of the first three hands of uniformly random play, seeds 1-3, every preset
 * (computed with the engine of commit 7714d09 and with this one: identical). */
static void test_default_digests_unchanged_rules_2_5(void **state)
{
    (void)state;
    static const struct {
        const char *preset;
        int players;
        uint64_t seed, digest;
    } pin[] = {
        {"gin", 2, 1, 0x7e95182c9788bf16u},       {"gin", 2, 2, 0x46076ddfdb56ab51u},
        {"gin", 2, 3, 0xfadce88bbbb96fdau},       {"laws", 3, 1, 0x3f42c78db2280b2eu},
        {"laws", 3, 2, 0x505708263640ab6du},      {"laws", 3, 3, 0x711074acf9a68807u},
        {"german", 4, 1, 0x1904c368665618efu},    {"german", 4, 2, 0x1567ac47ea42d574u},
        {"german", 4, 3, 0x0de91379ea307ac2u},    {"arlington", 3, 1, 0x651db03e88fbaf2fu},
        {"arlington", 3, 2, 0x3b6eec0cd4552891u}, {"arlington", 3, 3, 0xd8cca2766dff3497u},
        {"parlett", 5, 1, 0x4a7d4ead02f50fe6u},   {"parlett", 5, 2, 0xe6079ad45133510au},
        {"parlett", 5, 3, 0x57215897459c7c3cu},
    };
    for (size_t i = 0; i < sizeof pin / sizeof pin[0]; i++) {
        okr_rules r;
        assert_int_equal(okr_rules_preset(&r, pin[i].preset, NULL), OKR_OK);
        assert_int_equal(r.stock, OKR_STOCK_DECK);
        okr_game g;
        assert_int_equal(okr_game_init(&g, &r, pin[i].players, pin[i].seed, NULL, 0, NULL), OKR_OK);
        uint64_t x = pin[i].seed * 2654435761u + 1;
        while (g.phase != OKR_PH_GAME_OVER && g.hand_no <= 3) {
            if (g.phase == OKR_PH_HAND_OVER) {
                assert_int_equal(okr_next_hand(&g, NULL, 0, NULL), OKR_OK);
                continue;
            }
            int n = okr_legal(&g, acts, OKR_MAX_ACTIONS);
            xs(&x);
            assert_int_equal(okr_apply(&g, &acts[x % (uint64_t)n], NULL, NULL), OKR_OK);
        }
        if (okr_digest(&g) != pin[i].digest)
            fail_msg("%s seed %d: digest %016llx, pinned %016llx", pin[i].preset, (int)pin[i].seed,
                     (unsigned long long)okr_digest(&g), (unsigned long long)pin[i].digest);
    }
}

/* The option reads, writes and is refused like every other (docs/rules.md, Options). */
static void test_option_text_rules_4_2(void **state)
{
    (void)state;
    okr_rules r = tk_rules("gin", NULL);
    char text[1024];
    assert_true(okr_rules_format(&r, text, sizeof text) > 0);
    tk_assert_contains(text, " stock=deck");
    assert_int_equal(okr_rules_set(&r, "stock", "streams", NULL), OKR_OK);
    assert_int_equal(r.stock, OKR_STOCK_STREAMS);
    assert_true(okr_rules_format(&r, text, sizeof text) > 0);
    tk_assert_contains(text, " stock=streams");
    okr_refusal why;
    assert_int_equal(okr_rules_set(&r, "stock", "piles", &why), OKR_EINVAL);
    assert_string_equal(why.rule, "4.2");
    /* the digest tells the two stocks apart (the same deal) */
    okr_rules d = tk_rules("gin", NULL);
    okr_game a, b;
    assert_int_equal(okr_game_init(&a, &d, 2, 7, NULL, 0, NULL), OKR_OK);
    assert_int_equal(okr_game_init(&b, &r, 2, 7, NULL, 0, NULL), OKR_OK);
    assert_true(okr_digest(&a) != okr_digest(&b));
}

/* The deal is the deal of stock=deck (RULES 2.4): the same hands and upcard, the same stock
 * as a multiset cut into streams that add up to it, and every seat's view (RULES 8.3) is the
 * same bytes: a seat cannot tell the two options apart. */
static void test_deal_and_views_unchanged_rules_8_3(void **state)
{
    (void)state;
    const char *pre[] = {"gin", "laws", "german", "arlington", "parlett"};
    const int pl[] = {2, 3, 6, 8, 5};
    for (int p = 0; p < 5; p++)
        for (uint64_t seed = 1; seed <= 20; seed++) {
            okr_rules d = tk_rules(pre[p], pl[p] == 8 ? "decks=3" : NULL, NULL);
            okr_rules s = d;
            s.stock = OKR_STOCK_STREAMS;
            okr_game a, b;
            assert_int_equal(okr_game_init(&a, &d, pl[p], seed, NULL, 0, NULL), OKR_OK);
            assert_int_equal(okr_game_init(&b, &s, pl[p], seed, NULL, 0, NULL), OKR_OK);
            assert_int_equal(okr_check(&b), OKR_OK);
            assert_memory_equal(a.hand, b.hand, sizeof a.hand);
            assert_int_equal(a.upcard, b.upcard);
            assert_int_equal(a.stock_n, b.stock_n);
            int ca[OKR_KINDS] = {0}, cb[OKR_KINDS] = {0}, sum = 0;
            for (int i = 0; i < a.stock_n; i++)
                ca[a.stock[i]]++, cb[b.stock[i]]++;
            assert_memory_equal(ca, cb, sizeof ca);
            for (int t = 0; t < pl[p]; t++) {
                sum += b.stream_n[t];
                /* round robin from the dealer's left: sizes differ by at most one */
                assert_true(b.stream_n[t] == a.stock_n / pl[p] ||
                            b.stream_n[t] == a.stock_n / pl[p] + 1);
                okr_view va, vb;
                okr_view_of(&a, t, &va);
                okr_view_of(&b, t, &vb);
                assert_memory_equal(&va, &vb, sizeof va);
            }
            assert_int_equal(sum, b.stock_n);
            /* the first card of each stream is the one a deck would give in turn order */
            for (int j = 0; j < pl[p] && j < a.stock_n; j++) {
                int seat = (a.dealer + 1 + j) % pl[p];
                assert_int_equal(b.stock[okr__streams_next(&b, seat)], a.stock[a.stock_n - 1 - j]);
            }
        }
}

/* Seat i's k-th card from the stock is the same card in every play of a deal, however the
 * play diverges (who takes the pile, who draws when), as long as its stream holds cards;
 * every card is in one place after every action (okr_check, which also adds the streams up
 * to the stock), the stock shrinks by one per draw, and a seat whose stream is dry draws the
 * last card of the longest other stream. */
static void test_streams_same_cards_every_play_rules_4_2(void **state)
{
    (void)state;
    const char *pre[] = {"gin", "laws", "german", "arlington", "parlett"};
    const int pl[] = {2, 3, 4, 3, 5};
    int dry_draws = 0, compared = 0;
    for (int p = 0; p < 5; p++)
        for (uint64_t seed = 1; seed <= 40; seed++) {
            okr_rules r = tk_rules(pre[p], "stock=streams", NULL);
            /* per play: per seat, the cards it drew from its own stream, in order */
            uint8_t own[2][OKR_MAX_PLAYERS][OKR_MAX_CARDS];
            int own_n[2][OKR_MAX_PLAYERS];
            memset(own_n, 0, sizeof own_n);
            for (int play = 0; play < 2; play++) {
                okr_game g;
                assert_int_equal(okr_game_init(&g, &r, pl[p], seed, NULL, 0, NULL), OKR_OK);
                uint64_t x = seed * 7919u + 17u * (uint64_t)play + 1;
                int steps = 0;
                while (g.phase != OKR_PH_HAND_OVER && g.phase != OKR_PH_GAME_OVER) {
                    okr_game before = g;
                    int n = okr_legal(&g, acts, OKR_MAX_ACTIONS);
                    assert_true(n > 0);
                    okr_action a = acts[xs(&x) % (uint64_t)n];
                    okr_event e;
                    assert_int_equal(okr_apply(&g, &a, &e, NULL), OKR_OK);
                    assert_int_equal(okr_check(&g), OKR_OK);
                    if (a.type == OKR_A_DRAW && e.card != OKR_NOCARD) {
                        assert_int_equal(g.stock_n, before.stock_n - 1);
                        int i = okr__streams_next(&before, a.seat);
                        assert_int_equal(e.card, before.stock[i]);
                        if (before.stream_n[a.seat]) {
                            own[play][a.seat][own_n[play][a.seat]++] = (uint8_t)e.card;
                            assert_int_equal(g.stream_n[a.seat], before.stream_n[a.seat] - 1);
                        } else {
                            dry_draws++;
                            int longest = 0;
                            for (int t = 0; t < pl[p]; t++)
                                if (before.stream_n[t] > longest)
                                    longest = before.stream_n[t];
                            int base = 0, from = -1;
                            for (int t = 0; t < pl[p]; t++) {
                                if (base == i && before.stream_n[t])
                                    from = t;
                                base += before.stream_n[t];
                            }
                            assert_true(from >= 0);
                            assert_int_equal(before.stream_n[from], longest);
                        }
                    } else {
                        assert_int_equal(g.stock_n, before.stock_n);
                    }
                    assert_true(++steps < 100000);
                }
            }
            for (int t = 0; t < pl[p]; t++) {
                int n = OKR_MIN(own_n[0][t], own_n[1][t]);
                compared += n;
                assert_memory_equal(own[0][t], own[1][t], (size_t)n);
            }
        }
    assert_true(compared > 1000);
    assert_true(dry_draws > 0); /* random play does run a stream dry */
}

/* RULES 2.5: the same seed, rules and actions give the same game, digest by digest, over
 * whole games with stock=streams; positions round-trip (okr_position_of and
 * okr_game_from_position keep the streams) and a determinized world is a valid game. */
static void test_replay_position_determinize_rules_2_5(void **state)
{
    (void)state;
    const char *pre[] = {"gin", "laws", "german"};
    const int pl[] = {2, 4, 3};
    static okr_action hist[20000];
    static uint64_t dig[20000];
    for (int p = 0; p < 3; p++)
        for (uint64_t seed = 1; seed <= 6; seed++) {
            okr_rules r = tk_rules(pre[p], "stock=streams", "dealer=rotate", NULL);
            okr_game g, h;
            assert_int_equal(okr_game_init(&g, &r, pl[p], seed, NULL, 0, NULL), OKR_OK);
            uint64_t x = seed + 99;
            int n = 0;
            while (g.phase != OKR_PH_GAME_OVER && n < 20000) {
                if (g.phase == OKR_PH_HAND_OVER) {
                    assert_int_equal(okr_next_hand(&g, NULL, 0, NULL), OKR_OK);
                    continue;
                }
                okr_position pos;
                okr_position_of(&g, &pos);
                okr_game back;
                okr_refusal why;
                assert_int_equal(okr_game_from_position(&back, &r, &pos, &why), OKR_OK);
                assert_true(okr_digest(&back) == okr_digest(&g));
                okr_view v;
                okr_view_of(&g, g.to_act, &v);
                okr_game w;
                assert_int_equal(okr_determinize(&r, &v, x, &w, NULL), OKR_OK);
                assert_int_equal(okr_check(&w), OKR_OK);
                int k = okr_legal(&g, acts, OKR_MAX_ACTIONS);
                hist[n] = acts[xs(&x) % (uint64_t)k];
                assert_int_equal(okr_apply(&g, &hist[n], NULL, NULL), OKR_OK);
                dig[n++] = okr_digest(&g);
            }
            assert_int_equal(okr_game_init(&h, &r, pl[p], seed, NULL, 0, NULL), OKR_OK);
            for (int i = 0; i < n; i++) {
                if (h.phase == OKR_PH_HAND_OVER)
                    assert_int_equal(okr_next_hand(&h, NULL, 0, NULL), OKR_OK);
                assert_int_equal(okr_apply(&h, &hist[i], NULL, NULL), OKR_OK);
                assert_true(okr_digest(&h) == dig[i]);
            }
        }
}

/* A position whose streams do not add up to its stock is refused (RULES 4.2); all zero cuts
 * the stock afresh. */
static void test_position_streams_checked_rules_4_2(void **state)
{
    (void)state;
    okr_rules r = tk_rules("gin", "stock=streams", NULL);
    okr_game g;
    assert_int_equal(okr_game_init(&g, &r, 2, 5, NULL, 0, NULL), OKR_OK);
    okr_position pos;
    okr_position_of(&g, &pos);
    pos.stream_n[0]++;
    okr_game back;
    okr_refusal why;
    assert_int_equal(okr_game_from_position(&back, &r, &pos, &why), OKR_EINVAL);
    assert_string_equal(why.rule, "4.2");
    memset(pos.stream_n, 0, sizeof pos.stream_n);
    assert_int_equal(okr_game_from_position(&back, &r, &pos, &why), OKR_OK);
    assert_int_equal(okr_check(&back), OKR_OK); /* a fresh cut of the same cards */
    int sum = 0;
    for (int t = 0; t < 2; t++)
        sum += back.stream_n[t];
    assert_int_equal(sum, back.stock_n);
}

/* The next card a seat draws is uniform over the stock's cards (docs/rules.md): over many
 * deals, the card drawn by the seat left of the dealer at its first draw, and the card a seat
 * draws from a dry stream, fall on each stock position equally often. Here checked as: the
 * kind drawn first by seat 1 in gin is spread over the 52 kinds (chi-square, 51 degrees of
 * freedom, below the 0.999 quantile 86.7). */
static void test_first_draw_uniform_rules_4_2(void **state)
{
    (void)state;
    okr_rules r = tk_rules("gin", "stock=streams", NULL);
    int count[52] = {0}, n = 0;
    for (uint64_t seed = 1; seed <= 5200; seed++) {
        okr_game g;
        assert_int_equal(okr_game_init(&g, &r, 2, seed, NULL, 0, NULL), OKR_OK);
        /* the dealer (seat 1) draws first after both pass and seat 0 drew */
        count[g.stock[okr__streams_next(&g, 1)]]++;
        n++;
    }
    double chi = 0, e = n / 52.0;
    for (int k = 0; k < 52; k++)
        chi += (count[k] - e) * (count[k] - e) / e;
    assert_true(chi < 86.7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_digests_unchanged_rules_2_5),
        cmocka_unit_test(test_option_text_rules_4_2),
        cmocka_unit_test(test_deal_and_views_unchanged_rules_8_3),
        cmocka_unit_test(test_streams_same_cards_every_play_rules_4_2),
        cmocka_unit_test(test_replay_position_determinize_rules_2_5),
        cmocka_unit_test(test_position_streams_checked_rules_4_2),
        cmocka_unit_test(test_first_draw_uniform_rules_4_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
