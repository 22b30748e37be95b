#!/usr/bin/env bash
# replay.sh BUILD_DIR HELPERS_DIR - `arena replay`: records of completed, forfeited and
# substituted games replay with the engine to the recorded hands, totals and digest; a game can
# be picked from a match directory by id or number; --seat shows one seat's view only; a
# tampered or cut record is a mismatch.
source "$(dirname "$0")/lib.bash" "$@"

out="$TMP/m"
"$ARENA" match --players 3 --games 6 --seed 21 --bot "$(helper good)" \
    --bot "$(helper crash --after 60)" --bot "$(helper full)" --out "$out" --quiet >/dev/null 2>&1
sub="$TMP/s"
"$ARENA" match --players 3 --games 3 --seed 21 --on-error substitute --bot "$(helper good)" \
    --bot "$(helper crash --after 60)" --bot "$(helper illegal --after 9)" --out "$sub" \
    --quiet >/dev/null 2>&1
# a bot that dies when a hand ends: the game stops between hands, maybe before the next
# hand's first action
hand="$TMP/h"
"$ARENA" match --players 3 --games 6 --seed 5 --bot "$(helper good)" --bot "$(helper crashhand)" \
    --bot "$(helper good)" --out "$hand" --quiet --max-error-share 1 >/dev/null 2>&1
check "the matches ran" test -s "$out/results.json" -a -s "$sub/results.json" -a -s "$hand/results.json"
# the arena speaks protocol 1.1; the helper bots were written for 1.0 and play on (a minor
# version only adds fields, which a 1.0 bot skips)
check "a 1.0 bot plays every game of a 1.1 arena, with no verdict" \
    py "$hand" "bots['okrh_good']['identify']['protocol'] == '1.0'" \
    "bots['okrh_good']['games'] == 6 and sum(bots['okrh_good']['errors'].values()) == 0"
check "crash at a hand end: forfeits, RE" \
    py "$hand" "all(x['forfeits'] == [x['seating'].index(1)] for x in g)" \
    "bots['okrh_crashhand']['errors']['RE'] == 6"

for dir in "$out" "$sub" "$hand"; do
    while read -r id totals; do
        got=$("$ARENA" replay --quiet "$dir/records/$id.jsonl")
        rc=$?
        check "replay $(basename "$dir")/$id: verified, final totals $totals" \
            test "$rc" -eq 0 -a -n "$(grep -F "final totals $totals," <<<"$got")"
    done < <(python3 -c "
import json
for l in open('$dir/games.jsonl'):
    x = json.loads(l)
    if 'record' in x:
        print(x['game_id'], ' '.join(map(str, x['final_total'])))")
done
check "forfeited and substituted games are among them" \
    py "$out" "any(not x['completed'] for x in g)"
check "substituted moves are marked in the record" grep -q '"substituted":"RE"' "$sub"/records/*.jsonl
check "a refused action is marked IA in the record" grep -q '"substituted":"IA"' "$sub"/records/*.jsonl

# picking a game from the directory
a=$("$ARENA" replay --quiet "$out" --game 1)
b=$("$ARENA" replay --quiet "$out" --game m21-d0-r1)
check "--game 1 and --game m21-d0-r1 are the same game" test -n "$a" -a "$a" = "$b"
"$ARENA" replay "$out" >/dev/null 2>&1
check "a directory without --game is a usage error (2)" test $? -eq 2
"$ARENA" replay "$out" --game 99 >/dev/null 2>&1
check "--game past the end fails (1)" test $? -eq 1
"$ARENA" replay "$TMP/none.jsonl" >/dev/null 2>&1
check "a missing file fails (1)" test $? -eq 1

# the full listing: every action and hand end (of a completed game)
id=$(python3 -c "
import json
print([x['game_id'] for x in map(json.loads, open('$sub/games.jsonl')) if x['completed']][0])")
rec="$sub/records/$id.jsonl"
"$ARENA" replay "$rec" >"$TMP/full.txt"
n_actions=$(grep -c '"type":"action"' "$rec")
check "the listing has one line per action" \
    test "$(grep -cE '^ +[0-9]+  hand [0-9]+  seat' "$TMP/full.txt")" -eq "$n_actions"
check "the listing has the hand ends" grep -q "^hand 1 over" "$TMP/full.txt"

# --seat past the table: a usage error (exit 2) that says how many seats there are
"$ARENA" replay "$rec" --seat 3 >"$TMP/seat3.out" 2>"$TMP/seat3.err"
check "--seat 3 of a 3-seat game: exit 2, not MISMATCH" \
    bash -c "[ $? -eq 2 ] && grep -q 'has 3 seats (0 to 2)' '$TMP/seat3.err' && ! grep -q MISMATCH '$TMP/seat3.out'"

# --seat: that seat's view before each of its decisions; never another hand mid-hand
"$ARENA" replay "$rec" --seat 1 >"$TMP/seat1.txt"
check "--seat 1: exits 0" test $? -eq 0
check "--seat 1: shows seat 1's views" grep -q "^-- seat 1 (" "$TMP/seat1.txt"
check "--seat 1: shows no other seat's view" test "$(grep -c '^-- seat [02] (' "$TMP/seat1.txt")" -eq 0
check "--seat 1: views list what happened since" grep -q "since your last turn: seat" "$TMP/seat1.txt"
python3 - "$TMP/seat1.txt" <<'PY' && ok "--seat 1: its own draws show the card, others' never" || bad "--seat 1: draws"
import re, sys
text = open(sys.argv[1]).read()
own = re.findall(r"seat 1 \S+ +draw \(", text)
other = re.findall(r"seat [02] \S+ +draw \(", text)
assert own and not other, (len(own), other[:3])
PY
"$ARENA" replay "$rec" --seat 5 >/dev/null 2>&1
check "--seat past the table fails" test $? -ne 0

# tampering: a changed action or a changed total is a mismatch
python3 - "$rec" "$TMP/t1.jsonl" "$TMP/t2.jsonl" "$TMP/t3.jsonl" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
# t1: swap the first discard for another card of the same line's seat? simply drop one action
acts = [i for i, l in enumerate(lines) if '"type":"action"' in l]
t1 = lines[:acts[5]] + lines[acts[5] + 1:]
open(sys.argv[2], "w").write("\n".join(t1) + "\n")
# t2: change a final total
res = json.loads(lines[-1]); res["final_total"][0] += 5
open(sys.argv[3], "w").write("\n".join(lines[:-1] + [json.dumps(res)]) + "\n")
# t3: cut before the result
open(sys.argv[4], "w").write("\n".join(lines[:-1]) + "\n")
PY
for t in t1 t2 t3; do
    "$ARENA" replay --quiet "$TMP/$t.jsonl" >"$TMP/$t.out" 2>&1
    check "tampered record $t: exit 1" test $? -eq 1
done
check "a dropped action is reported as a mismatch" grep -q "MISMATCH" "$TMP/t1.out"
check "a changed total is reported as a mismatch" grep -q "final totals differ" "$TMP/t2.out"
check "a cut record is reported" grep -q "no result line" "$TMP/t3.out"

# forfeits from the record are seat numbers: out of range (a shift by 32 wrapped to seat 0 on
# x86), negative, repeated or not numbers, they are refused with file:line, never "verified"
fid=$(python3 -c "
import json
print([x['game_id'] for x in map(json.loads, open('$out/games.jsonl')) if not x['completed']][0])")
frec="$out/records/$fid.jsonl"
for bad in '[32]' '[-32]' '[3]' '[33]' '["1"]' '[1,1]' '7'; do
    python3 - "$frec" "$TMP/ff.jsonl" "$bad" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
res = json.loads(lines[-1]); res["forfeits"] = json.loads(sys.argv[3])
open(sys.argv[2], "w").write("\n".join(lines[:-1] + [json.dumps(res)]) + "\n")
PY
    nl=$(wc -l <"$TMP/ff.jsonl")
    "$ARENA" replay --quiet "$TMP/ff.jsonl" >"$TMP/ff.out" 2>&1
    rc=$?
    check "forfeits $bad: exit 1, refused at ff.jsonl:$nl, not verified" \
        test "$rc" -eq 1 -a -z "$(grep verified "$TMP/ff.out")" \
        -a -n "$(grep -F "ff.jsonl:$nl: forfeits" "$TMP/ff.out")"
done

check "no process left" leftovers
finish
