"""okr: the okarena rules engine (the C engine of engine/) for Python.

    import okr
    g = okr.Game("gin", players=2, seed=7)
    while not g.over():
        if g.hand_over():
            g.next_hand()
            continue
        g.apply_legal(random.randrange(g.legal_count()))

See docs/python.md. Cards are kinds: suit * 13 + rank - 1 (clubs, diamonds, hearts, spades;
ace 1 .. king 13), 52 the Joker, as in the protocol and the okbot SDK.
"""

from ._okr import *  # noqa: F401,F403  the whole API lives in the C extension
from ._okr import Action, Game, Refused, Rules, option_names  # noqa: F401
from ._okr import determinize as _determinize
from ._env import Env, env  # noqa: F401
from ._observe import Observer, observe_view  # noqa: F401
from . import spaces  # noqa: F401


def rules(preset="gin", **options):
    """okr.rules("laws", qs_discard="any"): an okr.Rules; okr.Refused names the rule of a bad
    option."""
    return Rules(preset, **options)


def rules_from(ctx):
    """The okr.Rules of an arena game, from okbot's ctx (or its Hello message): the preset and
    every option the arena sent, so a simulation plays by exactly the match's rules."""
    hello = getattr(ctx, "hello", ctx)
    if hello is None:
        raise ValueError("rules_from: no Hello yet (ctx.hello is None)")
    options = getattr(ctx, "rules", None)
    if not isinstance(options, dict):  # a Hello message: its options list
        options = {o.name: o.value for o in hello.rules.options}
    known = set(option_names())  # the preset comes from hello.rules.preset
    return Rules(hello.rules.preset, **{k: v for k, v in options.items() if k in known})


def determinize(view, rng, rules=None, legal=None, known=None):
    """A whole okr.Game consistent with what the view's seat knows (RULES 8.3).

    view: Game.view(seat), or the protocol View okbot's decide(view, legal, ctx) receives;
    rng: an int seed or a random.Random; rules: an okr.Rules, a preset name, or okbot's ctx
    (needed for a protocol View, which does not carry the rules). legal: the legal list decide()
    got; if given, the game's legal actions are checked to be the same, in the same order, so
    an index chosen in the game is the index to return (ValueError otherwise). known: cards the
    table saw go into other hands and not leave them since ({seat: cards}, or a list of cards
    per seat): every world deals them there, the rest at random (okr.Refused, rule 8.3, if
    they cannot be there: on the table, in the seat's own hand, more than a hand holds)."""
    if rules is not None and not isinstance(rules, (str, Rules)):
        rules = rules_from(rules)
    game = _determinize(view, rng, rules, known)
    if legal is not None:
        mine = [a.text for a in game.legal()]
        theirs = [a if isinstance(a, str) else a.text for a in legal]
        if mine != theirs:
            raise ValueError("determinize: the view's legal list differs from the engine's "
                             "(%d vs %d actions): wrong rules?" % (len(theirs), len(mine)))
    return game


__all__ = [name for name in dir() if not name.startswith("_")]
