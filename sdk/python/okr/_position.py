"""Game.from_position and Game.position: a game from a described position, in the notation.

The engine (okr_game_from_position, engine/src/position.c) checks the position; this file only
turns text into the engine's fields, fills the defaults a puzzle author should not have to
think about, and turns a game's position back into text. docs/python.md "Positions".
"""

from . import _okr

PHASES = {
    "upcard": _okr.PH_UPCARD,
    "gin_upcard": _okr.PH_GIN_UPCARD,
    "draw": _okr.PH_DRAW,
    "claim": _okr.PH_CLAIM,
    "claim_meld": _okr.PH_CLAIM_MELD,
    "play": _okr.PH_PLAY,
}
PHASE_NAMES = {v: k for k, v in PHASES.items()}
AUTO = 254  # OKR_POS_AUTO
SET, RUN = 1, 2


def _cards(x):
    return _okr.cards(x if x is not None else [])


def _meld_cards(text):
    """'5H 5S 2H=5C' -> (cards, as): a wild card carries its declaration after '='."""
    cards, decl = [], []
    for tok in text.split():
        card, _, as_ = tok.partition("=")
        cards.append(_okr.card(card))
        decl.append(_okr.card(as_) if as_ else cards[-1])
    return cards, decl


def _meld(m, i):
    """A meld as a dict/namespace (owner, cards[, as_, type, lo]) or (owner, text)."""
    if isinstance(m, (tuple, list)) and len(m) == 2 and isinstance(m[1], str):
        owner, cards, as_, type_, lo = m[0], m[1], None, None, None
    else:
        get = m.get if isinstance(m, dict) else lambda k, d=None: getattr(m, k, d)
        owner, cards, type_, lo = get("owner"), get("cards"), get("type"), get("lo")
        as_ = get("as_", get("as"))
    if owner is None or cards is None:
        raise ValueError("melds[%d]: a meld needs an owner and its cards" % i)
    if isinstance(cards, str):
        cards, parsed_as = _meld_cards(cards)
        as_ = parsed_as if as_ is None else _cards(as_)
    else:
        cards = _cards(cards)
        as_ = list(cards) if as_ is None else _cards(as_)
    if len(as_) != len(cards) or not cards:
        raise ValueError("melds[%d]: as many declarations as cards" % i)
    ranks = {a % 13 for a in as_ if a < _okr.JOKER}
    if type_ is None:
        type_ = SET if len(ranks) == 1 else RUN
    elif isinstance(type_, str):
        type_ = {"set": SET, "run": RUN}.get(type_, 0)
    if lo is None:  # a run's first card: a leading ace is the low ace (ladder position 0)
        lo = 0 if type_ == SET or as_[0] >= _okr.JOKER else as_[0] % 13
    return (int(owner), int(type_), int(lo), cards, as_)


def from_position(rules="gin", hands=None, pile=(), stock=None, melds=(), scores=None,
                  concealed=None, dealer=None, turn=0, phase="draw", to_act=None,
                  discarder=None, upcard=None, hand_no=1, turns=None, seq=0, seed=0,
                  stock_locked=False, upcard_passes=0, claim_meld=None, turns_drawn=None,
                  melded_before=None, players=None, **options):
    """okr.Game.from_position(...): see docs/python.md "Positions"."""
    if hands is None:
        raise TypeError("from_position: hands=[...] (one per seat) is required")
    if isinstance(rules, str):  # "gin", or position()'s text: "laws decks=2 jokers=1 ..."
        preset, *pairs = rules.split()
        given = dict(p.split("=", 1) for p in pairs if "=" in p)
        if len(given) != len(pairs):
            raise ValueError("rules: a preset, then option=value pairs")
        rules = _okr.Rules(preset, **dict(given, **options))
    elif options:
        rules = rules.replace(**options)
    n = len(hands) if players is None else int(players)
    rules.check(n)  # RULES 2.1 before anything is sized by n
    ph = PHASES.get(phase, phase) if isinstance(phase, str) else int(phase)
    if isinstance(phase, str) and phase not in PHASES:
        raise ValueError("phase: one of %s" % ", ".join(PHASES))
    upround = ph in (_okr.PH_UPCARD, _okr.PH_GIN_UPCARD)
    meld_list = [_meld(m, i) for i, m in enumerate(melds or ())]
    if turns is None:
        turns = 1 if ph == _okr.PH_PLAY else 0
    if turns_drawn is None:  # not anyone's first turn (RULES 6.3), unless none has begun
        turns_drawn = [0 if upround else 2] * n
    if melded_before is None:
        melded_before = [any(m[0] == s for m in meld_list) for s in range(n)]
    shuffled = stock is None or (isinstance(stock, str) and stock.strip() == "shuffle")
    fields = {
        "players": n,
        "phase": ph,
        "dealer": n - 1 if dealer is None else dealer,
        "turn_seat": turn,
        "to_act": AUTO if to_act is None else to_act,
        "discarder": AUTO if discarder is None else discarder,
        "upcard": AUTO if upcard is None else _okr.card(upcard),
        "claim_meld": 255 if claim_meld is None else claim_meld,
        "upcard_passes": upcard_passes,
        "stock_locked": int(bool(stock_locked)),
        "shuffle_stock": int(shuffled),
        "hand_no": hand_no,
        "turns": turns,
        "seq": seq,
        "seed": seed,
        "hands": [h if isinstance(h, str) else _cards(h) for h in hands],
        "pile": _cards(pile),
        "stock": [] if shuffled else _cards(stock),
        "melds": meld_list,
        "scores": list(scores) if scores is not None else [0] * n,
        "concealed": list(concealed) if concealed is not None else [0] * n,
        "drew": [int(x) for x in turns_drawn],
        "melded_before": [int(bool(x)) for x in melded_before],
    }
    return _okr._from_position_raw(rules, fields)


def meld_text(cards, as_):
    """The notation of a meld: naturals as themselves, wild cards as 'card=declaration'."""
    return " ".join(_okr.card_str(c) + ("" if c == a else "=" + _okr.card_str(a))
                    for c, a in zip(cards, as_))


def position(game):
    """game.position(): the dict from_position accepts, cards in the notation."""
    d = game._position_raw()
    return {
        "rules": "%s %s" % (game.rules.preset, game.rules),  # text: the dict is JSON
        "players": d["players"],
        "hands": [_okr.cards_str(h) for h in d["hands"]],
        "pile": _okr.cards_str(d["pile"]),
        "stock": _okr.cards_str(d["stock"]),
        "melds": [{"owner": o, "type": "set" if t == SET else "run", "lo": lo,
                   "cards": meld_text(c, a)} for o, t, lo, c, a in d["melds"]],
        "scores": d["scores"],
        "concealed": d["concealed"],
        "dealer": d["dealer"],
        "turn": d["turn_seat"],
        "to_act": d["to_act"],
        "discarder": d["discarder"],
        "upcard": _okr.card_str(d["upcard"]) if d["upcard"] < _okr.KINDS else None,
        "phase": PHASE_NAMES.get(d["phase"], d["phase"]),
        "hand_no": d["hand_no"],
        "turns": d["turns"],
        "seq": d["seq"],
        "seed": d["seed"],
        "stock_locked": bool(d["stock_locked"]),
        "upcard_passes": d["upcard_passes"],
        "claim_meld": d["claim_meld"] if d["claim_meld"] != 255 else None,
        "turns_drawn": d["drew"],
        "melded_before": [bool(x) for x in d["melded_before"]],
    }
