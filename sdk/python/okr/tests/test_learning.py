"""Learning: observe() (planes over the 52 kinds and the Joker, plus scalars), the fixed action
space and its mask, and okr.env (PettingZoo AEC's shape)."""

import array
import os
import random
import subprocess
import sys

import okr
import pytest

FAST = os.environ.get("OKR_SANITIZE") == "1"
W = okr.KINDS
TABLES = [("gin", 2), ("laws", 3), ("parlett", 4), ("arlington", 5), ("german", 4)]


def walk(preset, players, seed, steps):
    """Yield (game, action) along a random game (across hands)."""
    rng = random.Random(seed)
    g = okr.Game(preset, players=players, seed=seed)
    for _ in range(steps):
        if g.over():
            return
        if g.hand_over():
            g.next_hand()
            continue
        yield g, rng.randrange(g.legal_count())


# ---- the action space and its mask ----------------------------------------------------------

@pytest.mark.parametrize("preset,players", TABLES)
def test_mask_matches_legal(preset, players):
    states = 0
    for seed in range(2 if FAST else 5):
        for g, i in walk(preset, players, seed, 300 if FAST else 1500):
            legal = g.legal()
            mask = g.action_mask()
            assert len(mask) == g.action_space == (107 if preset == "gin" else 567)
            on = [k for k, m in enumerate(mask) if m]
            acts = [g.action_of_index(k) for k in on]
            assert all(a in legal for a in acts)
            assert len(set(acts)) == len(acts)  # no two indices mean the same action
            if preset == "gin":
                # every action but the second-best arrangements of the same knock discard
                want = {(a.type, a.card if a.type in (okr.DISCARD, okr.KNOCK) else 0)
                        for a in legal}
                assert {(a.type, a.card if a.type in (okr.DISCARD, okr.KNOCK) else 0)
                        for a in acts} == want
                for k in on:
                    a = g.action_of_index(k)
                    expect = {okr.DRAW: 0, okr.TAKE: 1, okr.PASS: 2}.get(a.type)
                    if a.type == okr.DISCARD:
                        expect = 3 + a.card
                    if a.type == okr.KNOCK:
                        expect = 55 + a.card
                    assert k == expect
            else:
                assert len(acts) == min(len(legal), 55 + 512)  # all of them in real play
                for k in on:
                    a = g.action_of_index(k)
                    if a.type == okr.DRAW:
                        assert k == 0
                    elif a.type == okr.PASS:
                        assert k == 1
                    elif a.type == okr.DISCARD:
                        assert k == 2 + a.card
                    else:
                        assert k >= 55
            states += 1
            g.apply_legal(i)
    assert states > 200


def test_mask_refuses_illegal_indices():
    g = okr.Game("gin", seed=1)
    mask = g.action_mask()
    off = next(k for k, m in enumerate(mask) if not m)
    with pytest.raises(ValueError):
        g.action_of_index(off)
    with pytest.raises(IndexError):
        g.action_of_index(107)


def test_gin_knock_index_takes_the_least_deadwood_arrangement():
    found = 0
    for g, i in walk("gin", 2, 3, 20000):
        knocks = [a for a in g.legal() if a.type == okr.KNOCK]
        for card in {a.card for a in knocks}:
            a = g.action_of_index(55 + card)
            hand = g.hand(g.to_act)
            hand.remove(card)

            def deadwood(k):
                melded = [c for m in k.knock for c in m]
                return sum(okr.card_value(c) for c in hand) - sum(okr.card_value(c)
                                                                   for c in melded)
            assert deadwood(a) == min(deadwood(k) for k in knocks if k.card == card)
            found += 1
        g.apply_legal(i)
        if found > 50:
            break
    assert found > 0


# ---- observations -----------------------------------------------------------------------------

class Known:
    """A reference tracker of the cards the table saw go into each hand, from public facts
    only: the action (laid face up) and the pile as the seat saw it before."""

    def __init__(self, players):
        self.hand_no = None
        self.k = [[0] * W for _ in range(players)]

    def update(self, g, a, pile_before, event):
        if g.hand_no != self.hand_no:
            self.k = [[0] * W for _ in self.k]
            self.hand_no = g.hand_no
        k = self.k[a.seat]

        def leaves(c):
            if k[c]:
                k[c] -= 1
        if a.type in (okr.TAKE, okr.CLAIM):
            if a.how == okr.HOW_PLAIN:
                k[pile_before[-1]] += 1
                return
            for c in pile_before[:event.taken]:
                k[c] += 1
            if a.how == okr.HOW_NEW:
                top = pile_before[-1]
                for c in a.spec.cards:
                    if c == top:
                        top = None
                    else:
                        leaves(c)
            elif a.how == okr.HOW_JOKER:
                k[okr.JOKER] += 1
        elif a.type == okr.PASS:
            for c in pile_before[:event.taken]:
                k[c] += 1
        elif a.type == okr.MELD:
            for c in a.spec.cards:
                leaves(c)
        elif a.type == okr.REPLACE:  # the natural that takes the Joker's place: public
            leaves(event.card)
            k[okr.JOKER] += 1
        elif a.type in (okr.ADD, okr.DISCARD, okr.KNOCK):
            leaves(a.card)


def reference_obs(v, known, rules):
    """observe() recomputed from the seat's view and public knowledge only."""
    p, s = v.players, v.seat
    planes = [[0.0] * W for _ in range(4 + p)]
    for c in v.hand:
        planes[0][c] += 1
    for i, c in enumerate(v.pile):
        planes[1 if i == len(v.pile) - 1 else 2][c] += 1
    for m in v.melds:
        for c in m.cards:
            planes[3][c] += 1
    for j in range(1, p):  # what the tracker knows of this hand (a new hand: nothing yet)
        if known.hand_no == v.hand_no:
            planes[4 + j] = [float(x) for x in known.k[(s + j) % p]]
    for c in range(W):
        total = int(rules.jokers if c == okr.JOKER else rules.decks)
        seen = sum(planes[i][c] for i in (0, 1, 2, 3)) + sum(planes[4 + j][c] for j in range(1, p))
        planes[4][c] = float(max(total - seen, 0))
    scal = [float(v.scores[(s + j) % p]) for j in range(p)]
    scal += [float(v.hand_sizes[(s + j) % p]) for j in range(p)]
    phase = [0.0] * 8
    phase[v.phase - 1] = 1.0
    scal += [float(v.stock_size)] + phase + [float(v.knock_limit), float(v.stock_locked),
                                            float(v.turns), float(v.to_act == s)]
    return [x for pl in planes for x in pl] + scal


@pytest.mark.parametrize("preset,players", TABLES)
def test_observation_is_a_function_of_what_the_seat_may_know(preset, players):
    """observe(seat) equals a reference built from view(seat) and public facts only, so no
    other seat's concealed card (or the stock) can be in it (RULES 8.3)."""
    known = Known(players)
    rules = okr.rules(preset)
    states = known_cards = 0
    for seed in range(1 if FAST else 2):
        known = Known(players)
        for g, i in walk(preset, players, seed, 100 if FAST else 250):
            for s in (states % players, g.to_act):  # every seat in turn, and the actor
                v = g.view(s)
                got = list(g.observe(s))
                assert len(got) == g.observation_size
                assert got == reference_obs(v, known, rules)
                known_cards += sum(sum(known.k[t]) for t in range(players) if t != s)
                states += 1
            a = g.legal()[i]
            pile = list(g.pile)
            ev = g.step(a)
            known.update(g, a, pile, ev)
    assert states > 100
    if preset != "arlington":
        assert known_cards > 0  # the known-card planes were exercised


def test_observation_buffers():
    g = okr.Game("laws", players=3, seed=5)
    n = g.observation_size
    want = list(g.observe(1))
    b = bytearray(4 * n)
    assert g.observe(1, out=b) is b
    assert list(array.array("f", bytes(b))) == want
    f = array.array("f", [0.0]) * n
    g.observe(1, out=f)
    assert list(f) == want
    m = bytearray(g.action_space)
    g.action_mask(out=m)
    assert sum(m) == g.legal_count()
    with pytest.raises(ValueError):
        g.observe(1, out=bytearray(4 * n - 1))
    with pytest.raises(ValueError):
        g.observe(1, out=array.array("d", [0.0]) * n)
    with pytest.raises((TypeError, BufferError)):
        g.observe(1, out=b"read only" * 500)
    with pytest.raises(IndexError):
        g.observe(3)


def test_numpy_when_present_and_not_needed():
    try:
        import numpy as np
    except ImportError:
        np = None
    g = okr.Game("gin", seed=2)
    if np is not None:
        o = g.observe(0)
        assert isinstance(o, np.ndarray) and o.dtype == np.float32 and o.shape == (335,)
        m = g.action_mask()
        assert m.dtype == np.uint8 and int(m.sum()) == g.legal_count()
        out = np.zeros(335, dtype=np.float32)
        g.observe(0, out=out)
        assert (out == o).all()
    # without numpy the module uses array.array (numpy blocked in a child interpreter)
    code = ("import sys; sys.modules['numpy'] = None; import okr; g = okr.Game('gin', seed=2); "
            "o = g.observe(0); m = g.action_mask(); "
            "print(type(o).__name__, o.typecode, len(o), type(m).__name__, sum(m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ), check=True).stdout.split()
    assert out == ["array", "f", "335", "array", str(g.legal_count())]


# ---- the environment --------------------------------------------------------------------------

@pytest.mark.parametrize("preset,players,episode", [("gin", 2, "hand"), ("gin", 2, "game"),
                                                    ("laws", 3, "hand"), ("german", 4, "hand")])
def test_random_agent_episode_runs_to_the_end(preset, players, episode):
    env = okr.env(preset, players=players, episode=episode)
    rng = random.Random(1)
    for seed in range(1 if FAST or episode == "game" else 3):
        env.reset(seed=seed)
        assert env.agents == ["player_%d" % i for i in range(players)]
        totals = {a: 0.0 for a in env.possible_agents}
        steps = 0
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            totals[agent] += reward
            assert len(obs["observation"]) == env.observation_size()
            if term or trunc:
                action = None
            else:
                assert agent == "player_%d" % env.game.to_act
                legal = [i for i, m in enumerate(obs["action_mask"]) if m]
                assert legal and len(legal) <= env.game.legal_count()
                action = rng.choice(legal)
                for other in env.agents:  # only the acting agent has a mask
                    if other != agent:
                        assert sum(env.observe(other)["action_mask"]) == 0
            env.step(action)
            steps += 1
        assert env.agents == [] and steps > players
        g = env.game
        assert g.hand_over()
        if episode == "game":
            assert g.over()
        else:  # a hand's rewards are its scores
            assert [totals[a] for a in env.possible_agents] == list(g.hand_result().score)


def test_env_refuses_an_illegal_action():
    env = okr.env("gin")
    env.reset(seed=3)
    mask = env.action_mask()
    with pytest.raises(ValueError):
        env.step(next(i for i, m in enumerate(mask) if not m))
    with pytest.raises(okr.Refused):
        okr.env("gin", players=3)


def test_env_reset_without_a_seed_deals_a_new_game_each_time():
    # a training loop that calls reset() must not see one deal forever
    env = okr.env("gin")
    digests = set()
    for _ in range(5):
        env.reset()
        digests.add(env.game.digest())
    assert len(digests) == 5
    # a seed restarts the stream: the same seed, then the same games after it
    runs = []
    for _ in range(2):
        env.reset(seed=7)
        first = env.game.digest()
        env.reset()
        runs.append((first, env.game.digest()))
    assert runs[0] == runs[1] and runs[0][0] != runs[0][1]
    assert runs[0][0] == okr.Game("gin", seed=7).digest()
