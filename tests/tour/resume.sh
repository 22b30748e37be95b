#!/usr/bin/env bash
# resume.sh BUILD_DIR - a tournament killed with SIGKILL at up to 15 (at least 10) seeded random
# moments and resumed each time ends with results.json, standings.csv and games.jsonl byte-identical to an
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
"$ARENA" tournament "$T" --out "$TMP/ref" --jobs 2 --quiet
check "reference run" test -s "$TMP/ref/results.json"

# 15 kills at seeded random delays, resuming each time
RANDOM=4242
kills=0 runs=0
while :; do
    runs=$((runs + 1))
    "$ARENA" tournament "$T" --out "$TMP/k" --jobs 2 --quiet --resume 2>> "$TMP/k.err" &
    pid=$!
    if [ "$kills" -lt 15 ]; then
        sleep "0.$((RANDOM % 9 + 1))$((RANDOM % 10))"
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
check "SIGINT: says how to resume" grep -q -- "resume with: arena tournament $T --out $TMP/i --resume" "$TMP/i.err"
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
check "corrupted journal: the flipped line is reported with its line" grep -q "journal.jsonl:$((n / 2 + 1)): bad checksum, the game will be replayed" "$TMP/c.err"
check "corrupted journal: the torn line is reported" grep -q "journal.jsonl:$n: torn" "$TMP/c.err"
check "corrupted journal: repaired" grep -q "repaired" "$TMP/c.err"
check "corrupted journal: same results after replaying" same_outputs "$TMP/ref" "$TMP/c"

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
