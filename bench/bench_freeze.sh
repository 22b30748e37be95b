#!/usr/bin/env bash
# bench_freeze.sh BASE_BUILD [BUILD] - what freezing bots between their decisions (issue 20)
# costs, and what the timing channel carries with and without pace.
#
#   bash bench/bench_freeze.sh build-base build          REPS=10 PART=all|speed|timing
#
# speed: `arena match` (gin, 2 C random bots, 4 games, the sandbox as the host gives it) with
#   BASE_BUILD's arena (e.g. main's, built from `git archive`) and BUILD's, in adjacent pairs
#   (the order alternating, the same seed per pair: the same games); one ratio of decisions
#   per second new / base per pair, the median to quote. The machine is shared: only pairs
#   run back to back are compared. OKR_FREEZE_SIGNALS=1 measures the SIGSTOP path on a host
#   with cgroups; EXTRA="--no-sandbox" or "--ponder" are passed to the new arena only,
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
SRC=$(cd "$(dirname "$0")/.." && pwd)
BOT="$NEW/bots/random_bot"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

one() { # one ARENA SEED [ARGS...] -> decisions per second
    "$1" match --rules gin --players 2 --games 4 --seed "$2" --bot "$BOT" --bot "$BOT" \
        --decision-ms 10000 --hard-ms 20000 --out "$TMP/m" --quiet "${@:3}" >/dev/null 2>&1
    python3 -c "import json; print(json.load(open('$TMP/m/results.json'))['decisions_per_second'])"
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
r = [float(n) / float(b) for _, b, n in rows]
for (k, b, n), x in zip(rows, r):
    print("pair %s: base %6.0f/s new %6.0f/s  new/base %.3f" % (k, float(b), float(n), x))
q = statistics.quantiles(r, n=4)
print("new/base: median of %d pairs = %.3f (quartiles %.3f - %.3f; target >= 0.8)"
      % (len(r), statistics.median(r), q[0], q[2]))'
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
