#!/usr/bin/env bash
# bench_sandbox.sh [BUILD_DIR] - what the sandbox costs, measured side by side in one run:
#   1. bench_spawn: spawn to exec and spawn to Ready, plain fork+exec vs the jail, for the C
#      random bot (native profile) and the Python one (interpreted), plus a bare network
#      namespace's create+destroy time (the kernel's share); then again with 50 ms idle
#      before every start, as between matches
#   2. decisions per second of `arena match` between two C random bots, sandbox on (the
#      default, best mode) vs --no-sandbox, REPEAT pairs alternating so that both see the same
#      machine load.
#   GAMES=40 RULES=gin REPEAT=3 ROUNDS=20 by default.
set -euo pipefail
BUILD=${1:-build}
SRC=$(cd "$(dirname "$0")/.." && pwd)
GAMES=${GAMES:-40}
RULES=${RULES:-gin}
REPEAT=${REPEAT:-3}
ROUNDS=${ROUNDS:-20}
ARENA="$BUILD/arena/arena"
BOT="$BUILD/bots/random_bot"
for f in "$ARENA" "$BOT" "$BUILD/bench/bench_spawn"; do
    [ -x "$f" ] || { echo "bench_sandbox: $f is not built" >&2; exit 2; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "== spawn: plain vs jail ($ROUNDS rounds each, interleaved; ms)"
"$BUILD/bench/bench_spawn" --rounds "$ROUNDS" --netns-only "$BUILD" "$SRC"
# as between matches: a cgroup move after a quiet spell may wait for an RCU grace period
# (docs/sandbox.md); the first run's starts follow each other closely and never do
echo "== spawn again, 50 ms idle before every start ($ROUNDS rounds each; ms)"
"$BUILD/bench/bench_spawn" --rounds "$ROUNDS" --gap 50 "$BUILD" "$SRC"

echo "== arena match: $RULES, 2 x C random_bot, $GAMES games; sandbox vs --no-sandbox, $REPEAT pairs"
players=2
[ "$RULES" = gin ] || players=3
bots=()
for ((i = 0; i < players; i++)); do bots+=(--bot "$BOT"); done
for ((k = 0; k < REPEAT; k++)); do
    for mode in on off; do
        flag=()
        [ "$mode" = off ] && flag=(--no-sandbox)
        "$ARENA" match "${flag[@]}" --rules "$RULES" --players "$players" --games "$GAMES" \
            --seed 1 "${bots[@]}" --decision-ms 10000 --hard-ms 20000 --out "$TMP/$mode-$k" \
            --quiet >/dev/null 2>&1
    done
done
python3 - "$TMP" "$REPEAT" <<'PY'
import json, statistics, sys
d, n = sys.argv[1], int(sys.argv[2])
rows = {m: [json.load(open("%s/%s-%d/results.json" % (d, m, k))) for k in range(n)] for m in ("on", "off")}
dps = {m: [r["decisions_per_second"] for r in rows[m]] for m in rows}
for m in ("on", "off"):
    r = rows[m][0]
    print("sandbox %-3s (%s): decisions/s %s, median %.0f" % (
        m, r.get("sandbox", {}).get("mode", "?"), " ".join("%.0f" % x for x in dps[m]),
        statistics.median(dps[m])))
on, off = statistics.median(dps["on"]), statistics.median(dps["off"])
print("sandboxed match: %.1f%% %s than --no-sandbox (target: at most 10%% slower)" % (
    abs(100 * (1 - on / off)), "slower" if on < off else "faster"))
PY
