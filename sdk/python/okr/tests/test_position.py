"""Game.from_position / Game.position (engine: okr_game_from_position), and a determinized
game straight from what okbot's decide(view, legal, ctx) receives."""

import json
import os
import random
import types

import okr
import pytest

FAST = os.environ.get("OKR_SANITIZE") == "1"
TABLES = [("gin", 2), ("laws", 3), ("parlett", 4), ("arlington", 5), ("german", 4),
          ("laws", 2)]

GIN_HANDS = ["AS 2S 3S 7H 7D 7C KC KD QH 9S 5D", "AH 2H 3H 4H 8C 8D 8S JC JD 6S"]


def legal_texts(g):
    return [a.text for a in g.legal()]


@pytest.mark.parametrize("preset,players", TABLES)
def test_position_round_trip_over_reached_states(preset, players):
    """from_position(g.position()) is the same game: same digest (everything that decides
    the future), same legal list, and the same again after the same random actions."""
    rng = random.Random(players)
    states = 0
    for seed in range(2 if FAST else 6):
        g = okr.Game(preset, players=players, seed=seed)
        while not g.over():
            if g.hand_over():
                g.next_hand()
                continue
            p = g.position()
            if states % 100 == 0:  # the position is plain text and numbers: JSON carries it
                p = json.loads(json.dumps(p))
            h = okr.Game.from_position(**p)
            assert h.digest() == g.digest()
            assert legal_texts(h) == legal_texts(g)
            assert h.position() == p
            states += 1
            i = rng.randrange(g.legal_count())
            if states % 50 == 0:  # the rebuilt game goes on like the real one
                h.apply_legal(i)
                g2 = g.copy()
                g2.apply_legal(i)
                assert h.digest() == g2.digest()
            g.apply_legal(i)
            if states > (300 if FAST else 3000):
                break
    assert states > 100


def test_gin_puzzle_with_the_rest_of_the_stock_shuffled():
    g = okr.Game.from_position(rules="gin", hands=GIN_HANDS, pile="TC 4C", phase="play",
                               turn=0, seed=9)
    assert g.check() and g.to_act == 0 and g.phase == okr.PH_PLAY
    assert len(g.stock) == 52 - 21 - 2
    assert g.view(0).knock_limit == 10  # the upcard defaults to the pile's bottom card (G2)
    assert okr.cards_str(g.hand(0)) == okr.cards_str(sorted(okr.cards(GIN_HANDS[0])))
    same = okr.Game.from_position(rules="gin", hands=GIN_HANDS, pile="TC 4C", phase="play",
                                  turn=0, seed=9)
    other = okr.Game.from_position(rules="gin", hands=GIN_HANDS, pile="TC 4C", phase="play",
                                   turn=0, seed=10)
    assert same.stock == g.stock and other.stock != g.stock
    # an explicit stock order: the last card listed is drawn next
    rest = [k for k in range(52) if k not in okr.cards(" ".join(GIN_HANDS) + " TC 4C")]
    g = okr.Game.from_position(rules="gin", hands=GIN_HANDS, pile="TC 4C", stock=rest,
                               phase="play", upcard="4C")
    g.apply("discard 5D")
    ev = g.step("draw")
    assert ev.card == rest[-1]
    assert g.view(1).knock_limit == 4


def test_rummy_position_with_melds_in_notation():
    g = okr.Game.from_position(
        rules="laws", hands=["KH KS 9D", "4C 5C 6D"], pile="8C", turn=1, dealer=0,
        melds=[{"owner": 0, "cards": "5H 5S 2H=5D"}, (1, "9H TH JK=JH QH"),
               {"owner": 1, "cards": "QS KS AS"}],
        scores=[120, -35])
    melds = g.melds
    assert [m.type for m in melds] == ["set", "run", "run"]
    assert melds[0].as_[2] == okr.card("5C")  # a 2 in a set declares clubs (docs/engine.md)
    assert melds[1].lo == 8 and melds[2].lo == 11 and melds[2].as_[-1] == okr.card("AS")
    assert g.scores == [120, -35]
    assert g.view(1).melded_before == [True, True]
    p = g.position()
    assert p["melds"][1]["cards"] == "9H TH JK=JH QH"
    assert okr.Game.from_position(**p).digest() == g.digest()
    g.apply("draw")
    assert g.phase == okr.PH_PLAY


@pytest.mark.parametrize("change,rule", [
    (dict(hands=[GIN_HANDS[0], GIN_HANDS[1] + " AS"]), "1.2"),       # a card twice
    (dict(hands=[GIN_HANDS[0].replace(" 5D", ""), GIN_HANDS[1]]), "G4"),
    (dict(stock="KH"), "1.2"),                                        # cards missing
    (dict(melds=[(1, "TH TD TS")]), "G5"),
    (dict(phase="hand_over"), None),                                  # not a phase name
    (dict(phase=okr.PH_HAND_OVER), "4.1"),
    (dict(scores=[0, 100]), "G8"),
    (dict(to_act=1), "4.8"),
    (dict(dealer=2), "2.2"),
    (dict(phase="upcard"), "6.1"),
    (dict(phase="claim"), "6.G"),
    (dict(players=3, hands=GIN_HANDS + ["KH"]), "2.1"),
    (dict(hand_no=0), "7.7"),
    (dict(upcard="ZZ"), None),
])
def test_position_refusals_name_the_rule(change, rule):
    kw = dict(rules="gin", hands=GIN_HANDS, pile="TC 4C", phase="play", turn=0)
    kw.update(change)
    if rule is None:
        with pytest.raises(ValueError):
            okr.Game.from_position(**kw)
        return
    with pytest.raises(okr.Refused) as e:
        okr.Game.from_position(**kw)
    assert e.value.rule == rule, str(e.value)


def test_rummy_refusals():
    base = dict(rules="laws", hands=["KH KS 9D", "4C 5C 6D"], pile="8C", turn=1)
    for melds, rule in (([(0, "4H 6H 5H")], "3.3"), ([(0, "2C=4H 2D=5H 2H=6H")], "3.6"),
                        ([(0, "4H 4S 5H")], "3.3"), ([(5, "4H 5H 6H")], "2.2")):
        with pytest.raises(okr.Refused) as e:
            okr.Game.from_position(melds=melds, **base)
        assert e.value.rule == rule, (melds, str(e.value))
    with pytest.raises(okr.Refused) as e:
        okr.Game.from_position(**dict(base, hands=["", "4C 5C 6D"]))
    assert e.value.rule == "4.6"


def test_garbage_positions_never_crash():
    rng = random.Random(5)
    g = okr.Game("laws", players=3, seed=1)
    for _ in range(30):
        g.apply_legal(rng.randrange(g.legal_count()))
    base = g.position()
    junk = [-1, 0, 1, 7, 52, 53, 255, 256, 1 << 40, "XX", None, [], "AS AS AS"]
    refused = 0
    for i in range(300 if FAST else 2000):
        p = dict(base)
        for _ in range(rng.randrange(1, 3)):
            key = rng.choice(sorted(k for k in p if k != "rules"))
            p[key] = rng.choice(junk)
        try:
            h = okr.Game.from_position(**p)
        except (okr.Refused, ValueError, TypeError, KeyError, IndexError, OverflowError):
            refused += 1
            continue
        assert h.check()
    assert refused > 0


# ---- a determinized game from what okbot's decide() receives -----------------------------------

def okbot_ctx(rules):
    """What okbot's ctx holds after Hello: ctx.hello.rules.preset and ctx.rules (option texts)."""
    hello = types.SimpleNamespace(rules=types.SimpleNamespace(preset=rules.preset))
    return types.SimpleNamespace(hello=hello, rules=rules.options())


def protocol_view(v):
    """The view as okbot gets it: the protocol's fields only (no rules, no engine internals)."""
    d = {k: x for k, x in vars(v).items() if k not in ("_raw", "rules", "knock_limit")}
    d["melds"] = [types.SimpleNamespace(**vars(m)) for m in v.melds]
    return types.SimpleNamespace(**d)


def test_determinize_from_okbot_view_legal_and_ctx_in_one_call():
    rng = random.Random(3)
    checked = 0
    for preset, players, opts in (("laws", 3, {"qs_discard": "any"}), ("gin", 2, {}),
                                  ("german", 4, {})):
        rules = okr.rules(preset, **opts)
        g = okr.Game(rules, players=players, seed=11)
        while not g.hand_over() and checked < 400:
            view = protocol_view(g.view(g.to_act))
            legal = [types.SimpleNamespace(text=a.text) for a in g.legal()]
            world = okr.determinize(view, rng, rules=okbot_ctx(rules), legal=legal)
            assert legal_texts(world) == legal_texts(g)
            assert world.rules == rules
            checked += 1
            g.apply_legal(rng.randrange(g.legal_count()))
    assert checked > 100
    # a legal list from other rules is caught, not silently mis-indexed
    g = okr.Game("laws", players=3, seed=2)
    legal = [types.SimpleNamespace(text=a.text) for a in g.legal()][:-1]
    with pytest.raises(ValueError):
        okr.determinize(protocol_view(g.view(0)), 1, rules=okbot_ctx(g.rules), legal=legal)
    assert okr.rules_from(okbot_ctx(g.rules)) == g.rules
