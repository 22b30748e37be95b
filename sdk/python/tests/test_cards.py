"""okbot.cards: card names and action text."""

import unittest

import harness  # noqa: F401  (puts okbot on sys.path)
from okbot import cards, pb


class CardsTest(unittest.TestCase):
    def test_names_round_trip(self):
        for k in range(cards.KINDS):
            self.assertEqual(cards.parse(cards.name(k)), k)
            self.assertEqual(cards.parse(cards.name(k).lower()), k)
        self.assertEqual(cards.names([0, 13, 26, 39, 9, 50, 52, 255]),
                         "AC AD AH AS TC QS JK ??")

    def test_encoding(self):
        self.assertEqual(cards.kind(cards.SPADES, 12), 50)
        self.assertEqual(cards.kind(cards.CLUBS, 1), 0)
        self.assertEqual((cards.suit(50), cards.rank(50)), (3, 12))
        self.assertEqual((cards.suit(52), cards.rank(52)), (None, None))
        self.assertEqual(cards.parse("10h"), cards.parse("TH"))
        self.assertEqual(cards.parse("jk"), cards.JOKER)
        self.assertEqual(cards.parse_list(" 2c  qs\tJK "), [1, 50, 52])
        self.assertEqual(cards.counts([0, 0, 52])[0], 2)

    def test_errors(self):
        for bad in ("", "1H", "AX", "KSS", "J", "11C"):
            with self.assertRaises(ValueError, msg=bad):
                cards.parse(bad)
        for bad in (-1, 53, 254, 256):
            with self.assertRaises(ValueError):
                cards.name(bad)
        with self.assertRaises(ValueError):
            cards.kind(4, 1)

    def test_actions(self):
        self.assertEqual(cards.normalize_action("  take new 10h th 2c=10H  # c"),
                         "TAKE NEW TH TH 2C=TH")
        self.assertEqual(cards.normalize_action("knock 9s|3h 4h 5h"), "KNOCK 9S | 3H 4H 5H")
        self.assertEqual(cards.normalize_action("add 10 9h"), "ADD 10 9H")
        legal = [pb.Action(type=pb.DRAW, text="DRAW"),
                 pb.Action(type=pb.DISCARD, card=9, text="DISCARD TC")]
        self.assertEqual(cards.find_action(legal, "discard 10c"), 1)
        self.assertEqual(cards.find_action(legal, "Draw"), 0)
        self.assertIsNone(cards.find_action(legal, "pass"))


if __name__ == "__main__":
    unittest.main()
