#!/usr/bin/env bash
# bench_report.sh [BUILD_DIR] [GAMES] - how long `arena report` takes, and how big the page
# is, for a tournament of GAMES games (default 100000; the target: under 5 s and 5 MB).
# A real tournament of 8 built-in entrants (336 games) is played, then its games.jsonl and
# timings.jsonl are repeated, renumbered, up to GAMES lines: the report reads every line of
# both, as it would for a real run of that size (results.json stays the real one's).
# Replay pages are separate files, written on demand: --replays none here.
set -euo pipefail
BUILD=${1:-build}
N=${2:-100000}
ARENA="$BUILD/arena/arena"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

{
    printf '[tournament]\nname = bench\nrules = laws\nseats = 3\ndeals = 2\nseed = 9\nbootstrap = 200\n'
    for i in 1 2 3 4; do printf '[entrant greedy%d]\ncommand = @greedy\n[entrant random%d]\ncommand = @random\n' $i $i; done
} >"$TMP/b.tour"
"$ARENA" tournament "$TMP/b.tour" --out "$TMP/real" --no-progress >/dev/null 2>&1
mkdir -p "$TMP/big"
cp "$TMP/real/results.json" "$TMP/big/"
python3 - "$TMP/real" "$TMP/big" "$N" <<'PY'
import json, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
games = [json.loads(l) for l in open(src + "/games.jsonl")]
times = {json.loads(l)["game"]: json.loads(l) for l in open(src + "/timings.jsonl")}
with open(dst + "/games.jsonl", "w") as g, open(dst + "/timings.jsonl", "w") as t:
    for i in range(n):
        x = dict(games[i % len(games)])
        y = dict(times[x["game"]])
        x["game"] = y["game"] = i
        x["game_id"] = y["game_id"] = "%s-c%d" % (x["game_id"], i // len(games))
        g.write(json.dumps(x, separators=(",", ":")) + "\n")
        t.write(json.dumps(y, separators=(",", ":")) + "\n")
PY
echo "folder: $(wc -l <"$TMP/big/games.jsonl") games, games.jsonl $(du -h "$TMP/big/games.jsonl" | cut -f1)," \
    "timings.jsonl $(du -h "$TMP/big/timings.jsonl" | cut -f1)"
for fmt in html text json; do
    /usr/bin/time -f "%e s %M KB %U %S" -o "$TMP/time" "$ARENA" report "$TMP/big" --format $fmt \
        --replays none -o "$TMP/big/report.$fmt" >/dev/null
    read -r wall _ rss _ user sys <"$TMP/time"
    echo "report --format $fmt: $wall s wall ($user s user + $sys s system: the CPU it needs," \
        "whatever else runs), peak RSS $rss KB, $(stat -c %s "$TMP/big/report.$fmt") bytes"
done
