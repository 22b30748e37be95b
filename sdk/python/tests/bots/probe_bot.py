"""A test bot for the okbot loop tests: probe_bot.py MODE.

stray   prints everywhere it can (before run, in hooks, in decide, on fd 1, from a child)
text    answers with the text of the last legal action, in lower case
action  answers with legal[1] itself on even ids, with an Action not in legal on odd ids
hooks   an object bot that logs every hook call to stderr as "HOOK name detail"
raise   decide raises
badindex decide returns len(legal)
note    sets ctx.note on even ids: "x" and 200 two-byte characters (too long); none on odd
handbuilt  builds its actions by hand, never naming a seat: Action(type=PASS) (one object
        for the whole run) when a pass is legal, else a copy of a random legal action without
        its seat and text; `handbuilt SEAT` writes that seat into every action instead
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import okbot  # noqa: E402
from okbot import pb  # noqa: E402

mode = sys.argv[1]

if mode == "stray":
    print("stray: before run")
    sys.stdout.write("stray: sys.stdout.write before run\n")

    def decide(view, legal, ctx):
        print("stray: in decide")
        sys.stdout.write("stray: sys.stdout.write\n")
        sys.stdout.flush()
        os.write(1, b"stray: os.write(1)\n")
        subprocess.run(["echo", "stray: child process"], check=True)
        return 0

    def on_hello(message, ctx):
        print("stray: in on_hello")

    okbot.run(decide, name="stray", version="0", on_hello=on_hello)

elif mode == "text":
    okbot.run(lambda view, legal, ctx: legal[-1].text.lower(), name="text")

elif mode == "action":
    def decide(view, legal, ctx):
        if ctx.decision.id % 2 == 0:
            return legal[1]
        return pb.Action(type=pb.PASS, text="pass")

    okbot.run(decide, name="action")

elif mode == "note":
    def decide(view, legal, ctx):
        if ctx.decision.id % 2 == 0:
            ctx.note = "x" + "\u00e9" * 200
        return 0

    okbot.run(decide, name="note")

elif mode == "hooks":
    class Bot:
        def on_hello(self, hello, ctx):
            print("HOOK hello", hello.match_id, ctx.rules.get("qs_discard"))

        def on_game_start(self, game, ctx):
            print("HOOK game_start seat", ctx.seat)

        def on_events(self, events, ctx):
            print("HOOK events", " ".join(e.text for e in events))

        def on_hand_end(self, hand_end, ctx):
            print("HOOK hand_end", hand_end.hand_no)

        def on_game_end(self, game_end, ctx):
            print("HOOK game_end", game_end.game_id)

        def on_refused(self, refused, ctx):
            print("HOOK refused", refused.rule)

        def decide(self, view, legal, ctx):
            print("HOOK decide", ctx.decision.id, len(legal), okbot.cards.names(view.hand),
                  "remaining>0" if ctx.remaining_ms() > 0 else "late")
            return 0

    okbot.run(Bot(), name="hooks")

elif mode == "handbuilt":
    import random

    rng = random.Random(1)
    seat = int(sys.argv[2]) if len(sys.argv) > 2 else None
    PASS = pb.Action(type=pb.PASS)  # built once, sent from every seat

    def decide(view, legal, ctx):
        if any(a.type == pb.PASS for a in legal) and seat is None:
            return PASS
        a = pb.Action()
        a.CopyFrom(legal[rng.randrange(len(legal))])
        a.ClearField("seat")
        a.ClearField("text")
        if seat is not None:
            a.seat = seat
        return a

    okbot.run(decide, name="handbuilt", version="1.0")

elif mode == "raise":
    def decide(view, legal, ctx):
        raise RuntimeError("probe: decide failed on purpose")

    okbot.run(decide, name="raise")

elif mode == "badindex":
    okbot.run(lambda view, legal, ctx: len(legal), name="badindex")

else:
    sys.exit("probe_bot.py: unknown mode %r" % mode)
