#!/usr/bin/env python3
"""practice.py URL RESPONSES - the takebacks of `arena play --practice` over HTTP. Plays the
human seat with random legal moves; every few of its moves it takes the move back (POST /undo)
and checks that the position is restored exactly: the same hand, pile, melds, sizes and legal
list as at the decision before that move, and a new Decision id. A replayed /undo, an undo
with an old id and an undo before any move of the seat are refused (409) and change nothing.
The JSON bodies received since the last takeback are left in RESPONSES (for scan.py). Exit 0 when all held."""
import http.client
import json
import random
import sys
import time
import urllib.parse

url = urllib.parse.urlparse(sys.argv[1])
out = open(sys.argv[2], "a")
token = urllib.parse.parse_qs(url.query)["t"][0]
HOST, PORT = url.hostname, url.port
failures = []
rng = random.Random(4)


def request(method, path, body=None):
    c = http.client.HTTPConnection(HOST, PORT, timeout=30)
    c.request(method, path, body=body,
              headers={"Host": "%s:%d" % (HOST, PORT), "X-Okr-Token": token})
    r = c.getresponse()
    data = r.read()
    c.close()
    if r.getheader("Content-Type", "").startswith("application/json"):
        out.write(data.decode() + "\n")
    return r.status, json.loads(data) if data else None


def decision_state():
    """The state once a Decision waits (None once the game is over)."""
    for _ in range(300):
        st, s = request("GET", "/state")
        if s.get("over") or s.get("game_end"):
            return None
        if s.get("decision"):
            return s
        time.sleep(0.05)
    raise SystemExit("practice: no Decision came")


def position(s):
    v = s["view"]
    return (v["hand_no"], v["hand"], v["pile"], v["melds"], v.get("upcard"), v.get("hand_n"),
            [a["text"] for a in s["decision"]["legal"]], s["told"])


def undo(did):
    return request("POST", "/undo", json.dumps({"id": did}))[0]


s = decision_state()
if not s["practice"]:
    failures.append("the state does not say practice")
st = undo(s["decision"]["id"])
if st != 409:
    failures.append("undo before any move: %s, want 409" % st)
moves = undos = 0
before = None
while s is not None and moves < 60:
    if moves % 3 == 2 and before is not None:
        old = s["decision"]["id"]
        st = undo(old)
        if st != 200:
            failures.append("undo: %s" % st)
            break
        undos += 1
        if undo(old) != 409:
            failures.append("a replayed undo was not refused")
        s = decision_state()
        if s is None:
            failures.append("the game ended after an undo")
            break
        # the states of the line taken back (some are sent while the game restarts) are not
        # in the final record: scan.py gets the final line only (its replayed start is the
        # same game)
        out.seek(0)
        out.truncate()
        out.write(json.dumps(s) + "\n")
        if position(s) != position(before):
            failures.append("undo %d: the position differs:\n%s\n%s" % (undos, position(s),
                                                                       position(before)))
        if s["decision"]["id"] in (old, before["decision"]["id"]):
            failures.append("undo %d: a Decision id was reused" % undos)
        if request("POST", "/act", json.dumps({"id": before["decision"]["id"], "index": 0}))[0] != 409:
            failures.append("an answer to the taken-back Decision was accepted")
    before = s
    legal = s["decision"]["legal"]
    st, _ = request("POST", "/act", json.dumps({"id": s["decision"]["id"],
                                                "index": rng.randrange(len(legal))}))
    if st != 200:
        failures.append("act: %s" % st)
        break
    moves += 1
    s = decision_state()
if s is not None:  # play the rest out
    while s is not None:
        request("POST", "/act", json.dumps({"id": s["decision"]["id"], "index": 0}))
        s = decision_state()
if undos < 3:
    failures.append("only %d takebacks were tried" % undos)
if failures:
    print("practice: " + "\n".join(failures), file=sys.stderr)
    sys.exit(1)
print("practice: %d moves, %d takebacks, each restored the position" % (moves, undos))
