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


class Env:
    """One table. Agents are "player_0" .. "player_{n-1}" (seat numbers). An episode is one
    hand (episode="hand", the default, as PettingZoo's gin_rummy) or a whole game
    (episode="game"). Rewards are the hand's score for each seat (RULES 7, G7), given when a
    hand ends, divided by `reward_scale`."""

    metadata = {"name": "okr_v0", "is_parallelizable": False}

    def __init__(self, rules="gin", players=2, episode="hand", reward_scale=1.0, **options):
        self._rules = _okr.Rules(rules, **options) if isinstance(rules, str) else rules
        self._rules.check(players)
        if episode not in ("hand", "game"):
            raise ValueError("episode: 'hand' or 'game'")
        self.players, self.episode, self.reward_scale = players, episode, reward_scale
        self.possible_agents = ["player_%d" % i for i in range(players)]
        self.game = None
        # where the deals of reset() without a seed come from: a fresh, unpredictable stream
        # until a seed is given, then that seed's stream (PettingZoo's reset semantics)
        self._deals = random.Random()

    # ---- spaces (sizes; no gym dependency) ----------------------------------------------
    def observation_size(self, agent=None):
        return _okr.Game(self._rules, players=self.players).observation_size

    def action_space_size(self, agent=None):
        return _okr.Game(self._rules, players=self.players).action_space

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
        a = g.action_of_index(int(action))  # ValueError if the mask has 0 there
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

    def close(self):
        self.game = None


def env(rules="gin", players=2, **kw):
    """okr.env(rules="gin", players=2, episode="hand", reward_scale=1.0, **options)."""
    return Env(rules, players, **kw)
