#!/usr/bin/env bash
# bench_replay.sh [BUILD_DIR] [ROUNDS] [OTHER] - how fast the replay page of a whole
# 4-seat laws game opens and steps in Debian's headless chromium (the target: ready in under
# 1 s, every decision stepped, with layout, in under 2 s). The game is the one
# tests/view/browser.sh measures (`arena match --players 4 --seed 3`, game 0). With OTHER
# (another build's arena, e.g. of the commit before a change, or a page of the same game it
# wrote), that page is measured in the same rounds, alternating, so that both see the same load:
# compare the two medians, not figures taken at different times. Needs chromium and
# tests/view/node_modules (npm ci there); bench_replay.mjs does the measuring.
set -euo pipefail
BUILD=${1:-build}
ROUNDS=${2:-5}
OTHER=${3:-}
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$BUILD/arena/arena" match --players 4 --games 4 --seed 3 --bot @greedy --bot @random --out "$TMP/m" \
    --quiet >/dev/null 2>&1
"$BUILD/arena/arena" replay "$TMP/m" --game 0 --html -o "$TMP/this.html" >/dev/null
pages=("$TMP/this.html")
if [[ "$OTHER" == *.html ]]; then
    cp "$OTHER" "$TMP/other.html"
    pages+=("$TMP/other.html")
elif [ -n "$OTHER" ]; then
    "$OTHER" replay "$TMP/m" --game 0 --html -o "$TMP/other.html" >/dev/null
    pages+=("$TMP/other.html")
fi
echo "4-seat laws game: $(stat -c %s "$TMP/this.html") bytes; $ROUNDS rounds; load average $(cut -d' ' -f1 /proc/loadavg)"
node "$HERE/bench_replay.mjs" "$ROUNDS" "${pages[@]}"
