#!/usr/bin/env python3
"""ismcts_bot.py - information-set Monte Carlo tree search (SO-ISMCTS) in Python, on the okr
module (the project's C engine). Plays gin and every rummy preset, under the arena's clocks.

    arena match --rules gin --bot 'python3 bots/ismcts/ismcts_bot.py' --bot build/bots/greedy_bot

Options: --seed S (the search's random numbers; default 1), --ms M (think at most M ms per
decision, below what the clock allows), --c C (exploration constant, default 0.7),
--horizon H (simulated actions before the estimate; default 12 in gin, 8 per seat in rummy),
--bias B (weight of the policy's advice in selection, default 1; 0: plain UCB).
How it works, step by step: bots/ismcts/README.md and docs/python.md ("ISMCTS").
"""
import math
import os
import random
import sys
import time

# The SDK and the module next to this file, for a run from a checkout; in the arena's jail
# PYTHONPATH already names them (build/python for okr, sdk/python for okbot).
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.join(_HERE, "..", "..", "sdk", "python"))
sys.path.append(os.path.join(_HERE, "..", "..", "build", "python"))
import okbot  # noqa: E402
import okr  # noqa: E402


# ---- The simulation policy ---------------------------------------------------------------
# Random playouts say little in these games: a random gin player almost never knocks, so most
# simulated hands end drawn and every move looks alike. This policy plays like a beginner who
# knows the rules, from the acting seat's own hand (in a simulation the whole world is known,
# but each seat here looks only at its own cards and the table):
#   gin    knock when allowed; take the top discard when the best arrangement gains by it; else
#          draw; discard what okr.gin_best_discard names.
#   rummy  lay melds and add to them first, the most valuable first and sparing wild cards;
#          take the pile when the meld it makes outweighs half the rest of the pile's debit;
#          discard a costly card without partners in hand (okr.card_value), never a wild one.
# One time in ten it plays a random legal action, so that the simulations do not all follow
# one line.
# (One file, because the jail shows a bot its script alone: a second module would need
# `--files bots/ismcts`.)

EPSILON = 0.1
VALUES = [0] * 53  # each kind's value under the match's rules (okr.card_value), set by Search


def policy_action(g, rules, acts):
    """The index in acts (g.legal()) of the action the policy prefers."""
    if len(acts) == 1:
        return 0
    if rules.family == "gin":
        return _gin(g, rules, acts)
    return _rummy(g, rules, acts)


def rollout_action(g, rules, rng):
    """The policy's action, or one time in ten (EPSILON) a random one: an index."""
    acts = g.legal()
    if rng.random() < EPSILON:
        return rng.randrange(len(acts))
    return policy_action(g, rules, acts)


def _gin(g, rules, acts):
    hand = g.hand(g.to_act)
    take = pas = draw = None
    knocks = []
    for i, a in enumerate(acts):
        t = a.type
        if t == okr.TAKE:
            take = i
        elif t == okr.DRAW:
            draw = i
        elif t == okr.PASS:
            pas = i
        elif t == okr.KNOCK:
            knocks.append(i)
    if take is not None:
        top = g.pile[-1]
        now, _ = okr.gin_best(hand, rules=rules)
        card, after, _ = okr.gin_best_discard(hand + [top], rules=rules)
        if card != top and after < now:
            return take
        other = draw if draw is not None else pas
        return other if other is not None else take
    if len(hand) <= int(rules.hand_size):  # nothing to discard here (claims and the like)
        return 0
    card, _, _ = okr.gin_best_discard(hand, rules=rules)
    for i in knocks:
        if acts[i].card == card:
            return i
    for i, a in enumerate(acts):
        if a.type == okr.DISCARD and a.card == card:
            return i
    # the card just taken may not go back (G4): the costliest other discard
    best, best_v = 0, -1
    for i, a in enumerate(acts):
        if a.type in (okr.DISCARD, okr.KNOCK):
            v = okr.card_value(a.card, rules=rules)
            if v > best_v:
                best, best_v = i, v
    return best


def _partners(hand, c):
    """Cards of the hand that could meld with c: the same rank, or the same suit within two
    ranks (a pair or a near-run worth keeping)."""
    n = 0
    for h in hand:
        if h == okr.JOKER or h == c:
            continue
        if h % 13 == c % 13 or (h // 13 == c // 13 and abs(h % 13 - c % 13) <= 2):
            n += 1
    return n


def _wilds(spec, rules):
    """Wild cards in a new meld (a card that stands for another). Melding them at once wastes
    them: on the same 20 laws deals, the policy alone went from -83 to -33 / -52 points per
    deal against greedy (two runs) when it spared them."""
    return sum(1 for c, x in zip(spec.cards, spec.as_) if c != x)


def _rummy(g, rules, acts):
    best, best_score = 0, None
    hand = None
    for i, a in enumerate(acts):
        t = a.type
        if t == okr.MELD:  # the most valuable meld first (RULES 7.1), sparing wild cards
            score = 1000 + sum(VALUES[c] for c in a.spec.as_) - 40 * _wilds(a.spec, rules)
        elif t == okr.ADD:
            score = 900 + VALUES[a.as_]
        elif t == okr.TAKE:
            # the pile comes whole (RULES 4.3): worth it when the meld it makes outweighs
            # half the debit of the other cards it brings
            gain = 0
            if a.how == okr.HOW_NEW:
                gain = sum(VALUES[c] for c in a.spec.as_) - 40 * _wilds(a.spec, rules)
            elif a.how in (okr.HOW_ADD, okr.HOW_JOKER):
                gain = VALUES[g.pile[-1]]
            rest = sum(VALUES[c] for c in g.pile[:-1])
            score = 800 if a.how != okr.HOW_PLAIN and gain > rest / 2 else 0
        elif t == okr.CLAIM:
            score = 700
        elif t == okr.DISCARD:
            # the costliest card in hand goes; a wild card (the Joker, wild twos) stays
            c = a.card
            wild = c == okr.JOKER or (rules.wild_twos == "1" and c % 13 == 1)
            if hand is None:
                hand = g.hand(g.to_act)
            score = -1000 if wild else VALUES[c] - 8 * _partners(hand, c)
        elif t == okr.DRAW:
            score = 100
        elif t == okr.PASS:
            score = 50
        else:  # REPLACE: a Joker back in hand costs much if the hand ends
            score = -500
        if best_score is None or score > best_score:
            best, best_score = i, score
    return best


class Node:
    """One node of the tree: the actions played from the root so far, whoever played them,
    in every determinisation where they were legal. `seat` chose the action leading here;
    `reward` sums that seat's results, so the parent compares its children from the point of
    view of the seat choosing among them."""

    __slots__ = ("seat", "children", "visits", "avail", "reward", "pref")

    def __init__(self, seat):
        self.seat = seat
        self.children = {}  # okr.Action -> Node
        self.pref = None  # the policy's action here, in the first world that came by
        self.visits = 0
        self.avail = 0  # iterations in which the action leading here was legal
        self.reward = 0.0


def field_rewards(s, scale):
    """Each seat's value minus the mean of the others' (the arena's "difference vs the
    field"), scaled into [-1, 1]."""
    n = len(s)
    total = sum(s)
    return [math.tanh((x - (total - x) / (n - 1)) / scale) for x in s]


def estimate(g, rules, values):
    """What each seat would score if the hand stopped now, for a simulation cut short:
    gin, minus the deadwood of its best arrangement (G5); rummy, its melds' credit minus
    its hand's debit (RULES 7.1), both from the engine's card values."""
    n = g.players
    if rules.family == "gin":
        return [-okr.gin_best(g.hand(s), rules=rules)[0] for s in range(n)]
    v = [0] * n
    for m in g.melds:
        v[m.owner] += sum(values[c] for c in m.as_)
    for s in range(n):
        v[s] -= sum(values[c] for c in g.hand(s))
    return v


class Search:
    def __init__(self, rules, rng, players, c=0.7, horizon=None, bias=1.0):
        self.rules = rules
        self.rng = rng
        self.c = c
        self.bias = bias  # weight of the policy's advice in selection, fading with visits
        # simulations stop after two or three turns of each seat and are estimated there:
        # Python's budget buys more, shorter simulations, and a whole rummy hand is long
        self.horizon = horizon or (12 if rules.family == "gin" else 8 * players)
        self.values = VALUES
        for k in range(okr.KINDS):
            try:
                VALUES[k] = okr.card_value(k, rules=rules)
            except ValueError:  # the Joker, in gin
                VALUES[k] = 0
        # a typical hand's swing: gin hands score tens, rummy hands around a hundred
        self.scale = 40.0 if rules.family == "gin" else 100.0
        self.iterations = 0

    def world(self, view, known, tries=60):
        """1. determinise: a world the seat cannot tell from the real one (RULES 8.3). In gin
        the cards an opponent took from the pile are known to be in its hand (until it lets
        them go): okr.determinize deals from the view alone, so worlds are drawn until one
        agrees (rejection sampling), keeping the closest if none does within `tries`."""
        need = sum(len(cs) for cs in known.values())
        best, best_hits = None, -1
        for _ in range(tries if need else 1):
            g = okr.determinize(view, self.rng, rules=self.rules)
            if not need:
                return g
            hits = 0
            for seat, cards in known.items():
                held = g.hand(seat)
                hits += sum(1 for c in cards if c in held)
            if hits == need:
                return g
            if hits > best_hits:
                best, best_hits = g, hits
        return best

    def run(self, view, deadline, known=None):
        """Search from `view` until time.monotonic() passes `deadline`; the root's children
        and the legal list of the first determinisation (in the arena's order)."""
        root = Node(view.seat)
        known = known or {}
        first = self.world(view, known)
        legal = first.legal()
        self.iterations = 0
        world = first
        while True:
            self.iterate(root, world)
            self.iterations += 1
            if time.monotonic() >= deadline:
                break
            world = self.world(view, known)
        return root, legal

    def iterate(self, root, g):
        rng = self.rng
        node, path = root, [root]
        # 2. select and 3. expand, inside the information set's tree
        while not g.hand_over():
            acts = g.legal()
            untried = []
            for a in acts:
                child = node.children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if node.pref is None:
                node.pref = acts[policy_action(g, self.rules, acts)]
            if untried:
                # the policy's move first, then the others in random order
                a = node.pref if node.pref in untried else untried[rng.randrange(len(untried))]
                child = Node(g.to_act)
                child.avail = 1
                node.children[a] = child
                g.apply(a)
                path.append(child)
                break
            a = self.select(node, acts)
            node = node.children[a]
            g.apply(a)
            path.append(node)
        # 4. simulate with the cheap policy, up to the horizon; then estimate
        steps = 0
        while not g.hand_over() and steps < self.horizon:
            g.apply(rollout_action(g, self.rules, rng))
            steps += 1
        if g.hand_over():  # okr's own scoring of the hand
            rewards = field_rewards(g.hand_result().score, self.scale)
        else:
            rewards = field_rewards(estimate(g, self.rules, self.values), self.scale)
        # 5. backpropagate: each node scores for the seat that chose it
        for n in path:
            n.visits += 1
            n.reward += rewards[n.seat]

    def select(self, node, acts):
        """UCB1 over the children available in this determinisation, with the availability
        count in place of the parent's visits (Cowling, Powley and Whitehouse 2012)."""
        best, best_u = None, -1e18
        c = self.c
        pref, bias = node.pref, self.bias
        for a in acts:
            ch = node.children[a]
            u = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
            if a == pref:  # progressive bias: the policy's advice, until the visits speak
                u += bias / (ch.visits + 1)
            if u > best_u:
                best, best_u = a, u
        return best


def budget_ms(ctx, cap):
    """Thinking time for this decision: most of the free decision time, never the bank, with
    a safety margin for the answer's trip and Python's own pauses."""
    d = ctx.decision
    free = min(d.time_ms, ctx.remaining_ms())
    ms = free * 0.75 - 25 - ctx.elapsed_ms()
    if cap is not None:
        ms = min(ms, cap)
    return max(ms, 1.0)


def main(argv):
    seed, cap, c, horizon, bias = 1, None, 0.7, None, 1.0
    args = list(argv)
    while args:
        flag = args.pop(0)
        if flag == "--seed" and args:
            seed = int(args.pop(0))
        elif flag == "--ms" and args:
            cap = float(args.pop(0))
        elif flag == "--c" and args:
            c = float(args.pop(0))
        elif flag == "--horizon" and args:
            horizon = int(args.pop(0))
        elif flag == "--bias" and args:
            bias = float(args.pop(0))
        else:
            print("usage: ismcts_bot.py [--seed S] [--ms M] [--c C] [--horizon H] [--bias B]",
                  file=sys.stderr)
            return 2
    rng = random.Random(seed)
    state = {"rules": None}

    def on_hello(hello, ctx):
        # the whole rule set of the match, from the Hello: the preset and every option
        state["rules"] = okr.rules(hello.rules.preset, **ctx.rules)

    def forget(message, ctx):
        state["known"] = {}

    def on_events(events, ctx):
        """Gin: remember which cards each opponent took from the pile, until it discards them
        (public: every seat saw them taken)."""
        if state["rules"] is None or state["rules"].family != "gin":
            return
        known = state.setdefault("known", {})
        for e in events:
            if e.seat == ctx.seat or e.card >= okr.JOKER:
                continue
            if e.type == okr.TAKE:
                known.setdefault(e.seat, set()).add(e.card)
            elif e.type in (okr.DISCARD, okr.KNOCK) and e.seat in known:
                known[e.seat].discard(e.card)

    def decide(view, legal, ctx):
        if len(legal) == 1:
            return 0
        deadline = time.monotonic() + budget_ms(ctx, cap) / 1000.0
        search = Search(state["rules"], rng, view.players, c=c, horizon=horizon, bias=bias)
        root, acts = search.run(view, deadline, state.get("known"))
        if len(acts) != len(legal):  # cannot happen: determinize keeps the legal list
            ctx.log("ismcts: %d legal actions in the world, %d from the arena" %
                    (len(acts), len(legal)))
            return 0
        ctx.log("ismcts: %d iterations in %.0f ms, %d actions, %d opponents' cards known" %
                (search.iterations, ctx.elapsed_ms(), len(acts),
                 sum(len(c) for c in state.get("known", {}).values())))
        best = max(range(len(acts)),
                   key=lambda i: root.children[acts[i]].visits if acts[i] in root.children else -1)
        return best

    okbot.run(decide, name="ismcts-py", version="1.0", on_hello=on_hello, on_events=on_events,
              on_game_start=forget, on_hand_end=forget)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
