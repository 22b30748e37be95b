#!/usr/bin/env bash
# browser.sh BUILD_DIR HELPERS_DIR - `arena play --browser` in Debian's headless chromium
# (browser.mjs): a scripted human plays a whole gin game against @random by clicking cards and
# buttons, discarding to least deadwood, and knocks with its arrangement (the record holds the
# knock); a gin hand against greedy_bot, which knocks (the page draws its showdown); a whole
# laws hand with a pile take and its meld and a meld with a wild card and its declaration (both
# in the record); a german hand with a claim out of turn by the human (RULES 6.G, in the
# record). In each, a move typed in the notation that is not legal shows the engine's refusal
# with its rule number and changes nothing. The cards are drawn by the replay page's table.js
# (suit symbols and colours), which the page inlines; every response the page received and the
# page itself hold no concealed card of another seat (scan.py against the record). Screenshots:
# BUILD_DIR/tests/play/screens/ (docs/img/play-*.png are copies). Skipped (77) only when
# chromium or node is not installed.
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

# human_actions NAME: the human's moves in NAME's record, one a line, in the notation
human_actions() {
    python3 - "$TMP/$1" <<'PY'
import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/records/*.jsonl")):
    lines = [json.loads(l) for l in open(f)]
    you = lines[0]["names"].index("you")
    for l in lines[1:]:
        if l.get("type") == "action" and l["seat"] == you:
            print(l["action"])
PY
}

# the human discards to least deadwood and knocks when the page offers it (RULES G5)
play_page gin gin 0 --rules gin --rule max_hands=1 --bot @random --seed 21
check "gin: the record holds the human's knock with its arrangement (knock C | MELD ...)" \
    grep -qE '^knock [2-9TJQKA][CDHS]( \| [2-9TJQKA][CDHS]( [2-9TJQKA][CDHS])+)+$' \
    <(human_actions gin)
# greedy_bot knocks as soon as it may: the page draws the showdown (RULES G5)
play_page knock showdown 1 --rules gin --rule max_hands=1 --bot "$BUILD/bots/greedy_bot" --seed 3
play_page laws laws 0 --rules laws --players 3 --rule max_hands=1 --bot @random --seed 9
check "laws: the record holds the human's meld with a wild card and its declaration (2C=5H)" \
    grep -qE '^meld .*\b(2[CDHS]|JK)=[2-9TJQKA][CDHS]' <(human_actions laws)
check "laws: the record holds the human's pile take with the meld it requires (RULES 4.3)" \
    grep -qE '^take (new [2-9TJQKA]|add [0-9]|joker [0-9])' <(human_actions laws)
# german: any seat but the discarder's may claim the discard out of turn (RULES 6.G)
play_page german german 1 --rules german --players 3 --rule max_hands=1 --bot @random --seed 9
check "german: the record holds the human's claim out of turn (RULES 6.G)" \
    grep -qE '^claim (new|add) ' <(human_actions german)
finish
