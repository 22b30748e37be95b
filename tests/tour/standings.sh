#!/usr/bin/env bash
# standings.sh BUILD_DIR - small tournaments complete with sane standings: the greedy bot ranks
# above the random bots with non-overlapping score intervals, at 2 seats (gin) and at 3 seats
# (laws); every output file is there and every game is counted once.
source "$(dirname "$0")/lib.bash" "$@"

cat > "$TMP/gin.tour" <<T
[tournament]
name = gin-small
rules = gin
seats = 2
deals = 6
seed = 11
bootstrap = 300
[clocks]
decision_ms = 200
hard_ms = 2000
[entrant random]
command = $BOTS/random_bot
[entrant greedy]
command = $BOTS/greedy_bot
[entrant builtin-random]
command = @random
T
cat > "$TMP/laws.tour" <<T
[tournament]
name = laws-small
rules = laws
seats = 3
deals = 3
seed = 12
bootstrap = 300
[clocks]
decision_ms = 200
hard_ms = 2000
[entrant random]
command = $BOTS/random_bot
[entrant greedy]
command = $BOTS/greedy_bot
[entrant random2]
command = $BOTS/random_bot --seed 5
[entrant builtin-random]
command = @random
T
for t in gin laws; do
    out="$TMP/$t"
    "$ARENA" tournament "$TMP/$t.tour" --out "$out" --jobs 2 --no-progress > "$TMP/$t.txt" 2> "$TMP/$t.err"
    rc=$?
    check "$t: exit 0" test "$rc" -eq 0 || cat "$TMP/$t.err"
    for f in results.json standings.csv games.jsonl journal.jsonl timings.jsonl tournament.json; do
        check "$t: $f written" test -s "$out/$f"
    done
    check "$t: greedy ranks first, its interval above every random's" py "$out" \
        "r['standings'][0]['name'] == 'greedy'" \
        "all(s['greedy']['score_ci'][0] > e['score_ci'][1] for e in r['standings'] if e['name'] != 'greedy')" \
        "r['complete'] and r['games'] == r['games_scheduled'] == len(g)" \
        "[x['game'] for x in g] == list(range(len(g)))" \
        "all(x['completed'] and not x['verdicts'] for x in g)" \
        "sum(e['games'] for e in r['standings']) == len(g) * r['config']['seats']"
    check "$t: the table names every entrant" grep -q "greedy" "$TMP/$t.txt"
    check "$t: head to head cells carry their interval, never nan or -0" python3 - "$TMP/$t.txt" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
assert "nan" not in t.lower(), "nan printed"
assert not re.search(r"-0(\.0+)?\b(?![.\d])", t), "a negative zero printed"
rows = t.split("head to head")[1].splitlines()[2:6]
cells = re.findall(r"[+-]\d+(?:\.\d)? \[[+-]\d+(?:\.\d)?, [+-]\d+(?:\.\d)?\]", "\n".join(rows))
assert len(cells) >= 2, rows
assert "rho" in t and ("shared deals" in t or "rho: -" in t)
PY
    check "$t: records of every game" py "$out" \
        "all(__import__('os').path.exists(d + '/' + x['record']) for x in g)"
done
check "laws: 3 seats per game" py "$TMP/laws" "all(len(x['seating']) == 3 for x in g)" \
    "r['tables'] == 4"
finish
