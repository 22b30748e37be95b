"""The bot loop, driven by scripted ToBot frames into a subprocess running a bot."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import harness
from harness import PROBE_BOT, RANDOM_BOT, bye, decision, frame, game_start, hello, run_bot
from okbot import pb

PY = sys.executable


def choices(frames):
    return [f.choice for f in frames if f.WhichOneof("msg") == "choice"]


class RandomBotTest(unittest.TestCase):
    bot = [PY, RANDOM_BOT]

    def test_handshake(self):
        status, frames, err = run_bot(self.bot, hello() + bye())
        self.assertEqual(status, 0, err)
        self.assertEqual([f.WhichOneof("msg") for f in frames], ["identify", "ready"])
        ident = frames[0].identify
        self.assertEqual((ident.major, ident.minor), (1, 1))
        self.assertEqual((ident.name, ident.version), ("random-py", "1.0"))

    def test_choices(self):
        ids = [1, 2, 99, 2**63, 2**64 - 1]
        sizes = [1, 2, 3, 17, 400]
        data = hello() + game_start()
        for id_, n in zip(ids, sizes):
            data += decision(id_, ["discard %d" % i for i in range(n)])
        data += frame(game_end=pb.GameEnd(game_id="g1")) + bye()
        status, frames, err = run_bot(self.bot, data)
        self.assertEqual(status, 0, err)
        got = choices(frames)
        self.assertEqual([c.id for c in got], ids)
        for c, n in zip(got, sizes):
            self.assertEqual(c.WhichOneof("pick"), "index")
            self.assertTrue(0 <= c.index < n)

    def test_uniform_and_seeded(self):
        data = hello() + b"".join(decision(i, ["a", "b", "c", "d"]) for i in range(400))
        runs = [run_bot(self.bot + [seed], data) for seed in ("1", "1", "2")]
        picks = [[c.index for c in choices(r[1])] for r in runs]
        self.assertEqual(picks[0], picks[1])
        self.assertNotEqual(picks[0], picks[2])
        for i in range(4):
            self.assertGreater(picks[0].count(i), 50)  # 100 expected of each

    def test_note(self):
        """ctx.note goes with the Choice, cut to 280 bytes of UTF-8; reset at each decision."""
        data = hello() + game_start() + decision(2, ["a", "b"]) + decision(3, ["a"]) + bye()
        status, frames, err = run_bot([PY, PROBE_BOT, "note"], data)
        self.assertEqual(status, 0, err)
        got = choices(frames)
        self.assertEqual(len(got), 2)
        self.assertEqual(len(got[0].note.encode("utf-8")), 279)  # 1 + 2 * 139: no half character
        self.assertEqual(got[0].note, "x" + "\u00e9" * 139)
        self.assertEqual(got[1].note, "")

    def test_eof_without_bye(self):
        for data in (b"", hello(), hello() + decision(5, ["x", "y"])):
            status, frames, err = run_bot(self.bot, data)
            self.assertEqual(status, 0, err)

    def test_other_messages(self):
        ev = pb.Events()
        ev.events.add(seq=1, seat=1, type=pb.DRAW, card=255, text="DRAW")
        data = (hello() + game_start() + frame(events=ev) + frame() + decision(3, ["a", "b"])
                + frame(refused=pb.Refused(id=3, rule="4.5", reason="no")) +
                frame(hand_end=pb.HandEnd(hand_no=1)) + frame(game_end=pb.GameEnd()) + bye()
                + decision(4, ["never answered"]))
        status, frames, err = run_bot(self.bot, data)
        self.assertEqual(status, 0, err)
        self.assertEqual([f.WhichOneof("msg") for f in frames], ["identify", "ready", "choice"])
        self.assertIn("refused (RULES 4.5)", err)

    def test_garbage(self):
        for junk in (b"\xff" * 12,                      # varint too long
                     b"hello, arena",                    # 'h' = 104-byte frame, cut short
                     b"\xff\xff\xff\xff\x0f",            # 4 GiB frame
                     b"\x02\x0f\x00",                    # body does not parse
                     b"\x80"):                           # EOF inside the prefix
            for before in (b"", hello()):
                status, frames, err = run_bot(self.bot, before + junk + bye())
                self.assertEqual(status, 1, (junk, err))
                self.assertIn("okbot: broken input", err)

    def test_empty_legal_list(self):
        status, frames, err = run_bot(self.bot, hello() + decision(1, []))
        self.assertEqual(status, 1)
        self.assertIn("no legal actions", err)


class ProbeBotTest(unittest.TestCase):
    def probe(self, mode, data):
        return run_bot([PY, PROBE_BOT, mode], data)

    def test_stray_output_goes_to_the_log(self):
        data = hello() + game_start() + decision(8, ["a", "b"]) + decision(9, ["c"]) + bye()
        status, frames, err = self.probe("stray", data)
        self.assertEqual(status, 0, err)
        self.assertEqual([f.WhichOneof("msg") for f in frames],
                         ["identify", "ready", "choice", "choice"])
        for what in ("before run", "sys.stdout.write before run", "in on_hello", "in decide",
                     "os.write(1)", "child process"):
            self.assertIn("stray: " + what, err)

    def test_text_answers(self):
        data = hello() + decision(4, ["DRAW", "DISCARD TH", "DISCARD 2C"]) + \
            decision(5, ["PASS", "KNOCK 9S | 3H 4H 5H"]) + bye()
        status, frames, err = self.probe("text", data)
        self.assertEqual(status, 0, err)
        self.assertEqual([(c.id, c.index) for c in choices(frames)], [(4, 2), (5, 1)])

    def test_action_answers(self):
        data = hello() + decision(2, ["a", "b", "c"]) + decision(3, ["a", "b"]) + bye()
        status, frames, err = self.probe("action", data)
        self.assertEqual(status, 0, err)
        c = choices(frames)
        self.assertEqual((c[0].id, c[0].WhichOneof("pick"), c[0].index), (2, "index", 1))
        self.assertEqual((c[1].id, c[1].WhichOneof("pick")), (3, "action"))
        self.assertEqual(c[1].action.type, pb.PASS)

    def test_hand_built_actions_get_the_seat(self):
        """An Action built without a seat (seat 0, the proto3 default) goes out with the seat of
        the decision, so Action(type=PASS) works at every seat (RULES 2.2; the arena refuses an
        action for another seat, docs/protocol.md section 6)."""
        data = (hello() + game_start(seat=2) + decision(1, ["draw", "pass"], seat=2) +
                decision(2, ["a", "b", "c"], seat=2) + game_start(seat=1) +
                decision(3, ["draw", "pass"], seat=1) + game_start(seat=0) +
                decision(4, ["pass"], seat=0) + bye())
        status, frames, err = self.probe("handbuilt", data)
        self.assertEqual(status, 0, err)
        got = choices(frames)
        self.assertEqual([c.WhichOneof("pick") for c in got], ["action"] * 4)
        self.assertEqual([(c.id, c.action.type, c.action.seat) for c in got],
                         [(1, pb.PASS, 2), (2, pb.DISCARD, 2), (3, pb.PASS, 1), (4, pb.PASS, 0)])
        self.assertEqual(got[1].action.text, "")

    def test_an_explicit_seat_is_sent_as_written(self):
        """Only seat 0 means "mine": another seat goes out as the bot wrote it, for the arena to
        refuse."""
        data = hello() + game_start(seat=2) + decision(1, ["a", "b"], seat=2) + bye()
        status, frames, err = run_bot([PY, PROBE_BOT, "handbuilt", "1"], data)
        self.assertEqual(status, 0, err)
        self.assertEqual([(c.id, c.action.seat) for c in choices(frames)], [(1, 1)])

    def test_hooks(self):
        ev = pb.Events()
        ev.events.add(seq=1, text="DRAW")
        ev.events.add(seq=2, text="DISCARD QS")
        data = (hello() + game_start(seat=2) + frame(events=ev) + decision(6, ["a"]) +
                frame(refused=pb.Refused(id=6, rule="protocol")) +
                frame(hand_end=pb.HandEnd(hand_no=3)) +
                frame(game_end=pb.GameEnd(game_id="g1")) + bye())
        status, frames, err = self.probe("hooks", data)
        self.assertEqual(status, 0, err)
        for line in ("HOOK hello m1 out_or_pair", "HOOK game_start seat 2",
                     "HOOK events DRAW DISCARD QS", "HOOK decide 6 1 AC AD QS remaining>0",
                     "HOOK refused protocol", "HOOK hand_end 3", "HOOK game_end g1"):
            self.assertIn(line, err)
        # Ready comes after on_hello has run.
        self.assertEqual([f.WhichOneof("msg") for f in frames], ["identify", "ready", "choice"])

    def test_errors_in_the_bot(self):
        for mode, text in (("raise", "decide failed on purpose"),
                           ("badindex", "returned index 2, but there are 2")):
            status, frames, err = self.probe(mode, hello() + decision(1, ["a", "b"]) + bye())
            self.assertEqual(status, 1, err)
            self.assertIn(text, err)
            self.assertEqual([f.WhichOneof("msg") for f in frames], ["identify", "ready"])


class FindingDependenciesTest(unittest.TestCase):
    def test_python3_on_path(self):
        """`python3 bots/random/random_bot.py` works with whatever python3 is on PATH, also
        one without google.protobuf (pyenv, venv): okbot then falls back to Debian's."""
        py = shutil.which("python3")
        if py is None:
            self.skipTest("no python3 on PATH")
        status, frames, err = run_bot([py, RANDOM_BOT], hello() + decision(1, ["a"]) + bye())
        self.assertEqual(status, 0, err)
        self.assertEqual(len(frames), 3)

    def test_protoc_fallback(self):
        """Without OKBOT_PB2_DIR and without a build tree, okbot runs protoc itself."""
        if shutil.which("protoc") is None:
            self.skipTest("no protoc")
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(os.path.join(harness.REPO, "sdk", "python", "okbot"),
                            os.path.join(tmp, "sdk", "python", "okbot"))
            os.makedirs(os.path.join(tmp, "proto"))
            shutil.copy(os.path.join(harness.REPO, "proto", "okr.proto"),
                        os.path.join(tmp, "proto"))
            code = ("import sys; sys.path.insert(0, %r); import okbot; "
                    "print(okbot.pb.__file__, okbot.pb.Choice(id=1, index=2))"
                    % os.path.join(tmp, "sdk", "python"))
            env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
            env.pop("OKBOT_PB2_DIR", None)
            p = subprocess.run([PY, "-c", code], capture_output=True, text=True, env=env,
                               timeout=60)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("okbot-pb2-", p.stderr)  # print() goes to stderr
            self.assertEqual(p.stdout, "")
            self.assertEqual(sorted(os.listdir(tmp)), ["proto", "sdk"])  # nothing left behind


if __name__ == "__main__":
    unittest.main()
