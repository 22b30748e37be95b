#!/usr/bin/env bash
# browser.sh BUILD_DIR HELPERS_DIR - `arena play --browser` in Debian's headless chromium
# (browser.mjs): a scripted human plays a whole gin game against @random by clicking cards and
# buttons, a gin hand against greedy_bot, which knocks (the page draws its showdown), and a
# whole laws hand with a pile take and melds; the cards are drawn by the replay page's table.js
# (suit symbols and colours), which the page inlines; every response the page received and the
# page itself hold no concealed card of another seat (scan.py against the record).
# Screenshots: BUILD_DIR/tests/play/screens/ (docs/img/play-*.png are copies). Skipped (77)
# only when chromium or node is not installed.
source "$(dirname "$0")/../match/lib.bash" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
VIEW="$HERE/../view"
CHROMIUM=${OKR_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ] || ! command -v node >/dev/null; then
    echo "SKIP: no $CHROMIUM or no node (scripts/install-deps.sh installs them)"
    exit 77
fi
if [ ! -d "$VIEW/node_modules/playwright-core" ]; then
    bad "playwright-core is not installed: run scripts/install-deps.sh (npm ci in tests/view)"
    finish
fi
SHOTS="$BUILD/tests/play/screens"
mkdir -p "$SHOTS"

# play_page NAME MODE SEAT ARGS...
play_page() {
    local name=$1 mode=$2 seat=$3
    shift 3
    "$ARENA" play --human "$seat" -o "$TMP/$name" "$@" >"$TMP/$name.out" 2>&1 </dev/null &
    local pid=$! url="" i
    for i in $(seq 100); do
        url=$(grep -o 'http://127.0.0.1:[0-9]*/?t=[0-9a-f]*' "$TMP/$name.out" 2>/dev/null)
        [ -n "$url" ] && break
        sleep 0.1
    done
    check "$name: the URL is printed" test -n "$url"
    NODE_PATH="$VIEW/node_modules" node "$HERE/browser.mjs" "$url" "$TMP/$name.responses" \
        "$SHOTS" "play-$name" "$mode"
    check "$name: the browser plays the game to its end" test $? -eq 0
    # a scripted human that failed leaves the arena waiting for it: end it after 20 s
    for i in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill "$pid" 2>/dev/null
    wait "$pid"
    check "$name: arena play exits 0" test $? -eq 0
    check "$name: recorded, no verdict against the human" py "$TMP/$name" 'len(g) == 1' \
        'not any(bots["you"]["errors"].values())'
    check "$name: the record replays and verifies" "$ARENA" replay "$TMP/$name" --game 0 --quiet
    check "$name: no concealed card of another seat in the page or any response" \
        python3 "$HERE/scan.py" "$ARENA" "$TMP/$name" "$seat" "$TMP/$name.responses" \
        "$TMP/$name.responses.page.html"
}

play_page gin gin 0 --rules gin --rule max_hands=1 --bot @random --seed 21
# greedy_bot knocks as soon as it may: the page draws the showdown (RULES G5)
play_page knock showdown 1 --rules gin --rule max_hands=1 --bot "$BUILD/bots/greedy_bot" --seed 3
play_page laws laws 0 --rules laws --players 3 --rule max_hands=1 --bot @random --seed 9
finish
