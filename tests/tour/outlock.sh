#!/usr/bin/env bash
# outlock.sh BUILD_DIR - one arena per output folder (issue 20): while a tournament runs into a
# folder, a second arena that wants it (a --resume, a match, a merge) refuses at once, exit 2,
# naming the first's pid and command, and writes nothing there; once the first has ended
# (here: killed with SIGKILL, which no lock file would survive cleanly), --resume runs and the
# journal counts every game once. A folder held by another program (flock(1)) is named too.
source "$(dirname "$0")/lib.bash" "$@"

cat >"$TMP/t.tour" <<T
[tournament]
name = outlock
rules = laws
seats = 2
deals = 3
seed = 7
bootstrap = 50
[clocks]
decision_ms = 2000
hard_ms = 4000
[entrant slow]
command = $H/okrh_slow --sleep-ms 5
[entrant random]
command = $BOTS/random_bot
T
T="$TMP/t.tour"
OUT="$TMP/out"

# two shards of another tournament, to merge
cat >"$TMP/m.tour" <<T
[tournament]
name = tomerge
rules = laws
seats = 2
deals = 1
seed = 1
[entrant a]
command = @random
[entrant b]
command = @random
T
for k in 0 1; do
    "$ARENA" tournament "$TMP/m.tour" --shard $k/2 --out "$TMP/shard$k" --quiet 2>/dev/null
done

"$ARENA" tournament "$T" --out "$OUT" --jobs 1 --quiet 2>"$TMP/first.err" &
first=$!
# wait until it has written its manifest: it holds the folder by then
for _ in $(seq 100); do
    [ -s "$OUT/tournament.json" ] && break
    sleep 0.1
done
check "the first arena has started" test -s "$OUT/tournament.json"
check "the first arena is still running" kill -0 "$first"

# refuses WHAT CMD...: exit 2 within 5 s, naming the first's pid
refuses() {
    local what=$1 rc t0 t1
    shift
    t0=$(date +%s%N)
    timeout 20 "$@" >"$TMP/second.out" 2>"$TMP/second.err"
    rc=$?
    t1=$(date +%s%N)
    local ms=$(((t1 - t0) / 1000000))
    if [ "$rc" -eq 2 ] && grep -q "is in use by pid $first (.*arena tournament" "$TMP/second.err" &&
        [ "$ms" -lt 5000 ]; then
        ok "$what: refused in $ms ms: $(grep 'in use' "$TMP/second.err" | cut -c1-150)..."
    else
        bad "$what: exit $rc after $ms ms"
        cat "$TMP/second.err" | head -5
    fi
}
refuses "a second arena with --resume" "$ARENA" tournament "$T" --out "$OUT" --resume --quiet
refuses "a match into the same folder" "$ARENA" match --bot "$BOTS/random_bot" --bot @random \
    --games 3 --out "$OUT" --quiet
refuses "a merge into the same folder" "$ARENA" merge "$TMP/shard0" "$TMP/shard1" --out "$OUT"
check "the first arena still runs" kill -0 "$first"
check "nothing of the others in its folder (no match results, no merged manifest)" \
    eval '[ ! -e "$OUT/results.json" ] && grep -q outlock "$OUT/tournament.json"'

# the first dies without a word; the kernel drops its lock: --resume takes over and finishes
kill -KILL "$first"
wait "$first" 2>/dev/null
"$ARENA" tournament "$T" --out "$OUT" --resume --quiet 2>"$TMP/resume.err"
rc=$?
check "after the first ended, --resume runs to the end (exit $rc)" test "$rc" -eq 0 -a -s "$OUT/results.json"
check "the journal counts every game once" python3 - "$OUT" <<'PY'
import json, sys
g = [l for l in open(sys.argv[1] + "/games.jsonl") if l.strip()]
ids = [json.loads(l).get("game_id", json.loads(l).get("id")) for l in g]
print("  %d games, %d distinct" % (len(ids), len(set(ids))), file=sys.stderr)
sys.exit(0 if len(ids) == len(set(ids)) == 6 else 1)
PY

# a folder another program holds: named with its command
if command -v flock >/dev/null; then
    mkdir -p "$TMP/held"
    flock -o "$TMP/held" sleep 30 &
    holder=$!
    sleep 0.3
    "$ARENA" match --bot "$BOTS/random_bot" --bot @random --games 3 --out "$TMP/held" --quiet \
        2>"$TMP/held.err"
    rc=$?
    check "a folder flock(1) holds: refused, naming it (exit $rc)" \
        eval '[ $rc -eq 2 ] && grep -q "is in use by pid $holder (flock -o $TMP/held sleep 30)" "$TMP/held.err"'
    kill "$holder" 2>/dev/null
    wait "$holder" 2>/dev/null
    "$ARENA" match --bot "$BOTS/random_bot" --bot @random --games 3 --out "$TMP/held" --quiet \
        >/dev/null 2>&1
    check "once it let go, the match runs (exit $?)" test -s "$TMP/held/results.json"
fi
finish
