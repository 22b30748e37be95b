#!/usr/bin/env bash
# serve.sh BUILD_DIR HELPERS_DIR - `arena tournament --serve` and `arena match --serve`: the URL
# and its token, hostile requests while a tournament runs (client.py: each gets an error, the
# tournament goes on and ends with every game), the final state equal to results.json, the
# replay and report pages, the delay (nothing is shown before it), and bad flag values.
if [ "${OKR_SANITIZE:-0}" = 1 ]; then
    # KNOWN BUG (docs/live.md "Limits"): the live server is a thread, and the tournament forks
    # its set workers while that thread may hold gcc 12's ASan allocator lock, which (unlike
    # glibc's malloc) has no fork handler: a worker can deadlock in its first calloc. Seen
    # only under ASan; the fix is to serve from a process of its own.
    echo "skipped under OKR_SANITIZE=1: the live thread and forked workers (known bug)"
    exit 77
fi
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
check "--serve prints the address with a 32-digit token" \
    grep -qE '^arena: watch live at http://127\.0\.0\.1:[0-9]+/\?t=[0-9a-f]{32}$' "$TMP/se"
if python3 "$HERE/client.py" "$URL" "$TMP/out" hostile >"$TMP/hostile" 2>&1; then
    ok "hostile requests: each refused, the server still answers ($(grep -c '^ok' "$TMP/hostile") checks)"
else
    bad "hostile requests"
    cat "$TMP/hostile"
fi
check "the tournament was still running after them (no results.json yet)" test ! -e "$TMP/out/results.json"
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

# the delay: a match over before the delay has passed shows nothing yet, then all of it
"$ARENA" match --rules gin --bot @greedy --bot @random --games 4 --out "$TMP/m" --quiet \
    --serve --serve-delay 3 --serve-linger 30 >/dev/null 2>"$TMP/mse" &
mpid=$!
URL=$(url_of "$TMP/mse")
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
    "$BASE/replay?game=m1-d0-r0&t=$T")" = 200
if python3 "$HERE/client.py" "$URL" "$TMP/m" polls >"$TMP/polls" 2>&1; then
    ok "600 long polls: those beyond the cap refused at once, the server still answers"
else
    bad "600 long polls"
    cat "$TMP/polls"
fi
kill -INT $mpid
wait $mpid
check "SIGINT while lingering: status 0" test $? -eq 0

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
