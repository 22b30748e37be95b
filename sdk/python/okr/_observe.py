"""okr.Observer: Game.observe()'s numbers from what one seat receives, views and events (a bot
in the arena), so a policy trained on okr.env gets the same input when it plays.

    obs = okr.Observer(rules)            # one per seat and game; reset() or a new game's events
    obs.events(events)                   # every Event the seat receives, in order (on_events)
    x = obs.observe(view)                # == Game.observe(view.seat) of the real game

The encoding is Game.observe's own (the C function behind both); what this class adds is the
known-card planes, which a view does not carry: cards the whole table saw go into a hand (a
pile taken, a Joker taken back) and not leave it. Game keeps them from the actions it applies;
here the same rule (the same C function) is fed from the events, which a view completes: the
cards of a new meld are not in its event, so they are read from the view's melds, undoing what
later events added. docs/python.md "The same observation in the arena".
"""

from . import _okr

_KINDS = _okr.KINDS
_SEATS = _okr.MAX_PLAYERS
_NOCARD = 255


def _rules_of(rules):
    if rules is None or isinstance(rules, (str, _okr.Rules)):
        return rules
    from . import rules_from  # okbot's ctx, or a Hello
    return rules_from(rules)


def _remove(cards, c):
    if cards is not None and c in cards:
        cards.remove(c)


class Observer:
    """The known cards of one seat's game, from the events it receives; observe(view) encodes
    a view with them exactly as Game.observe encodes the game. rules: an okr.Rules, a preset
    name or okbot's ctx (needed by observe; may also be passed there)."""

    def __init__(self, rules=None):
        self.rules = _rules_of(rules)
        self.reset()

    def reset(self):
        """Forget everything: a new game (events whose seq goes back also reset)."""
        self._last_seq = 0
        self._new_hand()

    def _new_hand(self):
        self._known = bytearray(_SEATS * _KINDS)
        self._pile = None  # the pile at the last view; None: the hand's start (the upcard)
        self._pending = []
        self._ended = False
        self._seat = None

    def events(self, events):
        """Take events (okbot's on_events list, or Game.events(seat)), oldest first."""
        for e in events:
            if e.seq <= self._last_seq:  # seq restarts: a new game
                self.reset()
            elif self._ended:  # the first event of the next hand
                self._new_hand()
            self._last_seq = e.seq
            self._pending.append(e)
            if e.ended:
                self._ended = True

    def _meld_cards(self, view):
        """{pending position: the cards of the meld that event made}, read from the view's
        melds with every later change undone (adds, Jokers replaced or taken back)."""
        cur = {m: list(meld.cards) for m, meld in enumerate(view.melds)}
        made = {}
        for i in range(len(self._pending) - 1, -1, -1):
            e = self._pending[i]
            t, how, m = e.type, e.how, e.meld
            claim_or_take = t in (_okr.TAKE, _okr.CLAIM)
            if t == _okr.MELD or (claim_or_take and how == _okr.HOW_NEW):
                made[i] = cur.pop(m, [])
            elif t == _okr.ADD or (claim_or_take and how == _okr.HOW_ADD):
                _remove(cur.get(m), e.card)
            elif t == _okr.REPLACE or (claim_or_take and how == _okr.HOW_JOKER):
                if m in cur:
                    _remove(cur[m], e.card)
                    cur[m].append(_okr.JOKER)
        return made

    def update(self, view):
        """Apply the events received since the last view, completed by this view."""
        if self._ended:  # the hand ended; this view is the next hand's, before its events
            self._new_hand()
        pile = list(self._pile) if self._pile is not None else [view.upcard]
        made = self._meld_cards(view) if self._pending else {}
        for i, e in enumerate(self._pending):
            _okr._known_step(self._known, e.seat, e.type, e.how, e.card, made.get(i, []),
                             e.taken, pile)
            t = e.type
            if t in (_okr.DISCARD, _okr.KNOCK):
                pile.append(e.card)
            elif t in (_okr.TAKE, _okr.CLAIM):
                if pile:
                    pile.pop()
                if e.how != _okr.HOW_PLAIN:
                    del pile[:e.taken]
            elif t == _okr.PASS:
                del pile[:e.taken]
        self._pending = []
        self._pile = list(view.pile)
        self._seat = view.seat

    def known_all(self, players):
        """Per seat (absolute), the cards known to be in that hand (as Game.known())."""
        k = self._known
        return [[c for c in range(_KINDS) for _ in range(k[s * _KINDS + c])]
                for s in range(players)]

    @property
    def known(self):
        """{seat: cards} for the other seats, as of the last view: okr.determinize(known=...)."""
        if self._seat is None:
            return {}
        k = self._known
        out = {}
        for s in range(_SEATS):
            if s != self._seat:
                cards = [c for c in range(_KINDS) for _ in range(k[s * _KINDS + c])]
                if cards:
                    out[s] = cards
        return out

    def observe(self, view, rules=None, out=None):
        """The observation of view.seat: Game.observe(view.seat) of the real game, numbers for
        numbers (a numpy float32 array, else array('f'), or into `out`)."""
        self.update(view)
        r = _rules_of(rules) if rules is not None else self.rules
        if r is None:
            raise ValueError("Observer.observe: no rules: Observer(rules) or observe(view, rules)")
        return _okr._observe_view(view, r, self.known_all(view.players), out)


def observe_view(view, rules=None, known=None, out=None):
    """Game.observe's numbers from a view alone: known (per seat, as Game.known(), or
    {seat: cards}) fills the known-card planes; without it they are empty. rules: needed for a
    protocol View (an okr.Rules, a preset name, or okbot's ctx); a Game.view() carries them."""
    r = _rules_of(rules)
    if r is None:
        r = getattr(view, "rules", None)
        if r is None:
            raise TypeError("observe_view: this view has no rules: pass rules=")
    return _okr._observe_view(view, r, known, out)
