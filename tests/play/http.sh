#!/usr/bin/env bash
# http.sh BUILD_DIR HELPERS_DIR - `arena play --browser` over HTTP (client.py): a scripted human
# plays a whole gin game against @random through the page's API while hostile requests (no or
# wrong token, wrong Host or Origin, oversized, garbage JSON, another decision's id, a replayed
# answer, out-of-range moves, a move for another seat or out of turn, moves in the notation the
# engine refuses: 422 with the rule number, other methods and paths) each get their error and
# change nothing; some moves are typed in the notation; the game is recorded, replays and
# verifies, and nothing the seat received holds a concealed card of the other seat (scan.py
# against the record). Then a laws game with 3 seats.
source "$(dirname "$0")/../match/lib.bash" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)

# play_http NAME SEAT ARGS...: run arena play in the background, drive it with client.py
play_http() {
    local name=$1 seat=$2
    shift 2
    "$ARENA" play --human "$seat" -o "$TMP/$name" "$@" >"$TMP/$name.out" 2>&1 </dev/null &
    local pid=$! url="" i
    for i in $(seq 100); do
        url=$(grep -o 'http://127.0.0.1:[0-9]*/?t=[0-9a-f]*' "$TMP/$name.out" 2>/dev/null)
        [ -n "$url" ] && break
        sleep 0.1
    done
    check "$name: the URL is printed, on 127.0.0.1 with a 32-digit token" test -n "$url"
    check "$name: client plays the whole game, every hostile request refused" \
        timeout 300 python3 "$HERE/client.py" "$url" "$TMP/$name.responses" 11 ${CLIENT_EXTRA:-}
    # a scripted human that failed leaves the arena waiting for it: end it after 20 s
    for i in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill "$pid" 2>/dev/null
    wait "$pid"
    check "$name: arena play exits 0" test $? -eq 0
    check "$name: the game is recorded and ends" py "$TMP/$name" \
        'len(g) == 1' 'bots["you"]["games"] == 1' 'not any(bots["you"]["errors"].values())'
    check "$name: the record replays and verifies" "$ARENA" replay "$TMP/$name" --game 0 --quiet
    check "$name: no concealed card of another seat in any response" \
        python3 "$HERE/scan.py" "$ARENA" "$TMP/$name" "$seat" "$TMP/$name.responses"
}

play_http gin 0 --rules gin --rule max_hands=2 --bot @random --seed 5
# a set typed in another order than the legal list's is read by the engine as the listed move
CLIENT_EXTRA=reorder play_http laws 1 --rules laws --players 3 --rule max_hands=1 --bot @greedy --bot @random --seed 8

# the same seat kind in a match: arena match --human, two games (the seats rotate)
"$ARENA" match --rules gin --rule max_hands=1 --games 2 --bot @random --human 1 --seed 6 \
    --out "$TMP/match" --quiet >"$TMP/match.out" 2>&1 </dev/null &
mpid=$!
for i in $(seq 100); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/?t=[0-9a-f]*' "$TMP/match.out" 2>/dev/null) && break
    sleep 0.1
done
check "match --human: the client plays both games" \
    timeout 300 python3 "$HERE/client.py" "$url" "$TMP/match.responses" 3
for i in $(seq 200); do kill -0 "$mpid" 2>/dev/null || break; sleep 0.1; done
kill "$mpid" 2>/dev/null
wait "$mpid"
check "match --human: exits 0" test $? -eq 0
check "match --human: two games recorded, the human in both, no verdict" py "$TMP/match" \
    'len(g) == 2' 'bots["you"]["games"] == 2' 'not any(bots["you"]["errors"].values())'
out=$("$ARENA" match --rules gin --bot @random --human 0 --practice --out "$TMP/mp" 2>&1)
check "match --practice is refused (exit 2)" test $? -eq 2

# leaving: POST /quit is the seat's RE "left the game", recorded as for a bot; the match ends
"$ARENA" play --rules gin --bot @random --seed 3 -o "$TMP/quit" >"$TMP/quit.out" 2>&1 </dev/null &
qpid=$!
for i in $(seq 100); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/?t=[0-9a-f]*' "$TMP/quit.out" 2>/dev/null) && break
    sleep 0.1
done
python3 - "$url" <<'PY'
import http.client, sys, urllib.parse
u = urllib.parse.urlparse(sys.argv[1])
c = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
c.request("POST", "/quit", body=b"", headers={"X-Okr-Token": u.query[2:]})
print(c.getresponse().status)
PY
for i in $(seq 100); do kill -0 "$qpid" 2>/dev/null || break; sleep 0.1; done
kill "$qpid" 2>/dev/null
wait "$qpid"
check "quit: arena play ends by itself and exits 0" test $? -eq 0
check "quit: the human's seat is RE 'left the game' in the record" py "$TMP/quit" \
    'bots["you"]["errors"]["RE"] == 1' '"left the game" in open("'"$TMP/quit"'/games.jsonl").read()'

# a closed page is the human's timeout: while the page holds a long poll (or asks again) the
# seat waits for the human; once it has asked nothing for --page-timeout seconds the seat is
# TLE (clock "gone"), the match records it and ends by itself
"$ARENA" play --rules gin --bot @random --seed 3 --page-timeout 2 -o "$TMP/gone" \
    >"$TMP/gone.out" 2>&1 </dev/null &
gpid=$!
for i in $(seq 100); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/?t=[0-9a-f]*' "$TMP/gone.out" 2>/dev/null) && break
    sleep 0.1
done
python3 - "$url" <<'PY' >"$TMP/gone.poll"
import http.client, json, sys, time, urllib.parse
u = urllib.parse.urlparse(sys.argv[1])
tok = {"X-Okr-Token": u.query[2:]}
def get(path, timeout=30):
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)
    c.request("GET", path, headers=tok)
    r = c.getresponse()
    return r.status, r.read()
st, body = get("/")
v = json.loads(get("/state")[1])["version"]
# an open page: one long poll held for 5 s, more than the page timeout
try:
    get("/state?since=%d" % v, timeout=5)
except OSError:
    pass
print("page", st)
PY
check "gone: an open page (a held long poll) keeps the seat past --page-timeout" kill -0 $gpid
# (the poll the client gave up on stays held until its 20 s are up: evhttp does not read a
# connection whose request is held, so it learns of the close only when it answers)
for i in $(seq 400); do kill -0 "$gpid" 2>/dev/null || break; sleep 0.1; done
check "gone: once the page is silent, arena play ends by itself (within 20 s + the timeout)" \
    bash -c "! kill -0 $gpid 2>/dev/null"
kill "$gpid" 2>/dev/null
wait "$gpid"
check "gone: exits 0" test $? -eq 0
check "gone: the human's seat is TLE, clock gone, 'page was closed'" py "$TMP/gone" \
    'bots["you"]["errors"]["TLE"] == 1' \
    '[(v["verdict"], v["clock"]) for v in g[0]["verdicts"]] == [("TLE", "gone")]' \
    '"page was closed: no request from it for 2 s" in g[0]["verdicts"][0]["detail"]'
# a terminal that closes (end of input, without 'quit') is the human's timeout too
true | timeout 60 "$ARENA" play --tty --rules gin --bot @random --seed 3 -o "$TMP/ttygone" \
    >"$TMP/ttygone.out" 2>&1
check "tty closed: exits 0" test $? -eq 0
check "tty closed: the human's seat is TLE 'terminal closed'" py "$TMP/ttygone" \
    'bots["you"]["errors"]["TLE"] == 1' \
    '"terminal closed without" in open("'"$TMP/ttygone"'/games.jsonl").read()'
# input nobody can type into (epoll cannot watch /dev/null): said at once, not after 30 min
timeout 60 "$ARENA" play --tty --rules gin --bot @random --seed 3 -o "$TMP/ttynull" \
    </dev/null >"$TMP/ttynull.out" 2>&1
check "tty on /dev/null: exits 0 at once" test $? -eq 0
check "tty on /dev/null: TLE, 'not a terminal or a pipe'" py "$TMP/ttynull" \
    'bots["you"]["errors"]["TLE"] == 1' \
    '"not a terminal or a pipe" in open("'"$TMP/ttynull"'/games.jsonl").read()'

# the human's clock: a seat that does not answer within --human-ms gets a TLE, as a bot would
sleep 4 | timeout 60 "$ARENA" play --tty --human-ms 300 --rules gin --bot @random --seed 3 \
    -o "$TMP/tle" >"$TMP/tle.out" 2>&1
check "clock: arena play exits 0 after the human's TLE" test $? -eq 0
check "clock: the human's seat is TLE after 300 ms" py "$TMP/tle" 'bots["you"]["errors"]["TLE"] == 1' \
    '"no Choice within 300 ms, the hard limit of one decision (--human-ms)" in open("'"$TMP/tle"'/games.jsonl").read()'

# the scan checks each state against what was concealed at its step: a card of the other seat
# shown one step before that seat discards it is caught (the card is public later in the same
# hand, so a scan hand by hand would let it through); the same state one step later is fine
python3 - "$HERE" "$ARENA" "$TMP/gin" "$TMP/planted" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
import scan
data = scan.frames(sys.argv[2], sys.argv[3])
seen = {}  # card -> the first step of hand 1 it is on the pile
dealt = None
for t in scan.tables(data):
    if t.get("h") != 1:
        continue
    if dealt is None:
        dealt = set(scan.CARD.findall(t["hs"][1]))
    for c in scan.CARD.findall(json.dumps(t.get("pile", []))):
        if c in dealt and c not in seen:
            seen[c] = t["n"]
card, at = min(((c, n) for c, n in seen.items() if n > 0), key=lambda x: x[1])
for name, told in (("early", at - 1), ("later", at)):
    with open(sys.argv[4] + "." + name, "w") as f:
        print(json.dumps({"view": {"hand_no": 1, "hand": [], "pile": [card], "melds": [],
                                   "upcard": None}, "decision": None, "events": [],
                          "told": told}), file=f)
print(card, at)
PY
python3 "$HERE/scan.py" "$ARENA" "$TMP/gin" 0 "$TMP/planted.early" 2>"$TMP/planted.err"
check "the scan catches a card of the other seat shown one step before it is discarded" \
    test $? -eq 1 -a -n "$(grep -F 'concealed cards shown to seat 0' "$TMP/planted.err")"
check "the same card shown once it is on the pile passes the scan" \
    python3 "$HERE/scan.py" "$ARENA" "$TMP/gin" 0 "$TMP/planted.later"

# a port that is taken is a usage error, said before anything runs
python3 -c 'import socket,time,sys; s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(5)' >"$TMP/port" &
for i in $(seq 100); do [ -s "$TMP/port" ] && break; sleep 0.1; done
out=$("$ARENA" play --rules gin --bot @random --port "$(cat "$TMP/port")" -o "$TMP/taken" 2>&1)
check "a taken --port is refused (exit 2) with the reason" test $? -eq 2 -a -n "$(grep -F 'cannot listen on 127.0.0.1' <<<"$out")"
out=$("$ARENA" play --rules gin --bot @random --practice --games 2 -o "$TMP/pr" 2>&1)
check "--practice with --games 2 is refused (exit 2): a takeback replays one game" test $? -eq 2
finish
