"""okr: the okarena rules engine (the C engine of engine/) for Python.

    import okr
    g = okr.Game("gin", players=2, seed=7)
    while not g.over():
        if g.hand_over():
            g.next_hand()
            continue
        g.apply(random.randrange(g.legal_count()))

See docs/python.md. Cards are kinds: suit * 13 + rank - 1 (clubs, diamonds, hearts, spades;
ace 1 .. king 13), 52 the Joker, as in the protocol and the okbot SDK.
"""

from ._okr import *  # noqa: F401,F403  the whole API lives in the C extension
from ._okr import Action, Game, Refused, Rules, determinize  # noqa: F401


def rules(preset="gin", **options):
    """okr.rules("laws", qs_discard="any"): an okr.Rules; okr.Refused names the rule of a bad
    option."""
    return Rules(preset, **options)


__all__ = [name for name in dir() if not name.startswith("_")]
