#!/usr/bin/env bash
# drag.sh BUILD_DIR HELPERS_DIR - arranging the hand by dragging a card on the play page, in
# Debian's headless chromium (drag.mjs): mouse, keyboard and touch. Skipped (77) only when
# chromium or node is missing. Then Leave the game: the page and the closing table say you left.
source "$(dirname "$0")/../match/lib.bash" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
VIEW="$HERE/../view"
CHROMIUM=${OKR_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ] || ! command -v node >/dev/null; then
    echo "SKIP: no $CHROMIUM or no node (scripts/install-deps.sh installs them)"
    exit 77
fi
[ -d "$VIEW/node_modules/playwright-core" ] || { bad "playwright-core is not installed (npm ci in tests/view)"; finish; }
SHOTS="$BUILD/tests/play/screens"
mkdir -p "$SHOTS"
"$ARENA" play --rules gin --rule max_hands=1 --bot @random --seed 3 -o "$TMP/g" >"$TMP/g.out" 2>&1 </dev/null &
pid=$!
for i in $(seq 100); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/?t=[0-9a-f]*' "$TMP/g.out" 2>/dev/null) && break
    sleep 0.1
done
check "the URL is printed" test -n "$url"
NODE_PATH="$VIEW/node_modules" timeout 120 node "$HERE/drag.mjs" "$url" "$SHOTS"
check "the hand is arranged by dragging (drag.mjs)" test $? -eq 0
# the page's Leave the game ends the match: it exits by itself, the table saying "left 1"
for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill "$pid" 2>/dev/null
wait "$pid"
check "after Leave the game arena play exits by itself (0)" test $? -eq 0
check "... its closing table says the human left" grep -qE '^you +1 .* left 1 ' "$TMP/g.out"
finish
