"""g.events(seat): what happened since the seat's last look, in the protocol's Event shape,
redacted for that seat (RULES 8.3: another seat's stock draw is hidden, a pile take is public)."""

import os
import random

import okr
import pytest

FAST = os.environ.get("OKR_SANITIZE") == "1"
HIDDEN = 255
PUBLIC = {okr.TAKE, okr.MELD, okr.ADD, okr.REPLACE, okr.DISCARD, okr.CLAIM, okr.KNOCK, okr.PASS}
FIELDS = ("seq", "seat", "type", "how", "meld", "taken", "hand_size", "ended")


@pytest.mark.parametrize("preset,players", [("gin", 2), ("laws", 3), ("parlett", 4),
                                            ("arlington", 5), ("german", 4)])
def test_events_reveal_nothing_concealed_and_miss_nothing(preset, players):
    rng = random.Random(players * 7)
    checked = draws_hidden = takes_seen = 0
    for seed in range(2 if FAST else 4):
        g = okr.Game(preset, players=players, seed=seed)
        truth = []  # every event as the engine reports it to the table's owner
        seen = [[] for _ in range(players)]
        while not g.over():
            if g.hand_over():
                g.next_hand()
                continue
            truth.append(g.step_legal(rng.randrange(g.legal_count())))
            for s in range(players):
                if rng.random() < 0.3:  # seats look at different moments
                    seen[s].extend(g.events(s))
            if len(truth) > (400 if FAST else 1500):
                break
        for s in range(players):
            seen[s].extend(g.events(s))
            assert [e.seq for e in seen[s]] == [e.seq for e in truth]  # nothing lost or twice
            for e, t in zip(seen[s], truth):
                assert all(getattr(e, f) == getattr(t, f) for f in FIELDS)
                if t.type == okr.DRAW and t.seat != s:  # another seat's stock card
                    assert e.card == HIDDEN and e.text == "draw"
                    draws_hidden += 1
                else:
                    assert e.card == t.card
                    assert e.card == HIDDEN or e.seat == s or e.type in PUBLIC
                if t.type == okr.TAKE and t.seat != s:
                    assert e.card != HIDDEN  # a pile take is public
                    takes_seen += 1
                checked += 1
    assert checked > 1000 and draws_hidden > 100 and takes_seen > 0


def test_events_since_a_seq_and_copies():
    g = okr.Game("gin", seed=4)
    rng = random.Random(1)
    for _ in range(10):
        g.apply_legal(rng.randrange(g.legal_count()))
    first = g.events(0)
    assert [e.seq for e in first] == list(range(1, 11))
    assert g.events(0) == []                         # nothing new since the last look
    assert [e.seq for e in g.events(0, since=7)] == [8, 9, 10]
    assert g.events(0) == []                         # since= does not move the mark
    assert len(g.events(1)) == 10                    # each seat has its own mark
    c = g.copy()
    assert c.events(0) == []                         # a copy's log starts at the copy
    c.apply(0)
    assert [e.seq for e in c.events(0)] == [11]
    assert g.events(0) == []                         # the original did not move
    texts = {a.text for a in okr.Game("gin", seed=4).legal()}
    assert first[0].text in texts
    with pytest.raises(IndexError):
        g.events(2)
