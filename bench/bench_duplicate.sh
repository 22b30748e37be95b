#!/usr/bin/env bash
# bench_duplicate.sh - what duplicate deals buy, before and after the rotating dealer
# (docs/rules.md, RULES 2.3 Decision; docs/tournaments.md "How much duplicate play saves").
#
# strong_bot (--cap-ms 4) against greedy_bot, as tournaments on the same seeds and the same
# number of games in three modes:
#   winner  `rule = dealer=winner`: the rule book's dealer (the hand's winner deals), so hands
#           2+ of a set's rotations reach the bots with unrelated cards (before)
#   rotate  the arena's default: the deal passes left every hand, every hand is duplicated
#   hands   rotate, and a fixed number of hands per game (`hands = H`), summed
# in gin (2 seats) and in 3-seat laws (strong, greedy, and a second greedy). For each it
# prints rho per game and per hand, the effective number of games, strong's mean score
# difference against greedy per game at the same table with its 95% interval (the cluster
# bootstrap of results.json's cross table) and that interval's width. The hands mode plays
# games of a different length, so compare its width per hand (width / hands per game).
#
# usage: bench/bench_duplicate.sh [BUILD_DIR] [GIN_DEALS] [LAWS_DEALS] [JOBS]
#        defaults: build 80 60 2   (80 gin deals = 160 games, 60 laws deals = 180 games)
# Needs python3. Takes minutes (every decision of strong_bot may use 4 ms).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
gin_deals=${2:-80}
laws_deals=${3:-60}
jobs=${4:-2}
arena="$build/arena/arena"
for f in "$arena" "$build/bots/strong_bot" "$build/bots/greedy_bot"; do
    [ -x "$f" ] || {
        echo "bench_duplicate: $f is missing (build first)" >&2
        exit 2
    }
done
work=$(mktemp -d /tmp/bench_duplicate.XXXXXX)
trap 'rm -rf "$work"' EXIT

# tour RULES SEATS DEALS MODE HANDS -> prints the path of results.json
tour() {
    local rules=$1 seats=$2 deals=$3 mode=$4 hands=$5
    local name="$rules-$mode" extra=""
    case $mode in
    winner) extra="rule = dealer=winner" ;;
    rotate) extra="" ;;
    hands) extra="hands = $hands" ;;
    esac
    {
        printf '[tournament]\nname = %s\nrules = %s\nseats = %s\ndeals = %s\nseed = 91\n' \
            "$name" "$rules" "$seats" "$deals"
        printf 'out = %s/%s\njobs = %s\nbootstrap = 2000\n%s\n' "$work" "$name" "$jobs" "$extra"
        printf '[clocks]\ndecision_ms = 1000\nbank_ms = 10000\nhard_ms = 5000\n'
        printf '[sandbox]\nminimum = off\n'
        printf '[entrant strong]\ncommand = %s --cap-ms 4\n' "$build/bots/strong_bot"
        printf '[entrant greedy]\ncommand = %s\n' "$build/bots/greedy_bot"
        if [ "$seats" -gt 2 ]; then
            printf '[entrant greedy-b]\ncommand = %s\n' "$build/bots/greedy_bot"
        fi
    } >"$work/$name.tour"
    "$arena" tournament "$work/$name.tour" >"$work/$name.log" 2>&1 || {
        echo "bench_duplicate: $name failed:" >&2
        tail -20 "$work/$name.log" >&2
        exit 1
    }
    echo "$work/$name/results.json"
}

report() {
    python3 - "$@" <<'EOF'
import json, sys
label, mode, hands, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
r = json.load(open(path))
ct = r["cross_table"]
i, j = ct["order"].index("strong"), ct["order"].index("greedy")
d, lo, hi = ct["diff"][i][j], ct["diff_lo"][i][j], ct["diff_hi"][i][j]
games = [g for g in map(json.loads, open(path.replace("results.json", "games.jsonl")))]
nh = sum(g.get("hands", 0) for g in games) / max(1, len(games))
f = lambda x, p=2: "-" if x is None else f"{x:.{p}f}"
print(f"{label:<6} {mode:<7} {r['games']:>5} {nh:>6.1f} {f(r['rho']):>6} {f(r.get('rho_hand')):>9}"
      f" {f(r.get('effective_games'), 0):>9} {d:>+9.1f} [{lo:+.1f}, {hi:+.1f}]"
      f" {hi - lo:>8.1f} {(hi - lo) / nh:>9.2f}")
# issue 13's table, per hand index and per game: x = strong minus greedy in one game; over
# the sets, the correlation of the rotations' x (2 seats) and var(set mean of x) divided by
# var(x) / rotations (1: duplicate gains nothing; below 1: it does)
names = r["cross_table"]["order"]
sets = {}
for g in games:
    seat = {g["names"][s]: s for s in range(len(g["names"]))}
    if "strong" in seat and "greedy" in seat:
        sets.setdefault(g["set"], []).append((seat["strong"], seat["greedy"], g))
def mean(v): return sum(v) / len(v)
def var(v):
    m = mean(v); return sum((x - m) ** 2 for x in v) / (len(v) - 1)
out = []
for h in [1, 2, 3, None]:
    rows = []
    for c, gs in sorted(sets.items()):
        if h is None:
            xs = [g["final_total"][a] - g["final_total"][b] for a, b, g in gs]
        elif all(len(g["hand_scores"]) >= h for a, b, g in gs):
            xs = [g["hand_scores"][h - 1][a] - g["hand_scores"][h - 1][b] for a, b, g in gs]
        else:
            continue
        rows.append(xs)
    if len(rows) < 3:
        continue
    k = len(rows[0])
    rows = [x for x in rows if len(x) == k]
    single = [x for row in rows for x in row]
    ratio = var([mean(row) for row in rows]) / (var(single) / k)
    corr = "-"
    if k == 2:
        a, b = [x[0] for x in rows], [x[1] for x in rows]
        ma, mb = mean(a), mean(b)
        cov = sum((x - ma) * (y - mb) for x, y in zip(a, b)) / (len(a) - 1)
        corr = f"{cov / (var(a) * var(b)) ** 0.5:+.2f}" if var(a) > 0 and var(b) > 0 else "-"
    out.append(f"{'game' if h is None else 'hand %d' % h} corr {corr} ratio {ratio:.2f} ({len(rows)} sets)")
print("         " + "; ".join(out))
EOF
}

gin_hands=8  # about the length of a gin game to 100 between these bots
laws_hands=5
echo "game   mode    games  hands    rho  rho/hand  eff.games  strong-greedy [95%]       width  width/hand"
for mode in winner rotate hands; do
    report gin "$mode" "$gin_hands" "$(tour gin 2 "$gin_deals" "$mode" "$gin_hands")"
done
for mode in winner rotate hands; do
    report laws3 "$mode" "$laws_hands" "$(tour laws 3 "$laws_deals" "$mode" "$laws_hands")"
done
