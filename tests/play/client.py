#!/usr/bin/env python3
"""client.py URL RESPONSES [SEED [reorder]] - plays the human seat of `arena play --browser` to
the end of the game over HTTP, picking a random legal move each turn (every fourth typed in the
notation, as a person would write it; the first set it may lay with its cards in another order,
which must then have happened with `reorder`), and in between sends the server what a hostile
local program or page would: no token, a wrong token, a wrong Host, a foreign Origin, oversized
headers and bodies, garbage and non-object JSON, a method other than GET/POST, paths outside
the routes, an out-of-range move, an answer with another decision's id, a move for another
seat, a move out of turn, moves in the notation that the engine refuses (422 with the rule
number: "refused (RULES G3): ..."), the replay of an answer already accepted, and more long
polls than the page holds (503, sent once the server says it holds 64). Each must get its error
status and change nothing (the state's version does not move); the game must go on to its end.
Every JSON body received is appended to RESPONSES for scan.py. Exit 0 when all held."""
import http.client
import json
import random
import re
import socket
import sys
import time
import urllib.parse

url = urllib.parse.urlparse(sys.argv[1])
out = open(sys.argv[2], "a")
token = urllib.parse.parse_qs(url.query)["t"][0]
HOST, PORT = url.hostname, url.port
failures = []
HELD = 64  # browser.c's MAX_WAITERS


def request(method, path, body=None, headers=None, token_=token):
    h = {"Host": "%s:%d" % (HOST, PORT)}
    if token_ is not None:
        h["X-Okr-Token"] = token_
    h.update(headers or {})
    c = http.client.HTTPConnection(HOST, PORT, timeout=30)
    c.request(method, path, body=body, headers=h)
    r = c.getresponse()
    data = r.read()
    c.close()
    if r.getheader("Content-Type", "").startswith("application/json"):
        out.write(data.decode() + "\n")
    return r.status, data, r


def raw(data):
    s = socket.create_connection((HOST, PORT), timeout=10)
    s.sendall(data)
    got = b""
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            got += b
    except (ConnectionResetError, socket.timeout):
        pass
    s.close()
    return got


def expect(name, status, want):
    if status not in want:
        failures.append("%s: got %s, want %s" % (name, status, want))


class Gone(Exception):
    pass


def state(since=None):
    """The seat's state; Gone once the arena has finished and closed the page's server."""
    try:
        st, data, _ = request("GET", "/state" + ("?since=%d" % since if since is not None else ""))
    except (ConnectionError, OSError):
        raise Gone()
    assert st == 200, st
    return json.loads(data)


def is_set(text):
    """A new meld of one rank with no wild card: its cards may be typed in any order."""
    w = text.split()
    return w[0] == "meld" and "=" not in text and len({c[0] for c in w[1:]}) == 1


rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 7)
hostile_done = False
held = []
old_answer = None
out_of_turn_done = False
typed = reordered = 0
moves = 0
st = state()
gone = False
while not st["over"]:
    d = st["decision"]
    if d is None and old_answer is not None and not out_of_turn_done:
        # out of turn: no decision of this seat waits (or, if one came meanwhile, the id is
        # old): refused plainly, nothing changed
        sc, body, _ = request("POST", "/act", json.dumps({"id": old_answer[0], "index": 0}))
        expect("a move out of turn", sc, {409})
        if b"nothing was changed" not in body or not (b"not your turn" in body or b"not the one waiting" in body):
            failures.append("a move out of turn: unclear error %r" % body[:120])
        out_of_turn_done = True
    if d is None:
        try:
            st = state(st["version"])
        except Gone:
            gone = True
            break
        continue
    if not hostile_done:
        v0 = st["version"]
        expect("no token", request("GET", "/state", token_=None)[0], {403})
        expect("wrong token", request("GET", "/state", token_="0" * 32)[0], {403})
        expect("short token", request("GET", "/state", token_=token[:-1])[0], {403})
        st403, body, _ = request("POST", "/act", json.dumps({"id": d["id"], "index": 0}),
                                 token_=None)
        expect("move without token", st403, {403})
        if body != b"forbidden\n":
            failures.append("403 body says more than forbidden: %r" % body[:80])
        expect("wrong Host", request("GET", "/state", headers={"Host": "evil.example:%d" % PORT})[0], {403})
        expect("foreign Origin", request("POST", "/act", json.dumps({"id": d["id"], "index": 0}),
                                         headers={"Origin": "http://evil.example"})[0], {403})
        expect("garbage JSON", request("POST", "/act", "{not json")[0], {400})
        expect("JSON array", request("POST", "/act", "[1,2]")[0], {400})
        expect("index as string", request("POST", "/act", json.dumps({"id": d["id"], "index": "0"}))[0], {400})
        expect("id as number", request("POST", "/act", json.dumps({"id": 5, "index": 0}))[0], {400})
        expect("out of range", request("POST", "/act", json.dumps({"id": d["id"], "index": 100000}))[0], {400})
        expect("negative index", request("POST", "/act", json.dumps({"id": d["id"], "index": -1}))[0], {400})
        expect("another decision", request("POST", "/act", json.dumps({"id": str(int(d["id"]) + 1), "index": 0}))[0], {409})
        expect("deep JSON", request("POST", "/act", "[" * 1000)[0], {400})
        expect("index and move both", request("POST", "/act", json.dumps({"id": d["id"], "index": 0, "move": "draw"}))[0], {400})
        expect("move not a string", request("POST", "/act", json.dumps({"id": d["id"], "move": 3}))[0], {400})
        # another seat's move: the page plays its own seat only
        other = (st["seat"] + 1) % len(st["names"])
        sc, body, _ = request("POST", "/act", json.dumps({"id": d["id"], "index": 0, "seat": other}))
        expect("a move for another seat", sc, {403})
        if b"is not yours" not in body or b"nothing was changed" not in body:
            failures.append("a move for another seat: unclear error %r" % body[:120])
        # moves typed in the notation that the engine refuses: 422 with the rule and its reason
        # (the first decision is a draw or an upcard: no discard, no meld is legal now)
        for move, rule in (("discard QS", r"^(\d+\.\d+|G\d+|6\.G)$"), ("meld 4H 5H 6H", r"^(\d+\.\d+|G\d+|6\.G)$"),
                           ("discard zz", r"^notation$")):
            sc, body, _ = request("POST", "/act", json.dumps({"id": d["id"], "move": move}))
            expect("refused move %r" % move, sc, {422})
            try:
                j = json.loads(body)
            except ValueError:
                j = {}
            if not re.match(rule, j.get("rule", "")) or not j.get("reason"):
                failures.append("refused move %r: rule %r, reason %r" % (move, j.get("rule"), j.get("reason")))
            want = "refused (RULES %s): " % j.get("rule") if rule != r"^notation$" else "not a move in the notation"
            if not j.get("error", "").startswith(want) or "nothing was changed" not in j.get("error", ""):
                failures.append("refused move %r: error %r" % (move, j.get("error")))
            # /check says the same refusal with 200, so that the page need not send the move
            sc, body, _ = request("POST", "/check", json.dumps({"id": d["id"], "move": move}))
            try:
                c = json.loads(body)
            except ValueError:
                c = {}
            if sc != 200 or c.get("ok") is not False or c.get("rule") != j.get("rule") or c.get("error") != j.get("error"):
                failures.append("/check of refused move %r: %s %r" % (move, sc, body[:160]))
        legal0 = d["legal"][0]["text"]
        sc, body, _ = request("POST", "/check", json.dumps({"id": d["id"], "move": legal0}))
        if sc != 200 or json.loads(body).get("index") != 0:
            failures.append("/check of the legal move %r: %s %r" % (legal0, sc, body[:160]))
        expect("/check with a stale id", request("POST", "/check", json.dumps({"id": str(int(d["id"]) + 1), "move": "draw"}))[0], {409})
        expect("/check without a move", request("POST", "/check", json.dumps({"id": d["id"], "move": 3}))[0], {400})
        expect("/check by GET", request("GET", "/check")[0], {405})
        expect("a refused move with a stale id", request("POST", "/act", json.dumps({"id": str(int(d["id"]) + 1), "move": "draw"}))[0], {409})
        expect("hint outside practice", request("POST", "/hint", json.dumps({"id": d["id"]}))[0], {403})
        expect("hint without an id", request("POST", "/hint", "{}")[0], {400})
        expect("huge body", request("POST", "/act", "{" + " " * 100000 + "}")[0], {400, 413})
        expect("PUT", request("PUT", "/act", "{}")[0], {405})
        expect("path traversal", request("GET", "/../../etc/passwd")[0], {404})
        expect("file-like path", request("GET", "/play.html")[0], {404})
        expect("act by GET", request("GET", "/act")[0], {405})
        expect("since garbage", request("GET", "/state?since=abc")[0], {400})
        big = b"GET /state HTTP/1.1\r\nHost: %s:%d\r\nX-Okr-Token: %s\r\nX-Pad: %s\r\n\r\n" % (
            HOST.encode(), PORT, token.encode(), b"x" * 20000)
        r = raw(big)
        if r and not r.startswith((b"HTTP/1.1 400", b"HTTP/1.1 413", b"HTTP/1.1 431")):
            failures.append("oversized headers answered %r" % r[:40])
        r = raw(b"\x00\x01\x02garbage\r\n\r\n")
        if r and not r.startswith(b"HTTP/1.1 400"):
            failures.append("garbage request answered %r" % r[:40])
        after = state()
        if after["version"] != v0 or after["decision"] is None or after["decision"]["id"] != d["id"]:
            failures.append("a refused request changed the state")
        # long polls: 64 pages may wait for news at once (browser.c, aw_waitlist); one more is
        # told to come back (503, Retry-After); the move below answers the 64 with the new state
        held = []
        for _ in range(HELD):
            h = socket.create_connection((HOST, PORT), timeout=10)
            h.sendall(b"GET /state?since=%d HTTP/1.1\r\nHost: %s:%d\r\nX-Okr-Token: %s\r\n\r\n" % (
                v0, HOST.encode(), PORT, token.encode()))
            held.append(h)
        # the 65th only once the server holds all 64 (its state says how many it holds): on a
        # loaded machine it may not have read them all yet (a fixed sleep failed under load)
        t_held = time.time() + 20
        while state()["polls"] < HELD and time.time() < t_held:
            time.sleep(0.02)
        expect("the server holds the %d long polls (\"polls\" in the state)" % HELD,
               state()["polls"], {HELD})
        st503, _, r503 = request("GET", "/state?since=%d" % v0)
        expect("a long poll beyond the %d held" % HELD, st503, {503})
        if st503 == 503 and r503.getheader("Retry-After") != "2":
            failures.append("503 without Retry-After: 2")
        hostile_done = True
    i = rng.randrange(len(d["legal"]))
    # the first set the seat may lay is typed with its cards in another order than the list's
    sets = [k for k, a in enumerate(d["legal"]) if is_set(a["text"])]
    if sets and not reordered:
        i = sets[0]
    if moves % 4 == 2 or (sets and not reordered):
        # the move typed in the notation, as a person would: lower case, a set's cards in
        # another order (the engine reads it as the listed move)
        words = d["legal"][i]["text"].lower().split()
        if is_set(d["legal"][i]["text"]):
            words[1:] = words[:0:-1]
            reordered += 1
        status, body, _ = request("POST", "/act", json.dumps({"id": d["id"], "move": " ".join(words)}))
        expect("a legal move typed in the notation (%s)" % " ".join(words), status, {200})
        typed += 1
    else:
        status, _, _ = request("POST", "/act", json.dumps({"id": d["id"], "index": i}))
        expect("legal move", status, {200})
    for h in held:
        try:
            head = h.recv(64)
        except OSError as e:
            head = repr(e).encode()
        if not head.startswith(b"HTTP/1.1 200"):
            failures.append("a held long poll was answered %r after a move" % head[:40])
        h.close()
    held = []
    moves += 1
    if old_answer is None:
        old_answer = (d["id"], i)
    elif moves == 5:
        # a replayed answer (the first one) and a second answer to the same decision
        v1 = state()["version"]
        expect("replayed answer", request("POST", "/act", json.dumps({"id": old_answer[0], "index": old_answer[1]}))[0], {409})
        expect("answer twice", request("POST", "/act", json.dumps({"id": d["id"], "index": i}))[0], {409})
    try:
        st = state()
    except Gone:
        gone = True
        break

if not hostile_done:
    failures.append("the game ended before the human's first decision")
if len(sys.argv) > 4 and sys.argv[4] == "reorder" and not reordered:
    failures.append("no set was typed in another order than the list's (the engine reads it)")
if moves >= 3 and not typed:
    failures.append("no move was played typed in the notation")
if not gone and not st.get("game_end") and not st["over"]:
    failures.append("the game did not end")
for f in failures:
    print("FAIL " + f)
print("client: %d moves (%d typed, %d melds reordered), %d failures, arena finished: %s" % (moves, typed, reordered, len(failures), gone or st["over"]))
sys.exit(1 if failures else 0)
