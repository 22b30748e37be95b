"""Framing: round trips, split reads, zero-length frames, limits, broken input."""

import io
import random
import unittest

import harness  # noqa: F401  (puts okbot on sys.path)
from google.protobuf.internal.encoder import _VarintBytes
import okbot
from okbot import pb


class Trickle(io.RawIOBase):
    """A stream that hands out at most `step` bytes per read (like a pipe under load)."""

    def __init__(self, data, step=1, seed=None):
        self.data, self.pos, self.step = data, 0, step
        self.rng = random.Random(seed) if seed is not None else None

    def read(self, n=-1):
        step = self.rng.randint(1, self.step) if self.rng else self.step
        if n is None or n < 0:
            n = len(self.data)
        chunk = self.data[self.pos:self.pos + min(n, step)]
        self.pos += len(chunk)
        return chunk


def sample_decision(n_legal=5, id_=7):
    d = pb.Decision(id=id_, time_ms=100, bank_ms=2000, hard_ms=5000)
    d.view.hand.extend([0, 12, 25, 38, 51, 52, 52])
    d.view.scores.extend([-15, 0, 300])
    m = d.view.melds.add(owner=1, type=pb.RUN, lo=4, suit=2, cards=[30, 31, 0])
    getattr(m, "as").extend([30, 31, 32])
    for i in range(n_legal):
        d.legal.add(type=pb.DISCARD, card=i % 53, text="discard " + okbot.cards.name(i % 53))
    return pb.ToBot(decision=d)


class FrameTest(unittest.TestCase):
    def read_all(self, stream, max_frame=okbot.MAX_TO_BOT, cls=pb.ToBot):
        reader = okbot.FrameReader(stream, max_frame)
        out = []
        while (m := reader.read_message(cls)) is not None:
            out.append(m)
        return out

    def test_varint_prefix(self):
        self.assertEqual(okbot.encode_frame(pb.FromBot(ready=pb.Ready()))[:1], b"\x02")
        big = pb.ToBot(bye=pb.Bye(reason="x" * 300))
        f = okbot.encode_frame(big)
        self.assertEqual(len(f), 2 + big.ByteSize())
        self.assertEqual(f[:2], bytes([big.ByteSize() & 0x7F | 0x80, big.ByteSize() >> 7]))

    def test_round_trip(self):
        msgs = [pb.ToBot(hello=pb.Hello(major=1, players=4, match_id="m")),
                sample_decision(), pb.ToBot(events=pb.Events()),
                sample_decision(300, 2**64 - 1), pb.ToBot(bye=pb.Bye(reason="done"))]
        data = b"".join(okbot.encode_frame(m) for m in msgs)
        self.assertEqual(self.read_all(io.BytesIO(data)), msgs)

    def test_split_reads(self):
        msgs = [sample_decision(n, n) for n in (1, 2, 50, 700)]
        data = b"".join(okbot.encode_frame(m) for m in msgs)
        self.assertEqual(self.read_all(Trickle(data, 1)), msgs)
        for seed in range(5):
            self.assertEqual(self.read_all(Trickle(data, 97, seed)), msgs)

    def test_zero_length_frame(self):
        self.assertEqual(okbot.encode_frame(pb.FromBot()), b"\x00")
        reader = okbot.FrameReader(io.BytesIO(b"\x00\x00" + okbot.encode_frame(
            pb.FromBot(ready=pb.Ready()))))
        self.assertEqual(reader.read_frame(), b"")
        empty = reader.read_message(pb.FromBot)
        self.assertIsNone(empty.WhichOneof("msg"))
        self.assertEqual(reader.read_message(pb.FromBot).WhichOneof("msg"), "ready")
        self.assertIsNone(reader.read_frame())

    def test_limit(self):
        body = b"\x42\x00" * 50  # 100 bytes (Bye with an empty reason, repeated)
        exact = bytes([100]) + body
        self.assertEqual(okbot.FrameReader(io.BytesIO(exact), 100).read_frame(), body)
        with self.assertRaisesRegex(okbot.FrameError, "exceeds"):
            okbot.FrameReader(io.BytesIO(bytes([101]) + body + b"\x00"), 100).read_frame()

    def test_oversized_rejected_before_reading(self):
        # 2^32 - 1 declared, nothing behind it: refused from the prefix alone.
        prefix = b"\xff\xff\xff\xff\x0f"
        with self.assertRaisesRegex(okbot.FrameError, "exceeds"):
            okbot.FrameReader(io.BytesIO(prefix)).read_frame()
        prefix = _VarintBytes(okbot.MAX_TO_BOT + 1)
        with self.assertRaisesRegex(okbot.FrameError, "exceeds"):
            okbot.FrameReader(io.BytesIO(prefix)).read_frame()

    def test_broken_prefix(self):
        with self.assertRaisesRegex(okbot.FrameError, "longer than 10"):
            okbot.FrameReader(io.BytesIO(b"\xff" * 12)).read_frame()
        with self.assertRaisesRegex(okbot.FrameError, "inside a length prefix"):
            okbot.FrameReader(io.BytesIO(b"\x80\x80")).read_frame()

    def test_truncated_frame(self):
        data = okbot.encode_frame(sample_decision())
        for cut in (len(data) - 1, 3):
            with self.assertRaisesRegex(okbot.FrameError, "inside a frame"):
                okbot.FrameReader(io.BytesIO(data[:cut])).read_frame()

    def test_unparsable_body(self):
        # Field 1 with wire type 7 (invalid) and a length running past the end.
        for body in (b"\x0f", b"\x0a\x05ab"):
            data = bytes([len(body)]) + body
            with self.assertRaisesRegex(okbot.FrameError, "not a ToBot"):
                okbot.FrameReader(io.BytesIO(data)).read_message(pb.ToBot)

    def test_clean_eof(self):
        self.assertIsNone(okbot.FrameReader(io.BytesIO(b"")).read_frame())

    def test_writer(self):
        out = io.BytesIO()
        w = okbot.FrameWriter(out, 64)
        w.write_message(pb.FromBot(choice=pb.Choice(id=3, index=0)))
        back = okbot.FrameReader(io.BytesIO(out.getvalue())).read_message(pb.FromBot)
        self.assertEqual(back.choice.WhichOneof("pick"), "index")  # index 0 is sent
        self.assertEqual((back.choice.id, back.choice.index), (3, 0))
        with self.assertRaises(ValueError):
            w.write_message(pb.FromBot(identify=pb.Identify(name="x" * 100)))


if __name__ == "__main__":
    unittest.main()
