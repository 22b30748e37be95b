#!/usr/bin/env bash
# bench_match.sh [BUILD_DIR] - how fast `arena match` runs games between two C random bots, next
# to the raw pipe ping-pong rate (bench/pingpong.c) with the same frame sizes in the same run,
# and how much memory a bot connection costs the arena.
#
#   bash bench/bench_match.sh build            REPS=5 GAMES=4 RULES=gin PP_SECONDS=1.5 MEM=1
#
# The bots are build/bots/random_bot (C SDK) when it is built, else the test helper
# build/tests/helpers/okrh_good (a C random bot without the SDK). Decisions per second =
# decisions answered by bot processes / the match's wall time (spawn to last exit, all
# bookkeeping included: engine, protobuf, game records, results). The ping-pong is one frame
# of the match's mean bytes-to-bot per decision out and one of the mean bytes-from-bot back.
# The machine is shared, so the two are interleaved: REPS times a ping-pong of PP_SECONDS then
# a match of GAMES games (seeds 1, 2, ...: the same games in every run), one ratio per pair;
# the line to quote is the median ratio. MEM=0 skips the memory part.
# Memory: the arena's own peak RSS (getrusage, in results.json) with 2 bots and with 8 bots
# (arlington, 3 decks), and the bytes its connections allocate.
set -euo pipefail
BUILD=${1:-build}
GAMES=${GAMES:-4}
RULES=${RULES:-gin}
REPS=${REPS:-5}
PP_SECONDS=${PP_SECONDS:-1.5}
MEM=${MEM:-1}
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
match() { # match GAMES DIR SEED
    "$ARENA" match --rules "$RULES" --players "$players" --games "$1" --seed "${3:-1}" "${bots[@]}" \
        --decision-ms 10000 --hard-ms 20000 --out "$2" --quiet >"$2.out"
}
# frame sizes from a short match first
match 2 "$TMP/pre"
to=$(field "$TMP/pre" "round(r['bytes_to_bots'] / r['decisions'])")
from=$(field "$TMP/pre" "round(r['bytes_from_bots'] / r['decisions'])")

echo "== arena match ($RULES, $players x $(basename "$BOT"), $GAMES games) against pingpong" \
     "($to/$from bytes, $PP_SECONDS s), interleaved $REPS times"
for ((k = 1; k <= REPS; k++)); do
    "$PINGPONG" --to "$to" --from "$from" --seconds "$PP_SECONDS" >"$TMP/pp$k"
    match "$GAMES" "$TMP/m$k" "$k"
done
python3 - "$TMP" "$REPS" <<'PY'
import json, re, statistics, sys
tmp, reps = sys.argv[1], int(sys.argv[2])
ratios, dec, secs, rts, ppsecs, ppu, pps = [], 0, 0.0, 0, 0.0, 0.0, 0.0
cpu = dict(au=0.0, asys=0.0, bcpu=0.0, bwall=0.0)
for k in range(1, reps + 1):
    r = json.load(open("%s/m%d/results.json" % (tmp, k)))
    pp = open("%s/pp%d" % (tmp, k)).read()
    m = re.search(r"pingpong: (\d+) round trips, .*, ([0-9.]+) s, (\d+) round trips/s", pp)
    rt, ps, rate = int(m.group(1)), float(m.group(2)), float(m.group(3))
    c = re.search(r"CPU per round trip ([0-9.]+) us user, ([0-9.]+) us system", pp)
    if c:
        ppu += rt * float(c.group(1)); pps += rt * float(c.group(2))
    dps = r["decisions_per_second"]
    ratios.append(dps / rate)
    dec += r["decisions"]; secs += r["seconds"]; rts += rt; ppsecs += ps
    cpu["au"] += r["arena_user_ms"]; cpu["asys"] += r["arena_sys_ms"]
    cpu["bcpu"] += sum(b["cpu_ms"] for b in r["bots"])
    cpu["bwall"] += sum(b["wall_ms"] for b in r["bots"])
    print("rep %d:    match %6.0f decisions/s, pingpong %6.0f round trips/s: %5.1f%%"
          % (k, dps, rate, 100 * dps / rate))
med = statistics.median(ratios)
print("ratio:    match / pingpong, median of %d = %.1f%% (min %.1f%%, max %.1f%%; target >= 60%%)"
      % (reps, 100 * med, 100 * min(ratios), 100 * max(ratios)))
print("pooled:   %d decisions in %.2f s = %.0f/s; pingpong %.0f/s: %.1f%%"
      % (dec, secs, dec / secs, rts / ppsecs, 100 * (dec / secs) / (rts / ppsecs)))
print("per decision: %.1f us in the match vs %.1f us per bare round trip"
      % (1e6 * secs / dec, 1e6 * ppsecs / rts))
print("  arena CPU %.1f us (user %.1f, system %.1f); bots' CPU %.1f us; bot time %.1f us"
      % ((cpu["au"] + cpu["asys"]) * 1e3 / dec, cpu["au"] * 1e3 / dec, cpu["asys"] * 1e3 / dec,
         cpu["bcpu"] * 1e3 / dec, cpu["bwall"] * 1e3 / dec))
if ppu + pps:
    print("  pingpong CPU %.1f us per round trip, both sides (user %.1f, system %.1f)"
          % ((ppu + pps) / rts, ppu / rts, pps / rts))
PY

[ "$MEM" = 0 ] && exit 0
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
