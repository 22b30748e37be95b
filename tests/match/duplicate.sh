#!/usr/bin/env bash
# duplicate.sh BUILD_DIR HELPERS_DIR - duplicate play in `arena match` (docs/rules.md, RULES
# 2.3 Decision): the dealer rotates unless a --rule sets it, every game record says which;
# `selfplay` keeps the rule book's dealer; --hands N plays N hands per game scored as their
# sum; --hands is refused, with the rule, where it does not apply. Built-in bots only (no
# processes), so it is quick.
source "$(dirname "$0")/lib.bash" "$@"

usage() { # usage NAME EXPECTED-STDERR ARGS...
    local name=$1 want=$2
    shift 2
    "$ARENA" match --quiet --out "$TMP/u" "$@" >"$TMP/u.out" 2>"$TMP/u.err"
    local rc=$?
    check "$name: exit 2" test "$rc" -eq 2
    check "$name: '$want'" grep -qF -- "$want" "$TMP/u.err"
}
usage "--hands with the winner's dealer" "needs dealer=rotate (RULES 2.3)" \
    --rules gin --bot @greedy --bot @random --hands 3 --rule dealer=winner
usage "--hands with a target" "target: does not apply to a fixed number of hands" \
    --rules laws --bot @greedy --hands 3 --rule target=500
usage "--hands with a winner's bonus (its rule)" "(RULES 7.4)" \
    --rules laws --bot @greedy --hands 3 --rule winner_bonus=100
usage "--hands 0" "--hands: expected an integer from 1 to 1000" --bot @greedy --hands 0
usage "a bad dealer" "dealer: expected one of winner rotate (RULES 2.3)" \
    --bot @greedy --rule dealer=left

# default: every record of a match plays dealer=rotate; asked: dealer=winner
"$ARENA" match --rules laws --players 3 --games 3 --seed 4 --bot @greedy --bot @random \
    --out "$TMP/rot" --quiet >/dev/null 2>&1
check "match: dealer=rotate in every record" \
    test "$(grep -l '"options":"[^"]* dealer=rotate ' "$TMP"/rot/records/*.jsonl | wc -l)" -eq 3
check "match: games to the target by default" py "$TMP/rot" \
    "r['hands'] == 0" "all('target=1000' in x['options'] for x in g)"
"$ARENA" match --rules laws --players 3 --games 3 --seed 4 --bot @greedy --bot @random \
    --rule dealer=winner --out "$TMP/win" --quiet >/dev/null 2>&1
check "match --rule dealer=winner: recorded" \
    test "$(grep -l '"options":"[^"]* dealer=winner ' "$TMP"/win/records/*.jsonl | wc -l)" -eq 3
"$ARENA" selfplay --rules gin --games 1 >"$TMP/self.txt" 2>&1
check "selfplay keeps the rule book's dealer" grep -q 'dealer=winner' "$TMP/self.txt"
"$ARENA" selfplay --rules gin --games 1 --rule dealer=rotate >"$TMP/self2.txt" 2>&1
check "... unless asked" grep -q 'dealer=rotate' "$TMP/self2.txt"

# RULES 4.2 Decision: per-seat stock streams in every record of a match unless asked;
# selfplay keeps the rule book's one stock
check "match: stock=streams in every record" \
    test "$(grep -l '"options":"[^"]* stock=streams' "$TMP"/rot/records/*.jsonl | wc -l)" -eq 3
"$ARENA" match --rules gin --games 2 --seed 4 --bot @greedy --bot @random \
    --rule stock=deck --out "$TMP/deck" --quiet >/dev/null 2>&1
check "match --rule stock=deck: recorded" \
    test "$(grep -l '"options":"[^"]* stock=deck' "$TMP"/deck/records/*.jsonl | wc -l)" -eq 2
check "selfplay keeps the rule book's stock" grep -q 'stock=deck' "$TMP/self.txt"

# --hands: exactly N hands per game; the total is the sum of the hand scores (gin: no
# concealed bonus); the records replay
"$ARENA" match --rules gin --games 6 --hands 4 --seed 9 --bot @greedy --bot @random \
    --out "$TMP/h" --quiet >/dev/null 2>&1
check "--hands: exit 0" test $? -eq 0
check "--hands: results say so" py "$TMP/h" "r['hands'] == 4" "len(g) == 6"
check "--hands: 4 hands in every game, totals = the sums of the hand scores" python3 - "$TMP/h" <<'PY'
import glob, json, sys
n = 0
for f in glob.glob(sys.argv[1] + "/records/*.jsonl"):
    rows = [json.loads(l) for l in open(f)]
    hands = [x for x in rows if x["type"] == "hand_end"]
    res = [x for x in rows if x["type"] == "result"][0]
    assert len(hands) == 4 and res["hands"] == 4 and res["completed"], f
    sums = [sum(h["scores"][s] for h in hands) for s in range(2)]
    assert sums == res["final_total"], (f, sums, res["final_total"])
    assert "target=0" in rows[0]["options"] and "max_hands=4" in rows[0]["options"]
    n += 1
sys.exit(0 if n == 6 else 1)
PY
replays() { "$ARENA" replay "$1" >"$TMP/replay.out" 2>&1; }
check "--hands: a record replays" replays "$TMP/h/records/m9-d0-r1.jsonl"

finish
