# select.bash - sourced by tests/play/select-*.sh: play_select NAME SEAT RULES ARGS... runs
# `arena play` and select.mjs (a whole game by clicking cards and move controls, at most 12 at
# every decision), then checks the record and scans every response for concealed cards.
# OKR_SANITIZE (the ASan build) plays smaller games.
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

play_select() {
    local name=$1 seat=$2 rules=$3
    shift 3
    "$ARENA" play --human "$seat" -o "$TMP/$name" --rules "$rules" "$@" >"$TMP/$name.out" 2>&1 </dev/null &
    local pid=$! url="" i
    for i in $(seq 100); do
        url=$(grep -o 'http://127.0.0.1:[0-9]*/?t=[0-9a-f]*' "$TMP/$name.out" 2>/dev/null)
        [ -n "$url" ] && break
        sleep 0.1
    done
    check "$name: the URL is printed" test -n "$url"
    NODE_PATH="$VIEW/node_modules" node "$HERE/select.mjs" "$url" "$TMP/$name.responses" \
        "$SHOTS" "select-$name" "$rules"
    check "$name: the page plays the game to its end by clicks" test $? -eq 0
    for i in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill "$pid" 2>/dev/null
    wait "$pid"
    check "$name: arena play exits 0" test $? -eq 0
    check "$name: recorded, no verdict against the human" py "$TMP/$name" 'len(g) == 1' \
        'not any(bots["you"]["errors"].values())'
    check "$name: no concealed card of another seat in the page or any response" \
        python3 "$HERE/scan.py" "$ARENA" "$TMP/$name" "$seat" "$TMP/$name.responses" \
        "$TMP/$name.responses.page.html"
}
