#!/usr/bin/env bash
# bench_league.sh - games per second of a league against a batch tournament of the same
# entrants, on the same machine in the same run (issue 21's target: the league at least 95%
# of the tournament), and the league database's size per game.
#
# Entrants: the C starter bots random_bot and greedy_bot and the built-ins @random and
# @greedy, gin (2 seats), short clocks. The tournament plays every table (6) DEALS deals: 6 x
# DEALS sets; the league plays as many sets (`run --sets`), checking its two programs first
# (two sets more, not counted in its games). Both with JOBS jobs and the same bootstrap; each
# is run REPS times, alternately, and the best wall time of each is kept.
#
# MODE pair: the same tables on both sides. Two entrants only (random_bot and greedy_bot), so
# the tournament is one table of DEALS sets and every set of the league is that same pairing
# (on its own deal): the games are alike, and games/s compares the two drivers, not their mix
# of tables. The league's checks are played before the clock starts (`run --sets 1` first),
# so the timed run is a running league's: matchmaking, a transaction per set, the refits.
#
# usage: bench/bench_league.sh [BUILD_DIR] [DEALS] [JOBS] [REPS] [BOOTSTRAP] [mix|pair]
#        defaults: build 20 2 2 200 mix
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
deals=${2:-20}
jobs=${3:-2}
reps=${4:-2}
boot=${5:-200}
mode=${6:-mix}
case $mode in mix | pair) ;; *)
    echo "bench_league: MODE is mix or pair, not '$mode'" >&2
    exit 2
    ;;
esac
arena="$build/arena/arena"
for f in "$arena" "$build/bots/random_bot" "$build/bots/greedy_bot"; do
    [ -x "$f" ] || {
        echo "bench_league: $f is missing (build first)" >&2
        exit 2
    }
done
work=$(mktemp -d /tmp/bench_league.XXXXXX)
trap 'rm -rf "$work"' EXIT
sets=$((6 * deals))
[ "$mode" = pair ] && sets=$deals

common() {
    cat << T
rules = gin
seats = 2
seed = 77
bootstrap = $boot
jobs = $jobs
[clocks]
decision_ms = 500
hard_ms = 3000
[entrant random-c]
command = $build/bots/random_bot
[entrant greedy-c]
command = $build/bots/greedy_bot
T
    [ "$mode" = pair ] || printf '[entrant random]\ncommand = @random\n[entrant greedy]\ncommand = @greedy\n'
}
{ echo "[tournament]"; echo "deals = $deals"; common; } > "$work/b.tour"
{ echo "[league]"; common; } > "$work/b.league"

now() { date +%s.%N; }
best_t=999999 best_l=999999
for ((r = 1; r <= reps; r++)); do
    rm -rf "$work/t" "$work/l"
    t0=$(now)
    "$arena" tournament "$work/b.tour" --out "$work/t" --quiet
    t1=$(now)
    if [ "$mode" = pair ]; then
        # the checks and one set, untimed; then the timed sets
        "$arena" league run "$work/l" --init "$work/b.league" --sets 1 --quiet > /dev/null 2>&1
        t1=$(now)
        "$arena" league run "$work/l" --sets $((sets + 1)) --quiet > /dev/null 2>&1
    else
        "$arena" league run "$work/l" --init "$work/b.league" --sets "$sets" --quiet > /dev/null 2>&1
    fi
    t2=$(now)
    tt=$(echo "$t1 - $t0" | bc -l) tl=$(echo "$t2 - $t1" | bc -l)
    printf 'run %d: tournament %.2f s, league %.2f s\n' "$r" "$tt" "$tl"
    (($(echo "$tt < $best_t" | bc -l))) && best_t=$tt
    (($(echo "$tl < $best_l" | bc -l))) && best_l=$tl
done
games=$((sets * 2))
# games and actions (the league's matchmaking plays another mix of tables than the round
# robin: random against random plays far longer games than greedy against greedy)
count() { python3 -c 'import json,sys; g=[json.loads(l) for l in open(sys.argv[1])]; print(len(g), sum(x["actions"] for x in g))' "$1"; }
read -r lg la <<< "$(count "$work/l/games.jsonl")"
if [ "$mode" = pair ]; then # the untimed first set's games out
    read -r lg la <<< "$(python3 -c 'import json,sys; g=[json.loads(l) for l in open(sys.argv[1])]; g=[x for x in g if x["set"] != min(y["set"] for y in g)]; print(len(g), sum(x["actions"] for x in g))' "$work/l/games.jsonl")"
fi
read -r tg ta <<< "$(count "$work/t/games.jsonl")"
db=$(du -b "$work/l/league.db" | cut -f1)
wal=$(du -b "$work/l/league.db-wal" 2> /dev/null | cut -f1 || echo 0)
python3 - "$tg" "$best_t" "$lg" "$best_l" "$db" "${wal:-0}" "$ta" "$la" << 'PY'
import sys
tg, tt, lg, tl, db, wal, ta, la = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8])
print("tournament: %d games in %.2f s: %.1f games/s, %.0f actions/s (%.0f actions a game)" % (tg, tt, tg / tt, ta / tt, ta / tg))
print("league:     %d games in %.2f s: %.1f games/s, %.0f actions/s (%.0f actions a game; refits included)" % (lg, tl, lg / tl, la / tl, la / lg))
print("league / tournament: %.0f%% of the games/s, %.0f%% of the actions/s" % (100 * (lg / tl) / (tg / tt), 100 * (la / tl) / (ta / tt)))
print("league.db: %d bytes (+ %d in its WAL): %.0f bytes per game" % (db, wal, (db + wal) / lg))
PY
t0=$(now)
"$arena" league standings "$work/l" > /dev/null
t1=$(now)
printf 'league standings: %.3f s\n' "$(echo "$t1 - $t0" | bc -l)"
