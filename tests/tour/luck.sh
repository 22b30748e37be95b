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

"$ARENA" report "$TMP/on" > "$TMP/on.report" 2>&1
check "arena report (text): a Luck line with every entrant's adjusted score and interval" \
    python3 - "$TMP/on" "$TMP/on.report" <<'PY'
import json, sys
r = json.load(open(sys.argv[1] + "/results.json"))
line = [l for l in open(sys.argv[2]) if l.startswith("Luck ")]
assert len(line) == 1, line
for e in r["standings"]:
    lo, hi = e["luck_adjusted_score_ci"]
    want = "%s %+.1f [%+.1f, %+.1f]" % (e["name"], e["luck_adjusted_score"], lo, hi)
    assert want in line[0], (want, line[0])
PY
"$ARENA" report "$TMP/off" > "$TMP/off.report" 2>&1
check "arena report, luck = off: no Luck line" bash -c "! grep -q '^Luck ' '$TMP/off.report'"
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
# luck = rollout: the rollout estimate (gin), named in results.json, the numbers `arena luck
# --v rollout` gives from the records
mk roll "luck = rollout"
sed -i 's/^deals = 4$/deals = 2/' "$TMP/roll.tour"
"$ARENA" tournament "$TMP/roll.tour" --out "$TMP/roll" --jobs 1 --no-progress > "$TMP/roll.txt" 2>&1
check "luck = rollout: exit 0" test $? -eq 0
"$ARENA" luck "$TMP/roll" --v rollout --quiet > /dev/null 2>&1
check "luck = rollout: results.json names it; arena luck --v rollout gives the same numbers, not the hand estimate's" \
    python3 - "$TMP/roll" "$TMP/on" <<'PY'
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/results.json"))
assert r["luck_adjusted"] == "rollout", r.get("luck_adjusted")
g = {x["game"]: x for x in map(json.loads, open(d + "/games.jsonl"))}
h = {x["game"]: x for x in map(json.loads, open(sys.argv[2] + "/games.jsonl"))}
assert len(g) == 4
for x in map(json.loads, open(d + "/luck.jsonl")):
    assert all(abs(a - b) < 0.01 for a, b in zip(x["luck_adjusted"], g[x["game"]]["luck_adjusted"])), x
# the same deals (seed 3) as the hand estimate's tournament: the adjusted totals differ
assert any(g[i]["final_total"] == h[i]["final_total"] and g[i]["luck_adjusted"] != h[i]["luck_adjusted"] for i in g)
PY
"$ARENA" luck "$TMP/nowhere" > /dev/null 2>&1
check "arena luck: a folder without games.jsonl is an error" test $? -eq 1
# SPRT on luck-adjusted totals ([sprt] score = luck-adjusted): the LLR is the one of the
# adjusted per-set differences (ar_sprt_llr: n/2 log(sum (x-s0)^2 / sum (x-s1)^2)), not of
# the raw ones; results.json and the table say which scores were tested
for sc in luck-adjusted raw; do
    cat > "$TMP/g-$sc.tour" <<T
[tournament]
name = g-$sc
rules = gin
seats = 2
format = gauntlet
challenger = greedy
baseline = random
deals = 12
seed = 5
bootstrap = 50
[clocks]
decision_ms = 200
hard_ms = 2000
[sprt]
s0 = 0
s1 = 20
score = $sc
[entrant greedy]
command = $BOTS/greedy_bot
[entrant random]
command = $BOTS/random_bot
T
    "$ARENA" tournament "$TMP/g-$sc.tour" --out "$TMP/g-$sc" --jobs 1 --no-progress > "$TMP/g-$sc.txt" 2> "$TMP/g-$sc.err"
    check "gauntlet, score = $sc: exit 0" test $? -eq 0
done
sprt_llr() { # DIR FIELD: the LLR of the counted sets' differences on FIELD
    python3 - "$1" "$2" <<'PY'
import json, math, sys
d, field = sys.argv[1], sys.argv[2]
r = json.load(open(d + "/results.json"))
sp = r["sprt"]
sets = {}
for x in map(json.loads, open(d + "/games.jsonl")):
    t, n = x[field], x["names"]
    sets.setdefault(x["set"], []).append(t[n.index("greedy")] - t[n.index("random")])
xs = [sum(v) / len(v) for k, v in sorted(sets.items())][: sp["sets"]]
r0 = sum((v - sp["s0"]) ** 2 for v in xs)
r1 = sum((v - sp["s1"]) ** 2 for v in xs)
print(0.5 * len(xs) * math.log(r0 / r1))
PY
}
check "SPRT score = luck-adjusted: the LLR of the adjusted differences" py "$TMP/g-luck-adjusted" \
    "r['sprt']['score'] == 'luck-adjusted'" \
    "abs(r['sprt']['llr'] - $(sprt_llr "$TMP/g-luck-adjusted" luck_adjusted)) < 1e-3" \
    "abs(r['sprt']['llr'] - $(sprt_llr "$TMP/g-luck-adjusted" final_total)) > 1e-3"
check "SPRT score = raw: the LLR of the raw differences" py "$TMP/g-raw" \
    "r['sprt']['score'] == 'raw'" \
    "abs(r['sprt']['llr'] - $(sprt_llr "$TMP/g-raw" final_total)) < 1e-3"
check "the table says the SPRT was on luck-adjusted scores" grep -q "SPRT (luck-adjusted)" "$TMP/g-luck-adjusted.txt"
sed 's/^bootstrap = 50$/bootstrap = 50\nluck = off/' "$TMP/g-luck-adjusted.tour" > "$TMP/g-off.tour"
"$ARENA" tournament "$TMP/g-off.tour" --out "$TMP/g-off" --quiet > /dev/null 2> "$TMP/g-off.err"
check "score = luck-adjusted with luck = off: refused, naming the line" \
    grep -q "g-off.tour:18: score: luck-adjusted needs" "$TMP/g-off.err"
finish
