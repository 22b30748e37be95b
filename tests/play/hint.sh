#!/usr/bin/env bash
# hint.sh BUILD_DIR HELPERS_DIR - `arena play --practice --hint-bot CMD` (docs/play.md).
# Over HTTP (hint.py): every hint of greedy_bot is one of the legal moves, a stale id gets
# 409, a takeback gives the same hint again, and a game whose human always plays greedy_bot's
# hint against greedy_bot is move for move the game `arena match` plays between two
# greedy_bots (greedy is deterministic: the hint bot was asked exactly the human seat's
# decisions). A hint bot that exits at once gives "the
# hint bot failed: RE ..." and the game goes on. In tmux: `hint` prints a listed move. Without
# --practice, --hint-bot is refused. Skipped (77) only when tmux is not installed.
source "$(dirname "$0")/../match/lib.bash" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/tmux.bash"
GREEDY="$BUILD/bots/greedy_bot"

# start_play OUT ARGS...: arena play in the background; sets pid and url
start_play() {
    local out=$1
    shift
    "$ARENA" play "$@" >"$out" 2>&1 </dev/null &
    pid=$! url=""
    for i in $(seq 100); do
        url=$(grep -o 'http://127.0.0.1:[0-9]*/?t=[0-9a-f]*' "$out" 2>/dev/null)
        [ -n "$url" ] && break
        sleep 0.1
    done
}
end_play() {
    for i in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill "$pid" 2>/dev/null
    wait "$pid"
}
# the actions of a record, in order (seat and notation)
actions() {
    python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "action":
        print(r["seat"], r["action"])' "$1"
}

# ---- over HTTP: greedy's hints, followed ----
start_play "$TMP/web.out" --practice --hint-bot "$GREEDY --name $TAG" -o "$TMP/web" \
    --rules gin --rule max_hands=1 --bot "$GREEDY" --seed 5
check "web: every hint is a legal move; a stale id gets 409" \
    timeout 120 python3 "$HERE/hint.py" "$url" follow
end_play
check "web: arena play exits 0" test $? -eq 0
"$ARENA" match --rules gin --rule max_hands=1 --bot "$GREEDY" --bot "$GREEDY" --seed 5 \
    --games 1 --out "$TMP/match" >"$TMP/match.out" 2>&1
actions "$TMP/web/records/m5-d0-r0.jsonl" >"$TMP/web.actions"
actions "$TMP/match/records/m5-d0-r0.jsonl" >"$TMP/match.actions"
check "web: the game has moves" test "$(wc -l <"$TMP/web.actions")" -ge 10
check "web: following greedy's hints plays greedy's game" cmp "$TMP/web.actions" "$TMP/match.actions"

# ---- a hint bot that exits at once ----
printf '#!/bin/sh\necho broken on purpose >&2\nexit 3\n' >"$TMP/broken.sh"
chmod +x "$TMP/broken.sh"
start_play "$TMP/broken.out" --practice --hint-bot "$TMP/broken.sh --name $TAG" \
    -o "$TMP/broken" --rules gin --rule max_hands=1 --bot @random --seed 6
check "broken: each hint says the hint bot failed, and the game goes on" \
    timeout 120 python3 "$HERE/hint.py" "$url" broken
end_play
check "broken: arena play exits 0" test $? -eq 0
check "broken: the hint bot's stderr is in logs/hint-bot.log" grep -q 'broken on purpose' "$TMP/broken/logs/hint-bot.log"
check "broken: the game was played to its end" python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if rows[-1]["type"] == "result" and rows[-1]["completed"] else 1)' \
    "$TMP/broken/records/m6-d0-r0.jsonl"

# ---- in the browser: the Hint button ----
if [ -x "${OKR_CHROMIUM:-/usr/bin/chromium}" ] && command -v node >/dev/null &&
    [ -d "$HERE/../view/node_modules/playwright-core" ]; then
    start_play "$TMP/page.out" --practice --hint-bot "$GREEDY --name $TAG" -o "$TMP/page" \
        --rules gin --bot @random --seed 7
    check "page: Hint shows the hint bot's move, one of the buttons" \
        timeout 60 node "$HERE/hint.mjs" "$url"
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
else
    echo "note: no chromium, node or playwright-core: the Hint button is not tried"
fi

# ---- refused without --practice ----
"$ARENA" play --hint-bot "$GREEDY" --rules gin --bot @random --tty -o "$TMP/no" \
    </dev/null >"$TMP/no.out" 2>&1
check "--hint-bot without --practice exits 2" test $? -eq 2
check "--hint-bot without --practice says why" grep -q 'add --practice' "$TMP/no.out"

# ---- in a terminal ----
tmux_start okrh \
    "$ARENA play --tty --practice --hint-bot '$GREEDY --name $TAG' --rules gin --rule max_hands=1 --bot @random --seed 4 -o $TMP/tty; echo ARENA-EXIT \$?; sleep 30"
check "tty: the table is drawn" wait_for 'your move' 10
keys "help" Enter
check "tty: help names hint" wait_for "'hint' asks" 5
keys "hint" Enter
check "tty: a hint is shown" wait_for '^hint: [a-z]' 10
hinted=$(screen | grep -E '^hint: ' | tail -1 | sed -e 's/^hint: //' -e 's/ -- .*//')
moves=$(screen | grep -E '^ +[a-z]+ +[0-9]+\)' | tail -4)
check "tty: the hint ($hinted) is one of the listed moves" \
    grep -qE "[0-9]+\) $hinted( |$)" <<<"$moves"
keys "quit" Enter
check "tty: arena play exits 0" wait_for 'ARENA-EXIT 0' 10
tmux -L "$S" kill-server 2>/dev/null
sleep 1
check "no hint bot is left running" leftovers
finish
