#!/usr/bin/env bash
# bench_luck.sh - what per-seat stock streams and the luck adjustment buy (docs/luck.md,
# issue 24). strong_bot (--cap-ms 2) against greedy_bot, as tournaments on the same seeds and
# the same deals in two modes: `rule = stock=deck` (the rule book's stock) and the default
# stock=streams; then `arena luck` on both folders (timed) and bench/luck_stats.py: per
# duplicate set, the mean difference strong - greedy per game with its 95% interval, raw and
# luck-adjusted, the variances and their ratio. So three estimates on the same seeds: streams
# off (deck, raw), streams on (raw), streams on + adjustment; plus deck + adjustment; in gin
# both with the cheap hand estimate and with the rollout estimate (32 playouts per card;
# BENCH_LUCK_ROLLOUTS="8 32 128" measures several).
# gin 2 seats, laws 3 seats (strong, greedy, a second greedy).
#
# usage: bench/bench_luck.sh [BUILD_DIR] [GIN_DEALS] [LAWS_DEALS] [SEED]
#        defaults: build 150 30 91   (about 6 minutes on 2 busy cores, plus 2-5 for the rollouts)
# Needs python3. The value estimate is fixed in arena/tour/luck.c; its scales were fitted on
# seed 7 (bench/README.md), never on the seed measured here.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
gin_deals=${2:-150}
laws_deals=${3:-30}
seed=${4:-91}
arena="$build/arena/arena"
for f in "$arena" "$build/bots/strong_bot" "$build/bots/greedy_bot"; do
    [ -x "$f" ] || { echo "bench_luck: $f is missing (build first)" >&2; exit 2; }
done
work=${BENCH_LUCK_DIR:-$(mktemp -d /tmp/bench_luck.XXXXXX)}
mkdir -p "$work"

tour() { # NAME RULES SEATS DEALS STOCK
    {
        printf '[tournament]\nname = %s\nrules = %s\nseats = %s\ndeals = %s\nseed = %s\n' \
            "$1" "$2" "$3" "$4" "$seed"
        printf 'out = %s/%s\njobs = 1\nbootstrap = 1000\nrule = stock=%s\n' "$work" "$1" "$5"
        printf '[clocks]\ndecision_ms = 1000\nbank_ms = 10000\nhard_ms = 5000\n'
        printf '[sandbox]\nminimum = off\n'
        printf '[entrant strong]\ncommand = %s --cap-ms 2\n' "$build/bots/strong_bot"
        printf '[entrant greedy]\ncommand = %s\n' "$build/bots/greedy_bot"
        [ "$3" -gt 2 ] && printf '[entrant greedy-b]\ncommand = %s\n' "$build/bots/greedy_bot"
        true
    } >"$work/$1.tour"
    local t0=$(date +%s.%N)
    "$arena" tournament "$work/$1.tour" >"$work/$1.log" 2>&1
    echo "$1: played in $(echo "$(date +%s.%N) - $t0" | bc) s"
}

# the two stock modes of one game side by side (two cores), then the laws pair
tour gin-deck gin 2 "$gin_deals" deck &
tour gin-streams gin 2 "$gin_deals" streams &
wait
tour laws-deck laws 3 "$laws_deals" deck &
tour laws-streams laws 3 "$laws_deals" streams &
wait
for t in gin-deck gin-streams laws-deck laws-streams; do
    "$arena" luck "$work/$t" | head -1
    python3 "$root/bench/luck_stats.py" "$work/$t" strong greedy
done
# the rollout estimate (gin only; in the 13-card games it is the hand estimate), on the same
# games: arena luck rewrites luck.jsonl, so after the hand estimate's figures
for n in ${BENCH_LUCK_ROLLOUTS:-32}; do
    for t in gin-deck gin-streams; do
        "$arena" luck "$work/$t" --v rollout:$n | head -1
        python3 "$root/bench/luck_stats.py" "$work/$t" strong greedy
    done
done
echo "folders: $work"
