#!/usr/bin/env bash
# serve.sh BUILD_DIR HELPERS_DIR - `arena tournament --serve` and `arena match --serve`: the URL
# and its token, hostile requests while a tournament runs (client.py: each gets an error, the
# tournament goes on and ends with every game), the final state equal to results.json, the
# replay and report pages, the delay (nothing is shown before it), bad flag values, and that
# the server (a process of its own, "arena:live") never outlives the arena, however it ends.
source "$(dirname "$0")/../match/lib.bash" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
B=$(readlink -f "$BUILD")

url_of() { # the address printed on stderr, waiting for it
    local f=$1 u=""
    for _ in $(seq 100); do
        u=$(grep -o 'http://127\.0\.0\.1:[0-9]*/?t=[0-9a-f]*' "$f" | head -1)
        [ -n "$u" ] && break
        sleep 0.05
    done
    echo "$u"
}
port_of() { # the port of an address
    local p=${1#http://127.0.0.1:}
    echo "${p%%/*}"
}
server_of() { # the live server process of arena PID (its child named arena:live)
    local s=""
    for _ in $(seq 100); do
        s=$(pgrep -P "$1" -x arena:live | head -1)
        [ -n "$s" ] && break
        sleep 0.05
    done
    echo "$s"
}
gone() { # PID PORT: the process has ended and nothing listens on the port (waits 3 s at most)
    for _ in $(seq 60); do
        if ! kill -0 "$1" 2>/dev/null && ! (exec 3<>"/dev/tcp/127.0.0.1/$2") 2>/dev/null; then
            return 0
        fi
        sleep 0.05
    done
    return 1
}

cat >"$TMP/t.tour" <<TOUR
[tournament]
name = served
rules = gin
seats = 2
deals = 8
seed = 3
bootstrap = 50
[clocks]
decision_ms = 500
[entrant greedy]
command = $B/bots/greedy_bot
[entrant random]
command = $B/bots/random_bot
[entrant greedy2]
command = @greedy
TOUR
"$ARENA" tournament "$TMP/t.tour" --out "$TMP/out" --jobs 1 --quiet --serve --serve-linger 60 \
    >"$TMP/so" 2>"$TMP/se" &
pid=$!
URL=$(url_of "$TMP/se")
SRV=$(server_of $pid)
check "the server is a process of its own, the arena's child (arena:live)" test -n "$SRV"
check "the arena itself has one thread" test "$(awk '/^Threads:/ {print $2}' /proc/$pid/status)" = 1
check "--serve prints the address with a 32-digit token" \
    grep -qE '^arena: watch live at http://127\.0\.0\.1:[0-9]+/\?t=[0-9a-f]{32}$' "$TMP/se"
# the requests begin while the run goes on; on an idle machine it may end before they do (it
# took less than their 62 checks in one CI run), so what is checked after them is that it
# ended with every game and that the server kept answering
done_before=$(cat "$TMP/out/journal.jsonl" 2>/dev/null | wc -l)
check "the tournament is running when the hostile requests begin ($done_before of 48 games)" \
    test ! -e "$TMP/out/results.json" -a "$done_before" -lt 48
if python3 "$HERE/client.py" "$URL" "$TMP/out" hostile >"$TMP/hostile" 2>&1; then
    ok "hostile requests: each refused, the server still answers ($(grep -c '^ok' "$TMP/hostile") checks)"
else
    bad "hostile requests"
    cat "$TMP/hostile"
fi
if python3 "$HERE/client.py" "$URL" "$TMP/out" final >"$TMP/final" 2>&1; then
    ok "the final state: finished, standings equal results.json, replays and report served"
else
    bad "the final state"
    cat "$TMP/final"
fi
check "the tournament has every game (48)" \
    test "$(wc -l <"$TMP/out/journal.jsonl")" -eq 48
check "it lingers after the run, serving" kill -0 $pid
kill -TERM $pid
wait $pid
check "Ctrl-C / SIGTERM while lingering ends it with status 0 (got $?)" test $? -eq 0
check "it said it was still serving" grep -q "the run is over; still serving\|serving .* for 60 s more" "$TMP/se"
check "no server process is left after the arena, the port is closed" gone "$SRV" "$(port_of "$URL")"

# the delay: a match over before the delay has passed shows nothing yet, then all of it
"$ARENA" match --rules gin --bot @greedy --bot @random --games 4 --out "$TMP/m" --quiet \
    --serve --serve-delay 3 --serve-linger 120 >/dev/null 2>"$TMP/mse" &
mpid=$!
URL=$(url_of "$TMP/mse")
MSRV=$(server_of $mpid)
T=${URL#*\?t=}
BASE=${URL%%/?t=*}
for _ in $(seq 40); do [ -s "$TMP/m/results.json" ] && break; sleep 0.05; done
early=$(curl -s "$BASE/state?t=$T")
check "the match is over within a second" test -s "$TMP/m/results.json"
check "before the delay: no game, no move, not finished" python3 -c "
import json,sys; s=json.loads(sys.argv[1])
sys.exit(not (s['games']==0 and s['state']!='finished' and all(t['actions']==0 for t in s['tables'])))" "$early"
sleep 3.5
late=$(curl -s "$BASE/state?t=$T")
check "after the delay: every game and the final standings" python3 -c "
import json,sys; s=json.loads(sys.argv[1]); r=json.load(open(sys.argv[2]))
sys.exit(not (s['games']==4 and s['state']=='finished' and s['final'] and
  sorted(x['name'] for x in s['standings'])==sorted(b['name'] for b in r['bots'])))" "$late" "$TMP/m/results.json"
check "the match's replay pages are served" test "$(curl -s -o /dev/null -w '%{http_code}' \
    "$BASE/replay?game=d0-r0&t=$T")" = 200
check "  by the id without the seed only (m1-d0-r0: 404)" test "$(curl -s -o /dev/null -w '%{http_code}' \
    "$BASE/replay?game=m1-d0-r0&t=$T")" = 404
if python3 "$HERE/client.py" "$URL" "$TMP/m" polls >"$TMP/polls" 2>&1; then
    ok "600 long polls: those beyond the cap refused at once, the server still answers"
else
    bad "600 long polls"
    cat "$TMP/polls"
fi
kill -INT $mpid
wait $mpid
check "SIGINT while lingering: status 0" test $? -eq 0
check "  and no server process is left" gone "$MSRV" "$(port_of "$URL")"

# mid_run SIGNAL NAME: a tournament serving, sent SIGNAL during its run; leaves its status in rc
mid_run() {
    "$ARENA" tournament "$TMP/t.tour" --out "$TMP/$2" --jobs 1 --quiet --serve >/dev/null \
        2>"$TMP/$2.se" &
    local apid=$!
    URL=$(url_of "$TMP/$2.se")
    SRV=$(server_of $apid)
    check "$2: a state answer before the signal" \
        test "$(curl -s -o /dev/null -w '%{http_code}' "$URL")" = 200
    kill "-$1" $apid
    wait $apid 2>/dev/null
    rc=$?
}
# the arena killed outright during the run: its server dies with it (PR_SET_PDEATHSIG)
mid_run KILL k
check "SIGKILL of the arena mid-run: its server is gone too, the port closed" gone "$SRV" "$(port_of "$URL")"
# Ctrl-C during the run: the run stops (interrupted: status 1), does not linger, and its server
# stops with it
mid_run INT i
check "SIGINT mid-run: status 1, not lingering (got $rc)" test $rc -eq 1
check "  no server process is left" gone "$SRV" "$(port_of "$URL")"

# a live record is written out at most every 100 ms, not per line, yet a move never waits for
# the next bot's long think: greedy_bot's quick move after a move of the slow bot (2 s a
# decision) is on disk within a second of that move, while the slow bot thinks again (the
# match's timer writes it; without it, it would wait the 2 s)
"$ARENA" match --rules gin --bot "$(helper slow --sleep-ms 2000)" --bot "$B/bots/greedy_bot" \
    --games 2 --out "$TMP/r" --quiet --serve --serve-linger 0 >/dev/null 2>&1 &
rpid=$!
python3 -c "
import glob, json, sys, time
first, names, end = {}, None, time.time() + 10
while time.time() < end:
    time.sleep(0.05)
    for rec in glob.glob(sys.argv[1] + '/records/*d0-r0.jsonl'):
        lines = open(rec).read().split('\n')[:-1]  # complete lines only
        for k, l in enumerate(lines):
            j = json.loads(l)
            if k == 0:
                names = j['names']
            elif j['type'] == 'action' and k not in first:
                first[k] = (time.time(), names[j['seat']])
pairs = [first[k][0] - first[k - 1][0] for k in first
         if k - 1 in first and first[k][1] == 'greedy_bot' and first[k - 1][1] == 'okrh_slow']
print(' '.join('%.2f' % d for d in pairs))
sys.exit(not pairs or max(pairs) > 1.0)" "$TMP/r" >"$TMP/lat" 2>&1
lat=$?
check "a quick move after a slow one is on disk within 1 s, not after the next think ($(cat "$TMP/lat") s)" test $lat -eq 0
kill -TERM $rpid 2>/dev/null
wait $rpid 2>/dev/null

# bad flags
"$ARENA" match --rules gin --bot @random --bot @random --games 2 --out "$TMP/x" --serve 70000 \
    >/dev/null 2>"$TMP/e1"
check "--serve 70000: usage error" test $? -eq 2
check "  says so" grep -q -- "--serve" "$TMP/e1"
"$ARENA" match --rules gin --bot @random --bot @random --games 2 --out "$TMP/x" --serve-delay -1 \
    >/dev/null 2>"$TMP/e2"
check "--serve-delay -1: usage error" test $? -eq 2
python3 -c 'import socket,time,sys; s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(5)' >"$TMP/port" &
for _ in $(seq 50); do [ -s "$TMP/port" ] && break; sleep 0.05; done
"$ARENA" match --rules gin --bot @random --bot @random --games 2 --out "$TMP/x" \
    --serve "$(cat "$TMP/port")" >/dev/null 2>"$TMP/e3"
check "a port in use: usage error" test $? -eq 2
check "  names the port" grep -q "cannot listen on 127.0.0.1:$(cat "$TMP/port")" "$TMP/e3"
finish
