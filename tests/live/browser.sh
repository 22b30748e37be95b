#!/usr/bin/env bash
# browser.sh BUILD_DIR HELPERS_DIR - a spectator page follows a running tournament to its end in
# Debian's headless chromium (browser.mjs): standings change as sets finish, a table shows its
# moves, the watched table draws, the final standings equal results.json, no console error and
# no request elsewhere; the score column names its scale (points per game so far, then the
# rating), the moves are in words, the page fits a phone (390 px), no request is answered 404
# (a favicon), and once the server is stopped the page says so and stops asking. Screenshots go
# to BUILD_DIR/tests/live/screens/. Skipped (77) only when chromium or node is not installed;
# playwright-core comes from tests/view/node_modules.
source "$(dirname "$0")/../match/lib.bash" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
B=$(readlink -f "$BUILD")
CHROMIUM=${OKR_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ] || ! command -v node >/dev/null; then
    echo "SKIP: no $CHROMIUM or no node (scripts/install-deps.sh installs them)"
    exit 77
fi
if [ ! -d "$HERE/../view/node_modules/playwright-core" ]; then
    bad "playwright-core is not installed: run scripts/install-deps.sh (npm ci in tests/view)"
    finish
fi
# a slow bot (15 ms a decision) so that games last long enough to be watched; every table
# has a greedy player or the bot that dies at its first move (never played, DQ: the marks),
# so no game drags on
cat >"$TMP/t.tour" <<TOUR
[tournament]
name = live-browser
rules = gin
seats = 2
deals = 4
seed = 5
bootstrap = 50
[entrant slow]
command = $(helper slow --sleep-ms 15)
[entrant greedy]
command = $B/bots/greedy_bot
[entrant builtin]
command = @greedy
[entrant dead]
command = $(helper crash --after 0)
TOUR
cat >"$TMP/cfg.json" <<CFG
{"ready": "$TMP/ready", "urlfile": "$TMP/url", "out": "$TMP/out", "shots": "$B/tests/live/screens",
 "stop": "$TMP/stop", "doc": "$HERE/../../docs/report.md"}
CFG
node "$HERE/browser.mjs" "$TMP/cfg.json" &
node=$!
for _ in $(seq 600); do [ -e "$TMP/ready" ] && break; sleep 0.05; done
"$ARENA" tournament "$TMP/t.tour" --out "$TMP/out" --jobs 1 --quiet --serve --serve-linger 120 \
    >"$TMP/so" 2>"$TMP/se" &
pid=$!
URL=""
for _ in $(seq 100); do
    URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*/?t=[0-9a-f]*' "$TMP/se" | head -1)
    [ -n "$URL" ] && break
    sleep 0.05
done
check "the address is printed" test -n "$URL"
# browser.mjs asks for the server to be stopped (the file stop) to see the page give up on it
(
    while [ ! -e "$TMP/stop" ]; do sleep 0.1; done
    kill -TERM $pid 2>/dev/null
) &
stopper=$!
echo "$URL" >"$TMP/url.tmp" && mv "$TMP/url.tmp" "$TMP/url"
wait $node
check "the spectator page in chromium (browser.mjs)" test $? -eq 0
touch "$TMP/stop"
wait $stopper
kill -TERM $pid 2>/dev/null
wait $pid
check "the tournament ended well (status $?)" test $? -eq 0
finish
