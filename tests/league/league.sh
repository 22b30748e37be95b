#!/usr/bin/env bash
# league.sh BUILD_DIR - a league (docs/league.md) started with 3 entrants takes two new entrants
# and a new version of one while it runs, is SIGKILLed twice in the middle of a set and run
# again each time, and ends with every game counted once (no game id twice, every counted set
# whole, no game of a cut set counted), the new entrants playing within one round of passing
# their check, a rating snapshot per round, and `arena report DIR` agreeing with
# `arena league standings DIR`. A version that crashes at start is refused with its verdict
# and never plays; the version before a new one retires with its games kept; a second `run`
# on the folder is refused at once and names the first's pid; SIGTERM stops after the sets
# in flight, which count; a bad league file names FILE:LINE.
source "$(dirname "$0")/../tour/lib.bash" "$@"

if ! "$ARENA" help league > /dev/null 2>&1; then
    echo "FAIL: $ARENA has no 'league' subcommand" >&2
    exit 1
fi
L="$TMP/lg"
SETS=30
cat > "$TMP/t.league" << T
[league]
name = lt
rules = gin
seats = 2
seed = 11
bootstrap = 200
jobs = 2
# 3 hands a game: random players take hundreds of hands to reach gin's target (a set of the
# random entrant took 32 s, and this test 3 minutes)
hands = 3
[clocks]
decision_ms = 500
hard_ms = 3000
# processes that sleep a few ms a move (random and good; every first set has one of them):
# sets last long enough on any machine to be killed in the middle, and the run does not
# reach its --sets before the checks of the added entrants are done (with fast bots a quiet
# machine played all 30 sets in 3 s, before the test could kill the run)
[entrant random]
command = $H/okrh_slow --sleep-ms 4 --seed 2
[entrant greedy]
command = @greedy
[entrant good]
command = $H/okrh_slow --sleep-ms 3 --seed 1
T

# a bad file: FILE:LINE, nothing made
printf '[league]\nrules = gin\nseats = 2\nformat = gauntlet\n' > "$TMP/bad.league"
"$ARENA" league init "$TMP/bad" "$TMP/bad.league" 2> "$TMP/bad.err"
check "a bad league file: exit 2" test $? -eq 2
check "... naming FILE:LINE" grep -q "bad.league:4: unknown key \"format\" in \[league\]" "$TMP/bad.err"
check "... and nothing made" test ! -e "$TMP/bad/league.db"

"$ARENA" league init "$L" "$TMP/t.league" > "$TMP/init.out"
check "init: exit 0" test $? -eq 0

# sql QUERY: the rows, fields joined by |
sql() {
    python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1], timeout=30)
for r in c.execute(sys.argv[2]):
    print("|".join(map(str, r)))' "$L/league.db" "$1"
}
# until SECONDS QUERY: wait until QUERY prints a non-zero number
until_sql() {
    local i
    for ((i = 0; i < $1 * 10; i++)); do
        [ "$(sql "$2")" != 0 ] && return 0
        sleep 0.1
    done
    echo "  timed out: $2" >&2
    return 1
}
counted() { sql "SELECT count(*) FROM sets WHERE kind = 'play' AND state = 'counted'"; }
run_bg() {
    "$ARENA" league run "$L" --sets "$SETS" --hold-s 600 2>> "$TMP/run.err" &
    pid=$!
}
# kill9: SIGKILL the run in the middle of a set (one playing for 0.3 s: now to the
# microsecond, not strftime's whole seconds); no process of it stays
kill9() {
    until_sql 30 "SELECT count(*) FROM sets WHERE kind = 'play' AND state = 'playing' AND started_at < (julianday('now') - 2440587.5) * 86400.0 - 0.3"
    kill -KILL "$pid"
    wait "$pid" 2> /dev/null
    for _ in $(seq 50); do pgrep -f -- "$L" > /dev/null || break; sleep 0.1; done
    check "kill $1: in the middle of a set, and no process of the run left" noproc "league run $L"
}

run_bg
until_sql 30 "SELECT count(*) >= 2 FROM sets WHERE kind = 'play' AND state = 'counted'"
check "run: sets counted" test "$(counted)" -ge 2

# two runs on one folder: the second refuses at once, naming the first (--sets 1: were it
# let in, it would stop at once rather than play on; timeout: never hang the suite)
check "the first run is still running" kill -0 "$pid"
start=$(date +%s%N)
timeout 60 "$ARENA" league run "$L" --sets 1 2> "$TMP/second.err"
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
check "a second run: refused (exit 1)" test "$rc" -eq 1
check "... at once (${ms} ms)" test "$ms" -lt 2000
check "... naming the first run's pid $pid" grep -q "pid $pid" "$TMP/second.err"
# the one folder lock of every arena (util/outlock.h): a match aimed at the league's folder too
"$ARENA" match --bot @random --bot @greedy --players 2 --rules gin --games 2 --out "$L" > /dev/null 2> "$TMP/match.err"
mrc=$?
check "a match into the league's folder: refused (exit 2), naming the league's pid" \
    eval '[ $mrc -eq 2 ] && grep -q "pid $pid" "$TMP/match.err"'
check "status names the running run's pid" grep -q "running (pid $pid)" <<< "$("$ARENA" league status "$L")"

# new entrants and a new version while it runs; a version that crashes at start
"$ARENA" league add "$L" rb -- "$BOTS/random_bot" --seed 4 > /dev/null
check "add rb while running: exit 0" test $? -eq 0
"$ARENA" league add "$L" good2 -- "$H/okrh_good" --seed 2 > /dev/null
check "add good2 while running: exit 0" test $? -eq 0
"$ARENA" league add "$L" crashy -- "$H/okrh_crash" --after 0 > /dev/null
check "add crashy: exit 0" test $? -eq 0
# a new version once the first has counted games (they must stay counted)
until_sql 30 "SELECT count(*) FROM game_seats s JOIN entrants e ON e.id = s.entrant WHERE e.name = 'good'"
"$ARENA" league add "$L" good -- "$H/okrh_good" --seed 9 > "$TMP/v2.out"
check "add a new version of good: version 2" grep -q "good version 2 added" "$TMP/v2.out"

kill9 1
run_bg
until_sql 30 "SELECT count(*) FROM sets WHERE kind = 'play' AND state = 'counted' AND round > 0 AND id > (SELECT max(id) FROM sets WHERE state = 'abandoned')"
kill9 2
"$ARENA" league run "$L" --sets "$SETS" --hold-s 600 2>> "$TMP/run.err"
check "the third run finishes: exit 0" test $? -eq 0
check "it said it plays the cut sets afresh" grep -q "played again from scratch, never counted" "$TMP/run.err"

# every game counted once
k=2
check "$SETS sets counted" test "$(counted)" -eq "$SETS"
check "the killed runs left cut sets, abandoned" test "$(sql "SELECT count(*) FROM sets WHERE kind = 'play' AND state = 'abandoned'")" -ge 2
check "no game of a cut set counted" test "$(sql "SELECT count(*) FROM games g JOIN sets s ON s.id = g.set_id WHERE s.state != 'counted'")" -eq 0
check "every counted set whole" test "$(sql "SELECT count(*) FROM sets s WHERE state = 'counted' AND kind = 'play' AND (SELECT count(*) FROM games g WHERE g.set_id = s.id) != $k")" -eq 0
check "games in the database: sets x seats" test "$(sql "SELECT count(*) FROM games")" -eq $((SETS * k))
check "no game id twice in the database" test "$(sql "SELECT count(DISTINCT game_id) FROM games")" -eq $((SETS * k))
py "$L" "len(g) == $SETS * $k" "len(set(x['game_id'] for x in g)) == len(g)" "r['games'] == len(g)" "r['sets'] == $SETS"
check "games.jsonl: every counted game once, results.json counts them" test $? -eq 0

# the game ids bots are given leave out the league's seed (L11-...): with the seed and the
# documented PRNG a bot could deal every card (RULES 8.3); the helper bots log theirs
ids=$(cat "$L"/logs/*.log "$L"/checks/logs/*.log 2> /dev/null | grep -c '^helper_bot: game ')
check "bots' game ids ($ids seen) never name the league's seed" \
    eval '[ "$ids" -gt 0 ] && ! cat "$L"/logs/*.log "$L"/checks/logs/*.log 2> /dev/null | grep -q "^helper_bot: game L11-"'

# the versions
st() { sql "SELECT status FROM entrants WHERE name = '$1' AND version = ${2:-1}"; }
check "crashy refused" test "$(st crashy)" = refused
check "... with its verdict and detail as the reason" grep -q "refused by its check: RE" <<< "$(sql "SELECT reason FROM entrants WHERE name = 'crashy'")"
check "... and never played" test "$(sql "SELECT count(*) FROM game_seats s JOIN entrants e ON e.id = s.entrant WHERE e.name = 'crashy'")" -eq 0
"$ARENA" league status "$L" > "$TMP/status.out"
check "status shows why crashy was refused" grep -q "refused by its check: RE" "$TMP/status.out"
check "good version 2 plays" test "$(st good 2)" = active
check "good version 1 retired, linked from version 2" test "$(sql "SELECT e1.status || ' ' || e1.reason FROM entrants e1 JOIN entrants e2 ON e2.prev = e1.id WHERE e2.name = 'good' AND e2.version = 2")" = "retired replaced by good.v2"
py "$L" "s['good']['games'] > 0" "s['good.v2']['games'] > 0" "s['rb']['games'] > 0" "s['good2']['games'] > 0" "'crashy' not in s"
check "the old version's games stay counted; the new entrants played" test $? -eq 0

# the new entrants play within one round of passing their check
for n in rb good2; do
    id=$(sql "SELECT id FROM entrants WHERE name = '$n'")
    cr=$(sql "SELECT coalesce(max(s.round), -99) FROM sets s, json_each(s.seats) j WHERE s.kind = 'check' AND s.state = 'checked' AND j.value = $id")
    pr=$(sql "SELECT coalesce(min(s.round), 99999) FROM sets s, json_each(s.seats) j WHERE s.kind = 'play' AND j.value = $id")
    check "$n: checked in round $cr, first set in round $pr" test "$cr" -ge 0 -a "$((pr - cr))" -le 1
done
id=$(sql "SELECT id FROM entrants WHERE name = 'good' AND version = 2")
cr=$(sql "SELECT coalesce(max(s.round), -99) FROM sets s, json_each(s.seats) j WHERE s.kind = 'check' AND s.state = 'checked' AND j.value = $id")
pr=$(sql "SELECT coalesce(min(s.round), 99999) FROM sets s, json_each(s.seats) j WHERE s.kind = 'play' AND j.value = $id")
check "good.v2: checked in round $cr, first set in round $pr" test "$cr" -ge 0 -a "$((pr - cr))" -le 1

# a snapshot per round
rounds=$(sql "SELECT count(*) FROM rounds")
check "rating snapshots: $rounds rounds, each with its ratings" test "$rounds" -ge 3 -a "$(sql "SELECT count(*) FROM rounds r WHERE NOT EXISTS (SELECT 1 FROM ratings x WHERE x.round = r.round)")" -eq 0

# arena report on the folder agrees with arena league standings
"$ARENA" report "$L" --format text > "$TMP/report.txt" 2> "$TMP/report.err"
check "arena report DIR works on a league folder" test $? -eq 0
"$ARENA" league standings "$L" --format json > "$TMP/standings.json"
python3 - "$TMP/report.txt" "$TMP/standings.json" << 'PY'
import json, re, sys
rep = {}
for line in open(sys.argv[1]):
    m = re.match(r"\s*(\d+)\s+(\S+)\s+([+-]\d+\.\d)", line)
    if m:
        rep[m.group(2)] = (int(m.group(1)), m.group(3))
st = json.load(open(sys.argv[2]))["standings"]
# the report prints the score to 0.1; standings' JSON holds it to 0.001, so a score such as
# 87.2504 is 87.25 there and +87.3 in the report: equal to within the report's rounding
def same(s):
    r = rep.get(s["name"])
    return r is not None and r[0] == s["rank"] and abs(float(r[1]) - s["score"]) <= 0.0505
ok = len(st) == len(rep) and all(same(s) for s in st)
if not ok:
    print("  report:", rep, "\n  standings:", [(s["name"], s["rank"], s["score"]) for s in st], file=sys.stderr)
sys.exit(0 if ok else 1)
PY
check "report's standings (rank, name, score) equal league standings'" test $? -eq 0
"$ARENA" league standings "$L" > "$TMP/standings.txt"
check "standings (text) leave the retired version out, and say so" grep -q "1 retired version not shown" "$TMP/standings.txt"
check "standings (text): the score's header names its scale (docs/report.md's labels)" \
    grep -q '^rank  entrant  *score (pts/game vs average) \[95% CI\]  *win-Elo \[95% CI\]' "$TMP/standings.txt"

# SIGTERM: the sets in flight finish and count, then it stops
SETS=$((SETS + 6))
cut=$(sql "SELECT count(*) FROM sets WHERE state = 'abandoned'")
run_bg
until_sql 30 "SELECT count(*) FROM sets WHERE kind = 'play' AND state = 'playing'"
kill -TERM "$pid"
wait "$pid"
rc=$?
check "SIGTERM: exit 0" test "$rc" -eq 0
check "... no set left playing" test "$(sql "SELECT count(*) FROM sets WHERE state = 'playing'")" -eq 0
check "... the sets in flight counted, none cut" test "$(sql "SELECT count(*) FROM sets WHERE state = 'abandoned'")" -eq "$cut" -a "$(counted)" -gt $((SETS - 6))
check "... and says how to go on" grep -q "league run $L\` goes on" "$TMP/run.err"

# export: the history of one moment
"$ARENA" league export "$L" "$TMP/export" > /dev/null
check "export: exit 0" test $? -eq 0
python3 - "$TMP/export" "$(sql "SELECT count(*) FROM ratings")" << 'PY'
import csv, json, sys
d = sys.argv[1]
e = {x["label"]: x for x in json.load(open(d + "/entrants.json"))}
rows = list(csv.DictReader(open(d + "/ratings.csv")))
ok = e["good.v2"]["prev"] == e["good"]["id"] and e["crashy"]["status"] == "refused" \
    and len(rows) == int(sys.argv[2]) and json.load(open(d + "/results.json"))["format"].startswith("okarena")
sys.exit(0 if ok else 1)
PY
check "... entrants.json links the versions, ratings.csv holds every snapshot" test $? -eq 0

# final: frozen, a balanced rerun of the latest live versions
"$ARENA" league final "$L" --deals 1 --quiet > "$TMP/final.out"
check "final: exit 0" test $? -eq 0
python3 - "$L/final/results.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))
names = sorted(s["name"] for s in r["standings"])
sys.exit(0 if names == ["good.v2", "good2", "greedy", "random", "rb"] and r["complete"] else 1)
PY
check "... a round robin of the five live versions, complete" test $? -eq 0
"$ARENA" league add "$L" late -- @random 2> "$TMP/late.err"
check "... then add is refused (frozen)" test $? -eq 2
"$ARENA" league run "$L" 2> "$TMP/frozen.err"
check "... and run plays no more" test $? -eq 1 -a "$(counted)" -eq "$(sql "SELECT count(*) FROM sets WHERE kind = 'play' AND state = 'counted'")"
finish
