#!/usr/bin/env bash
# luck.sh BUILD_DIR - a league's ratings carry the luck-adjusted score (docs/luck.md, issue 24)
# as a tournament's do: results.json and league-standings.json have each entrant's
# luck_adjusted_score with its interval, `arena league standings` prints them under its table.
source "$(dirname "$0")/../tour/lib.bash" "$@"

for luck in on; do
    printf '[league]\nname = lk\nrules = gin\nseats = 2\nseed = 11\nbootstrap = 50\njobs = 1\nhands = 3\n[entrant random]\ncommand = @random\n[entrant greedy]\ncommand = @greedy\n' \
        > "$TMP/$luck.league"
    "$ARENA" league init "$TMP/$luck" "$TMP/$luck.league" > /dev/null
    check "luck = $luck: init" test $? -eq 0
    "$ARENA" league run "$TMP/$luck" --sets 4 > "$TMP/$luck.run" 2>&1
    check "luck = $luck: 4 sets run" test $? -eq 0
    "$ARENA" league standings "$TMP/$luck" > "$TMP/$luck.txt" 2>&1
done
check "results.json and league-standings.json: every entrant's luck-adjusted score and interval" \
    python3 - "$TMP/on" "$TMP/on.txt" <<'PY'
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/results.json"))
s = json.load(open(d + "/league-standings.json"))
assert r["luck_adjusted"] == "hand" and r["games"] == 8
for a, b in zip(r["standings"], s["standings"]):
    lo, hi = a["luck_adjusted_score_ci"]
    assert lo <= a["luck_adjusted_score"] <= hi, a
    assert b["luck_adjusted_score"] == a["luck_adjusted_score"], (a, b)
    want = "%s %+.1f [%+.1f, %+.1f]" % (a["name"], a["luck_adjusted_score"], lo, hi)
    assert want in open(sys.argv[2]).read(), want
PY
finish
