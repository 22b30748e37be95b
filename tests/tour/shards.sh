#!/usr/bin/env bash
# shards.sh BUILD_DIR - the shards 0..N-1 of a tournament, merged, give results.json,
# standings.csv and games.jsonl byte-identical to the unsharded run; running a shard again
# (a requeued job) resumes it and counts nothing twice; `arena merge` refuses a missing
# shard, a duplicated shard, a shard of another tournament, an unfinished shard and a
# non-empty --out.
source "$(dirname "$0")/lib.bash" "$@"

tourfile() {
    cat <<T
[tournament]
name = shards
rules = gin
seats = 2
deals = 4
seed = $1
# games to the target or 4 hands (RULES 7.7): random players take many hands to reach gin's
# target (under ASan the test took 3 minutes); a fixed hands = N is tested below
rule = max_hands=4
bootstrap = 200
[clocks]
decision_ms = 200
hard_ms = 2000
[entrant random]
command = $BOTS/random_bot
[entrant greedy]
command = $BOTS/greedy_bot
[entrant random3]
command = $BOTS/random_bot --seed 3
[entrant builtin]
command = @random
T
}
tourfile 31 > "$TMP/t.tour"
tourfile 32 > "$TMP/other.tour"
T="$TMP/t.tour"
"$ARENA" tournament "$T" --out "$TMP/ref" --jobs 2 --quiet
check "unsharded run" test -s "$TMP/ref/results.json"
for k in 0 1 2; do
    "$ARENA" tournament "$T" --shard $k/3 --out "$TMP/s$k" --jobs 2 --quiet
    check "shard $k/3 runs" test $? -eq 0
done
check "a shard writes no results of its own" test ! -e "$TMP/s0/results.json"
"$ARENA" merge "$TMP/s2" "$TMP/s0" "$TMP/s1" --out "$TMP/m" > "$TMP/m.txt"
check "merge: exit 0" test $? -eq 0
check "merge: byte-identical to the unsharded run" same_outputs "$TMP/ref" "$TMP/m"
check "merge: prints the table" grep -q "greedy" "$TMP/m.txt"
check "merge: records linked" py "$TMP/m" "all(__import__('os').path.exists(d + '/' + x['record']) for x in g)"

lines=$(wc -l < "$TMP/s1/journal.jsonl")
"$ARENA" tournament "$T" --shard 1/3 --out "$TMP/s1" --jobs 2 --quiet --resume
check "a shard run again (requeued) adds nothing" test "$(wc -l < "$TMP/s1/journal.jsonl")" -eq "$lines"
"$ARENA" merge "$TMP/s0" "$TMP/s1" "$TMP/s2" --out "$TMP/m2" --quiet
check "... and merges to the same results" same_outputs "$TMP/ref" "$TMP/m2"

"$ARENA" merge "$TMP/s0" "$TMP/s1" --out "$TMP/x1" --quiet 2> "$TMP/e1"
check "merge refuses a missing shard (exit 2)" test $? -eq 2
check "... naming it" grep -q "shard 2/3 is missing" "$TMP/e1"
"$ARENA" merge "$TMP/s0" "$TMP/s1" "$TMP/s1" "$TMP/s2" --out "$TMP/x2" --quiet 2> "$TMP/e2"
check "merge refuses a duplicated shard" test $? -eq 2
check "... naming both folders" grep -q "shard 1/3 is given twice" "$TMP/e2"
"$ARENA" tournament "$TMP/other.tour" --shard 2/3 --out "$TMP/o2" --jobs 2 --quiet
"$ARENA" merge "$TMP/s0" "$TMP/s1" "$TMP/o2" --out "$TMP/x3" --quiet 2> "$TMP/e3"
check "merge refuses a shard of another tournament" test $? -eq 2
check "... saying so" grep -q "is a shard of another tournament" "$TMP/e3"
cp -r "$TMP/s2" "$TMP/u2"
head -n 2 "$TMP/s2/journal.jsonl" > "$TMP/u2/journal.jsonl"
"$ARENA" merge "$TMP/s0" "$TMP/s1" "$TMP/u2" --out "$TMP/x4" --quiet 2> "$TMP/e4"
check "merge refuses an unfinished shard" test $? -eq 1
check "... and says how to finish it" grep -q -- "--shard 2/3 --out $TMP/u2 --resume" "$TMP/e4"
"$ARENA" merge "$TMP/s0" "$TMP/s1" "$TMP/s2" --out "$TMP/m" --quiet 2> "$TMP/e5"
check "merge refuses a non-empty --out" test $? -eq 2
"$ARENA" merge "$TMP/ref" --out "$TMP/x6" --quiet 2> "$TMP/e6"
check "merge refuses a whole tournament's folder" grep -q "not a shard" "$TMP/e6"

# A fixed number of hands (hands = N, rho per hand from the journal's hand scores): the same
# byte-identity for shards, and for a run killed half way and resumed.
sed 's/^deals = 4$/deals = 2\nhands = 2/; /^rule = max_hands=/d' "$T" > "$TMP/h.tour"
"$ARENA" tournament "$TMP/h.tour" --out "$TMP/href" --jobs 2 --quiet
check "hands: unsharded run, rho per hand reported" py "$TMP/href" \
    "'rho_hand' in r and r['hands_scored'] == 2 * r['games']" "r['config']['hands'] == 2"
for k in 0 1; do
    "$ARENA" tournament "$TMP/h.tour" --shard $k/2 --out "$TMP/hs$k" --jobs 2 --quiet
done
"$ARENA" merge "$TMP/hs0" "$TMP/hs1" --out "$TMP/hm" > "$TMP/hm.txt"
check "hands: the table gives rho per game and per hand, and the games' worth" \
    grep -Eq "rho -?[0-9.]+ per game, -?[0-9.]+ per hand: these 24 games are worth [0-9]+ independent ones" "$TMP/hm.txt"
check "hands: merged shards byte-identical to the unsharded run" same_outputs "$TMP/href" "$TMP/hm"
cp -r "$TMP/href" "$TMP/hr"
rm -f "$TMP/hr/results.json" "$TMP/hr/standings.csv" "$TMP/hr/games.jsonl"
head -n "$(($(wc -l < "$TMP/href/journal.jsonl") / 2))" "$TMP/href/journal.jsonl" > "$TMP/hr/journal.jsonl"
"$ARENA" tournament "$TMP/h.tour" --out "$TMP/hr" --jobs 2 --quiet --resume 2>"$TMP/hr.err"
check "hands: a run cut half way and resumed gives the same outputs" same_outputs "$TMP/href" "$TMP/hr"
finish
