"""Tests of `import okr` (sdk/python/okr): every function of the module, the same digests as
the C engine over 10,000 seeded whole games, refusals with rule numbers, independent copies, and
determinize never showing a seat what it may not know (RULES 8.3).

Run by ctest (python_okr, label "python") with PYTHONPATH=build/python and OKR_BUILD_DIR."""

import copy
import os
import random
import re
import subprocess

import okr
import pytest

BUILD = os.environ.get("OKR_BUILD_DIR", os.path.join(os.path.dirname(__file__), "../../../../build"))
FAST = os.environ.get("OKR_SANITIZE") == "1"  # the ASan build plays fewer games
M64 = (1 << 64) - 1


# ---- bench_engine's generator, in Python (bench/bench_engine.c, okr_digests.c) ----------------

def xs_seed(seed):
    z = (seed + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    z ^= z >> 31
    return z or 1


class XS:
    def __init__(self, seed):
        self.s = xs_seed(seed)

    def pick(self, n):
        x = self.s
        x ^= x >> 12
        x ^= (x << 25) & M64
        x ^= x >> 27
        self.s = x
        v = (x * 0x2545F4914F6CDD1D) & M64
        return ((v >> 32) * n) >> 32


def play(preset, players, seed, **options):
    """One whole game through the module, choices as bench_engine makes them."""
    g = okr.Game(preset, players=players, seed=seed, **options)
    rng = XS(seed)
    while not g.over():
        if g.hand_over():
            g.next_hand()
            continue
        g.apply_legal(rng.pick(g.legal_count()))
    return g


def c_digests_start(preset, players, first, count, **options):
    """okr_digests (tests/okr_digests.c) started on the same games: the C engine's digests,
    read by c_digests_wait."""
    return subprocess.Popen([os.path.join(BUILD, "python", "okr_digests"), preset,
                             str(players), str(first), str(count)] +
                            [f"{k}={v}" for k, v in options.items()],
                            stdout=subprocess.PIPE, text=True)


def c_digests_wait(proc):
    out, _ = proc.communicate()
    assert proc.returncode == 0
    return [int(line, 16) for line in out.split()]


# 10,000 whole games in all (every hand to the game's end, as bench_engine plays them), in
# every preset: about 20 s of CPU in Python and 10 s in C, the two side by side (about 25 s
# on a quiet 2-core machine). Random gin games last thousands of actions (15 ms each through
# the module), so gin has fewer of them.
CONFIGS = [("gin", 2, 400), ("laws", 3, 3000), ("laws", 2, 3100), ("parlett", 3, 1500),
           ("arlington", 4, 500), ("german", 4, 1500)]


@pytest.mark.parametrize("preset,players,count", CONFIGS)
def test_same_digests_as_the_c_engine(preset, players, count):
    if FAST:
        count //= 20
    c = c_digests_start(preset, players, 1, count)  # the C engine plays meanwhile
    got = [play(preset, players, s).digest() for s in range(1, count + 1)]
    want = c_digests_wait(c)
    assert len(want) == count
    assert got == want
    assert len(set(got)) > count // 2  # the games differ: the check compares real play


def test_bench_engine_signature_reproduced():
    """bench_engine's signature (20 whole games x 7 configurations) from Python."""
    if FAST:
        pytest.skip("whole games: normal build only")
    out = subprocess.run([os.path.join(BUILD, "bench", "bench_engine"), "--seconds", "0.01"],
                         check=True, capture_output=True, text=True).stdout
    want = re.search(r"^signature: ([0-9a-f]{16})", out, re.M).group(1)
    sig = 0xCBF29CE484222325
    for preset, players in [("laws", 2), ("laws", 3), ("laws", 4), ("parlett", 3),
                            ("arlington", 4), ("german", 4), ("gin", 2)]:
        for seed in range(1, 21):
            d = play(preset, players, seed).digest()
            for i in range(8):
                sig = ((sig ^ ((d >> (8 * i)) & 0xFF)) * 0x100000001B3) & M64
    assert f"{sig:016x}" == want


# ---- Games ------------------------------------------------------------------------------------

def test_game_defaults_and_fields():
    g = okr.Game()
    assert g.rules.preset == "gin" and g.players == 2 and g.seed == 0
    assert g.phase == okr.PH_GIN_UPCARD and g.hand_no == 1 and g.dealer == 1
    assert g.to_act == 0 and g.turn_seat == 0 and g.turns == 0
    assert len(g.hand(0)) == 10 and len(g.hand(1)) == 10
    assert g.pile == [g.upcard] and len(g.stock) == 52 - 21
    assert g.melds == [] and g.scores == [0, 0] and g.check()
    # the deal is the pinned shuffle (docs/engine.md): seat 0 gets pack[0], pack[2], ...
    pack = okr.shuffle(0, 1, "gin")
    assert sorted(pack[0:20:2]) == g.hand(0) and sorted(pack[1:20:2]) == g.hand(1)
    assert g.upcard == pack[20]


def test_game_from_a_pack():
    pack = okr.shuffle(99, 1, "laws")
    g = okr.Game("laws", players=3, pack=pack)
    assert g.digest() == okr.Game("laws", players=3, seed=0, pack=okr.cards_str(pack)).digest()
    h = okr.Game("laws", players=3, seed=99)
    assert g.hand(0) == h.hand(0) and g.stock == h.stock
    with pytest.raises(okr.Refused) as e:
        okr.Game("laws", players=3, pack=pack[:-1])
    assert e.value.rule in ("1.1", "1.2")


def test_options_by_name():
    g = okr.Game("laws", players=3, seed=1, qs_discard="any", target=500, wild_twos=False)
    o = g.rules.options()
    assert o["qs_discard"] == "any" and o["target"] == "500" and o["wild_twos"] == "0"
    assert set(okr.option_names()) <= set(o)
    assert len(okr.option_names()) >= 25
    r = okr.rules("laws", decks=2)
    assert r.decks == "2" and r.pack_size == 104 + int(r.jokers) and r.family == "rummy"
    assert okr.Game(r, players=4).rules == r
    assert r.replace(target=300).target == "300" and r.target != "300"
    assert okr.rules("gin").players == (2, 2)
    assert "qs_discard=" in str(r)


@pytest.mark.parametrize("kwargs,rule", [
    (dict(rules="gin", players=3), "2.1"),
    (dict(rules="laws", players=9), "2.1"),
    (dict(rules="gin", wild_twos=1), "G1"),
    (dict(rules="laws", qs_discard="sometimes"), "4.5"),
])
def test_refusals_carry_rule_numbers(kwargs, rule):
    with pytest.raises(okr.Refused) as e:
        okr.Game(**kwargs)
    assert e.value.rule == rule
    assert e.value.reason and f"RULES {rule}" in str(e.value)
    assert isinstance(e.value, ValueError)


def test_unknown_preset_and_option_refused():
    with pytest.raises(okr.Refused):
        okr.Game("poker")
    with pytest.raises(okr.Refused) as e:
        okr.Game("laws", players=3, no_such_option=1)
    assert e.value.rule == "option" and "no_such_option" in e.value.reason


def test_illegal_action_refused_with_rule_and_game_unchanged():
    g = okr.Game("gin", seed=3)
    before = g.digest()
    with pytest.raises(okr.Refused) as e:
        g.apply("draw")  # the first turn offers only the upcard (G3)
    assert re.match(r"^G\d|^\d", e.value.rule)
    assert g.digest() == before
    with pytest.raises(okr.Refused):
        g.apply("discard")  # malformed text
    with pytest.raises(IndexError):
        g.apply(99)
    with pytest.raises(TypeError):
        g.apply(1.5)


def test_legal_in_canonical_order_with_text():
    g = okr.Game("laws", players=3, seed=5)
    for _ in range(60):
        acts = g.legal()
        assert len(acts) == g.legal_count() > 0
        assert [a.type for a in acts] == sorted(a.type for a in acts)
        for a in acts:
            assert a.seat == g.to_act and str(a) == a.text
            assert a.text.split()[0] == a.name
            assert g.parse(a.text) == a  # the text means the same action
        g.apply(acts[-1] if acts[-1].name != "pass" else acts[0])
        if g.hand_over():
            break


def test_apply_accepts_action_index_and_text_alike():
    a, b, c = (okr.Game("gin", seed=11) for _ in range(3))
    rng = random.Random(4)
    while not a.hand_over():
        acts = a.legal()
        i = rng.randrange(len(acts))
        a.apply(acts[i])
        b.apply(i)
        c.apply(acts[i].text)
        assert a.digest() == b.digest() == c.digest()
    assert b.hand_over() and c.hand_over()
    assert a.legal() == []


def test_action_fields():
    g = okr.Game("gin", seed=2)
    take, pas = g.legal()
    assert (take.name, take.type, take.how) == ("take", okr.TAKE, okr.HOW_PLAIN)
    assert pas.name == "pass" and pas.card is None and pas.spec is None and pas.knock is None
    assert hash(take) != hash(pas) and take != pas and take == g.legal()[0]
    assert {take, g.legal()[0]} == {take}
    g.apply(take)
    discards = g.legal()
    assert all(d.name in ("discard", "knock") for d in discards)
    d = discards[0]
    assert d.card in g.hand(0) and str(d) == "discard " + okr.card_str(d.card)
    assert repr(d).startswith("<okr.Action seat 0: discard")
    with pytest.raises(TypeError):
        okr.Action()
    # melds in laws carry their spec
    g = okr.Game("laws", players=2, seed=1)
    found = None
    for s in range(1, 200):
        g = okr.Game("laws", players=2, seed=s)
        while not g.hand_over() and found is None:
            acts = g.legal()
            found = next((a for a in acts if a.name == "meld"), None)
            g.apply(acts[0] if found is None else found)
        if found:
            break
    assert found is not None and found.spec.type in ("set", "run") and len(found.spec.cards) >= 3


def test_knock_action_carries_melds():
    for s in range(1, 400):
        g = okr.Game("gin", seed=s)
        rng = random.Random(s)
        while not g.hand_over():
            acts = g.legal()
            k = [a for a in acts if a.name == "knock"]
            if k:
                melds = k[0].knock
                assert isinstance(melds, list)
                assert all(len(m) >= 3 for m in melds)
                assert str(k[0]).startswith("knock ")
                return
            g.apply_legal(rng.randrange(len(acts)))
    pytest.fail("no knock in 400 random gin hands")


def test_copy_is_independent():
    g = okr.Game("laws", players=3, seed=8)
    for _ in range(5):
        g.apply(0)
    c = g.copy()
    assert c.digest() == g.digest() and c is not g
    d0 = g.digest()
    legal_before = g.legal()
    while not c.hand_over():
        c.apply(c.legal_count() - 1)
    assert g.digest() == d0 and g.legal() == legal_before
    assert c.digest() != d0
    assert copy.copy(g).digest() == d0 and copy.deepcopy(g).digest() == d0
    g.apply(0)
    assert c.hand_over()


def test_over_hand_over_next_hand_and_results():
    g = okr.Game("gin", seed=21)
    rng = random.Random(1)
    assert g.hand_result() is None and g.game_result() is None
    with pytest.raises(okr.Refused):
        g.next_hand()
    hands = 0
    while not g.over():
        if g.hand_over():
            r = g.hand_result()
            hands += 1
            assert r.hand_no == g.hand_no and r.end in ("knock", "undercut", "gin", "drawn")
            assert r.total == g.scores
            for key in ("melded", "debit", "out_bonus", "concealed", "deadwood", "score"):
                assert len(getattr(r, key)) == 2
            assert not g.over()
            g.next_hand()
            continue
        g.apply_legal(rng.randrange(g.legal_count()))
    res = g.game_result()
    assert g.hand_over() and g.over() and g.legal() == []
    assert sorted(res.placement) in ([1, 2], [1, 1])
    assert res.winners and all(res.placement[w] == 1 for w in res.winners)
    best = max(res.final_total)
    assert [p == 1 for p in res.placement] == [t == best for t in res.final_total]
    assert g.hand_result() is not None


def test_step_returns_the_event():
    g = okr.Game("gin", seed=4)
    e = g.step(1)  # pass
    assert e.seq == 1 and e.seat == 0 and e.type == okr.PASS and e.ended == 0
    e = g.step("pass")
    assert e.seq == 2 and e.seat == 1


def test_view_fields_and_hidden_information():
    g = okr.Game("laws", players=3, seed=13)
    for _ in range(12):
        g.apply(g.legal_count() - 1)
    for seat in range(3):
        v = g.view(seat)
        assert v.seat == seat and v.players == 3 and v.phase == g.phase
        assert v.hand == g.hand(seat)
        assert v.hand_sizes == [len(g.hand(s)) for s in range(3)]
        assert v.pile == g.pile and v.stock_size == len(g.stock)
        assert v.to_act == g.to_act and v.dealer == g.dealer and v.hand_no == 1
        assert len(v.melds) == len(g.melds) and v.scores == [0, 0, 0]
        assert len(v.turns_drawn) == 3 and len(v.melded_before) == 3
        assert v.knock_limit == 0  # nobody knocks outside gin (the protocol's View)
        assert not hasattr(v, "stock") and "other" not in vars(v)
    with pytest.raises(IndexError):
        g.view(3)
    gv = okr.Game("gin", seed=1).view(0)
    assert gv.knock_limit == okr.card_value(gv.upcard, "gin")
    # an ace upcard under ace_gin_only: only gin ends the hand (G2), the limit is 0
    for seed in range(1, 400):
        g = okr.Game("gin", seed=seed, ace_gin_only=1)
        if okr.card_str(g.view(0).upcard)[0] == "A":
            assert g.view(0).knock_limit == 0
            break
    else:
        pytest.fail("no deal with an ace upcard in 400 seeds")


# ---- Helpers ---------------------------------------------------------------------------------

def test_cards_notation():
    assert okr.card("QS") == 3 * 13 + 11 == okr.card(50) and okr.card("JK") == okr.JOKER
    assert okr.card("10H") == okr.card("TH") == 2 * 13 + 9
    assert okr.card_str(0) == "AC" and okr.card_str(okr.JOKER) == "JK"
    assert okr.cards("AS 2S 3S") == [39, 40, 41]
    assert okr.cards_str([39, 40, 41]) == "AS 2S 3S"
    assert okr.cards([39, "2S"]) == [39, 40]
    for bad in ("ZZ", "QS7", ""):
        with pytest.raises(ValueError):
            okr.card(bad)
    with pytest.raises(ValueError):
        okr.card(53)
    with pytest.raises(ValueError):
        okr.cards("AS XX")
    with pytest.raises(TypeError):
        okr.card(None)


def test_card_values():
    assert okr.card_value("KH", "gin") == 10 and okr.card_value("AS", "gin") == 1
    assert okr.card_value("7D", "gin") == 7
    assert okr.card_value("QS", "laws") > okr.card_value("3C", "laws") > 0
    assert okr.card_value("7D") == 7  # gin by default


def test_find_melds():
    m = okr.find_melds("AS 2S 3S 4S", "laws")
    assert [x.cards for x in m] == [[39, 40, 41], [40, 41, 42]] or len(m) >= 2
    assert all(x.type == "run" and len(x.cards) == 3 for x in m)
    sets = okr.find_melds("7C 7D 7H KS", okr.rules("parlett"))
    assert any(x.type == "set" and sorted(x.cards) == [6, 19, 32] for x in sets)
    assert okr.find_melds("AS 5D 9H") == []
    assert okr.find_melds("AS 2S 3S", "gin") == []  # gin melds: gin_best


def test_gin_best_and_best_discard():
    dw, melds = okr.gin_best("AS 2S 3S 4S KH KD KC 9C 9D 5H")
    assert dw == 9 + 9 + 5
    assert sorted(map(sorted, melds)) == sorted([sorted(okr.cards("AS 2S 3S 4S")),
                                                 sorted(okr.cards("KC KD KH"))])
    assert okr.gin_best(okr.cards("AS 2S 3S 4S 5S 6S 7S KH KD KC"))[0] == 0
    card, dw, melds = okr.gin_best_discard("AS 2S 3S 4S KH KD KC 9C 9D 5H 8H")
    assert okr.card_str(card) in ("9C", "9D") and dw == 9 + 5 + 8
    with pytest.raises(ValueError):
        okr.gin_best_discard([])


def test_shuffle_matches_the_documented_algorithm():
    # the reference Python of docs/engine.md, "The shuffle"
    def ref(decks, jokers, seed, hand_no):
        n = 52 * decks + jokers
        out = [i % 52 if i < 52 * decks else 52 for i in range(n)]
        x = (seed + hand_no * 0xD1B54A32D192ED03) & M64
        s = []
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & M64
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
            s.append(z ^ (z >> 31))
        rotl = lambda v, k: ((v << k) | (v >> (64 - k))) & M64  # noqa: E731

        def nxt():
            r = (rotl((s[1] * 5) & M64, 7) * 9) & M64
            t = (s[1] << 17) & M64
            s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]  # noqa: E702
            s[2] ^= t; s[3] = rotl(s[3], 45)  # noqa: E702
            return r
        for i in range(n - 1, 0, -1):
            m = i + 1
            while True:
                v = nxt()
                if v >= ((1 << 64) - m) % m:
                    break
            j = v % m
            out[i], out[j] = out[j], out[i]
        return out
    assert okr.shuffle(12345, 2, "gin") == ref(1, 0, 12345, 2)
    assert okr.shuffle(7, 1, okr.rules("laws", decks=2)) == ref(2, 1, 7, 1) or \
        okr.shuffle(7, 1, okr.rules("laws", decks=2)) == ref(2, 0, 7, 1)


# ---- determinize ----------------------------------------------------------------------------

def hidden_from(g, seat):
    """The cards `seat` cannot see: the other hands and the stock, as a sorted list."""
    cards = list(g.stock)
    for s in range(g.players):
        if s != seat:
            cards += g.hand(s)
    return sorted(cards)


@pytest.mark.parametrize("preset,players", [("gin", 2), ("laws", 3), ("german", 4)])
def test_determinize_reveals_nothing(preset, players):
    """Over many states: the determinized game shows the seat exactly its view, has the same
    legal actions, and depends on the view alone: two different true games with the same view
    give the same determinization for the same seed, so no hidden card can leak through."""
    states = 0
    rng = random.Random(players)
    for seed in range(1, 8 if FAST else 40):
        g = okr.Game(preset, players=players, seed=seed)
        while not g.hand_over():
            seat = g.to_act
            v = g.view(seat)
            d = okr.determinize(v, 1000 + states)
            assert d.check()
            assert vars(d.view(seat)) == vars(v) or _same_view(d.view(seat), v)
            assert d.legal() == g.legal()
            assert hidden_from(d, seat) == hidden_from(g, seat)  # same unseen multiset
            other = okr.determinize(v, 7)          # another world the seat can't tell apart
            again = okr.determinize(other.view(seat), 1000 + states)
            assert again.digest() == d.digest()    # built from the view only
            states += 1
            g.apply_legal(rng.randrange(g.legal_count()))
    assert states > 100


def _same_view(a, b):
    ka = {k: x for k, x in vars(a).items() if k not in ("_raw", "rules")}
    kb = {k: x for k, x in vars(b).items() if k not in ("_raw", "rules")}
    return ka == kb


def test_determinize_takes_a_random_generator():
    g = okr.Game("gin", seed=5)
    v = g.view(0)
    a = okr.determinize(v, random.Random(3))
    b = okr.determinize(v, random.Random(3))
    assert a.digest() == b.digest()
    assert a.hand(0) == g.hand(0)
    with pytest.raises(TypeError):
        okr.determinize(object(), 1)



def test_determinize_deals_known_cards_to_their_hands():
    """known=: cards the table saw go into a hand are in that hand in every world; with none
    known the world is determinize's own; impossible ones are refused with RULES 8.3."""
    rng = random.Random(6)
    for preset, players in (("laws", 3), ("gin", 2)):
        for seed in range(1, 6):
            g = okr.Game(preset, players=players, seed=seed)
            while not g.hand_over():
                seat = g.to_act
                v = g.view(seat)
                known = {s: g.hand(s)[::3] for s in range(players) if s != seat}
                d = okr.determinize(v, 11, known=known)
                assert d.check() and d.legal() == g.legal()
                assert hidden_from(d, seat) == hidden_from(g, seat)
                for s, cards in known.items():
                    held = d.hand(s)
                    assert all(held.count(c) >= cards.count(c) for c in cards)
                as_list = [known.get(s, []) for s in range(players)]
                assert okr.determinize(v, 11, known=as_list).digest() == d.digest()
                assert okr.determinize(v, 11, known={}).digest() == \
                    okr.determinize(v, 11).digest()
                g.apply_legal(rng.randrange(g.legal_count()))
    g = okr.Game("laws", players=3, seed=2)
    v = g.view(0)
    both = [c for c in g.hand(0) if g.hand(0).count(c) == 2][:1]  # laws: two decks
    assert both
    for bad in ({0: g.hand(0)[:1]}, {1: g.hand(1) + g.hand(2)[:1]}, {1: both}):
        with pytest.raises(okr.Refused) as e:
            okr.determinize(v, 1, known=bad)
        assert e.value.rule == "8.3"
    for bad in ({5: [1]}, [[], [], [], []], {1: ["ZZ"]}):
        with pytest.raises(ValueError):
            okr.determinize(v, 1, known=bad)
    with pytest.raises(TypeError):
        okr.determinize(v, 1, known=3)


# ---- docs/python.md ---------------------------------------------------------------------------

def test_docs_monte_carlo_bot():
    """The 20-line Monte Carlo bot of docs/python.md, as printed there, plays legal moves and
    finishes hands against the random player."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "../../../../docs/python.md"), encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("## A Monte Carlo bot"):]
    code = section[section.index("```python\n") + 10:section.index("```\n", section.index("```python"))]
    assert len(code.strip().split("\n")) <= 22
    ns = {}
    exec(compile(code, "docs/python.md", "exec"), ns)
    rng = random.Random(5)
    for seed in range(2 if FAST else 4):
        g = okr.Game("gin", seed=seed)
        while not g.hand_over():
            if g.to_act == 0:
                i = ns["monte_carlo"](g, 0, rng, worlds=2, playouts=1)
                assert 0 <= i < g.legal_count()
                g.apply_legal(i)
            else:
                g.apply_legal(rng.randrange(g.legal_count()))
        assert g.hand_result() is not None


# ---- hostile input ----------------------------------------------------------------------------

def test_garbage_never_crashes():
    """Random text, cards, seats and options raise the documented exceptions, nothing else."""
    rng = random.Random(99)
    alphabet = "AKQJT98765432CDHSJK =<>-,;\x00\xff " + "draw take meld add discard knock pass"
    g = okr.Game("laws", players=3, seed=1)
    for _ in range(300 if FAST else 3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 60)))
        for fn in (g.parse, g.apply, okr.card, okr.cards, okr.gin_best, okr.find_melds):
            try:
                fn(text)
            except (okr.Refused, ValueError, IndexError, TypeError):
                pass
        assert g.check()
    for bad in (-1, 53, 255, 2**70, -2**70):
        with pytest.raises((ValueError, OverflowError)):
            okr.card(bad)
        with pytest.raises((IndexError, OverflowError)):
            g.view(bad)
    for players in (0, -1, 9, 2**32 + 2, 2**40):
        with pytest.raises((okr.Refused, OverflowError)):
            okr.Game("laws", players=players)
    with pytest.raises(okr.Refused):
        okr.Game("laws", players=3, qs_discard="any" + " " * 40)
    with pytest.raises(TypeError):
        okr.Game("laws", players=3, target=1.5)
    with pytest.raises((okr.Refused, ValueError)):
        okr.Game("laws", players=3, pack=[0] * 200)
    with pytest.raises(okr.Refused):
        okr.Game("gin", pack=list(range(52))[:-1] + [0])  # a card twice (RULES 1.1)


# ---- determinize from a view that did not come from okr (okbot's protocol View) ---------------

def _fields_only(v):
    """The view as a plain object with the protocol's fields only (no _raw, no rules)."""
    import types
    d = {k: x for k, x in vars(v).items() if k not in ("_raw", "rules", "knock_limit")}
    d["melds"] = [types.SimpleNamespace(**vars(m)) for m in v.melds]
    return types.SimpleNamespace(**d)


def test_determinize_from_the_fields_of_a_view():
    rng = random.Random(8)
    states = 0
    for preset, players in (("laws", 3), ("gin", 2), ("german", 4)):
        for seed in range(1, 4 if FAST else 12):
            g = okr.Game(preset, players=players, seed=seed)
            while not g.hand_over():
                v = g.view(g.to_act)
                want = okr.determinize(v, 77).digest()
                got = okr.determinize(_fields_only(v), 77, rules=g.rules).digest()
                assert got == want
                states += 1
                g.apply_legal(rng.randrange(g.legal_count()))
    assert states > 100
    with pytest.raises(TypeError):
        okr.determinize(_fields_only(okr.Game().view(0)), 1)  # no rules given


def test_determinize_from_okbot_protobuf_view():
    """The protocol's View message (what okbot's decide() receives) works as it is."""
    gen = os.path.join(BUILD, "sdk", "python", "okbot_gen")
    if not os.path.exists(os.path.join(gen, "okr_pb2.py")):
        pytest.skip("no generated okr_pb2.py (protoc missing)")
    import sys
    sys.path.insert(0, gen)
    try:
        import okr_pb2
    except ImportError:
        pytest.skip("python3-protobuf missing")
    g = okr.Game("laws", players=3, seed=4)
    rng = random.Random(2)
    for _ in range(40):
        g.apply_legal(rng.randrange(g.legal_count()))
    v = g.view(g.to_act)
    pb = okr_pb2.View(seat=v.seat, players=v.players, phase=v.phase, dealer=v.dealer,
                      turn_seat=v.turn_seat, to_act=v.to_act, stock_size=v.stock_size,
                      upcard=v.upcard, stock_locked=v.stock_locked, hand_no=v.hand_no,
                      turns=v.turns, hand=v.hand, hand_sizes=v.hand_sizes, pile=v.pile,
                      scores=v.scores, concealed=v.concealed, discarder=v.discarder,
                      turns_drawn=v.turns_drawn, melded_before=v.melded_before,
                      claim_meld=v.claim_meld, upcard_passes=v.upcard_passes)
    for m in v.melds:
        pm = pb.melds.add(owner=m.owner, type=2 if m.type == "run" else 1, lo=m.lo,
                          rank=m.rank, suit=m.suit, cards=m.cards)
        getattr(pm, "as").extend(m.as_)
    assert okr.determinize(pb, 5, rules="laws").digest() == okr.determinize(v, 5).digest()


def test_determinize_refuses_impossible_views():
    """Views that no game could show raise, never crash (run under ASan too)."""
    rng = random.Random(4)
    g = okr.Game("laws", players=3, seed=2)
    for _ in range(20):
        g.apply_legal(rng.randrange(g.legal_count()))
    base = g.view(g.to_act)
    fields = ["seat", "players", "phase", "dealer", "turn_seat", "to_act", "stock_size",
              "upcard", "hand_no", "turns", "discarder", "claim_meld", "upcard_passes"]
    refused = 0
    for i in range(400 if FAST else 3000):
        v = _fields_only(base)
        for _ in range(rng.randrange(1, 4)):
            what = rng.randrange(5)
            if what == 0:
                setattr(v, rng.choice(fields), rng.choice([0, 1, 2, 7, 8, 9, 52, 53, 255, 256, -1]))
            elif what == 1:
                v.hand = v.hand + [rng.randrange(-1, 60)]
            elif what == 2:
                v.hand_sizes = [rng.randrange(0, 200) for _ in v.hand_sizes]
            elif what == 3 and v.melds:
                m = rng.choice(v.melds)
                m.cards = m.cards[:-1] if rng.random() < 0.5 else m.cards + [rng.randrange(53)]
            else:
                v.pile = [rng.randrange(0, 53) for _ in range(rng.randrange(0, 60))]
        try:
            d = okr.determinize(v, i, rules="laws")
        except (okr.Refused, ValueError, TypeError):
            refused += 1
            continue
        assert d.check()
    assert refused > 0


def test_helpers_refuse_hands_no_pack_deals():
    """gin_best's search grows fast with the hand: more than 11 cards, or a kind twice in one
    pack, is refused at once instead of hanging."""
    for fn in (okr.gin_best, okr.gin_best_discard):
        with pytest.raises(ValueError):
            fn(list(range(52)) * 3)
        with pytest.raises(ValueError):
            fn(list(range(12)))
        with pytest.raises(ValueError):
            fn("AS AS 2S")
    with pytest.raises(ValueError):
        okr.find_melds("AS AS AS AS 2S 3S", "laws")  # laws: one pack and a Joker
    assert okr.gin_best(list(range(11)))[0] >= 0
    assert len(okr.find_melds(list(range(52)) * 3, okr.rules("laws", decks=3))) > 0
