#!/usr/bin/env bash
# seeds.sh BUILD_DIR HELPERS_DIR - no live response carries a seed: while a tournament runs and
# after it, client.py (mode seeds) asks for every page a viewer can get (the page, each state,
# the page of every table being played, the replay of every finished game, the report) and
# scans each for the tournament's seed and every game's deal and match seeds (from the
# records' headers). A spectator with them could work out the deals of the games not played
# yet. The scan is shown to work on the page `arena replay --html` writes for the host, which
# does show the seed.
source "$(dirname "$0")/../match/lib.bash" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
B=$(readlink -f "$BUILD")
SEED=8123456789012345
# a slow bot (10 ms a decision), so that tables are seen in progress; every table has a greedy
# player, so no game drags on
cat >"$TMP/t.tour" <<TOUR
[tournament]
name = no-seeds
rules = gin
seats = 2
deals = 2
seed = $SEED
bootstrap = 50
[entrant slow]
command = $(helper slow --sleep-ms 10)
[entrant greedy]
command = $B/bots/greedy_bot
[entrant builtin]
command = @greedy
TOUR
"$ARENA" tournament "$TMP/t.tour" --out "$TMP/out" --jobs 2 --quiet --serve --serve-linger 120 \
    >/dev/null 2>"$TMP/se" &
pid=$!
URL=""
for _ in $(seq 100); do
    URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*/?t=[0-9a-f]*' "$TMP/se" | head -1)
    [ -n "$URL" ] && break
    sleep 0.05
done
check "the address is printed" test -n "$URL"
if python3 "$HERE/client.py" "$URL" "$TMP/out" seeds "$SEED" >"$TMP/seeds" 2>&1; then
    ok "no seed in any live response ($(grep -o 'no seed in any of [0-9]* responses' "$TMP/seeds"))"
else
    bad "a live response carries a seed, or the run was not seen"
fi
cat "$TMP/seeds"
kill -TERM $pid
wait $pid
check "the tournament ended well (status $?)" test $? -eq 0
# the same scan finds the seed on the host's own replay page (so the scan can fail)
rec=$(ls "$TMP/out/records/"*.jsonl | head -1)
"$ARENA" replay "$rec" --html -o "$TMP/host.html" 2>/dev/null
dseed=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["seed"])' "$rec")
check "the host's replay page (arena replay --html) does show the deal's seed $dseed" \
    grep -q "\"seed\":\"$dseed\"" "$TMP/host.html"
finish
