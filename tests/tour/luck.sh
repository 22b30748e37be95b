#!/usr/bin/env bash
# luck.sh BUILD_DIR - luck-adjusted scores in a tournament (docs/luck.md): every game of
# games.jsonl has luck_adjusted beside final_total, results.json the adjusted rating with its
# interval, the standings a column; `arena luck OUT` computes the same numbers after the fact
# from the records, --v const gives the raw scores back; `luck = off` leaves them out; the
# records say stock=streams (RULES 4.2 Decision).
source "$(dirname "$0")/lib.bash" "$@"

mk() { # NAME EXTRA
    cat > "$TMP/$1.tour" <<T
[tournament]
name = $1
rules = gin
seats = 2
deals = 4
seed = 3
bootstrap = 200
$2
[clocks]
decision_ms = 200
hard_ms = 2000
[entrant random]
command = $BOTS/random_bot
[entrant greedy]
command = $BOTS/greedy_bot
T
}
mk on ""
mk off "luck = off"
for t in on off; do
    "$ARENA" tournament "$TMP/$t.tour" --out "$TMP/$t" --jobs 1 --no-progress > "$TMP/$t.txt" 2> "$TMP/$t.err"
    check "$t: exit 0" test $? -eq 0
done
check "every game has luck_adjusted, one number per seat, summing to the raw totals' sum" \
    py "$TMP/on" "len(g) == 8" \
    "all(len(x['luck_adjusted']) == 2 for x in g)" \
    "all(abs(sum(x['luck_adjusted']) - sum(x['final_total'])) < 0.1 for x in g)" \
    "any(x['luck_adjusted'] != x['final_total'] for x in g)"
check "results.json: an adjusted rating with its interval per entrant" \
    py "$TMP/on" "r['luck_adjusted'] == 'hand'" \
    "all(e['luck_adjusted_score_ci'][0] <= e['luck_adjusted_score'] <= e['luck_adjusted_score_ci'][1] for e in r['standings'])"
check "standings: a luck-adjusted column" grep -q "luck-adjusted" "$TMP/on.txt"
check "luck = off: none of it" py "$TMP/off" "all('luck_adjusted' not in x for x in g)" \
    "'luck_adjusted' not in r"
check "luck = off: no column" bash -c "! grep -q 'luck-adjusted' '$TMP/off.txt'"
check "records play stock=streams" \
    test "$(grep -l '"options":"[^"]* stock=streams' "$TMP"/on/records/*.jsonl | wc -l)" -eq 8

"$ARENA" luck "$TMP/on" > "$TMP/luck.txt" 2>&1
check "arena luck: exit 0" test $? -eq 0
check "arena luck: the same numbers as the tournament" python3 - "$TMP/on" <<'PY'
import json, sys
d = sys.argv[1]
g = {x["game"]: x for x in map(json.loads, open(d + "/games.jsonl"))}
l = [json.loads(x) for x in open(d + "/luck.jsonl")]
assert len(l) == len(g)
for x in l:
    assert all(abs(a - b) < 0.01 for a, b in zip(x["luck_adjusted"], g[x["game"]]["luck_adjusted"])), x
    assert x["deals"] >= 1 and x["draws"] >= 1
PY
check "arena luck: prints both ratings" grep -q "luck-adjusted" "$TMP/luck.txt"
"$ARENA" luck "$TMP/on" --v const --quiet > /dev/null 2>&1
check "arena luck --v const: the raw totals" python3 - "$TMP/on" <<'PY'
import json, sys
d = sys.argv[1]
g = {x["game"]: x for x in map(json.loads, open(d + "/games.jsonl"))}
for x in map(json.loads, open(d + "/luck.jsonl")):
    assert x["luck_adjusted"] == g[x["game"]]["final_total"], x
PY
"$ARENA" luck "$TMP/nowhere" > /dev/null 2>&1
check "arena luck: a folder without games.jsonl is an error" test $? -eq 1
finish
