#!/usr/bin/env bash
# firefox.sh BUILD_DIR HELPERS_DIR - the replay page and the report in Debian's firefox-esr,
# headless, driven through Firefox's own Marionette protocol by firefox.py (python3 only:
# no geckodriver, no npm package, nothing downloaded): each page opens from file://, gets
# ready, steps to its end showing the record's totals, and raises no JS error; a seat's page
# shows only that seat's hand face up until a hand's end. Skipped (77)
# only when firefox-esr is not installed (scripts/install-deps.sh installs it in the test set).
source "$(dirname "$0")/../match/lib.bash" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
H=$(readlink -f "$H")
FIREFOX=${OKR_FIREFOX:-/usr/bin/firefox-esr}
if [ ! -x "$FIREFOX" ]; then
    echo "SKIP: no $FIREFOX (scripts/install-deps.sh installs firefox-esr)"
    exit 77
fi

# a tournament with a crashing bot: verdicts on the pages, a bootstrap for rank probabilities
cat >"$TMP/t.tour" <<TOUR
[tournament]
name = firefox
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
"$ARENA" report "$TMP/t" --format html >/dev/null
check "the tournament and its report" test -s "$TMP/t/report.html"
game=$(python3 -c "
import json
g = [json.loads(l) for l in open('$TMP/t/games.jsonl')]
print([x for x in g if x['verdicts']][0]['game_id'])")
cat >"$TMP/cfg.json" <<CFG
{"replay": "$TMP/t/replays/$game.html", "record": "$TMP/t/records/$game.jsonl",
 "seat": 1, "seat_page": "$TMP/t/replays/${game#t12-}.seat1.html",
 "report": "$TMP/t/report.html", "results": "$TMP/t/results.json",
 "shots": "$(readlink -f "$BUILD")/tests/view/screens"}
CFG
OKR_FIREFOX="$FIREFOX" python3 "$HERE/firefox.py" "$TMP/cfg.json"
check "the pages in firefox-esr (firefox.py, Marionette)" test $? -eq 0
finish
