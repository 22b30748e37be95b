"""okbot.wire - the generated messages and the frames that carry them.

Every message between the arena and a bot is preceded by its length as a base-128 varint
(protobuf's "length-delimited" stream convention). The varint is written and read with
google.protobuf's own helpers and the messages with their generated classes; nothing here
encodes a protobuf message by hand.

Finding google.protobuf: Debian's python3-protobuf installs it in
/usr/lib/python3/dist-packages, which a python3 other than /usr/bin/python3 (pyenv, a
virtualenv) does not search. When the import fails, that folder is appended to sys.path and
the import is tried once more.

Finding okr_pb2 (generated from proto/okr.proto), first match wins:
  1. $OKBOT_PB2_DIR/okr_pb2.py
  2. <repo>/build/sdk/python/okbot_gen/okr_pb2.py   (written by `cmake --build build`)
  3. okr_pb2.py beside this file (put there by `pip install ./sdk/python`)
  4. protoc ($PROTOC, else protoc on PATH) run on <repo>/proto/okr.proto (or the copy pip
     installs beside this file) into a temporary folder, removed once the module is loaded.
"""

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

try:
    import google.protobuf  # noqa: F401
except ImportError:
    sys.path.append("/usr/lib/python3/dist-packages")
    try:
        import google.protobuf  # noqa: F401
    except ImportError:
        raise ImportError("okbot needs google.protobuf: install Debian's python3-protobuf "
                          "(apt-get install python3-protobuf) or pip's protobuf") from None

from google.protobuf.internal.decoder import _DecodeVarint
from google.protobuf.internal.encoder import _VarintBytes
from google.protobuf.message import DecodeError

MAX_TO_BOT = 8 << 20     # largest arena->bot frame we accept (the arena's own limit)
MAX_FROM_BOT = 64 << 10  # largest bot->arena frame, unless Hello.max_frame says otherwise
_MAX_VARINT = 10         # bytes in the longest varint (64 bits)

PKG = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(PKG)))
PROTO = os.path.join(REPO, "proto", "okr.proto")
if not os.path.isfile(PROTO):  # installed by pip (sdk/python/setup.py): the copy in the package
    PROTO = os.path.join(PKG, "okr.proto")


class FrameError(Exception):
    """The byte stream broke the framing or held a message that does not parse."""


# ---- okr_pb2 ------------------------------------------------------------------------------

def _load_module(path):
    spec = importlib.util.spec_from_file_location("okr_pb2", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["okr_pb2"] = module
    spec.loader.exec_module(module)
    return module


def _load_pb2():
    dirs = [os.environ.get("OKBOT_PB2_DIR"),
            os.path.join(REPO, "build", "sdk", "python", "okbot_gen"),
            PKG]  # pip install ships okr_pb2.py in the package
    for d in dirs:
        if d and os.path.isfile(os.path.join(d, "okr_pb2.py")):
            return _load_module(os.path.join(d, "okr_pb2.py"))

    protoc = os.environ.get("PROTOC") or shutil.which("protoc")
    if not protoc or not os.path.isfile(PROTO):
        raise ImportError("okbot: okr_pb2.py not found: build the project (cmake --build "
                          "build), set OKBOT_PB2_DIR, or install protoc (protobuf-compiler)")
    tmp = tempfile.mkdtemp(prefix="okbot-pb2-")
    try:
        subprocess.run([protoc, "-I", os.path.dirname(PROTO), "--python_out=" + tmp, PROTO],
                       check=True, stdout=subprocess.DEVNULL)
        return _load_module(os.path.join(tmp, "okr_pb2.py"))
    except (OSError, subprocess.CalledProcessError) as e:
        raise ImportError("okbot: protoc could not generate okr_pb2.py: %s" % e) from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


pb = _load_pb2()


# ---- Frames -------------------------------------------------------------------------------

def encode_frame(message):
    """The frame of one message: varint(length) + serialized message."""
    body = message.SerializeToString()
    return _VarintBytes(len(body)) + body


def _read_exact(stream, n):
    """Read n bytes; fewer only at end of file. stream.read may return short counts."""
    parts = []
    while n > 0:
        chunk = stream.read(n)
        if not chunk:
            break
        parts.append(chunk)
        n -= len(chunk)
    return b"".join(parts)


class FrameReader:
    """Reads frames from a binary stream (anything with read(n) -> bytes, b"" at EOF)."""

    def __init__(self, stream, max_frame=MAX_TO_BOT):
        self.stream = stream
        self.max_frame = max_frame

    def read_frame(self):
        """The next frame's body, or None at a clean end of file (between frames).
        Raises FrameError for a malformed or oversized prefix or a frame cut short."""
        prefix = b""
        while True:
            byte = self.stream.read(1)
            if not byte:
                if prefix:
                    raise FrameError("end of input inside a length prefix")
                return None
            prefix += byte
            if byte[0] < 0x80:
                break
            if len(prefix) == _MAX_VARINT:
                raise FrameError("length prefix longer than %d bytes" % _MAX_VARINT)
        try:
            length, _ = _DecodeVarint(prefix, 0)
        except DecodeError as e:
            raise FrameError("bad length prefix: %s" % e) from None
        if length > self.max_frame:
            raise FrameError("frame of %d bytes exceeds the limit of %d" %
                             (length, self.max_frame))
        body = _read_exact(self.stream, length)
        if len(body) != length:
            raise FrameError("end of input inside a frame (%d of %d bytes)" %
                             (len(body), length))
        return body

    def read_message(self, cls):
        """The next frame parsed as cls (e.g. pb.ToBot), or None at a clean end of file."""
        body = self.read_frame()
        if body is None:
            return None
        message = cls()
        try:
            message.ParseFromString(body)
        except (DecodeError, RuntimeError, ValueError) as e:
            raise FrameError("frame of %d bytes is not a %s: %s" %
                             (len(body), cls.DESCRIPTOR.name, e)) from None
        return message


class FrameWriter:
    """Writes frames to a binary stream, flushing after each one."""

    def __init__(self, stream, max_frame=MAX_FROM_BOT):
        self.stream = stream
        self.max_frame = max_frame

    def write_message(self, message):
        frame = encode_frame(message)
        size = message.ByteSize()
        if self.max_frame and size > self.max_frame:
            raise ValueError("%s of %d bytes exceeds the arena's limit of %d" %
                             (message.DESCRIPTOR.name, size, self.max_frame))
        self.stream.write(frame)
        self.stream.flush()
