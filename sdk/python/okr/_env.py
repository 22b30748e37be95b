"""okr.env(...): a learning environment with the shape of PettingZoo's AEC API, without
depending on PettingZoo (docs/python.md "Learning").

    env = okr.env("gin")
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = random.choice([i for i, m in enumerate(obs["action_mask"]) if m])
        env.step(action)
"""

import random

from . import _okr
from . import spaces as _spaces


class _Size(int):
    """An int that may also be called, so env.observation_size (the documented attribute) and
    env.observation_size(agent) (the old method) both give the size."""

    def __call__(self, agent=None):
        return int(self)


PHASES = ("upcard", "gin_upcard", "draw", "claim", "claim_meld", "play", "hand_over",
          "game_over")


class Env:
    """One table. Agents are "player_0" .. "player_{n-1}" (seat numbers). An episode is one
    hand (episode="hand", the default, as PettingZoo's gin_rummy) or a whole game
    (episode="game"). Rewards are the hand's score for each seat (RULES 7, G7), given when a
    hand ends, divided by `reward_scale`."""

    metadata = {"name": "okr_v0", "is_parallelizable": False, "render_modes": ["ansi", "human"]}

    def __init__(self, rules="gin", players=2, episode="hand", reward_scale=1.0,
                 render_mode=None, **options):
        self._rules = _okr.Rules(rules, **options) if isinstance(rules, str) else rules
        self._rules.check(players)
        if episode not in ("hand", "game"):
            raise ValueError("episode: 'hand' or 'game'")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError("render_mode: None, 'ansi' or 'human'")
        self.players, self.episode, self.reward_scale = players, episode, reward_scale
        self.render_mode = render_mode
        self._name = rules if isinstance(rules, str) else self._rules.family
        self.possible_agents = ["player_%d" % i for i in range(players)]
        self.agents = []
        self.game = None
        # where the deals of reset() without a seed come from: a fresh, unpredictable stream
        # until a seed is given, then that seed's stream (PettingZoo's reset semantics)
        self._deals = random.Random()
        probe = _okr.Game(self._rules, players=players)
        #: floats in one observation (Game.observe): 53 (players + 4) + 2 players + 13
        self.observation_size = _Size(probe.observation_size)
        #: ids in the fixed action space (action_mask(), step()): gin 107, rummy 567
        self.action_space_size = _Size(probe.action_space)
        #: floats in one state(): every hand and the stock as planes, then observe(0)
        self.state_size = 53 * (players + 1) + probe.observation_size
        self._obs_space = _spaces.Dict({
            "observation": _spaces.Box(*self._obs_bounds(), shape=(self.observation_size,),
                                       dtype="float32"),
            "action_mask": _spaces.Box(0, 1, shape=(self.action_space_size,), dtype="uint8")})
        self._act_space = _spaces.Discrete(self.action_space_size)
        hi = self._obs_space["observation"].high
        self.state_space = _spaces.Box(
            [0.0] * (53 * (players + 1)) + list(self._obs_space["observation"].low),
            list(hi[:53]) * (players + 1) + list(hi), shape=(self.state_size,), dtype="float32")

    # ---- spaces (no gym dependency: okr.spaces) -------------------------------------------
    @property
    def num_agents(self):
        """Agents still in the episode (PettingZoo): players until the episode ends."""
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    def _obs_bounds(self):
        opts = self._rules.options()
        decks, jokers = float(opts["decks"]), float(opts["jokers"])
        plane = [decks] * 52 + [jokers]
        p, pack, inf = self.players, float(self._rules.pack_size), float("inf")
        planes = 4 + p  # hand, top, buried, melds, unknown, the others' known cards
        low = [0.0] * (53 * planes) + [-inf] * p + [0.0] * (p + 13)
        high = (plane * planes + [inf] * p + [pack] * p + [pack] + [1.0] * 8 + [10.0, 1.0, inf,
                                                                               1.0])
        return low, high

    def observation_space(self, agent=None):
        """Dict(observation=Box(float32, observation_size), action_mask=Box(uint8, action
        space size)): what observe(agent) returns. The same for every agent."""
        return self._obs_space

    def action_space(self, agent=None):
        """Discrete(action_space_size): the ids step() takes. The same for every agent."""
        return self._act_space

    # ---- the AEC loop ---------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        """A new episode. reset(seed=S) deals game seed S and restarts the stream of deals;
        reset() deals the stream's next game, so a training loop sees a new deal every time."""
        if seed is not None:
            self._deals.seed(seed)
            deal = seed
        else:
            deal = self._deals.getrandbits(63)
        self.game = _okr.Game(self._rules, players=self.players, seed=deal)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._rewarded = False
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_act]

    def _seat(self, agent):
        return self.possible_agents.index(agent)

    def observe(self, agent):
        """{"observation": float32 planes and scalars, "action_mask": uint8 over the fixed
        action space} for that agent; the mask is all zeros unless the agent is to act."""
        g = self.game
        seat = self._seat(agent)
        mask = g.action_mask()
        if seat != g.to_act or g.hand_over() or self.terminations[agent]:
            for i in range(len(mask)):
                mask[i] = 0
        return {"observation": g.observe(seat), "action_mask": mask}

    def action_mask(self, agent=None):
        return self.observe(agent or self.agent_selection)["action_mask"]

    def last(self, observe=True):
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter=2 ** 63):
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError("step: %s is done; step(None) removes it" % agent)
            self.agents.remove(agent)
            del self._cumulative_rewards[agent]
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        g = self.game
        a = g.action_of_id(action)  # an action id; ValueError if the mask has 0 there
        self._cumulative_rewards[agent] = 0.0
        g.apply(a)
        if not g.hand_over():  # the common step: no reward, the next seat to act
            if self._rewarded:
                self.rewards = dict.fromkeys(self.agents, 0.0)
                self._rewarded = False
            self.agent_selection = self.possible_agents[g.to_act]
            return
        self._rewarded = True
        self.rewards = dict.fromkeys(self.agents, 0.0)
        res = g.hand_result()
        for x in self.agents:
            self.rewards[x] = res.score[self._seat(x)] / self.reward_scale
        self.infos = {x: {"hand_result": res} for x in self.agents}
        if self.episode == "hand" or g.over():
            if g.over():
                for x in self.agents:
                    self.infos[x]["game_result"] = g.game_result()
            self.terminations = {x: True for x in self.agents}
        else:
            g.next_hand()
        for x in self.agents:
            self._cumulative_rewards[x] += self.rewards[x]
        if any(self.terminations.values()):
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[g.to_act]

    def state(self):
        """The whole truth, for centralized training only (a critic, never a policy that plays
        in the arena): per seat 0..players-1 its hand, then the stock, as planes of 53 counts,
        then observe(seat 0): state_size float32 (numpy if installed, else array('f')). The
        stock's order is not in it."""
        g = self.game
        if g is None:
            raise RuntimeError("state: reset() first")
        vals = []
        for seat in range(self.players):
            vals.extend(self._plane(g.hand(seat)))
        vals.extend(self._plane(g.stock))
        vals.extend(g.observe(0))
        if hasattr(g.observe(0), "dtype"):  # numpy, as observe() gives it
            import numpy
            return numpy.array(vals, dtype="float32")
        import array
        return array.array("f", vals)

    @staticmethod
    def _plane(cards):
        p = [0.0] * 53
        for c in cards:
            p[c] += 1
        return p

    def render(self):
        """The table as text (the whole truth: every hand), returned; printed too with
        render_mode="human"."""
        g = self.game
        if g is None:
            return "okr env: reset() first"
        lines = ["%s, hand %d, %s, seat %d to act, stock %d, scores %s" % (
            self._name, g.hand_no, PHASES[g.phase - 1]
            if 1 <= g.phase <= 8 else g.phase, g.to_act, len(g.stock), list(g.scores))]
        lines.append("pile: %s" % (_okr.cards_str(g.pile) or "-"))
        for m in g.melds:
            lines.append("meld of seat %d: %s" % (m.owner, _okr.cards_str(m.cards)))
        for seat in range(self.players):
            lines.append("%s%s: %s" % (self.possible_agents[seat],
                                       " *" if seat == g.to_act and not g.hand_over() else "",
                                       _okr.cards_str(g.hand(seat))))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
        return text

    def close(self):
        self.game = None



def env(rules="gin", players=2, **kw):
    """okr.env(rules="gin", players=2, episode="hand", reward_scale=1.0, render_mode=None,
    **options)."""
    return Env(rules, players, **kw)
