"""Helpers for the okbot tests: build ToBot frames, run a bot program on them, read its
FromBot frames back."""

import io
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(REPO, "sdk", "python"))

import okbot  # noqa: E402
from okbot import pb  # noqa: E402

RANDOM_BOT = os.path.join(REPO, "bots", "random", "random_bot.py")
PROBE_BOT = os.path.join(HERE, "bots", "probe_bot.py")
TIMEOUT = 60  # seconds: a bot that hangs fails the test instead of blocking it


def frame(**kw):
    """One ToBot frame: frame(hello=pb.Hello(...))."""
    return okbot.encode_frame(pb.ToBot(**kw))


def hello(players=3, max_frame=65536):
    rules = pb.Rules(preset="laws", text="qs_discard=out_or_pair")
    rules.options.add(name="qs_discard", value="out_or_pair")
    return frame(hello=pb.Hello(major=1, minor=0, match_id="m1", players=players,
                                rules=rules, max_frame=max_frame, bot_name="b",
                                clocks=pb.Clocks(startup_ms=5000, decision_ms=1000,
                                                 bank_ms=10000, hard_ms=20000)))


def game_start(seat=0, players=3):
    return frame(game_start=pb.GameStart(game_id="g1", seat=seat, players=players,
                                         names=["a", "b", "c"][:players], bank_ms=10000))


def decision(id_, texts, seat=0):
    """A Decision whose legal actions are discards with the given texts (or 'draw', 'pass')."""
    d = pb.Decision(id=id_, time_ms=1000, bank_ms=10000, hard_ms=20000)
    d.view.seat = seat
    d.view.players = 3
    d.view.phase = pb.PLAY
    d.view.hand.extend([0, 13, 50])
    for i, text in enumerate(texts):
        if text in ("draw", "pass"):
            d.legal.add(type=pb.DRAW if text == "draw" else pb.PASS, seat=seat, text=text)
        else:
            d.legal.add(type=pb.DISCARD, seat=seat, card=i % 52, text=text)
    return frame(decision=d)


def bye():
    return frame(bye=pb.Bye(reason="done"))


def run_bot(argv, data, env=None):
    """Run a bot program with data on its stdin. Returns (status, frames, stderr text)
    where frames are the FromBot messages it wrote (the test fails if they do not parse)."""
    full_env = dict(os.environ)
    full_env["PYTHONDONTWRITEBYTECODE"] = "1"
    full_env.update(env or {})
    p = subprocess.run(argv, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=TIMEOUT, env=full_env)
    reader = okbot.FrameReader(io.BytesIO(p.stdout), okbot.MAX_FROM_BOT)
    frames = []
    while True:
        m = reader.read_message(pb.FromBot)
        if m is None:
            break
        frames.append(m)
    return p.returncode, frames, p.stderr.decode("utf-8", "replace")
