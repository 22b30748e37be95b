#!/usr/bin/env python3
"""scan.py ARENA DIR SEAT RESPONSES [PAGE...] - no response the human seat's browser received
(RESPONSES: one JSON body per line) and no page holds a card that was concealed from SEAT at
the step of the game the response was sent at (RULES 8.3), checked against the game record of
DIR.

The referee's replay page (`arena replay DIR --html --all`) holds every hand at every step: the
engine replayed the record's actions one by one. Walking its frames in order gives, for each
step n (n actions applied) of hand h, the cards SEAT may know by then: those that were in its
own hand, on the pile or in a meld at some step of h up to n. Every other card is, at step n, in
another seat's hand or in the stock: concealed. A response says its step (`told`: how many
moves the seat has been told in this game); every card it shows for hand h (its view: hand,
pile, melds, upcard; the legal moves; the events tagged with hand h) must be known at that step.
So an opponent's card shown before that opponent discards it is caught, although the card is
public later in the same hand. Cards of a hand that has ended (HandEnd shows every hand) are not
scanned. Exit 1 with the first leaks."""
import json
import re
import subprocess
import sys

CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS]|JK)\b")


def frames(arena, d):
    page = d + "/referee.html"
    subprocess.run([arena, "replay", d, "--html", "--all", "--game", "0", "-o", page], check=True,
                   stdout=subprocess.DEVNULL)
    text = open(page).read()
    m = re.search(r'<script type="application/json" id="okr-data">(.*?)</script>', text, re.S)
    data = json.loads(m.group(1).replace("<\\/", "</"))
    return data


def tables(data):
    """Each frame with the parts it leaves out carried forward: dicts of h, n, pile, ml, hs."""
    last = {}
    for f in data["frames"]:
        for k in ("pile", "ml", "hs"):
            if k not in f:
                continue
            if isinstance(f[k], dict):  # only the seats that changed: {"0": "6C QC ..."}
                was = list(last.get(k) or [])
                for i, v in f[k].items():
                    while len(was) <= int(i):
                        was.append(None)
                    was[int(i)] = v
                last[k] = was
            else:
                last[k] = f[k]
        for k in ("h", "n"):
            if k in f:
                last[k] = f[k]
        yield dict(last)


def known_by_step(data, seat):
    """{hand: [(n, cards SEAT may know after the frames of step n)]}, n ascending, and
    {(hand, n): SEAT's hand, sorted}."""
    known, cur, own = {}, {}, {}
    for last in tables(data):
        h, n = last.get("h"), last.get("n", 0)
        if h is None:
            continue
        hs = last.get("hs") or []
        own[(h, n)] = sorted(CARD.findall(hs[seat] or "")) if seat < len(hs) else []
        s = cur.setdefault(h, set())
        s.update(CARD.findall(json.dumps(last.get("pile", []))))
        s.update(CARD.findall(re.sub(r"=\w+", "", json.dumps(last.get("ml", [])))))
        if seat < len(hs) and hs[seat]:
            s.update(CARD.findall(json.dumps(hs[seat])))
        steps = known.setdefault(h, [])
        if steps and steps[-1][0] == n:
            steps[-1] = (n, set(s))
        else:
            steps.append((n, set(s)))
    return known, own


def known_at(known, h, n):
    """What SEAT may know in hand h after n moves of the game (a later step of another hand:
    all of hand h). None: the record has no such step."""
    steps = known.get(h)
    if not steps or n < steps[0][0]:
        return None
    best = steps[0][1]
    for at, cards in steps:
        if at > n:
            break
        best = cards
    return best


def shown(resp):
    v = resp.get("view")
    if not v:
        return None, set()
    h = v["hand_no"]
    # a wild card's declaration ("as", "2C=QD") names a card it stands for, not a card
    parts = [v["hand"], v["pile"], [m["cards"] for m in v["melds"]], v.get("upcard")]
    if resp.get("decision"):
        parts.append([a["text"] for a in resp["decision"]["legal"]])
    parts.append([e["text"] for e in resp.get("events", []) if e.get("hand") == h])
    # the new texts: each legal move's cards used, the gin help's melds, the moves in words
    # (cards written with suit symbols, a wild card's "as X" naming no card) and their cards
    if resp.get("decision"):
        parts.append([a.get("uses", []) for a in resp["decision"]["legal"]])
    if resp.get("gin"):
        parts.append(resp["gin"]["melds"])
    for e in resp.get("events", []):
        if e.get("hand") != h:
            continue
        parts.append([words_cards(e.get("words", ""))])
        if isinstance(e.get("card"), int) and 0 <= e["card"] <= 52:
            parts.append(["JK" if e["card"] == 52 else "A23456789TJQK"[e["card"] % 13] + "CDHS"[e["card"] // 13]])
    return h, set(CARD.findall(re.sub(r"=\w+", "", json.dumps(parts))))


SYMBOL = re.compile(r"(10|[2-9AJQK])([\u2663\u2666\u2665\u2660])")


def words_cards(text):
    """The cards of a move in words as tokens ("10♥" is "TH", "Joker" is "JK"), the card a wild
    one stands for ("2♥ as Q♣") left out"""
    text = re.sub(r" as (?:10|[2-9AJQK])[\u2663\u2666\u2665\u2660]", "", text)
    out = ["JK" for _ in re.findall(r"\bJoker\b", text)]
    for rank, suit in SYMBOL.findall(text):
        out.append(("T" if rank == "10" else rank) + "CDHS"["\u2663\u2666\u2665\u2660".index(suit)])
    return " ".join(out)


def main():
    arena, d, seat, responses = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    data = frames(arena, d)
    known, own = known_by_step(data, seat)
    leaks, n = [], 0
    for line in open(responses):
        line = line.strip()
        if not line:
            continue
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if not isinstance(r, dict):
            continue
        h, cards = shown(r)
        if h is None:
            continue
        n += 1
        step = r.get("told")
        if not isinstance(step, int):
            leaks.append("a response without its step ('told')")
            continue
        may = known_at(known, h, step)
        if may is None:
            leaks.append("hand %d, step %d: not in the record" % (h, step))
            continue
        # a state with a Decision is the table of its step: if the seat's hand there is not
        # the record's, the step is wrong and the scan above would compare with the wrong step
        if r.get("decision") and sorted(r["view"]["hand"]) != own.get((h, step)):
            leaks.append("hand %d, step %d: the hand is not the record's at that step" % (h, step))
        bad = cards - may
        if bad:
            leaks.append("hand %d, step %d: %s" % (h, step, " ".join(sorted(bad))))
    for page in sys.argv[5:]:
        text = open(page).read()
        if CARD.search(re.sub(r"<script.*?</script>|<style.*?</style>", "", text, flags=re.S)):
            leaks.append("page %s shows a card" % page)
    if n == 0:
        print("scan: no state response to scan", file=sys.stderr)
        return 1
    if leaks:
        print("scan: concealed cards shown to seat %d: %s" % (seat, "; ".join(leaks[:5])),
              file=sys.stderr)
        return 1
    print("scan: %d responses, %d hands: no concealed card of another seat" % (n, len(known)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
