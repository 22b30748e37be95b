#!/usr/bin/env python3
"""scan.py ARENA DIR SEAT RESPONSES [PAGE...] - no response the human seat's browser received
(RESPONSES: one JSON body per line) and no page holds a concealed card of another seat
(RULES 8.3), checked against the game record of DIR.

The referee's replay page (`arena replay DIR --html --all`) holds every hand at every step.
For each hand h, the cards SEAT may know during h are those that were in its own hand, on the
pile or in a meld at some step of h. Every card a response shows for hand h (its view: hand,
pile, melds, upcard; the legal moves; the events tagged with hand h) must be one of them: a
card that stayed in another hand or in the stock all hand long never may. Cards of a hand
that has ended (HandEnd shows every hand) are not scanned. Exit 1 with the first leaks."""
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


def known_by_hand(data, seat):
    known, last = {}, {}
    for f in data["frames"]:
        for k in ("pile", "ml", "hs"):
            if k not in f:
                continue
            if isinstance(f[k], dict):  # only the seats that changed: {"0": "6C QC ..."}
                cur = list(last.get(k) or [])
                for i, v in f[k].items():
                    while len(cur) <= int(i):
                        cur.append(None)
                    cur[int(i)] = v
                last[k] = cur
            else:
                last[k] = f[k]
        if "h" in f:
            last["h"] = f["h"]
        h = last.get("h")
        if h is None:
            continue
        s = known.setdefault(h, set())
        s.update(CARD.findall(json.dumps(last.get("pile", []))))
        s.update(CARD.findall(re.sub(r"=\w+", "", json.dumps(last.get("ml", [])))))
        hs = last.get("hs") or []
        if seat < len(hs) and hs[seat]:
            s.update(CARD.findall(json.dumps(hs[seat])))
    return known


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
    return h, set(CARD.findall(re.sub(r"=\w+", "", json.dumps(parts))))


def main():
    arena, d, seat, responses = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    data = frames(arena, d)
    known = known_by_hand(data, seat)
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
        bad = cards - known.get(h, set())
        if bad:
            leaks.append("hand %d: %s" % (h, " ".join(sorted(bad))))
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


sys.exit(main())
