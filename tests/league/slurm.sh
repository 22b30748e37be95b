#!/usr/bin/env bash
# slurm.sh BUILD_DIR - a league with `runner = slurm` (docs/league.md) on a real single-node
# Slurm cluster (scripts/slurm/ci-cluster.bash: Debian's packages installed if missing, the
# daemons started): every check and every set is a job submitted with sbatch (slurmctld's log
# counts the submissions), the league takes their games in as they finish, a run SIGKILLed
# while its jobs run takes them back when it starts again (their games counted once, nothing
# played twice), a bot on the node never sees the league's folder (RULES 8.3: an entrant that
# crashes if it can see league.db passes its check and plays), `arena report DIR` agrees with
# `arena league standings DIR`; without sbatch it says so and stops after three jobs it could
# not have, refusing none of the versions it could not check. Bounded: everything under
# `timeout`; the daemons are stopped on exit. Prints SKIP and exits 77 (ctest: skipped) when
# not root; as root a cluster that cannot be had fails the test.
if [ -z "${OKR_SLURM_BOUNDED:-}" ]; then # the whole test, install included, in 300 s
    OKR_SLURM_BOUNDED=1 exec timeout -k 10 300 bash "$0" "$@"
fi
source "$(dirname "$0")/../tour/lib.bash" "$@"
source "$SRC/scripts/slurm/ci-cluster.bash"
W="$TMP/cluster"
mkdir -p "$W"
trap 'slurm_ci_stop; cleanup' EXIT
trap 'echo "FAIL: timed out"; exit 124' TERM

t0=$SECONDS
slurm_ci_test_start "$W"

# league FILE RUNNER ENTRANT-LINES...: a league file
league() {
    local f=$1 runner=$2
    shift 2
    cat > "$f" << T
[league]
name = sl
rules = gin
seats = 2
seed = 23
bootstrap = 200
jobs = 2
hands = 3
runner = $runner
[clocks]
decision_ms = 500
hard_ms = 3000
T
    printf '%s\n' "$@" >> "$f"
}
L="$TMP/lg"
sql() {
    python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1], timeout=30)
for r in c.execute(sys.argv[2]):
    print("|".join(map(str, r)))' "$1/league.db" "$2"
}
submitted() { grep -c "_slurm_rpc_submit_batch_job: JobId=" "$W/slurmctld.log"; }

# 1. three entrants, one of which crashes if it can see the league's database
# (the path is inside its script: a command word naming the league's folder is refused before
# the check)
mkdir -p "$TMP/spy"
cat > "$TMP/spy/spy.sh" << S
#!/bin/sh
exec $H/okrh_slow --sleep-ms 2 --crash-if $L/league.db
S
chmod +x "$TMP/spy/spy.sh"
league "$TMP/a.league" slurm "[entrant greedy]" "command = $BOTS/greedy_bot" \
    "[entrant rb]" "command = $BOTS/random_bot --seed 3" \
    "[entrant spy]" "command = $TMP/spy/spy.sh" "files = $H/okrh_slow"
"$ARENA" league init "$L" "$TMP/a.league" > /dev/null
check "init a league with runner = slurm" test $? -eq 0
jobs0=$(submitted)
# --memory-mb 0 (every run) travels to the jobs with the other sandbox flags (job.sh): the spy
# is a shell script, so an ASan build of the helper it runs is not recognised, and ASan's
# shadow memory cannot be reserved under a memory rlimit
timeout 150 "$ARENA" league run "$L" --sets 4 --memory-mb 0 2> "$TMP/run1.err"
check "run --sets 4: exit 0" test $? -eq 0 || tail -n 20 "$TMP/run1.err"
n=$(($(submitted) - jobs0))
check "3 checks and 4 sets, each a Slurm job ($n submitted)" test "$n" -eq 7
check "the spy passed its check: the league's folder is not in its jail" \
    test "$(sql "$L" "SELECT status FROM entrants WHERE name = 'spy'")" = active
check "... and played" test "$(sql "$L" "SELECT count(*) FROM game_seats s JOIN entrants e ON e.id = s.entrant WHERE e.name = 'spy'")" -gt 0

# 2. SIGKILL the run while its jobs run: the jobs play on, the next run takes them back
# not under timeout: its pid is the run's, which is SIGKILLed (the test is bounded as a whole)
"$ARENA" league run "$L" --sets 10 --memory-mb 0 2> "$TMP/run2.err" &
pid=$!
for _ in $(seq 600); do
    [ "$(sql "$L" "SELECT count(*) FROM sets WHERE state = 'playing' AND kind = 'play'")" -ge 1 ] &&
        ls "$L"/slurm/s*/jobid > /dev/null 2>&1 && break
    sleep 0.1
done
inflight=$(sql "$L" "SELECT group_concat(id) FROM sets WHERE state = 'playing' AND kind = 'play'")
job=$(ls "$L"/slurm/s*/job.json | head -1)
python3 - "$job" "$L" << 'PY'
import json, os, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if j["hide"][0]["path"] == os.path.realpath(sys.argv[2]) else 1)
PY
check "a job in flight hides the league's folder (absolute) from its bots" test $? -eq 0
kill -KILL "$pid"
wait "$pid" 2> /dev/null
check "killed with sets in flight on the cluster ($inflight)" test -n "$inflight"
timeout 150 "$ARENA" league run "$L" --sets 10 --memory-mb 0 2> "$TMP/run3.err"
check "run again: exit 0" test $? -eq 0 || tail -n 20 "$TMP/run3.err"
check "it took the jobs of the killed run back" grep -q "still with Slurm: taken back" "$TMP/run3.err"
taken=$(sql "$L" "SELECT count(*) FROM sets WHERE state = 'counted' AND id IN ($inflight)")
check "the sets in flight when it was killed counted ($taken)" test "$taken" -ge 1
k=2
check "the spy never erred on the nodes (it aborts at a decision if it sees league.db)" \
    test "$(sql "$L" "SELECT count(*) FROM game_seats s JOIN entrants e ON e.id = s.entrant WHERE e.name = 'spy' AND s.error != 0")" -eq 0
check "10 sets counted" test "$(sql "$L" "SELECT count(*) FROM sets WHERE kind = 'play' AND state = 'counted'")" -eq 10
check "every counted set whole, no game of another counted" test "$(sql "$L" "SELECT count(*) FROM games g JOIN sets s ON s.id = g.set_id WHERE s.state != 'counted'")" -eq 0 -a "$(sql "$L" "SELECT count(*) FROM sets s WHERE state = 'counted' AND kind = 'play' AND (SELECT count(*) FROM games g WHERE g.set_id = s.id) != $k")" -eq 0
check "no game id twice" test "$(sql "$L" "SELECT count(DISTINCT game_id) FROM games")" -eq $((10 * k))
check "a record per counted game, none of a cut set" \
    test "$(ls "$L"/records/*.jsonl | wc -l)" -eq $((10 * k))
check "no job of the league left in the queue" test -z "$(squeue -h -o %j | grep okrl-)"
py "$L" "len(g) == 10 * $k" "len(set(x['game_id'] for x in g)) == len(g)" "r['sets'] == 10"
check "games.jsonl: every counted game once" test $? -eq 0

# 3. arena report on the folder agrees with arena league standings
"$ARENA" report "$L" --format json > "$TMP/report.json" 2> "$TMP/report.err"
check "arena report DIR works on the folder" test $? -eq 0
"$ARENA" league standings "$L" --format json > "$TMP/standings.json"
python3 - "$TMP/report.json" "$TMP/standings.json" << 'PY'
import json, sys
rep = json.load(open(sys.argv[1]))["standings"]
st = json.load(open(sys.argv[2]))["standings"]
key = lambda s: (s["rank"], s["name"], round(s["score"], 3), s["games"])
ok = [key(s) for s in rep] == [key(s) for s in st] and len(st) == 3
if not ok:
    print("  report:", [key(s) for s in rep], "\n  standings:", [key(s) for s in st], file=sys.stderr)
sys.exit(0 if ok else 1)
PY
check "report's standings equal league standings" test $? -eq 0

two=("[entrant greedy]" "command = $BOTS/greedy_bot" "[entrant rb]" "command = $BOTS/random_bot --seed 3")

# 4. a league file with runner = slurm is a league's alone; a bad runner names FILE:LINE
printf '[tournament]\nrules = gin\nseats = 2\nrunner = slurm\n[entrant a]\ncommand = @random\n[entrant b]\ncommand = @random\n' > "$TMP/t.tour"
"$ARENA" tournament "$TMP/t.tour" --plan > /dev/null 2> "$TMP/t.err"
check "runner in a tournament: refused, naming FILE:LINE" grep -q "t.tour:4: runner: only a \[league\]" "$TMP/t.err"
league "$TMP/b.league" cluster
"$ARENA" league init "$TMP/b" "$TMP/b.league" 2> "$TMP/b.err"
check "runner = cluster: refused, naming FILE:LINE" grep -q "b.league:9: runner: expected one of local, slurm" "$TMP/b.err"
# 5. no sbatch (Slurm not installed, or not in PATH): the league says so and stops after three
# jobs that could not be had; the versions it could not check are not refused
league "$TMP/n.league" slurm "${two[@]}"
"$ARENA" league init "$TMP/n" "$TMP/n.league" > /dev/null
timeout 60 env PATH=/nonexistent "$ARENA" league run "$TMP/n" --sets 2 2> "$TMP/n.err"
check "without sbatch: exit 1" test $? -eq 1
check "... saying why" grep -q "sbatch: No such file or directory (is Slurm installed here?)" "$TMP/n.err"
check "... and stopping after 3 sets in a row without their games" grep -q "stopping: 3 sets in a row ended without their games" "$TMP/n.err"
check "... its versions still waiting for their check, not refused" \
    test "$(sql "$TMP/n" "SELECT group_concat(status) FROM entrants")" = "new,new"
echo "  slurm league test: $((SECONDS - t0)) s"
finish
