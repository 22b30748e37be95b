#!/usr/bin/env python3
"""random_bot.py - the smallest okarena bot: a uniformly random legal action.

Run it:   python3 bots/random/random_bot.py [SEED]
The okbot SDK (sdk/python) reads the arena's messages on stdin, answers on stdout and sends
anything you print() to stderr, the bot's log. All you write is decide().
"""
import os
import random
import sys

# Find the SDK next to this file (or set PYTHONPATH=sdk/python and drop these two lines).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../sdk/python"))
import okbot  # noqa: E402

# Same seed, same choices: a game can be replayed exactly.
rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)


def decide(view, legal, ctx):
    """view: what this seat may see (hand, melds, pile, ...); legal: every action allowed
    now, in the engine's order. Return the index of the one to play."""
    return rng.randrange(len(legal))


okbot.run(decide, name="random-py", version="1.0")
