"""okbot.cards - card kinds, card names and action text (docs/notation.md).

A card kind is suit * 13 + rank - 1: suits clubs 0, diamonds 1, hearts 2, spades 3; ranks
1 (ace) to 13 (king). 52 is the Joker; 255 means "not known to you".
"""

import re

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
JOKER = 52
NOCARD = 255
KINDS = 53

RANKS = "A23456789TJQK"  # rank 1 .. 13
SUITS = "CDHS"           # suit 0 .. 3


def kind(suit_, rank_):
    """The kind of a natural card: kind(SPADES, 12) is the queen of spades (50)."""
    if not (0 <= suit_ <= 3 and 1 <= rank_ <= 13):
        raise ValueError("no card with suit %r and rank %r" % (suit_, rank_))
    return suit_ * 13 + rank_ - 1


def suit(k):
    """0..3 for a natural card, None for the Joker."""
    return None if k == JOKER else _natural(k) // 13


def rank(k):
    """1 (ace) .. 13 (king) for a natural card, None for the Joker."""
    return None if k == JOKER else _natural(k) % 13 + 1


def _natural(k):
    if not 0 <= k < JOKER:
        raise ValueError("not a card kind: %r" % (k,))
    return k


def name(k):
    """'AS', 'TH', '2C', 'JK'; '??' for NOCARD (a card you may not see)."""
    if k == JOKER:
        return "JK"
    if k == NOCARD:
        return "??"
    _natural(k)
    return RANKS[k % 13] + SUITS[k // 13]


def names(kinds):
    """Space-separated names: names([0, 13, 52]) == 'AC AD JK'."""
    return " ".join(name(k) for k in kinds)


def parse(text):
    """The kind of a card name, case-insensitive; '10H' and 'TH' are both the ten of hearts."""
    t = text.strip().upper()
    if t == "JK":
        return JOKER
    if t[:2] == "10":
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError("not a card: %r" % (text,))
    return SUITS.index(t[1]) * 13 + RANKS.index(t[0])


def parse_list(text):
    """Kinds of white-space separated card names."""
    return [parse(word) for word in text.split()]


def counts(kinds):
    """A list of KINDS counts: counts(view.hand)[k] is how many copies of k you hold."""
    c = [0] * KINDS
    for k in kinds:
        c[k] += 1
    return c


_TEN = re.compile(r"\b10([CDHS])\b")


def normalize_action(text):
    """Action text in the engine's output form as far as spelling goes: upper case, single
    spaces, T for ten, comment removed. ('take new 10h th 2c=10H' -> 'TAKE NEW TH TH 2C=TH')"""
    t = text.split("#", 1)[0].upper()
    t = " ".join(t.replace("|", " | ").split())
    return _TEN.sub(r"T\1", t)


def find_action(legal, text):
    """The index in `legal` of the action written as `text`, or None. Compares with
    normalize_action, so it finds what the engine writes (docs/notation.md, "How the engine
    writes actions"); it does not reorder a set's cards or rewrite declarations."""
    want = normalize_action(text)
    for i, action in enumerate(legal):
        if normalize_action(action.text) == want:
            return i
    return None
