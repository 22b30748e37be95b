#!/usr/bin/env bash
# browser.sh BUILD_DIR - the league's web face in Debian's headless chromium (browser.mjs): the
# host makes two authors, each uploads a bot through the form (the Python starter bot, the C
# greedy bot), sees it pass its check and reach the leaderboard, opens a game of theirs; a
# refused upload shows its reason; forged Origin, a wrong secret, no cookie are refused; no
# response to one author holds the seed or the other's logs. Screenshots go to
# BUILD_DIR/tests/lweb/screens/ (OKR_SHOTS=DIR elsewhere: docs/img). Skipped (77) only when
# chromium or node is not installed; playwright-core comes from tests/view/node_modules.
source "$(dirname "$0")/../tour/lib.bash" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
CHROMIUM=${OKR_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ] || ! command -v node >/dev/null; then
    echo "SKIP: no $CHROMIUM or no node (scripts/install-deps.sh installs them)"
    exit 77
fi
if [ ! -d "$HERE/../view/node_modules/playwright-core" ]; then
    bad "playwright-core is not installed: run scripts/install-deps.sh (npm ci in tests/view)"
    finish
fi
L="$TMP/lg"
cat >"$TMP/t.league" <<T
[league]
name = browser
rules = gin
seats = 2
seed = 770211
bootstrap = 20
jobs = 1
test_sets_per_hour = 1
[clocks]
decision_ms = 2000
hard_ms = 5000
startup_ms = 10000
[entrant greedy]
command = @greedy
[entrant random]
command = @random
T
"$ARENA" league init "$L" "$TMP/t.league" >/dev/null
"$ARENA" league run "$L" --serve 0 --jobs 1 >"$TMP/run.out" 2>"$TMP/run.err" &
RUN=$!
for _ in $(seq 100); do
    grep -q "host signs in" "$TMP/run.out" 2>/dev/null && break
    sleep 0.1
done
link=$(grep -o "http://[^ ]*signin[^ ]*" "$TMP/run.out")
check "run --serve prints the host's link" test -n "$link"
SHOTS=${OKR_SHOTS:-$BUILD/tests/lweb/screens}
mkdir -p "$SHOTS"
cat >"$TMP/cfg.json" <<CFG
{"host": "$link", "league": "$L", "src": "$SRC", "build": "$BUILD", "shots": "$SHOTS"}
CFG
node "$HERE/browser.mjs" "$TMP/cfg.json"
check "browser.mjs: authors, uploads, the leaderboard, seat pages, refusals" test $? -eq 0
kill -TERM $RUN
wait $RUN
check "the run stops with its server" test $? -eq 0
finish
