#!/usr/bin/env python3
"""hint.py URL MODE - hints in `arena play --practice --hint-bot CMD` over HTTP.
MODE follow: at every decision ask for a hint (POST /hint), check that it names one of the
legal moves (its index and its notation), that a hint for an old decision id is refused (409)
and changes nothing, then play the hinted move; once, take a move back (POST /undo): the hint at the restored
decision is the one given there before. The game is played to its end. MODE broken: the
hint bot cannot answer: every hint must say "the hint bot failed: ..." and the game goes on
(the human plays the first legal move to the end). Exit 0 when all held."""
import http.client
import json
import sys
import time
import urllib.parse

url = urllib.parse.urlparse(sys.argv[1])
mode = sys.argv[2]
token = urllib.parse.parse_qs(url.query)["t"][0]
HOST, PORT = url.hostname, url.port
failures = []


def request(method, path, body=None):
    c = http.client.HTTPConnection(HOST, PORT, timeout=30)
    c.request(method, path, body=body,
              headers={"Host": "%s:%d" % (HOST, PORT), "X-Okr-Token": token})
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, json.loads(data) if data else None


def decision_state():
    for _ in range(600):
        st, s = request("GET", "/state")
        if s.get("over") or s.get("game_end"):
            return None
        if s.get("decision"):
            return s
        time.sleep(0.05)
    raise SystemExit("hint: no Decision came")


def hint_of(did):
    """The hint for decision did once it came (the state's "hint" without "pending")."""
    for _ in range(400):
        st, s = request("GET", "/state")
        h = s.get("hint")
        if h and not h.get("pending"):
            if h["id"] != did:
                failures.append("a hint for %s, asked for %s" % (h["id"], did))
            return s, h
        time.sleep(0.05)
    raise SystemExit("hint: no hint came for %s" % did)


s = decision_state()
if not s.get("hints"):
    failures.append("the state does not offer hints")
hints = failed = 0
old = None
before = None  # (decision state, hint) of the human's previous decision, for the takeback
while s is not None:
    did = s["decision"]["id"]
    legal = s["decision"]["legal"]
    st, _ = request("POST", "/hint", json.dumps({"id": did}))
    if st != 200:
        failures.append("hint: %s" % st)
        break
    s2, h = hint_of(did)
    index = 0
    if mode == "follow":
        if "error" in h:
            failures.append("the hint bot failed: %s" % h["error"])
            break
        if not (0 <= h["index"] < len(legal)) or legal[h["index"]]["text"] != h["text"]:
            failures.append("hint %s is not one of the legal moves %s" % (h, legal))
            break
        index = h["index"]
        hints += 1
    else:
        if not h.get("error", "").startswith("the hint bot failed: "):
            failures.append("a broken hint bot gave %s" % h)
            break
        failed += 1
    if s2["decision"] != s["decision"] or s2["view"] != s["view"]:
        failures.append("asking for a hint changed the position")
    if old is not None:
        st, _ = request("POST", "/hint", json.dumps({"id": old}))
        if st != 409:
            failures.append("a hint for an old decision: %s, want 409" % st)
    if mode == "follow" and hints == 4 and before is not None:
        # take the last move back: the hint bot, started afresh on the replayed game, gives
        # the hint it gave there (greedy is deterministic)
        if request("POST", "/undo", json.dumps({"id": did}))[0] != 200:
            failures.append("undo refused")
            break
        # the seat says Bye (over) while the game restarts: wait for the new Decision
        for _ in range(400):
            s = request("GET", "/state")[1]
            if s.get("decision") and s["decision"]["id"] != did:
                break
            time.sleep(0.05)
        else:
            failures.append("no Decision after the takeback")
            break
        did2 = s["decision"]["id"]
        request("POST", "/hint", json.dumps({"id": did2}))
        _, h2 = hint_of(did2)
        if h2.get("text") != before[1]["text"] or h2.get("index") != before[1]["index"]:
            failures.append("after a takeback the hint is %s, before it was %s" % (h2, before[1]))
        h, did, hints = h2, did2, hints + 1
        index = h2.get("index", 0)
    before = (s, h)
    old = did
    st, _ = request("POST", "/act", json.dumps({"id": did, "index": index}))
    if st != 200:
        failures.append("act: %s" % st)
        break
    s = decision_state()
if mode == "follow" and hints < 5:
    failures.append("only %d hints" % hints)
if mode == "broken" and failed < 2:
    failures.append("only %d failed hints" % failed)
if failures:
    print("hint: " + "\n".join(failures), file=sys.stderr)
    sys.exit(1)
print("hint: %d hints followed, %d failures reported; the game ended" % (hints, failed))
