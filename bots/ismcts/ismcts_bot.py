#!/usr/bin/env python3
"""ismcts_bot.py - a search bot in Python on the okr module (the project's C engine): greedy's
policy improved by determinised Monte Carlo (the default), or information-set Monte Carlo tree
search (SO-ISMCTS, --tree). Plays gin and every rummy preset, under the arena's clocks.

    arena match --rules gin --bot 'python3 bots/ismcts/ismcts_bot.py' --bot build/bots/greedy_bot

Options: --seed S (the search's random numbers; default 1), --sims N (a fixed budget: N
worlds per decision, --tree: N iterations, the clock only as a guard; with it a match's
result depends on the seeds alone, not on the machine's load), --ms M (think at most M ms per
decision, below what the clock allows), --top-k K (candidates per decision, default 8),
--z Z (standard errors a candidate must gain over greedy's move, default 1.5), --no-known (the
worlds ignore the cards seen going into the opponents' hands), --no-shun (gin: deal
the opponent random hands, not hands fitted to his play), --greedy (no search: greedy's move),
--horizon H (simulated actions before the estimate; flat: to the hand's end in gin, 30 in
rummy; tree: 12 in gin, 8 per seat in rummy), --tree (ISMCTS instead), and for the tree
--c C (exploration constant, default 0.7), --bias B (weight of the policy's advice in
selection, default 1; 0: plain UCB).
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


def greedy_gin_scores(hand, pile, acts, rules):
    """The C greedy bot's gin scores (bots/greedy/greedy_bot.c, gin_scores), action by action:
    knock whenever allowed, with the least deadwood; discard the card that leaves the least
    deadwood, then the highest; take the top discard only when it joins a meld and the best
    discard after it leaves less deadwood than now. Its first best action is greedy's move."""
    scores = [0] * len(acts)
    after = None
    for i, a in enumerate(acts):
        t = a.type
        if t == okr.KNOCK or t == okr.DISCARD:
            if after is None:
                after = {}
                for c in set(hand):
                    rest = list(hand)
                    rest.remove(c)
                    after[c] = okr.gin_best(rest, rules=rules)[0]
            if t == okr.KNOCK:
                scores[i] = 100000 - 100 * after.get(a.card, 999)
            else:
                scores[i] = -16 * after.get(a.card, 999) + VALUES[a.card]
        elif t == okr.TAKE:
            scores[i] = 1 if pile and _gin_take_gain(hand, pile[-1], rules) > 0 else -1
    return scores


def _gin_take_gain(hand, top, rules):
    """Deadwood saved by taking `top` and then discarding the best other card; 0 when `top`
    would be deadwood itself (greedy's gin_take_gain)."""
    before = okr.gin_best(hand, rules=rules)[0]
    h = hand + [top]
    if okr.gin_best(h, rules=rules)[0] - before >= VALUES[top]:
        return 0
    best = before
    for c in set(h):
        if c == top:
            continue
        rest = list(h)
        rest.remove(c)
        best = min(best, okr.gin_best(rest, rules=rules)[0])
    return before - best


def greedy_gin_action(g, rules, acts):
    """Greedy's gin move in game g: the index of the first best score."""
    if len(acts) == 1:
        return 0
    s = greedy_gin_scores(g.hand(g.to_act), g.pile, acts, rules)
    return max(range(len(acts)), key=lambda i: (s[i], -i))


def fast_gin_action(g, rules, acts):
    """greedy_gin_action with fewer calls, for the simulations: the discard (or knock) from
    one okr.gin_best_discard instead of a gin_best per card. The same move but for ties
    between cards that leave the same deadwood (it takes the lowest card, greedy the
    costliest, then the first); about four times faster."""
    if len(acts) == 1:
        return 0
    t0 = acts[0].type
    hand = g.hand(g.to_act)
    if t0 == okr.TAKE or t0 == okr.DRAW or t0 == okr.PASS:
        take = other = None
        for i, a in enumerate(acts):
            if a.type == okr.TAKE:
                take = i
            elif other is None:
                other = i
        if take is None or other is None:
            return greedy_gin_action(g, rules, acts)
        top = g.pile[-1]
        before = okr.gin_best(hand, rules=rules)[0]
        h = hand + [top]
        if okr.gin_best(h, rules=rules)[0] - before >= VALUES[top]:
            return other
        card, after, _ = okr.gin_best_discard(h, rules=rules)
        if card == top:
            return take if _gin_take_gain(hand, top, rules) > 0 else other
        return take if after < before else other
    card = okr.gin_best_discard(hand, rules=rules)[0]
    disc = None
    for i, a in enumerate(acts):
        if a.card == card:
            if a.type == okr.KNOCK:
                return i
            if a.type == okr.DISCARD:
                disc = i
    if disc is None or any(a.type == okr.KNOCK for a in acts):
        return greedy_gin_action(g, rules, acts)
    return disc


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


# ---- Greedy's rummy policy, from bots/greedy/greedy_bot.c -------------------------------------
# The same arithmetic as the C greedy bot (its comments say why each rule is there), so that
# the bot's default move in rummy is greedy's and the search only has to find where to leave
# it. Hands are counts per kind (53 entries); a meld "shape" is [type, rank, suit, lo, n].

QS = 50  # the Q of spades (OKR_KIND(3, 12))


class RummyGreedy:
    def __init__(self, rules):
        o = rules.options() if callable(rules.options) else rules.options
        self.wild_twos = o.get("wild_twos") == "1"
        self.values = o.get("values")
        ace = o.get("ace")
        self.ace_low = ace in ("low", "both")
        self.ace_high = ace in ("high", "both")
        self.set_max = int(o.get("set_max", "0"))
        self.run_max = int(o.get("run_max", "0"))
        self.take_add = o.get("take_add") == "1"
        self.rules = rules
        self.debit = list(VALUES)

    def wild(self, k):
        return k == okr.JOKER or (self.wild_twos and k < okr.JOKER and k % 13 == 1)

    def credit(self, card, as_):
        german = self.values == "german"
        if card == okr.JOKER:
            return 100
        if as_ == QS:
            return 10 if self.wild(card) and not german and self.values != "arlington" else 50
        rank = as_ % 13 + 1
        if rank == 1:
            return 15 if german else 20
        return 10 if rank >= 8 else 5

    def positions(self, k):
        rank = k % 13 + 1
        if rank != 1:
            return [rank - 1]
        pos = []
        if self.ace_low:
            pos.append(0)
        if self.ace_high:
            pos.append(13)
        return pos

    def card_at(self, suit, p):
        if p < 0 or p > 13 or (p == 0 and not self.ace_low) or (p == 13 and not self.ace_high):
            return -1
        return suit * 13 + (0 if p == 13 else p)

    def fits(self, sh, k):
        if k >= okr.JOKER or self.wild(k):
            return False
        if sh[0] == "set":
            return k % 13 + 1 == sh[1] and (self.set_max == 0 or sh[4] < self.set_max)
        if k // 13 != sh[2] or (self.run_max and sh[4] >= self.run_max):
            return False
        return any(p == sh[3] - 1 or p == sh[3] + sh[4] for p in self.positions(k))

    def grow(self, sh, k):
        if sh[0] == "run" and any(p == sh[3] - 1 for p in self.positions(k)):
            sh[3] -= 1
        sh[4] += 1

    @staticmethod
    def shape_of(m):
        return [m.type, m.rank, m.suit, m.lo, len(m.cards)]

    def hand_worth(self, melds, seat, h):
        """greedy's hand_worth: credit of what the hand can lay now minus the debit of the
        rest. h (counts) is consumed."""
        shapes = [self.shape_of(m) for m in melds if m.owner == seat]
        credit = 0
        for _ in range(12):  # 1. natural melds, the most valuable first
            naturals = []
            for k in range(okr.JOKER):
                if h[k] and not self.wild(k):
                    naturals.extend([k] * h[k])
            if len(naturals) < 3:
                break
            specs = okr.find_melds(naturals, rules=self.rules)
            if not specs:
                break
            best, best_v = None, -1
            for sp in specs:
                v = sum(self.credit(c, x) for c, x in zip(sp.cards, sp.as_))
                if v > best_v:
                    best, best_v = sp, v
            for c in best.cards:
                h[c] -= 1
            credit += best_v
            a0 = best.as_[0]
            shapes.append([best.type, a0 % 13 + 1, a0 // 13, best.lo, len(best.cards)])
        changed = True  # 2. single naturals onto any meld they fit
        while changed:
            changed = False
            for k in range(okr.JOKER):
                for sh in shapes:
                    if not h[k] or self.wild(k):
                        break
                    if self.fits(sh, k):
                        self.grow(sh, k)
                        h[k] -= 1
                        credit += self.credit(k, k)
                        changed = True
        for w in range(okr.KINDS):  # 3. wild cards complete the best pair or near-run
            while h[w] and self.wild(w):
                best_a = best_b = -1
                best_v = 0
                for a in range(okr.JOKER):
                    if not h[a] or self.wild(a):
                        continue
                    for b in range(a, okr.JOKER, 13):
                        if self.wild(b) or h[b] < 1 + (a == b):
                            continue
                        v = self.credit(a, a) + self.credit(b, b)
                        if v > best_v:
                            best_a, best_b, best_v = a, b, v
                    for p in self.positions(a):
                        for d in (1, 2):
                            b = self.card_at(a // 13, p + d)
                            if b < 0 or not h[b] or self.wild(b):
                                continue
                            v = self.credit(a, a) + self.credit(b, b)
                            if v > best_v:
                                best_a, best_b, best_v = a, b, v
                wc = 100 if w == okr.JOKER else 5
                if best_a < 0:
                    if not shapes:
                        break
                    h[w] -= 1
                    credit += wc
                    continue
                h[w] -= 1
                h[best_a] -= 1
                h[best_b] -= 1
                if w != okr.JOKER:
                    wc = self.credit(best_a, best_a)
                credit += best_v + wc
        owed = sum(h[k] * self.debit[k] for k in range(okr.KINDS) if h[k])
        return credit - owed

    def take_gain(self, g, counts, a, worth_now):
        pile = g.pile
        if not pile:
            return -1000
        top = pile[-1]
        h = list(counts)
        credit = 0
        if a.how == okr.HOW_NEW:
            top_seen = False
            for c, x in zip(a.spec.cards, a.spec.as_):
                credit += self.credit(c, x)
                if c == top and not top_seen:
                    top_seen = True
                elif h[c]:
                    h[c] -= 1
        elif a.how == okr.HOW_ADD:
            credit = self.credit(top, a.as_)
        elif a.how == okr.HOW_JOKER:
            credit = self.credit(top, top) - 100
            h[okr.JOKER] += 1
        for c in pile[:-1]:
            h[c] += 1
        return credit + self.hand_worth(g.melds, g.to_act, h) - worth_now

    def table_fits(self, g):
        fit = [[0] * okr.KINDS, [0] * okr.KINDS]
        for m in g.melds:
            sh = self.shape_of(m)
            whose = 0 if m.owner == g.to_act else 1
            if sh[0] == "set":
                cand = [suit * 13 + sh[1] - 1 for suit in range(4)]
            else:
                cand = [self.card_at(sh[2], sh[3] - 1), self.card_at(sh[2], sh[3] + sh[4])]
            for c in cand:
                if c >= 0 and self.fits(sh, c):
                    fit[whose][c] += 1
        return fit

    def discard_score(self, g, counts, k, fit):
        if self.wild(k):
            return -10000 + self.debit[k]
        s = self.debit[k]
        h = list(counts)
        h[k] -= 1
        same = sum(h[b] for b in range(k % 13, okr.JOKER, 13))
        if same:
            s -= 45 if same >= 2 else 25
        for p in self.positions(k):
            for d in (-2, -1, 1, 2):
                b = self.card_at(k // 13, p + d)
                if b >= 0 and h[b]:
                    s -= 20 if d in (1, -1) else 10
        s -= 40 * fit[0][k]
        if self.take_add:
            s -= (30 + 3 * len(g.pile)) * fit[1][k]
        return s

    def scores(self, g, acts):
        """greedy's rummy_scores for every action of acts (g.legal())."""
        counts = [0] * okr.KINDS
        for c in g.hand(g.to_act):
            counts[c] += 1
        melds_only = any(a.type in (okr.MELD, okr.ADD) for a in acts)
        worth_now = None
        fit = None
        out = []
        for a in acts:
            t = a.type
            if melds_only and t not in (okr.MELD, okr.ADD):
                out.append(-30000)
            elif t == okr.MELD:
                out.append(20000 + sum(self.credit(c, x) for c, x in zip(a.spec.cards, a.spec.as_)))
            elif t == okr.ADD:
                out.append(20000 + self.credit(a.card, a.as_))
            elif t in (okr.TAKE, okr.CLAIM):
                if worth_now is None:
                    worth_now = self.hand_worth(g.melds, g.to_act, list(counts))
                out.append(self.take_gain(g, counts, a, worth_now))
            elif t == okr.DISCARD:
                if fit is None:
                    fit = self.table_fits(g)
                out.append(self.discard_score(g, counts, a.card, fit))
            elif t == okr.REPLACE:
                out.append(-20000)
            else:
                out.append(0)
        return out

    def action(self, g, acts):
        if len(acts) == 1:
            return 0
        s = self.scores(g, acts)
        return max(range(len(acts)), key=lambda i: (s[i], -i))


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

    discarded = ()  # gin: the seats that discarded this hand (set by the bot)

    def world(self, view, known, tries=30, shunned=None):
        """1. determinise: a world the seat cannot tell from the real one (RULES 8.3), with
        the cards the table saw go into other hands and not leave them (`known`, from Table)
        dealt there: okr.determinize(known=...) deals those first and the rest at random.
        `shunned` (gin, optional): per seat, cards it discarded or declined lately; a player
        like greedy lets a card go only when it does not join a meld in its hand, so a world
        where it would is less likely, and so is one where a seat that discarded without
        knocking could knock (greedy knocks as soon as it may): of up to `tries` worlds, the
        one with the fewest such contradictions wins (the first without any at once)."""
        if known and not self.known_ok:
            known = None
        if known:
            try:
                g = okr.determinize(view, self.rng, rules=self.rules, known=known)
            except okr.Refused:  # the tracking went wrong (it cannot, but never fail a move)
                self.known_ok = False
                known = None
                g = okr.determinize(view, self.rng, rules=self.rules)
        else:
            g = okr.determinize(view, self.rng, rules=self.rules)
        if not shunned or not any(shunned.values()):
            return g
        best, best_bad = None, None
        for t in range(tries):
            if t:
                g = okr.determinize(view, self.rng, rules=self.rules, known=known)
            up = g.upcard
            limit = 10 if up is None or up < 0 or up >= okr.JOKER else VALUES[up]  # G2
            bad = 0
            for seat, cards in shunned.items():
                if not cards:
                    continue
                held = g.hand(seat)
                dw = okr.gin_best(held, rules=self.rules)[0]
                if seat in self.discarded and dw <= limit:
                    # it discarded without knocking, and greedy knocks when it can
                    bad += 3
                for c in cards:
                    if c not in held and \
                            okr.gin_best(held + [c], rules=self.rules)[0] < dw + VALUES[c]:
                        bad += 1
            if best_bad is None or bad < best_bad:
                best, best_bad = g, bad
            if bad == 0:
                break
        return best

    known_ok = True  # False once a determinisation refused the known cards (then ignored)

    def run(self, view, deadline, known=None, iterations=None):
        """Search from `view` until time.monotonic() passes `deadline` (or after `iterations`,
        when given); the root's children and the legal list of the first determinisation (in
        the arena's order)."""
        root = Node(view.seat)
        known = known or {}
        first = self.world(view, known)
        legal = first.legal()
        self.iterations = 0
        world = first
        while True:
            self.iterate(root, world)
            self.iterations += 1
            if iterations is not None and self.iterations >= iterations:
                break
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
            g.apply_legal(rollout_action(g, self.rules, rng))
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


# ---- Gin: opponent hands that fit his play (bots/strong's gin_misfits, gin_fit, gin_force) --
# A world dealt at random gives the gin opponent a random hand, but his play says more: a card
# he declined or discarded did not join a meld of his (that is how greedy, a fair model of most
# bots, takes and discards), a card he took from the pile did, and from his last 11 cards he
# discarded the one that left the least deadwood and did not knock, so none of them left the
# knock limit or less. Each decision builds a pool of opponent hands with few such
# contradictions (a short random local search from a random deal) and deals them in turn.

GIN_POOL = 16  # opponent hands per decision
GIN_FIT_STEPS = 200  # swaps tried per hand at most


def gin_misfits(rules, limit, h, last, passed, known):
    """How often hand h (the opponent's 10 cards) contradicts his play: `last` the card he
    discarded last (None before his first discard), `passed` the cards he let go lately,
    `known` the cards he took from the pile and still holds."""
    gb = okr.gin_best
    dw = gb(h, rules=rules)[0]
    bad = 0
    if last is not None:
        # from h + last he discarded last and did not knock (G5): no other discard leaves
        # less deadwood, none leaves the limit or less
        h2 = h + [last]
        for y in set(h):
            rest = list(h2)
            rest.remove(y)
            other = gb(rest, rules=rules)[0]
            bad += 3 * (other < dw) + 3 * (other <= limit)
        bad += 3 * (dw <= limit)
    for k in passed:
        if k != last and gb(h + [k], rules=rules)[0] - dw < VALUES[k]:
            bad += 1  # it would have joined a meld
    for k in set(known):
        if k in h:
            rest = list(h)
            rest.remove(k)
            bad += dw - gb(rest, rules=rules)[0] >= VALUES[k]  # deadwood: why take it?
    return bad


def gin_fit(rules, limit, hand, stock, last, passed, known, rng, steps=GIN_FIT_STEPS):
    """A hand for the opponent that fits his play: from `hand` (a random deal, the known
    cards included), swap one of his cards not known to be his with a card of `stock` (the
    other unseen cards) whenever that adds no contradiction, until none is left."""
    hand, stock = list(hand), list(stock)
    bad = gin_misfits(rules, limit, hand, last, passed, known)
    free = list(hand)
    for k in known:
        if k in free:
            free.remove(k)
    for _ in range(steps):
        if bad <= 0 or not stock or not free:
            break
        fi = rng.randrange(len(free))
        si = rng.randrange(len(stock))
        x, y = free[fi], stock[si]
        hand.remove(x)
        hand.append(y)
        now = gin_misfits(rules, limit, hand, last, passed, known)
        if now <= bad:
            stock[si], free[fi], bad = x, y, now
        else:
            hand.remove(y)
            hand.append(x)
    return sorted(hand)


def gin_limit(rules, upcard):
    """The knock limit of this hand (G2)."""
    if upcard is None or upcard < 0 or upcard >= okr.JOKER:
        return 10
    if rules.options().get("ace_gin_only") == "1" and upcard % 13 == 0:
        return 0
    return VALUES[upcard]


class Flat:
    """Flat determinised Monte Carlo over the root's actions, greedy's move by default.

    Each round deals one world the seat cannot tell from the real one (Search.world; in gin
    the opponent gets the next hand of a pool fitted to his play, gin_pool), then
    plays each candidate action (greedy's `top_k` best) in a copy of it and the rest of the
    hand with greedy's policy for every seat: to the hand's end in gin, `horizon` actions in
    rummy, whose hands are long (then each seat is valued by greedy's own arithmetic: its
    melds on the table plus what its hand is worth). The result is the seat's score minus
    the others' mean. All candidates see the same worlds (common random numbers), so each is
    compared with greedy's move world by world. It leaves greedy's move only for a candidate
    whose mean gain over it is more than `z` standard errors above zero after at least
    `min_rounds` worlds: with several candidates and few worlds the luckiest one would
    otherwise win, and the bot would play worse than its own policy. Every 8 worlds the
    candidates clearly worse than greedy's move are dropped (racing), so they cost no more
    time. This is bots/strong's search, in Python."""

    def __init__(self, search, top_k=8, z=1.5, min_rounds=8, horizon=None, worlds=None):
        self.search = search
        self.worlds = worlds  # --sims: stop after this many worlds (the clock only as a guard)
        self.cut = False  # the clock stopped the search before `worlds`
        self.rules = search.rules
        self.gin = self.rules.family == "gin"
        self.rummy = None if self.gin else RummyGreedy(self.rules)
        self.top_k = top_k
        self.z = z
        self.min_rounds = min_rounds
        self.horizon = horizon or (400 if self.gin else 30)
        self.iterations = 0  # worlds, each simulated with every candidate
        self.simulations = 0
        self.switched = False

    def policy(self, g, acts):
        if self.gin:
            return fast_gin_action(g, self.rules, acts)
        return self.rummy.action(g, acts)

    def scores(self, g, acts):
        if self.gin:
            return greedy_gin_scores(g.hand(g.to_act), g.pile, acts, self.rules)
        return self.rummy.scores(g, acts)

    def value(self, g):
        """Each seat's result: the hand's score when it is over, else (rummy) greedy's view
        of where each seat stands."""
        if g.hand_over():
            return g.hand_result().score
        if self.gin:
            return [-okr.gin_best(g.hand(s), rules=self.rules)[0] for s in range(g.players)]
        v = [0] * g.players
        for m in g.melds:
            v[m.owner] += sum(self.rummy.credit(c, x) for c, x in zip(m.cards, m.as_))
        for s in range(g.players):
            h = [0] * okr.KINDS
            for c in g.hand(s):
                h[c] += 1
            v[s] += self.rummy.hand_worth(g.melds, s, h)
        return v

    def rollout(self, g, seat):
        steps = 0
        while not g.hand_over() and steps < self.horizon:
            acts = g.legal()
            g.apply(acts[self.policy(g, acts)])
            steps += 1
        sc = self.value(g)
        others = [x for i, x in enumerate(sc) if i != seat]
        return sc[seat] - sum(others) / len(others)

    def gin_pool(self, view, first, known, shunned, last, deadline):
        """Gin, two seats: opponent hands that fit his play (gin_fit), GIN_POOL of them, or
        fewer once a third of the clock's time is gone (never with --sims: the pool is then
        always whole). Empty when there is nothing to fit."""
        opp = 1 - view.seat
        passed = (shunned or {}).get(opp, [])
        last_card = (last or {}).get(opp)
        mine = list((known or {}).get(opp, []))
        if not passed and last_card is None and not mine:
            return []
        limit = gin_limit(self.rules, first.upcard)
        pool = []
        g = first
        # by the clock, the pool gets a third of the time at most (a hand takes 1 to 15 ms)
        now = time.monotonic()
        enough = now + (deadline - now) / 3
        while len(pool) < GIN_POOL:
            if pool:
                g = okr.determinize(view, self.search.rng, rules=self.rules,
                                    known=known if self.search.known_ok else None)
            pool.append(gin_fit(self.rules, limit, g.hand(opp), g.stock, last_card, passed,
                                mine, self.search.rng))
            if self.worlds is None and time.monotonic() >= enough:
                break
        return pool

    def run(self, view, deadline, known=None, shunned=None, last=None):
        """The index in the legal list of the action to play, and that list. `shunned` and
        `last` (gin): per opponent, the cards it let go lately and its last discard."""
        known = known or {}
        first = self.search.world(view, known, shunned=None if self.gin else shunned)
        acts = first.legal()
        seat = view.seat
        scores = self.scores(first, acts)
        order = sorted(range(len(acts)), key=lambda i: (-scores[i], i))
        base = order[0]  # greedy's move
        # greedy's best few, and the best of every other kind of move: a knock can be
        # greedy's choice among six knocks, and not knocking is then the question. Two knocks
        # with the same discard end the hand alike (greedy's score already takes the least
        # deadwood), so only the best of them is a candidate.
        cands, kinds, seen = [], set(), set()
        for i in order:
            a = acts[i]
            key = (a.type, a.card) if a.type == okr.KNOCK else i
            if key in seen:
                continue
            if len(cands) < self.top_k or a.type not in kinds:
                seen.add(key)
                kinds.add(a.type)
                cands.append(i)
        pool = []
        if self.gin and view.players == 2 and shunned is not None and len(cands) > 1:
            pool = self.gin_pool(view, first, known, shunned, last, deadline)
        self.pool = len(pool)
        n = 0
        diff = {i: [0.0, 0.0] for i in cands[1:]}  # sum, sum of squares of (cand - base)
        world = first
        if pool:
            world = self.pool_world(view, known, pool[0])
        late = False
        active = list(cands[1:])
        while active and not late:
            g = world.copy()
            g.apply(acts[base])
            base_v = self.rollout(g, seat)
            self.simulations += 1
            ds = []
            for i in active:
                # a rummy world with seven candidates can outlast a short clock: a round
                # cut by the deadline is dropped whole, so every candidate keeps the same worlds
                if time.monotonic() >= deadline:
                    late = True
                    break
                g = world.copy()
                g.apply(acts[i])
                ds.append((i, self.rollout(g, seat) - base_v))
                self.simulations += 1
            if late:
                break
            for i, d in ds:
                diff[i][0] += d
                diff[i][1] += d * d
            n += 1
            if self.worlds is not None and n >= self.worlds:
                break
            if time.monotonic() >= deadline:
                break
            # racing (bots/strong): every 8 worlds, drop the candidates clearly worse than
            # greedy's move (mean + 2 standard errors below 0), so the close ones get the time
            if n % self.RACE_EVERY == 0:
                active = [i for i in active if _mean_se(diff[i], n)[0] +
                          2 * _mean_se(diff[i], n)[1] >= 0]
            if pool:
                world = self.pool_world(view, known, pool[n % len(pool)])
            else:
                world = self.search.world(view, known, shunned=shunned)
        self.iterations = n
        self.cut = self.worlds is not None and n < self.worlds and bool(active)
        best, best_t = base, self.z
        if n >= self.min_rounds:
            for i in active:
                m, se = _mean_se(diff[i], n)
                t = m / se
                if t > best_t:
                    best, best_t = i, t
        self.switched = best != base
        return best, acts

    def pool_world(self, view, known, hand):
        """A world where the opponent holds `hand` (from the pool), the rest dealt at random;
        a plain world should the engine refuse it (it cannot: the hand is of unseen cards)."""
        try:
            return okr.determinize(view, self.search.rng, rules=self.rules,
                                   known={1 - view.seat: hand})
        except okr.Refused:
            return self.search.world(view, known)

    RACE_EVERY = 8
    pool = 0


def _mean_se(sums, n):
    """Mean and standard error of n paired differences from their sum and sum of squares."""
    m = sums[0] / n
    var = max(sums[1] / n - m * m, 1e-9) * n / (n - 1) if n > 1 else 1e18
    return m, math.sqrt(var / n)


class Table:
    """What the table saw go into each hand and not leave it since (RULES 8.3: public): the
    pile a seat took (gin: the top card; rummy: the whole pile, RULES 4.3, less the cards of
    the meld it made), a Joker taken back from a meld; until the seat melds, adds or discards
    them. okr.determinize(known=...) deals these cards to their hands in every world. The
    pile is followed from the last view (set_pile) through the events, since a take empties
    it before the bot sees the next view."""

    def __init__(self, me):
        self.me = me
        self.known = {}  # seat -> list of cards (a multiset)
        self.pile = None  # the pile as the events left it; None: not seen this hand yet

    def set_pile(self, pile):
        self.pile = list(pile)

    def _gain(self, seat, cards):
        if seat != self.me:
            self.known.setdefault(seat, []).extend(c for c in cards if c < okr.KINDS)

    def _leave(self, seat, cards):
        """Cards that left the seat's hand face up: the known ones among them are known no
        longer (of two copies the table cannot tell which left, so one goes)."""
        held = self.known.get(seat)
        for c in cards:
            if held and c in held:
                held.remove(c)

    @staticmethod
    def _cards(text, skip):
        """The cards of an event's text after `skip` words ("meld 5H 2C=5C 5S"): what was
        laid, a wild card by its own name."""
        out = []
        for tok in text.split()[skip:]:
            try:
                out.append(okr.card(tok.partition("=")[0]))
            except ValueError:
                pass  # a meld number ("add 3 KD")
        return out

    def _rest_of_pile(self, seat, taken):
        if taken and self.pile is not None and len(self.pile) == taken:
            self._gain(seat, self.pile)
        self.pile = [] if self.pile is not None or taken else None

    def event(self, e):
        t, seat = e.type, e.seat
        if t in (okr.DISCARD, okr.KNOCK):
            self._leave(seat, [e.card])
            if self.pile is not None:
                self.pile.append(e.card)
        elif t == okr.ADD:
            self._leave(seat, [e.card])
        elif t == okr.REPLACE:  # a natural card for the Joker of a meld (RULES 5.2)
            self._leave(seat, [e.card])
            self._gain(seat, [okr.JOKER])
        elif t == okr.MELD:
            self._leave(seat, self._cards(e.text, 1))
        elif t in (okr.TAKE, okr.CLAIM):
            top = e.card
            if self.pile:
                self.pile.pop()
            if e.how == okr.HOW_PLAIN:
                self._gain(seat, [top])
                return
            if e.how == okr.HOW_NEW:  # the meld's other cards came from the hand
                laid = self._cards(e.text, 2)
                if top in laid:
                    laid.remove(top)
                self._leave(seat, laid)
            elif e.how == okr.HOW_JOKER:  # the top card frees the meld's Joker into the hand
                self._gain(seat, [okr.JOKER])
            if t == okr.TAKE or e.how != okr.HOW_NEW:
                self._rest_of_pile(seat, e.taken)
        elif t == okr.PASS and e.taken:  # a claimed meld finished: the pile joins the hand
            self._rest_of_pile(seat, e.taken)


def _count(known, search):
    """Known opponents' cards the worlds used (0 when ignored)."""
    if not known or not search.known_ok:
        return 0
    return sum(len(c) for c in known.values())


def _remember(cards, c, keep=6):
    """Keep the last `keep` distinct cards of a seat's shunned list."""
    if c in cards:
        cards.remove(c)
    cards.append(c)
    del cards[:-keep]


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
    seed, cap, c, horizon, bias, sims = 1, None, 0.7, None, 1.0, None
    opts = {"shun": True, "tree": False, "z": 1.5, "top_k": 8, "greedy": False, "known": True}
    args = list(argv)
    while args:
        flag = args.pop(0)
        if flag == "--seed" and args:
            seed = int(args.pop(0))
        elif flag == "--ms" and args:
            cap = float(args.pop(0))
        elif flag == "--sims" and args:
            sims = max(1, int(args.pop(0)))
        elif flag == "--c" and args:
            c = float(args.pop(0))
        elif flag == "--horizon" and args:
            horizon = int(args.pop(0))
        elif flag == "--bias" and args:
            bias = float(args.pop(0))
        elif flag == "--greedy":
            opts["greedy"] = True
        elif flag == "--no-known":
            opts["known"] = False
        elif flag == "--no-shun":
            opts["shun"] = False
        elif flag == "--tree":
            opts["tree"] = True
        elif flag == "--z" and args:
            opts["z"] = float(args.pop(0))
        elif flag == "--top-k" and args:
            opts["top_k"] = max(1, int(args.pop(0)))
        else:
            print("usage: ismcts_bot.py [--seed S] [--sims N] [--ms M] [--c C] [--horizon H]"
                  " [--bias B] [--greedy] [--tree] [--z Z] [--top-k K] [--no-shun]"
                  " [--no-known]", file=sys.stderr)
            return 2
    rng = random.Random(seed)
    state = {"rules": None}

    def on_hello(hello, ctx):
        # the whole rule set of the match, from the Hello: the preset and every option
        state["rules"] = okr.rules(hello.rules.preset, **ctx.rules)
        for k in range(okr.KINDS):  # VALUES, for the policies
            try:
                VALUES[k] = okr.card_value(k, rules=state["rules"])
            except ValueError:  # the Joker, in gin
                VALUES[k] = 0

    def forget(message, ctx):
        state["table"] = Table(ctx.seat)
        state["shunned"] = {}
        state["discarded"] = set()
        state["last"] = {}
        state["top"] = None

    def on_events(events, ctx):
        """The cards the table saw go into the opponents' hands (Table); gin: also the last
        few cards each opponent discarded or declined (it drew from the stock with that card
        on the pile)."""
        if state["rules"] is None:
            return
        table = state.get("table")
        if table is None:
            table = state["table"] = Table(ctx.seat)
        for e in events:
            table.event(e)
        if state["rules"].family != "gin":
            return
        shunned = state.setdefault("shunned", {})
        for e in events:
            if e.seat == ctx.seat:
                if e.type in (okr.DISCARD, okr.KNOCK) and e.card < okr.JOKER:
                    state["top"] = e.card
                elif e.type == okr.TAKE:
                    state["top"] = None
                continue
            if e.type == okr.TAKE and e.card < okr.JOKER:
                state["top"] = None
            elif e.type in (okr.DISCARD, okr.KNOCK) and e.card < okr.JOKER:
                _remember(shunned.setdefault(e.seat, []), e.card)
                state.setdefault("discarded", set()).add(e.seat)
                state.setdefault("last", {})[e.seat] = e.card
                state["top"] = e.card
            elif e.type in (okr.DRAW, okr.PASS) and state.get("top") is not None:
                _remember(shunned.setdefault(e.seat, []), state["top"])

    def decide(view, legal, ctx):
        if len(legal) == 1:
            return 0
        if opts["greedy"]:  # the policy alone, no search: greedy's move
            g = okr.determinize(view, rng, rules=state["rules"])
            acts = g.legal()
            if state["rules"].family == "gin":
                return greedy_gin_action(g, state["rules"], acts)
            return RummyGreedy(state["rules"]).action(g, acts)
        deadline = time.monotonic() + budget_ms(ctx, cap) / 1000.0
        table = state.get("table")
        if table is None:
            table = state["table"] = Table(view.seat)
        table.set_pile(view.pile)
        known = table.known if opts["known"] else None
        search = Search(state["rules"], rng, view.players, c=c, horizon=horizon, bias=bias)
        search.discarded = state.get("discarded", set())
        if not opts["tree"]:
            flat = Flat(search, top_k=opts["top_k"], z=opts["z"], horizon=horizon, worlds=sims)
            best, acts = flat.run(view, deadline, known,
                                  state.get("shunned", {}) if opts["shun"] else None,
                                  state.get("last"))
            if len(acts) != len(legal):  # cannot happen: determinize keeps the legal list
                return 0
            ctx.log("ismcts: %d simulations in %.0f ms, %d worlds, %d actions, %s greedy's move, "
                    "%d opponents' cards known, %d fitted opponent hands%s"
                    % (flat.simulations, ctx.elapsed_ms(), flat.iterations, len(acts),
                       "left" if flat.switched else "kept", _count(known, search), flat.pool,
                       ", cut by the clock" if flat.cut else ""))
            return best
        root, acts = search.run(view, deadline, known, iterations=sims)
        if len(acts) != len(legal):  # cannot happen: determinize keeps the legal list
            ctx.log("ismcts: %d legal actions in the world, %d from the arena" %
                    (len(acts), len(legal)))
            return 0
        ctx.log("ismcts: %d iterations in %.0f ms, %d actions, %d opponents' cards known%s" %
                (search.iterations, ctx.elapsed_ms(), len(acts), _count(known, search),
                 ", cut by the clock" if sims is not None and search.iterations < sims else ""))
        best = max(range(len(acts)),
                   key=lambda i: root.children[acts[i]].visits if acts[i] in root.children else -1)
        return best

    def on_game_start(start, ctx):
        # each game's search draws from its own stream (--seed and the game's id), so a game
        # replays alike whether it comes first in a match or alone (--first-deal); with
        # --sims, the bot's every move is then a function of the game alone
        rng.seed("%d/%s" % (seed, start.game_id))
        forget(start, ctx)

    okbot.run(decide, name="ismcts-py", version="1.0", on_hello=on_hello, on_events=on_events,
              on_game_start=on_game_start, on_hand_end=forget)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
