"""Seeded random ToBot frames: the Python SDK's decoder (protobuf's ParseFromString, as
FrameReader.read_message uses it) refuses or decodes each like the C codec (protobuf-c, the
arena's and the C SDK's decoder), asked through build/tests/sdk/pb_oracle. Where the two
libraries differ by design, the difference is named: the frame must show its cause, and
anything else is a failure. The causes (docs/sdk-python.md):

  utf8       a string field that is not UTF-8: Python refuses the frame, protobuf-c keeps it
  nul        a string with a NUL byte: protobuf-c's C strings end at it, Python keeps it all
  long-key / long-prefix
             a key or length prefix longer than 5 bytes: protobuf-c refuses, Python accepts
  wire-type  a known field sent with another wire type: protobuf-c refuses, Python keeps it
             as an unknown field
  group      a group (wire types 3 and 4, gone from proto3): protobuf-c refuses, Python
             skips it or stops at its end tag
  field-0    a key with field number 0 (never valid): protobuf-c refuses
"""

import os
import random
import struct
import subprocess
import unittest
import warnings

import harness  # noqa: F401  (puts okbot on sys.path)
from google.protobuf.descriptor import FieldDescriptor as FD
from okbot import pb

REPO = harness.REPO
BUILD = os.environ.get("OKR_BUILD_DIR", os.path.join(REPO, "build"))
ORACLE = os.path.join(BUILD, "tests", "sdk", "pb_oracle")
CORPUS = os.path.join(REPO, "tests", "fuzz", "corpus", "tobot")
FRAMES = 4000

_LEN_TYPES = (FD.TYPE_MESSAGE, FD.TYPE_STRING, FD.TYPE_BYTES)
_FIXED64 = (FD.TYPE_FIXED64, FD.TYPE_SFIXED64, FD.TYPE_DOUBLE)
_FIXED32 = (FD.TYPE_FIXED32, FD.TYPE_SFIXED32, FD.TYPE_FLOAT)


def _varint(b, i):
    """(value, bytes used) of the varint at b[i:], or (None, 0) if it is cut or over 10."""
    v = 0
    for n in range(10):
        if i + n >= len(b):
            return None, 0
        v |= (b[i + n] & 0x7F) << (7 * n)
        if b[i + n] < 0x80:
            return v, n + 1
    return None, 0


def causes(b, desc, found):
    """Walk a message's bytes by its descriptor and add the named causes found."""
    i = 0
    while i < len(b):
        key, n = _varint(b, i)
        if key is None:
            return
        if n > 5:
            found.add("long-key")
        if key >> 3 == 0:
            found.add("field-0")
        i += n
        fd, wt = desc.fields_by_number.get(key >> 3), key & 7
        if wt == 0:
            v, n = _varint(b, i)
            if v is None:
                return
            i += n
        elif wt == 1:
            i += 8
        elif wt == 5:
            i += 4
        elif wt == 2:
            length, n = _varint(b, i)
            if length is None:
                return
            if n > 5:
                found.add("long-prefix")
            body = b[i + n:i + n + length]
            i += n + length
            if fd is not None and fd.type == FD.TYPE_STRING:
                if b"\0" in body:
                    found.add("nul")
                try:
                    body.decode("utf-8")
                except UnicodeDecodeError:
                    found.add("utf8")
            elif fd is not None and fd.type == FD.TYPE_MESSAGE:
                causes(body, fd.message_type, found)
        else:
            found.add("group")
            return
        if fd is not None:
            want = 2 if fd.type in _LEN_TYPES else 1 if fd.type in _FIXED64 else \
                5 if fd.type in _FIXED32 else 0
            packed = fd.label == FD.LABEL_REPEATED and fd.type not in _LEN_TYPES and wt == 2
            if wt != want and not packed:
                found.add("wire-type")


# The causes that may explain each kind of difference.
EXPLAINS = {
    "python refuses": {"utf8"},
    "protobuf-c refuses": {"long-key", "long-prefix", "wire-type", "group", "field-0"},
    "decoded differently": {"nul", "wire-type"},
}


def mutate(rng, b):
    b = bytearray(b)
    for _ in range(rng.randrange(1, 4)):
        at = rng.randrange(len(b) + 1)
        k = rng.randrange(7)
        if k == 0 and b:
            b[min(at, len(b) - 1)] ^= 1 << rng.randrange(8)
        elif k == 1 and b:
            b[min(at, len(b) - 1)] = rng.randrange(256)
        elif k == 2:
            del b[at:]
        elif k == 3:
            b[at:at] = bytes([rng.choice([0, 1, 0x7F, 0x80, 0xFF, 0x0A, 0x12, 0x22])])
        elif k == 4 and b:
            del b[min(at, len(b) - 1)]
        elif k == 5 and b:  # a byte one more: a key, a length or a value moves by one
            b[min(at, len(b) - 1)] = (b[min(at, len(b) - 1)] + 1) & 0xFF
        else:
            b[at:at] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 6)))
    return bytes(b)


def python_decode(body):
    """The canonical re-encoding of what Python decodes, or "-" if it refuses."""
    m = pb.ToBot()
    try:
        with warnings.catch_warnings():  # "Unexpected end-group tag": a cause of its own
            warnings.simplefilter("ignore")
            m.ParseFromString(body)
    except Exception:  # DecodeError, or RuntimeError/ValueError from some backends
        return "-"
    return m.SerializeToString(deterministic=True).hex()


@unittest.skipUnless(os.access(ORACLE, os.X_OK), "no %s: build the project first" % ORACLE)
class RandomFramesTest(unittest.TestCase):
    def test_like_protobuf_c(self):
        base = []
        for name in sorted(os.listdir(CORPUS)):
            with open(os.path.join(CORPUS, name), "rb") as f:
                base.append(f.read())
        self.assertGreater(len(base), 5)
        rng = random.Random(2024)
        frames = base + [mutate(rng, rng.choice(base)) for _ in range(FRAMES)]
        frames += [bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
                   for _ in range(FRAMES // 4)]
        data = b"".join(struct.pack("<I", len(f)) + f for f in frames)
        out = subprocess.run([ORACLE], input=data, capture_output=True, check=True,
                             timeout=120).stdout.decode().split("\n")
        tally = {"same": 0, "both refuse": 0}
        for f, c in zip(frames, out):
            p = python_decode(f)
            if p == c:
                tally["same" if c != "-" else "both refuse"] += 1
                continue
            kind = "python refuses" if p == "-" else "protobuf-c refuses" if c == "-" else \
                "decoded differently"
            found = set()
            causes(f, pb.ToBot.DESCRIPTOR, found)
            named = found & EXPLAINS[kind]
            self.assertTrue(named, "%s, and the frame shows no named cause (%s): %s" %
                            (kind, ", ".join(sorted(found)) or "none", f.hex()))
            for cause in named:
                tally[cause] = tally.get(cause, 0) + 1
        for f in base:  # the real frames decode the same
            self.assertNotEqual(python_decode(f), "-")
        self.assertGreater(tally["same"], len(base))
        self.assertGreater(tally["both refuse"], 0)
        print("random frames:", ", ".join("%s %d" % kv for kv in sorted(tally.items())))


if __name__ == "__main__":
    unittest.main()
