"""okbot - write an okarena bot in Python (docs/sdk-python.md).

    import okbot

    def decide(view, legal, ctx):
        return 0   # index into legal

    okbot.run(decide, name="mybot", version="1.0")

okbot.pb is the module generated from proto/okr.proto (okr_pb2); okbot.cards has card names
and action-text helpers.

Importing okbot reserves the process's standard output for the arena's frames: from then on
print(), sys.stdout, fd 1 and child processes all write to stderr, the bot's log.
"""

from . import cards
from .bot import PROTOCOL_MAJOR, PROTOCOL_MINOR, Context, ProtocolError, run, take_stdout
from .wire import (MAX_FROM_BOT, MAX_TO_BOT, FrameError, FrameReader, FrameWriter,
                   encode_frame, pb)

__version__ = "1.0.0"

take_stdout()

__all__ = ["run", "Context", "cards", "pb", "encode_frame", "FrameReader", "FrameWriter",
           "FrameError", "ProtocolError", "MAX_TO_BOT", "MAX_FROM_BOT", "PROTOCOL_MAJOR",
           "PROTOCOL_MINOR"]
