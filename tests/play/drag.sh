#!/usr/bin/env bash
# drag.sh BUILD_DIR HELPERS_DIR - arranging the hand by dragging a card on the play page, in
# Debian's headless chromium (drag.mjs): mouse, keyboard and touch. Skipped (77) only when
# chromium or node is missing.
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
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
finish
