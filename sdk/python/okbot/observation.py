"""okbot.observation - in the arena, the observation and action ids a policy trained on
okr.env uses (docs/sdk-python.md "The training observation").

    from okbot.observation import Observation
    obs = Observation()

    def decide(view, legal, ctx):
        x = obs.observe(view, ctx)             # == Game.observe(seat) in training
        mask = obs.action_mask(view, legal, ctx)
        a = policy(x, mask)                    # an action id of the fixed space
        return obs.legal_index(view, legal, ctx, a)

    okbot.run(decide, name="rl", version="1", on_events=obs.on_events)

It needs the engine's module `okr` (in the arena's jail when the project is built: PYTHONPATH
names build/python). The encoding is okr's own, not a copy: okr.Observer follows the events
for the known-card planes and encodes the view with Game.observe's C function.
"""


def _okr():
    try:
        import okr
    except ImportError as e:
        raise ImportError("okbot.observation needs the engine's module okr (build the project: "
                          "build/python, or pip install ./sdk/python): %s" % e) from e
    return okr


class Observation:
    """One per bot process: give it every Event (on_events) and it keeps what the table saw."""

    def __init__(self):
        self._observer = None
        self._rules = None

    def _obs(self):
        if self._observer is None:
            self._observer = _okr().Observer()
        return self._observer

    def _rules_of(self, ctx):
        if self._rules is None or self._rules[0] is not ctx.hello:
            self._rules = (ctx.hello, _okr().rules_from(ctx))
        return self._rules[1]

    def on_events(self, events, ctx=None):
        """okbot's on_events hook (or call it from yours): every event, in order."""
        self._obs().events(events)

    def observe(self, view, ctx, out=None):
        """The float32 observation of view.seat, equal to okr's Game.observe(seat) for the same
        moment of the same game (numpy array if installed, else array('f'), or into out)."""
        return self._obs().observe(view, rules=self._rules_of(ctx), out=out)

    @property
    def known(self):
        """{seat: cards} the table saw go into the other hands: okr.determinize(known=...)."""
        return self._obs().known

    def _world(self, view, legal, ctx):
        return _okr().determinize(view, 0, rules=self._rules_of(ctx), legal=legal)

    def action_mask(self, view, legal, ctx):
        """The fixed action space's mask (okr's Game.action_mask) of this decision."""
        return self._world(view, legal, ctx).action_mask()

    def legal_index(self, view, legal, ctx, action_id):
        """The index into legal (what decide returns) of an action id of the fixed space."""
        return self._world(view, legal, ctx).id_to_legal(action_id)

    def action_id(self, view, legal, ctx, index):
        """The action id of legal[index] (None if the fixed space has none for it)."""
        return self._world(view, legal, ctx).legal_to_id(index)
