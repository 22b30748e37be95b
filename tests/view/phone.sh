#!/usr/bin/env bash
# phone.sh BUILD_DIR HELPERS_DIR - the report and the replay pages of laws, gin and german on a
# phone's screen (390x844) in Debian's headless chromium (phone.mjs): no page wider than the
# screen, tables scroll in their box, the forest plots show every dot; the events grow with the
# step, the scores change at a hand's end, every move in words, every score label documented
# (docs/report.md) with its meaning a hover away. Screenshots (report-phone.png,
# replay-phone.png) go to BUILD_DIR/tests/view/screens/. Skipped (77) only when chromium or
# node is not installed; playwright-core comes from tests/view/node_modules.
source "$(dirname "$0")/../match/lib.bash" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
B=$(readlink -f "$BUILD")
CHROMIUM=${OKR_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ] || ! command -v node >/dev/null; then
    echo "SKIP: no $CHROMIUM or no node (scripts/install-deps.sh installs them)"
    exit 77
fi
if [ ! -d "$HERE/node_modules/playwright-core" ]; then
    bad "playwright-core is not installed: run scripts/install-deps.sh (npm ci in tests/view)"
    finish
fi
# a laws tournament of 4 entrants (a long name: the standings and plots must still fit) and its
# report; one game's replays of gin (knocks) and 4-seat german
cat >"$TMP/t.tour" <<TOUR
[tournament]
name = phone
rules = laws
seats = 3
deals = 1
seed = 12
bootstrap = 50
[entrant greedy_builtin]
command = @greedy
[entrant random]
command = @random
[entrant cgreedy]
command = $B/bots/greedy_bot
[entrant crandom]
command = $B/bots/random_bot
TOUR
"$ARENA" tournament "$TMP/t.tour" --out "$TMP/t" --jobs 2 --no-progress >"$TMP/t.txt" 2>&1 ||
    cat "$TMP/t.txt"
"$ARENA" report "$TMP/t" --format html --replays 1 >/dev/null
check "the tournament, its report and a game's pages" test -s "$TMP/t/report.html"
game=$(ls "$TMP/t/replays" | grep -v seat | head -1)
seat=$(ls "$TMP/t/replays" | grep 'seat1' | head -1)
"$ARENA" match --rules gin --games 1 --seed 4 --bot "$B/bots/greedy_bot" --bot @random \
    --out "$TMP/gin" --quiet >/dev/null 2>&1
"$ARENA" replay "$TMP/gin" --game 0 --html -o "$TMP/gin.html" >/dev/null
"$ARENA" match --rules german --players 4 --games 1 --seed 3 --bot @greedy --bot @random \
    --out "$TMP/german" --quiet >/dev/null 2>&1
"$ARENA" replay "$TMP/german" --game 0 --html -o "$TMP/german.html" >/dev/null
check "a gin and a german game's pages" test -s "$TMP/gin.html" -a -s "$TMP/german.html"
cat >"$TMP/cfg.json" <<CFG
{"doc": "$HERE/../../docs/report.md", "report": "$TMP/t/report.html",
 "replays": {"laws": "$TMP/t/replays/$game", "gin": "$TMP/gin.html", "german": "$TMP/german.html"},
 "seat": "$TMP/t/replays/$seat", "shots": "$B/tests/view/screens"}
CFG
NODE_PATH="$HERE/node_modules" node "$HERE/phone.mjs" "$TMP/cfg.json"
check "the pages on a phone (phone.mjs)" test $? -eq 0
finish
