#!/usr/bin/env bash
# replay.sh BUILD_DIR - every game of a tournament can be played again on its own with
# `arena match --seed <tournament seed> --first-deal <deal> --games <seats>` and the set's
# bots in its circular order, and gives the same scores, hands and placements; and a deal
# played alone with --first-deal is the same game as inside a longer match.
source "$(dirname "$0")/lib.bash" "$@"

cat > "$TMP/t.tour" <<T
[tournament]
name = replay
rules = laws
seats = 3
deals = 2
seed = 61
bootstrap = 0
[clocks]
decision_ms = 500
[entrant random]
command = $BOTS/random_bot
[entrant greedy]
command = $BOTS/greedy_bot
[entrant random2]
command = $BOTS/random_bot --seed 5
[entrant builtin]
command = @random
T
"$ARENA" tournament "$TMP/t.tour" --out "$TMP/o" --jobs 2 --quiet
check "tournament ran" test -s "$TMP/o/games.jsonl"

# one `arena match` per set, in the set's circular order (the seating of its rotation 0)
python3 - "$TMP/t.tour" "$TMP/o" > "$TMP/sets.txt" <<'PY'
import json, sys, configparser
cp = configparser.ConfigParser(interpolation=None)
cp.read(sys.argv[1])
cmd = {s[8:]: cp[s]["command"] for s in cp.sections() if s.startswith("entrant ")}
for l in open(sys.argv[2] + "/games.jsonl"):
    x = json.loads(l)
    if x["rotation"] == 0:
        bots = " ".join("--bot '%s' --name %s" % (cmd[n], n) for n in x["names"])
        print("%d %d %s" % (x["set"], x["deal"], bots))
PY
nsets=0 same_sets=0
while read -r set deal bots; do
    nsets=$((nsets + 1))
    eval "\"$ARENA\" match --rules laws --players 3 --seed 61 --first-deal $deal --games 3 $bots --out \"$TMP/m$set\" --quiet" > /dev/null
    if python3 - "$TMP/o/games.jsonl" "$TMP/m$set/games.jsonl" "$set" <<'PY'
import json, sys
t = [json.loads(l) for l in open(sys.argv[1])]
t = {x["rotation"]: x for x in t if x["set"] == int(sys.argv[3])}
m = [json.loads(l) for l in open(sys.argv[2])]
ok = len(m) == 3
for x in m:
    y = t[x["rotation"]]
    ok &= x["deal"] == y["deal"] and x["names"] == y["names"]
    for k in ("final_total", "placements", "hand_scores", "actions", "decisions"):
        ok &= x[k] == y[k]
sys.exit(0 if ok else 1)
PY
    then same_sets=$((same_sets + 1)); else echo "  set $set differs" >&2; fi
done < "$TMP/sets.txt"
check "all $nsets sets replayed alone with --first-deal give the same games" test "$nsets" -gt 0 -a "$same_sets" -eq "$nsets"

# --first-deal inside a plain match
B="--bot $BOTS/random_bot --bot $BOTS/greedy_bot --bot @random"
"$ARENA" match --rules laws --players 3 --seed 9 --games 12 $B --out "$TMP/long" --quiet > /dev/null
"$ARENA" match --rules laws --players 3 --seed 9 --first-deal 2 --games 3 $B --out "$TMP/one" --quiet > /dev/null
check "deal 2 alone == deal 2 of a 4-deal match" python3 - "$TMP/long/games.jsonl" "$TMP/one/games.jsonl" <<'PY'
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
a = [x for x in a if x["deal"] == 2]
key = lambda x: (x["game_id"], x["final_total"], x["hand_scores"], x["decisions"])
sys.exit(0 if len(b) == 3 and [key(x) for x in a] == [key(x) for x in b] else 1)
PY
check "results.json says where the match started" python3 -c "import json,sys; sys.exit(json.load(open('$TMP/one/results.json'))['first_deal'] != 2)"
finish
