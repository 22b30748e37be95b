#!/usr/bin/env bash
# resume.sh BUILD_DIR - a tournament killed with SIGKILL at up to 15 (at least 10) seeded random
# moments (scaled to the machine's speed) and resumed each time ends with results.json, standings.csv and games.jsonl byte-identical to an
# uninterrupted run; no worker or bot outlives a killed arena; SIGINT stops it cleanly with a
# "resume with" hint; a torn or corrupted journal tail is reported and repaired; --resume is
# refused for a folder of another tournament, and a non-empty folder needs --resume.
source "$(dirname "$0")/lib.bash" "$@"

cat > "$TMP/t.tour" <<T
[tournament]
name = resume
rules = gin
seats = 2
deals = 16
seed = 21
# 3 hands a game: random players take many hands to reach gin's target (the run took 2 minutes
# on a loaded machine, 16 s with 3 hands; the kills still land mid-run)
hands = 3
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
T="$TMP/t.tour"
start=$(date +%s%N)
"$ARENA" tournament "$T" --out "$TMP/ref" --jobs 2 --quiet
ref_ms=$((($(date +%s%N) - start) / 1000000))
check "reference run" test -s "$TMP/ref/results.json"

# 15 kills at seeded random delays, resuming each time; the delays scale with the machine (up to
# a sixteenth of the uninterrupted run, 100-990 ms): on a fast machine fixed delays of up to a
# second let the run finish after 3 kills, on a loaded one they would be all start-up
max_ms=$((ref_ms / 16))
[ "$max_ms" -lt 100 ] && max_ms=100
[ "$max_ms" -gt 990 ] && max_ms=990
echo "  uninterrupted run: $ref_ms ms; kills at 20-$((20 + max_ms)) ms"
RANDOM=4242
kills=0 runs=0
while :; do
    runs=$((runs + 1))
    "$ARENA" tournament "$T" --out "$TMP/k" --jobs 2 --quiet --resume 2>> "$TMP/k.err" &
    pid=$!
    if [ "$kills" -lt 15 ]; then
        d=$((20 + RANDOM % max_ms))
        sleep "$((d / 1000)).$(printf %03d $((d % 1000)))"
        if ! kill -KILL "$pid" 2>/dev/null; then
            # it finished before the kill: the tournament is done (a loop that kept resuming
            # a finished tournament to reach 15 kills would never end)
            wait "$pid"
            rc=$?
            break
        fi
        kills=$((kills + 1))
        wait "$pid" 2>/dev/null
        # the workers and their bots die with it
        for _ in $(seq 50); do pgrep -f -- "$TMP/k" > /dev/null || break; sleep 0.1; done
        if pgrep -f -- "$TMP/k" > /dev/null; then bad "kill $kills: processes left"; ps -f -p "$(pgrep -d, -f -- "$TMP/k")" >&2; fi
        continue
    fi
    wait "$pid"
    rc=$?
    break
done
echo "  $kills kills in $runs runs"
check "killed at least 10 times, then finished (exit 0)" test "$kills" -ge 10 -a "$rc" -eq 0
check "resumed outputs byte-identical to the uninterrupted run" same_outputs "$TMP/ref" "$TMP/k"
"$ARENA" tournament "$T" --out "$TMP/k" --jobs 2 --quiet --resume 2> "$TMP/again.err"
check "resuming a finished tournament plays nothing and changes nothing" same_outputs "$TMP/ref" "$TMP/k"

# SIGINT: stops, keeps the journal, says how to resume
"$ARENA" tournament "$T" --out "$TMP/i" --jobs 2 --no-progress 2> "$TMP/i.err" > /dev/null &
pid=$!
sleep 0.7
kill -INT "$pid"
wait "$pid"
rc=$?
check "SIGINT: exit 1" test "$rc" -eq 1
check "SIGINT: says how to resume, naming the program as it was run" grep -qF -- "resume with: $ARENA tournament $T --out $TMP/i --resume" "$TMP/i.err"
check "SIGINT: journal kept" test -s "$TMP/i/journal.jsonl"
sleep 0.5
check "SIGINT: no process left" noproc "$TMP/i"
"$ARENA" tournament "$T" --out "$TMP/i" --jobs 2 --quiet --resume
check "SIGINT: resumed to the same results" same_outputs "$TMP/ref" "$TMP/i"

# a torn last line and a flipped byte: reported, repaired, replayed
cp -r "$TMP/ref" "$TMP/c"
rm "$TMP/c/results.json" "$TMP/c/standings.csv" "$TMP/c/games.jsonl"
n=$(wc -l < "$TMP/c/journal.jsonl")
python3 - "$TMP/c/journal.jsonl" <<'PY'
import sys
p = sys.argv[1]
lines = open(p, "rb").read().split(b"\n")[:-1]
i = len(lines) // 2
lines[i] = lines[i].replace(b'"completed":true', b'"completed":trUe', 1)  # a flipped byte
data = b"\n".join(lines) + b"\n"
open(p, "wb").write(data[:-25])  # and a torn tail
PY
"$ARENA" tournament "$T" --out "$TMP/c" --jobs 2 --quiet --resume 2> "$TMP/c.err"
rc=$?
check "corrupted journal: exit 0" test "$rc" -eq 0
check "corrupted journal: the flipped line is reported with its line" grep -q "journal.jsonl:$((n / 2 + 1)): bad checksum; game [0-9]* will be played again" "$TMP/c.err"
check "corrupted journal: the torn line is reported" grep -q "journal.jsonl:$n: torn" "$TMP/c.err"
check "corrupted journal: repaired" grep -q "repaired" "$TMP/c.err"
check "corrupted journal: same results after replaying" same_outputs "$TMP/ref" "$TMP/c"

check "corrupted journal: the journal as it was is kept beside the repaired one" \
    cmp -s "$TMP/c/journal.jsonl.orig-1" <(python3 -c "
import sys
lines = open('$TMP/ref/journal.jsonl', 'rb').read().split(b'\n')[:-1]
i = len(lines) // 2
lines[i] = lines[i].replace(b'\"completed\":true', b'\"completed\":trUe', 1)
sys.stdout.buffer.write((b'\n'.join(lines) + b'\n')[:-25])")

# a journal with CRLF line endings (copied through a Windows editor) is read as it is: nothing
# dropped, nothing replayed, the same results
cp -r "$TMP/ref" "$TMP/crlf"
rm "$TMP/crlf/results.json" "$TMP/crlf/standings.csv" "$TMP/crlf/games.jsonl"
sed -i 's/$/\r/' "$TMP/crlf/journal.jsonl"
"$ARENA" tournament "$T" --out "$TMP/crlf" --jobs 2 --quiet --resume 2> "$TMP/crlf.err"
check "CRLF journal: exit 0" test $? -eq 0
check "CRLF journal: no line dropped, nothing repaired" \
    test -z "$(grep -E 'not a journal line|repaired|replayed' "$TMP/crlf.err")"
check "CRLF journal: same results" same_outputs "$TMP/ref" "$TMP/crlf"

# lines that are never replayed are not said to be: a blank line, a game index past the
# schedule, and a line of another tournament (seed 22) in place of one of ours
"$ARENA" tournament "$T" --out "$TMP/other" --jobs 2 --quiet --seed 22 --deals 1
cp -r "$TMP/ref" "$TMP/x"
rm "$TMP/x/results.json" "$TMP/x/standings.csv" "$TMP/x/games.jsonl"
python3 - "$TMP/x/journal.jsonl" "$TMP/other/journal.jsonl" <<'PY'
import json, sys
p, other = sys.argv[1], sys.argv[2]
lines = open(p).read().split("\n")[:-1]
# game 0's line (wherever it is: the workers journal games as they finish) with its index
# changed in place (a JSON round trip would rewrite the payload's reals, luck_adjusted's 17
# digits, and break its checksum instead)
zero = [l for l in lines if l.startswith('{"game":0,')][0]
far = '{"game":99999,' + zero[len('{"game":0,'):]
lines.insert(1, "")                      # line 2: blank
lines.insert(2, far)                     # line 3: game 99999, past the schedule
theirs = open(other).read().split("\n")[0]
g = json.loads(theirs)["game"]
mine = [i for i, l in enumerate(lines) if l.startswith('{"game":%d,' % g)][0]
lines[mine] = theirs                     # the other tournament's game g instead of ours
open(p, "w").write("\n".join(lines) + "\n")
open(p + ".theirs", "w").write("%d %d\n" % (mine + 1, g))
PY
read -r tl tg < "$TMP/x/journal.jsonl.theirs"
rm "$TMP/x/journal.jsonl.theirs"
"$ARENA" tournament "$T" --out "$TMP/x" --jobs 2 --quiet --resume 2> "$TMP/x.err"
check "odd lines: exit 0" test $? -eq 0
check "a blank line is named, not replayed" grep -q "journal.jsonl:2: blank line; dropped$" "$TMP/x.err"
check "a game past the schedule is not replayed" \
    grep -q "journal.jsonl:3: game 99999 is not in this tournament's schedule (.* games); dropped$" "$TMP/x.err"
check "another tournament's line says so" \
    grep -q "journal.jsonl:$tl: game $tg is from another tournament" "$TMP/x.err"
check "... and its game is played again" grep -q "journal.jsonl:$tl: .*game $tg will be played again" "$TMP/x.err"
check "'will be replayed/played again' only for that game" \
    test "$(grep -c 'journal.jsonl:[0-9]*: .*played again' "$TMP/x.err")" -eq 1
check "odd lines: same results" same_outputs "$TMP/ref" "$TMP/x"

# refusals
mkdir -p "$TMP/full" && touch "$TMP/full/x"
"$ARENA" tournament "$T" --out "$TMP/full" --quiet 2> "$TMP/r1.err"
check "a non-empty folder needs --resume (exit 2)" test $? -eq 2
check "... and says so" grep -q "is not empty: give --resume" "$TMP/r1.err"
"$ARENA" tournament "$T" --out "$TMP/ref" --quiet --resume --seed 22 2> "$TMP/r2.err"
check "--resume refuses another tournament's folder (exit 2)" test $? -eq 2
check "... naming both configurations" grep -q "holds another tournament" "$TMP/r2.err"
"$ARENA" tournament "$T" --out "$TMP/ref" --quiet --resume --shard 0/2 2> "$TMP/r3.err"
check "--resume refuses a shard of the wrong kind" test $? -eq 2
finish
