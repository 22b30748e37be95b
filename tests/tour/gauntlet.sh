#!/usr/bin/env bash
# gauntlet.sh BUILD_DIR - a gauntlet's SPRT stops early with its decision in results.json:
# greedy against a random baseline accepts H1 (2 seats, gin, and 3 seats, laws), two equal
# random bots accept H0; only the sets up to the deciding one are counted, and a sharded
# gauntlet merged gives the same results as the unsharded run that stopped early.
source "$(dirname "$0")/lib.bash" "$@"

gtour() { # NAME RULES SEATS CHALLENGER S1 ENTRANT=COMMAND...
    local name=$1 rules=$2 seats=$3 ch=$4 s1=$5
    shift 5
    printf '[tournament]\nname = %s\nrules = %s\nseats = %s\nformat = gauntlet\nchallenger = %s\nbaseline = random\ndeals = 60\nseed = 41\nbootstrap = 100\n' "$name" "$rules" "$seats" "$ch"
    printf '[clocks]\ndecision_ms = 200\nhard_ms = 2000\n[sprt]\ns0 = 0\ns1 = %s\nalpha = 0.05\nbeta = 0.05\n' "$s1"
    local e
    for e in "$@"; do printf '[entrant %s]\ncommand = %s\n' "${e%%=*}" "${e#*=}"; done
}
gtour gin-h1 gin 2 greedy 20 "greedy=$BOTS/greedy_bot" "random=$BOTS/random_bot" > "$TMP/h1.tour"
gtour laws-h1 laws 3 greedy 300 "greedy=$BOTS/greedy_bot" "random=$BOTS/random_bot" \
    "random2=$BOTS/random_bot --seed 5" "builtin=@random" > "$TMP/l1.tour"
gtour gin-h0 gin 2 random3 150 "random3=$BOTS/random_bot --seed 3" "random=$BOTS/random_bot" > "$TMP/h0.tour"

for t in h1 l1 h0; do
    "$ARENA" tournament "$TMP/$t.tour" --out "$TMP/$t" --jobs 2 --no-progress > "$TMP/$t.txt" 2> "$TMP/$t.err"
    check "$t: exit 0" test $? -eq 0 || cat "$TMP/$t.err"
done
check "gin greedy vs random: H1, stopped early" py "$TMP/h1" \
    "r['sprt']['decision'] == 'H1'" "r['sprt']['stopped_early']" \
    "r['sprt']['llr'] >= r['sprt']['upper']" \
    "r['sets'] == r['sprt']['sets'] < r['sets_scheduled']" "len(g) == r['sets'] * 2" \
    "[x['set'] for x in g] == sorted(x['set'] for x in g)"
check "laws greedy vs random baseline: H1" py "$TMP/l1" "r['sprt']['decision'] == 'H1'" \
    "r['sprt']['stopped_early']" "all(len(x['seating']) == 3 for x in g)" \
    "all(0 in x['seating'] and 1 in x['seating'] for x in g)"
check "two random bots: H0" py "$TMP/h0" "r['sprt']['decision'] == 'H0'" \
    "r['sprt']['llr'] <= r['sprt']['lower']"
check "the table shows the decision" grep -q "H1 accepted" "$TMP/h1.txt"

# the shards play every set; the merge finds the same stopping point
sed 's/deals = 60/deals = 20/' "$TMP/h1.tour" > "$TMP/hs.tour"
"$ARENA" tournament "$TMP/hs.tour" --out "$TMP/hs" --jobs 2 --quiet
for k in 0 1; do "$ARENA" tournament "$TMP/hs.tour" --shard $k/2 --out "$TMP/hs$k" --jobs 2 --quiet; done
"$ARENA" merge "$TMP/hs0" "$TMP/hs1" --out "$TMP/hsm" --quiet
check "sharded gauntlet merged == unsharded (which stopped early)" same_outputs "$TMP/hs" "$TMP/hsm"
check "... and the shards did play past the decision" test "$(cat "$TMP"/hs?/journal.jsonl | wc -l)" -gt "$(wc -l < "$TMP/hs/games.jsonl")"
finish
