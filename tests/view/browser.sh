#!/usr/bin/env bash
# browser.sh BUILD_DIR HELPERS_DIR - the replay and report pages in Debian's headless chromium
# (browser.mjs): opened from file:// with every other request blocked and counted, stepped
# through a whole game with the keyboard comparing the scores shown with the record's, the
# address, scrub bar and autoplay, a switch to a seat's view, the report and a replay opened
# from it. Screenshots go to BUILD_DIR/tests/view/screens/. Skipped (77) only when chromium
# or node is not installed; playwright-core comes from tests/view/node_modules
# (scripts/install-deps.sh runs npm ci there).
source "$(dirname "$0")/../match/lib.bash" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
H=$(readlink -f "$H")
CHROMIUM=${OKR_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ] || ! command -v node >/dev/null; then
    echo "SKIP: no $CHROMIUM or no node (scripts/install-deps.sh installs them)"
    exit 77
fi
if [ ! -d "$HERE/node_modules/playwright-core" ]; then
    bad "playwright-core is not installed: run scripts/install-deps.sh (npm ci in tests/view)"
    finish
fi

# a tournament with a crashing bot (verdicts on the pages), its report and replays
cat >"$TMP/t.tour" <<TOUR
[tournament]
name = browser
rules = laws
seats = 3
deals = 1
seed = 12
bootstrap = 50
[errors]
on_error = substitute
max_error_share = 1
[entrant greedy]
command = @greedy
[entrant random]
command = @random
[entrant crash]
command = $(helper crash --after 25)
TOUR
"$ARENA" tournament "$TMP/t.tour" --out "$TMP/t" --jobs 1 --no-progress --insecure >"$TMP/t.txt" 2>&1 ||
    cat "$TMP/t.txt"
"$ARENA" report "$TMP/t" >/dev/null --format html
check "the tournament and its report" test -s "$TMP/t/report.html"
"$ARENA" match --players 4 --games 4 --seed 3 --bot @greedy --bot @random --out "$TMP/big" \
    --quiet >/dev/null 2>&1
"$ARENA" replay "$TMP/big" --game 0 --html -o "$TMP/big.html" >/dev/null
# gin with the C greedy bot, which writes a note on each choice (protocol 1.1); its knocks
# show their showdown
"$ARENA" match --rules gin --games 1 --seed 4 --bot "$BUILD/bots/greedy_bot" --bot @random \
    --out "$TMP/gin" --quiet >/dev/null 2>&1
"$ARENA" replay "$TMP/gin" --game 0 --html -o "$TMP/big-gin.html" >/dev/null
check "a gin game with notes and knocks" \
    test -n "$(grep -l '"note"' "$TMP"/gin/records/*.jsonl)" -a -n "$(grep -l showdown "$TMP"/gin/records/*.jsonl)"
game=$(python3 -c "
import json
g = [json.loads(l) for l in open('$TMP/t/games.jsonl')]
print([x for x in g if x['verdicts']][0]['game_id'])")
# the marks (issue 25): a bot that never answers a move (never played, DQ), its report and
# the folder --publish writes (each entrant's games as its seat saw them)
cat >"$TMP/k.tour" <<TOUR
[tournament]
name = marks
rules = laws
seats = 3
deals = 2
seed = 21
bootstrap = 50
[entrant greedy]
command = @greedy
[entrant random]
command = @random
[entrant dead]
command = $(helper crash --after 0)
TOUR
"$ARENA" tournament "$TMP/k.tour" --out "$TMP/k" --jobs 1 --no-progress --insecure >"$TMP/k.txt" 2>&1 ||
    cat "$TMP/k.txt"
"$ARENA" report "$TMP/k" --format html --replays none >/dev/null
"$ARENA" report "$TMP/k" --publish "$TMP/pub" >/dev/null
check "the marks tournament, its report and its published folder" test -s "$TMP/k/report.html" -a -s "$TMP/pub/dead/index.html"
shots="$BUILD/tests/view/screens"
cat >"$TMP/cfg.json" <<CFG
{"replay": "$TMP/t/replays/$game.html", "record": "$TMP/t/records/$game.jsonl", "seat": 1,
 "report": "$TMP/t/report.html", "results": "$TMP/t/results.json", "big": "$TMP/big.html", "gin": "$TMP/big-gin.html",
 "shots": "$(readlink -f "$BUILD")/tests/view/screens",
 "marks": "$TMP/k/report.html", "marks_results": "$TMP/k/results.json", "publish": "$TMP/pub/index.html"}
CFG
NODE_PATH="$HERE/node_modules" node "$HERE/browser.mjs" "$TMP/cfg.json"
check "the pages in chromium (browser.mjs)" test $? -eq 0
finish
