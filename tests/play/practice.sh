#!/usr/bin/env bash
# practice.sh BUILD_DIR HELPERS_DIR - `arena play --practice`: takebacks over the page's API
# (practice.py: each undo restores the previous position exactly, same hand and legal list;
# stale and replayed undos are refused) and in a terminal under tmux (`undo` redraws the same
# table and moves); the record says it is a practice game with its takebacks, replays and
# verifies, and the states of the final line hold no concealed card (scan.py). `arena match`
# refuses --practice (http.sh). Skipped (77) only when tmux is not installed.
source "$(dirname "$0")/../match/lib.bash" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/tmux.bash"

# ---- over HTTP ----
"$ARENA" play --practice -o "$TMP/web" --rules gin --rule max_hands=1 --bot @random --seed 5 \
    >"$TMP/web.out" 2>&1 </dev/null &
pid=$! url=""
for i in $(seq 100); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/?t=[0-9a-f]*' "$TMP/web.out" 2>/dev/null)
    [ -n "$url" ] && break
    sleep 0.1
done
check "web: each takeback restores the previous position exactly" \
    timeout 120 python3 "$HERE/practice.py" "$url" "$TMP/web.responses"
for i in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill "$pid" 2>/dev/null
wait "$pid"
check "web: arena play --practice exits 0" test $? -eq 0
check "web: the record says practice, with its takebacks" python3 -c '
import json, sys
h = json.loads(open(sys.argv[1]).readline())
sys.exit(0 if h["practice"]["takebacks_allowed"] and h["practice"]["takebacks"] >= 3 else 1)' \
    "$TMP/web/records/m5-d0-r0.jsonl"
check "web: one game in the summary" py "$TMP/web" 'len(g) == 1'
check "web: the practice record replays and verifies" "$ARENA" replay "$TMP/web" --game 0 --quiet
check "web: no concealed card in the final line's states" \
    python3 "$HERE/scan.py" "$ARENA" "$TMP/web" 0 "$TMP/web.responses"

# ---- in the browser: the Undo button ----
if [ -x "${OKR_CHROMIUM:-/usr/bin/chromium}" ] && command -v node >/dev/null &&
    [ -d "$HERE/../view/node_modules/playwright-core" ]; then
    "$ARENA" play --practice -o "$TMP/page" --rules gin --bot @random --seed 6 \
        >"$TMP/page.out" 2>&1 </dev/null &
    pid=$! url=""
    for i in $(seq 100); do
        url=$(grep -o 'http://127.0.0.1:[0-9]*/?t=[0-9a-f]*' "$TMP/page.out" 2>/dev/null)
        [ -n "$url" ] && break
        sleep 0.1
    done
    check "page: Undo offers the same hand and moves again" \
        timeout 60 node "$HERE/practice.mjs" "$url"
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
else
    echo "note: no chromium, node or playwright-core: the Undo button is not tried"
fi

# ---- in a terminal ----
tmux_start okrp \
    "$ARENA play --tty --practice --rules gin --rule max_hands=1 --bot @random --seed 4 -o $TMP/tty; echo ARENA-EXIT \$?; sleep 30"
# the last table drawn: its hand line and its numbered moves
last_table() {
    screen | awk '/^game /{b=""} {b=b $0 "\n"} END{printf "%s", b}' |
        grep -E '^your hand:|^ +[a-z]+ +[0-9]+\)'
}
check "tty: the table is drawn" wait_for 'your move' 10
last_table >"$TMP/first"
keys "undo" Enter
check "tty: undo before any move is refused" wait_for 'you have made no move yet' 5
keys "1" Enter
for i in $(seq 100); do [ "$(screen | grep -c 'your move')" -ge 2 ] && break; sleep 0.1; done
keys "undo" Enter
check "tty: undo takes the move back" wait_for 'taking back your last move' 5
sleep 1
last_table >"$TMP/again"
check "tty: the same hand and moves after the undo" cmp "$TMP/first" "$TMP/again"
check "tty: the table has a hand and moves" test "$(wc -l <"$TMP/first")" -ge 2
keys "quit" Enter
check "tty: arena play exits 0" wait_for 'ARENA-EXIT 0' 10
check "tty: the record says practice, one takeback" python3 -c '
import json, sys
h = json.loads(open(sys.argv[1]).readline())
sys.exit(0 if h["practice"]["takebacks"] == 1 else 1)' "$TMP/tty/records/m4-d0-r0.jsonl"
finish
