#!/usr/bin/env bash
# bench_freeze.sh BASE_BUILD [BUILD] - what freezing bots between their decisions (issue 20)
# costs, and what the timing channel carries with and without pace.
#
#   bash bench/bench_freeze.sh build-base build          REPS=10 PART=all|speed|timing GAMES=4
#
# speed: `arena match` (gin, 2 C random bots, 4 games, the sandbox as the host gives it) with
#   BASE_BUILD's arena (e.g. main's, built from `git archive`) and BUILD's, in adjacent pairs
#   (the order alternating, the same seed per pair: the same games); one ratio of decisions
#   per second new / base per pair, the median to quote (and the CPU per decision, arena and
#   bots together, which moves less with the machine's load). The machine is shared: only pairs
#   run back to back are compared. OKR_FREEZE_CGROUP=1 measures the cgroup v2 freezer path
#   where it works (a jailed bot is stopped by SIGSTOP otherwise); EXTRA="--no-sandbox" or "--ponder" are passed to the new arena only,
#   BASE_EXTRA to the base's: `BASE_EXTRA=--ponder bash bench/bench_freeze.sh build build`
#   compares one build frozen against itself pondering (bots never frozen).
# timing: two colluders (tests/hostile/collude_bot.c --role time / timerecv) at a 2-seat gin
#   table: bits per move (tests/hostile/timing_judge.py) with 2 levels 8 ms apart and with 16
#   levels 2 ms apart, without pace and with a pace above the sender's longest decision.
set -euo pipefail
BASE=${1:?usage: bench_freeze.sh BASE_BUILD [BUILD]}
NEW=${2:-build}
REPS=${REPS:-10}
PART=${PART:-all}
GAMES=${GAMES:-4}
SRC=$(cd "$(dirname "$0")/.." && pwd)
BOT="$NEW/bots/random_bot"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

one() { # one ARENA SEED [ARGS...] -> "decisions/s CPU-us/decision" (arena + bots' CPU)
    "$1" match --rules gin --players 2 --games "$GAMES" --seed "$2" --bot "$BOT" --bot "$BOT" \
        --decision-ms 10000 --hard-ms 20000 --out "$TMP/m" --quiet "${@:3}" >/dev/null 2>&1
    python3 -c "import json; r = json.load(open('$TMP/m/results.json'))
cpu = r['arena_user_ms'] + r['arena_sys_ms'] + sum(b['cpu_ms'] for b in r['bots'])
print(r['decisions_per_second'], 1e3 * cpu / r['decisions'])"
}

if [ "$PART" != timing ]; then
    echo "== speed: $BASE ${BASE_EXTRA:-} vs $NEW ${EXTRA:-}, $REPS adjacent pairs"
    for ((k = 1; k <= REPS; k++)); do
        if ((k % 2)); then
            b=$(one "$BASE/arena/arena" "$k" ${BASE_EXTRA:-}); n=$(one "$NEW/arena/arena" "$k" ${EXTRA:-})
        else
            n=$(one "$NEW/arena/arena" "$k" ${EXTRA:-}); b=$(one "$BASE/arena/arena" "$k" ${BASE_EXTRA:-})
        fi
        echo "$k $b $n"
    done | python3 -c '
import statistics, sys
rows = [l.split() for l in sys.stdin]
r = [float(n) / float(b) for _, b, _, n, _ in rows]
c = [float(nc) / float(bc) for _, _, bc, _, nc in rows]
for (k, b, bc, n, nc), x, y in zip(rows, r, c):
    print("pair %s: base %6.0f/s %5.1f us CPU, new %6.0f/s %5.1f us CPU: new/base %.3f (CPU %.2f)"
          % (k, float(b), float(bc), float(n), float(nc), x, y))
q = statistics.quantiles(r, n=4)
print("new/base: median of %d pairs = %.3f (quartiles %.3f - %.3f; target >= 0.8)"
      % (len(r), statistics.median(r), q[0], q[2]))
print("pooled (the same games each side: total time base / total time new): %.3f"
      % (sum(1 / float(b) for _, b, _, _, _ in rows) / sum(1 / float(n) for _, _, _, n, _ in rows)))
print("CPU per decision (arena + bots), new/base: median %.2f" % statistics.median(c))'
fi

if [ "$PART" != speed ]; then
    COL="$NEW/tests/hostile/okcollude"
    echo "== timing channel: bits per move (gin, 2 hands x 2 games)"
    for spec in "2 8 0" "2 8 20" "16 2 0" "16 2 35"; do
        read -r levels ms pace <<<"$spec"
        "$NEW/arena/arena" match --rules gin --players 2 --games 2 --rule max_hands=2 --seed 3 \
            --bot "$COL --role time --ms $ms --levels $levels" --name sender \
            --bot "$COL --role timerecv" --name receiver --decision-ms 2000 --bank-ms 0 \
            --hard-ms 4000 --pace "$pace" --out "$TMP/t" --quiet >/dev/null 2>&1
        python3 "$SRC/tests/hostile/timing_judge.py" "$TMP/t/logs/slot0-sender.log" \
            "$TMP/t/logs/slot1-receiver.log" "$levels" | tr '\n' ' ' |
            sed "s/^/$levels levels, $ms ms apart, pace $pace: /"
        echo
    done
fi
