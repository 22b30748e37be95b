"""Issue 25 item 4: one integer convention per call (apply_legal / apply_id, and apply(int)
never silently the wrong kind), the environment's sizes and spaces, state() and render(), the
known-card planes of a determinized world, and the same observation in the arena (okr.Observer,
okbot.observation) as in training (Game.observe)."""

import os
import random
import sys
import types
import warnings

import okr
import pytest

FAST = os.environ.get("OKR_SANITIZE") == "1"
TABLES = [("gin", 2), ("laws", 3), ("laws", 4), ("parlett", 5), ("arlington", 3),
          ("german", 4)]
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))


def test_gin_first_decision_apply_of_an_action_id_is_not_silent():
    g = okr.Game("gin", seed=1)
    assert [a.name for a in g.legal()] == ["take", "pass"]
    mask = list(g.action_mask())
    assert mask[1] == 1 and mask[2] == 1  # id 1 take, id 2 pass
    with pytest.warns(okr.AmbiguousIndexWarning, match="take"):
        g.copy().apply(1)  # legal()[1] is pass; as an id, 1 is take: said out loud
    with pytest.raises(okr.IndexKindError, match="apply_id"):
        g.copy().apply(2)  # only an action id (pass): an error, not a move
    with pytest.raises(IndexError):
        g.copy().apply(2)  # still an IndexError for old code
    with pytest.raises(IndexError):
        g.copy().apply(50)  # neither
    a, b = g.copy(), g.copy()
    a.apply_id(1)
    b.apply_legal(0)
    assert a.digest() == b.digest()  # both took
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g.copy().apply(0)  # take either way: no warning
        g.copy().apply_legal(1)


def test_conversions_both_ways_over_random_games():
    for preset, players in TABLES:
        rng = random.Random(players)
        g = okr.Game(preset, players=players, seed=5)
        for _ in range(300 if not FAST else 60):
            if g.over():
                break
            if g.hand_over():
                g.next_hand()
                continue
            mask = list(g.action_mask())
            ids = [i for i, m in enumerate(mask) if m]
            for a in ids:
                i = g.id_to_legal(a)
                assert g.legal_to_id(i) == a
                assert g.legal()[i] == g.action_of_id(a) == g.action_of_index(a)
            for i in range(g.legal_count()):
                a = g.legal_to_id(i)
                assert a is None or mask[a]
            bad = next((i for i, m in enumerate(mask) if not m), None)
            if bad is not None:
                with pytest.raises(ValueError):
                    g.apply_id(bad)
            with pytest.raises(IndexError):
                g.apply_legal(g.legal_count())
            g.apply_id(ids[rng.randrange(len(ids))])


def test_env_sizes_spaces_state_render():
    for preset, players in TABLES:
        e = okr.env(preset, players=players)
        g = okr.Game(preset, players=players)
        assert e.observation_size == g.observation_size == e.observation_size()
        assert e.action_space_size == g.action_space == e.action_space_size()
        assert e.observation_size == 53 * (players + 4) + 2 * players + 13
        assert e.action_space_size == (107 if preset == "gin" else 567)
        assert e.max_num_agents == players and e.num_agents == 0
        sp = e.observation_space("player_0")
        assert sp["observation"].shape == (e.observation_size,)
        assert sp["observation"].dtype == "float32"
        assert sp["action_mask"].shape == (e.action_space_size,)
        assert e.action_space("player_0").n == e.action_space_size
        e.reset(seed=3)
        assert e.num_agents == players and e.possible_agents == e.agents
        rng = random.Random(1)
        for n, agent in enumerate(e.agent_iter()):
            obs, _, term, trunc, _ = e.last()
            assert sp.contains(obs)
            st = e.state()
            assert len(st) == e.state_size and e.state_space.contains(st)
            assert sum(st[:53 * (players + 1)]) == e.game.rules.pack_size - len(
                e.game.pile) - sum(len(m.cards) for m in e.game.melds)
            if n < 3:
                assert "player_0" in e.render()
            e.step(None if term or trunc else
                   e.action_space(agent).sample(mask=obs["action_mask"], rng=rng))
            if n > 200:
                break


def _known_game(preset, players, seed):
    """A game played at random until some seat holds a card the table saw it take."""
    rng = random.Random(seed)
    g = okr.Game(preset, players=players, seed=seed)
    for _ in range(2000):
        if g.hand_over():
            if g.over():
                return None
            g.next_hand()
            continue
        if any(k for s, k in enumerate(g.known()) if s != g.to_act):
            return g
        g.apply_legal(rng.randrange(g.legal_count()))
    return None


def test_determinized_world_keeps_the_known_planes():
    found = 0
    for preset, players in TABLES:
        for seed in range(12):
            g = _known_game(preset, players, seed)
            if g is None:
                continue
            seat = g.to_act
            known = {s: k for s, k in enumerate(g.known()) if s != seat and k}
            w = okr.determinize(g.view(seat), 7, known=known)
            a, b = list(w.observe(seat)), list(g.observe(seat))
            planes = slice(53 * 5, 53 * (players + 4))
            assert any(a[planes]), (preset, seed)  # not empty any more
            assert a == b, (preset, seed)  # the world's observation is the real one's
            found += 1
    assert found >= 10


def _arena_walk(preset, players, seed, steps, feed, check):
    """A random game; each seat follows it as an arena bot does: feed(seat, events) with its
    redacted events, check(g, seat) at each of its decisions (its view)."""
    rng = random.Random(seed)
    g = okr.Game(preset, players=players, seed=seed)
    for _ in range(steps):
        if g.hand_over():
            for s in range(players):
                feed(s, g.events(s))
            if g.over():
                return
            g.next_hand()
            continue
        seat = g.to_act
        feed(seat, g.events(seat))
        check(g, seat)
        g.apply_legal(rng.randrange(g.legal_count()))


def test_observer_equals_game_observe_in_every_preset():
    n = [0, 0]
    for preset, players in TABLES:
        for seed in range(3 if FAST else 8):
            obs = [okr.Observer(preset) for _ in range(players)]

            def check(g, seat):
                ob = obs[seat]
                x = ob.observe(g.view(seat))
                assert list(x) == list(g.observe(seat)), (preset, seed)
                kn = g.known()
                assert ob.known == {s: kn[s] for s in range(g.players) if s != seat and kn[s]}
                n[0] += 1
                n[1] += bool(ob.known)

            _arena_walk(preset, players, seed, 400 if FAST else 1500,
                        lambda s, evs: obs[s].events(evs), check)
    assert n[0] > 1000 and n[1] > 50  # known cards were there to get right


def test_okbot_observation_equals_env_observation():
    sys.path.insert(0, os.path.join(REPO, "sdk", "python"))
    from okbot.observation import Observation

    for preset, players in TABLES:
        g0 = okr.Game(preset, players=players)
        ctx = types.SimpleNamespace(
            hello=types.SimpleNamespace(rules=types.SimpleNamespace(preset=preset)),
            rules=g0.rules.options())
        bots = [Observation() for _ in range(players)]

        def check(g, seat):
            view, legal = g.view(seat), g.legal()
            bot = bots[seat]
            assert list(bot.observe(view, ctx)) == list(g.observe(seat))
            mask = list(bot.action_mask(view, legal, ctx))
            assert mask == list(g.action_mask())
            a = next(i for i, m in enumerate(mask) if m)
            assert legal[bot.legal_index(view, legal, ctx, a)] == g.action_of_id(a)

        _arena_walk(preset, players, 11, 300 if FAST else 800,
                    lambda s, evs: bots[s].on_events(evs, ctx), check)
