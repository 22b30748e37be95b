"""okbot.bot - the bot's main loop: handshake, decisions, hooks (docs/sdk-python.md).

    import okbot

    def decide(view, legal, ctx):
        return 0              # an index into legal, an Action, or an action's text

    okbot.run(decide, name="first", version="1.0")
"""

import os
import sys
import time
import traceback

from . import cards
from .wire import MAX_FROM_BOT, MAX_TO_BOT, FrameError, FrameReader, FrameWriter, pb

PROTOCOL_MAJOR = 1
PROTOCOL_MINOR = 1
NOTE_MAX = 280  # bytes of UTF-8 the arena keeps of a note


def _cut_note(note):
    """The note as UTF-8 of at most NOTE_MAX bytes, cut on a character boundary."""
    b = str(note).encode("utf-8", "replace")[:NOTE_MAX]
    return b.decode("utf-8", "ignore")  # drops a character cut in half


class Context:
    """What the loop knows besides the view and the legal list. One object for the whole run.

    hello     the Hello message (rules, clocks, players, match_id), None before it
    game      the current GameStart message (seat, players, names, bank_ms), None outside games
    decision  the Decision being answered (id, view, legal, time_ms, bank_ms, hard_ms)
    rules     the rule options as a dict, e.g. ctx.rules["qs_discard"] == "out_or_pair"
    pb        the generated module okr_pb2, to build Actions: ctx.pb.Action(type=ctx.pb.DRAW)
    note      set it in decide to say why (protocol 1.1): sent with this Choice, stored in the
              game's record and shown beside the decision in the replay page (to the referee
              and this seat only); cut to NOTE_MAX bytes of UTF-8. "" again at each Decision.
    """

    def __init__(self):
        self.hello = None
        self.game = None
        self.decision = None
        self.rules = {}
        self.pb = pb
        self.started = 0.0  # time.monotonic() when the Decision was read
        self.note = ""

    @property
    def seat(self):
        return self.game.seat if self.game is not None else None

    @property
    def players(self):
        return self.hello.players if self.hello is not None else None

    def elapsed_ms(self):
        """Milliseconds since the current Decision was read."""
        return (time.monotonic() - self.started) * 1000.0

    def remaining_ms(self):
        """Milliseconds left for this decision before the bank runs out (or the hard ceiling,
        whichever is sooner). Negative when already late."""
        d = self.decision
        if d is None:
            return 0.0
        budget = d.time_ms + d.bank_ms
        if d.hard_ms:
            budget = min(budget, d.hard_ms)
        return budget - self.elapsed_ms()

    @staticmethod
    def log(*args):
        """print() to the log (stderr)."""
        print(*args, file=sys.stderr, flush=True)


class ProtocolError(Exception):
    """The arena sent something the protocol does not allow."""


def _choice(result, decision):
    """Turn decide()'s return value into a Choice."""
    legal = decision.legal
    if isinstance(result, bool) or result is None:
        raise TypeError("decide() returned %r: return an index, an Action or an action's "
                        "text" % (result,))
    if isinstance(result, int):
        if not 0 <= result < len(legal):
            raise ValueError("decide() returned index %d, but there are %d legal actions" %
                             (result, len(legal)))
        return pb.Choice(id=decision.id, index=result)
    if isinstance(result, str):
        index = cards.find_action(legal, result)
        if index is None:
            raise ValueError("decide() returned %r, which is not a legal action here" %
                             (result,))
        return pb.Choice(id=decision.id, index=index)
    if isinstance(result, pb.Action):
        for index, action in enumerate(legal):
            if action == result:
                return pb.Choice(id=decision.id, index=index)
        choice = pb.Choice(id=decision.id)
        choice.action.CopyFrom(result)
        if choice.action.seat == 0:
            # proto3 cannot tell an unset seat from 0: 0 means "my seat", the seat this
            # decision is for, so Action(type=PASS) works at every seat; another seat is sent
            # as written and the arena refuses it.
            choice.action.seat = decision.view.seat
        return choice
    raise TypeError("decide() returned a %s: return an index, an Action or an action's text"
                    % type(result).__name__)


_channel = None


def take_stdout():
    """Keep the real standard output (the arena's channel) for frames only: return a private
    binary handle on it, and point fd 1 and sys.stdout at stderr, so print(), os.write(1, ...)
    and child processes write to the log. Runs once, when okbot is imported; output printed
    before that and still buffered goes to the log too."""
    global _channel
    if _channel is None:
        channel = os.dup(1)
        os.dup2(2, 1)
        try:
            sys.stdout.flush()
        except (AttributeError, OSError, ValueError):
            pass
        sys.stdout = sys.stderr
        _channel = os.fdopen(channel, "wb")
    return _channel


def _serve(decide, hooks, name, version, reader, writer):
    """The loop; returns the exit status."""
    ctx = Context()

    def hook(key, message):
        fn = hooks.get(key)
        if fn is not None:
            fn(message, ctx)

    while True:
        msg = reader.read_message(pb.ToBot)
        if msg is None:
            return 0  # end of input: the arena is gone or done
        kind = msg.WhichOneof("msg")
        if kind == "hello":
            ctx.hello = msg.hello
            ctx.rules = {o.name: o.value for o in msg.hello.rules.options}
            if msg.hello.major != PROTOCOL_MAJOR:
                ctx.log("okbot: the arena speaks protocol %d.%d, this SDK %d.%d" %
                        (msg.hello.major, msg.hello.minor, PROTOCOL_MAJOR, PROTOCOL_MINOR))
            if msg.hello.max_frame:
                writer.max_frame = msg.hello.max_frame
            writer.write_message(pb.FromBot(identify=pb.Identify(
                major=PROTOCOL_MAJOR, minor=PROTOCOL_MINOR, name=name, version=version)))
            hook("on_hello", msg.hello)
            writer.write_message(pb.FromBot(ready=pb.Ready()))
        elif kind == "game_start":
            ctx.game = msg.game_start
            hook("on_game_start", msg.game_start)
        elif kind == "decision":
            d = msg.decision
            ctx.started = time.monotonic()
            ctx.decision = d
            ctx.note = ""
            if not d.legal:
                raise ProtocolError("Decision %d has no legal actions" % d.id)
            choice = _choice(decide(d.view, d.legal, ctx), d)
            if ctx.note:
                choice.note = _cut_note(ctx.note)
            writer.write_message(pb.FromBot(choice=choice))
        elif kind == "events":
            hook("on_events", msg.events.events)
        elif kind == "hand_end":
            hook("on_hand_end", msg.hand_end)
        elif kind == "game_end":
            hook("on_game_end", msg.game_end)
            ctx.game = None
        elif kind == "refused":
            r = msg.refused
            ctx.log("okbot: decision %d refused (RULES %s): %s" % (r.id, r.rule, r.reason))
            hook("on_refused", r)
        elif kind == "bye":
            return 0
        else:
            # An empty message, or one added by a later minor version: nothing to do.
            ctx.log("okbot: ignoring a ToBot frame with no known message")


HOOKS = ("on_hello", "on_game_start", "on_events", "on_hand_end", "on_game_end",
         "on_refused")


def run(decide, name="okbot", version="0", stdin=None, stdout=None, **hooks):
    """Play until Bye or end of input, then exit the process (status 0; 1 on a broken frame
    or an error in the bot). Never returns.

    decide(view, legal, ctx) is called for every Decision and returns the choice: an index
    into legal, one of legal's Actions, any other pb.Action (sent whole; a seat left 0 is
    filled in with the seat the decision is for), or an action's text ("draw", "discard QS")
    that appears in legal.

    decide may also be an object with a decide method and any of the hook methods below.

    Hooks, each hook(message, ctx), all optional: on_hello(Hello) runs between Identify and
    Ready (do your set-up there: it is on the startup clock), on_game_start(GameStart),
    on_events(list of Event), on_hand_end(HandEnd), on_game_end(GameEnd),
    on_refused(Refused).

    stdin and stdout (binary streams) replace the process's own: for tests. Without them the
    real stdout is kept for frames and print() goes to stderr.
    """
    unknown = set(hooks) - set(HOOKS)
    if unknown:
        raise TypeError("run(): unknown hook(s) %s; known: %s" %
                        (", ".join(sorted(unknown)), ", ".join(HOOKS)))
    if not callable(decide) and hasattr(decide, "decide"):
        bot = decide
        decide = bot.decide
        for key in HOOKS:
            if key not in hooks and callable(getattr(bot, key, None)):
                hooks[key] = getattr(bot, key)

    out = stdout if stdout is not None else take_stdout()
    inp = stdin if stdin is not None else sys.stdin.buffer
    reader = FrameReader(inp, MAX_TO_BOT)
    writer = FrameWriter(out, MAX_FROM_BOT)
    try:
        status = _serve(decide, hooks, name, version, reader, writer)
    except (FrameError, ProtocolError) as e:
        print("okbot: broken input from the arena: %s" % e, file=sys.stderr, flush=True)
        status = 1
    except BrokenPipeError:
        print("okbot: the arena closed the channel", file=sys.stderr, flush=True)
        status = 0
    except Exception:  # the bot's own error: show it in the log
        traceback.print_exc(file=sys.stderr)
        status = 1
    sys.stderr.flush()
    try:
        out.close()
    except OSError:
        pass
    sys.exit(status)
