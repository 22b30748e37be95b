#!/usr/bin/env bash
# bench_match.sh [BUILD_DIR] - how fast `arena match` runs games between two C random bots, next
# to the raw pipe ping-pong rate (bench/pingpong.c) with the same frame sizes in the same run,
# and how much memory a bot connection costs the arena.
#
#   bash bench/bench_match.sh build            GAMES=20 RULES=gin by default
#
# The bots are build/bots/random_bot (C SDK) when it is built, else the test helper
# build/tests/helpers/okrh_good (a C random bot without the SDK). Decisions per second =
# decisions answered by bot processes / the match's wall time (spawn to last exit, all
# bookkeeping included: engine, protobuf, game records, results). The ping-pong is one frame
# of the match's mean bytes-to-bot per decision out and one of the mean bytes-from-bot back.
# Memory: the arena's own peak RSS (getrusage, in results.json) with 2 bots and with 8 bots
# (arlington, 3 decks), and the bytes its connections allocate.
set -euo pipefail
BUILD=${1:-build}
GAMES=${GAMES:-20}
RULES=${RULES:-gin}
ARENA="$BUILD/arena/arena"
PINGPONG="$BUILD/bench/pingpong"
BOT="$BUILD/bots/random_bot"
[ -x "$BOT" ] || BOT="$BUILD/tests/helpers/okrh_good"
for f in "$ARENA" "$PINGPONG" "$BOT"; do
    [ -x "$f" ] || { echo "bench_match: $f is not built" >&2; exit 2; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

field() { python3 -c "import json,sys; r=json.load(open('$1/results.json')); print($2)"; }

players=2
[ "$RULES" = gin ] || players=3
bots=()
for ((i = 0; i < players; i++)); do bots+=(--bot "$BOT"); done
match() { # match GAMES DIR
    "$ARENA" match --rules "$RULES" --players "$players" --games "$1" --seed 1 "${bots[@]}" \
        --decision-ms 10000 --hard-ms 20000 --out "$2" --quiet >"$2.out"
}
# frame sizes from a short match first, so that one ping-pong runs before the match, one after
match 2 "$TMP/pre"
to=$(field "$TMP/pre" "round(r['bytes_to_bots'] / r['decisions'])")
from=$(field "$TMP/pre" "round(r['bytes_from_bots'] / r['decisions'])")
pp1=$("$PINGPONG" --to "$to" --from "$from" --seconds 3)

echo "== arena match: $RULES, $players x $(basename "$BOT"), $GAMES games"
match "$GAMES" "$TMP/m"
tail -n 3 "$TMP/m.out" | head -n 1
dec=$(field "$TMP/m" "r['decisions']")
secs=$(field "$TMP/m" "r['seconds']")
dps=$(field "$TMP/m" "r['decisions_per_second']")
echo "match:    $dec decisions in $secs s = $(printf %.0f "$dps") decisions/s;" \
     "$(field "$TMP/m" "round(r['bytes_to_bots'] / r['decisions'])") bytes to the bot and" \
     "$(field "$TMP/m" "round(r['bytes_from_bots'] / r['decisions'])") back per decision"

echo "== pingpong with the same frame sizes (before and after the match, 3 s each)"
pp2=$("$PINGPONG" --to "$to" --from "$from" --seconds 3)
echo "before:   $pp1"
echo "after:    $pp2"
rt1=$(sed -E 's/.* ([0-9]+) round trips\/s$/\1/' <<<"$pp1")
rt2=$(sed -E 's/.* ([0-9]+) round trips\/s$/\1/' <<<"$pp2")
python3 - "$TMP/m/results.json" "$rt1" "$rt2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
rt = (float(sys.argv[2]) + float(sys.argv[3])) / 2
dps, d = r["decisions_per_second"], r["decisions"]
print("ratio:    match / pingpong = %.0f / %.0f = %.1f%% (target >= 60%%)" % (dps, rt, 100 * dps / rt))
print("per decision: %.1f us in the match vs %.1f us per bare round trip" % (1e6 / dps, 1e6 / rt))
print("  arena CPU %.1f us (user %.1f, system %.1f); bots' CPU %.1f us; bot time %.1f us"
      % ((r["arena_user_ms"] + r["arena_sys_ms"]) * 1e3 / d, r["arena_user_ms"] * 1e3 / d,
         r["arena_sys_ms"] * 1e3 / d, sum(b["cpu_ms"] for b in r["bots"]) * 1e3 / d,
         sum(b["wall_ms"] for b in r["bots"]) * 1e3 / d))
PY

echo "== memory per bot connection (arlington, 3 decks, 8 seats)"
# the same table twice: 8 bot processes, then 2 processes and 6 built-in seats (no process)
bots8=() bots2=()
for ((i = 0; i < 8; i++)); do bots8+=(--bot "$BOT"); done
bots2=(--bot "$BOT" --bot "$BOT")
for ((i = 0; i < 6; i++)); do bots2+=(--bot @random); done
"$ARENA" match --rules arlington --rule decks=3 --players 8 --games 8 --seed 1 "${bots8[@]}" \
    --out "$TMP/mem8" --quiet >/dev/null
"$ARENA" match --rules arlington --rule decks=3 --players 8 --games 8 --seed 1 "${bots2[@]}" \
    --out "$TMP/mem2" --quiet >/dev/null
python3 - "$TMP/mem2" "$TMP/mem8" <<'PY'
import json, sys
a = json.load(open(sys.argv[1] + "/results.json"))
b = json.load(open(sys.argv[2] + "/results.json"))
print("arena peak RSS: %d KiB with 2 connections, %d KiB with 8: %.0f KiB per connection"
      " (an upper bound: the games differ too)"
      % (a["arena_max_rss_kb"], b["arena_max_rss_kb"],
         (b["arena_max_rss_kb"] - a["arena_max_rss_kb"]) / 6))
print("allocated per connection (struct + 64 KiB frame reader + write queue): %.0f bytes"
      % (b["connection_bytes"] / 8))
PY
