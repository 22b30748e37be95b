#!/usr/bin/env bash
# evidence.sh BUILD_DIR - a tournament points to the evidence of every verdict: a line on
# stderr (entrant, game, verdict, detail, log), the closing lines name logs/, each log marks
# its games, results.json lists each verdict with its log and record; and a bot that fails
# every game is disqualified over the whole tournament even at 3 seats (a set of 3 games
# never reaches the in-set budget), with its verdict counts and DQ state in the standings.
source "$(dirname "$0")/lib.bash" "$@"

cat > "$TMP/t.tour" <<T
[tournament]
name = evidence
rules = laws
seats = 3
deals = 2
seed = 77
bootstrap = 50
[clocks]
startup_ms = 5000
decision_ms = 200
bank_ms = 1000
hard_ms = 2000
[entrant random]
command = $BOTS/random_bot
[entrant greedy]
command = $BOTS/greedy_bot
[entrant missing]
command = python3 $TMP/not-there.py
[entrant printer]
command = $H/okrh_print --after 2
T
"$ARENA" tournament "$TMP/t.tour" --out "$TMP/o" --jobs 2 --no-progress > "$TMP/o.txt" 2> "$TMP/o.err"
check "finishes (exit 0)" test $? -eq 0 || tail "$TMP/o.err"

check "a stderr line per verdict: entrant, game, verdict, detail, log" \
    grep -Eq "^arena: missing, game [A-Za-z0-9-]+ seat [0-9]: RE: exited with status 2 before Ready; stderr ends: .*can't open file.*; log: $TMP/o/logs/s[0-9]+-slot[0-9]-missing\.log$" \
    "$TMP/o.err"
check "the printer's PE line shows its bytes" \
    grep -Eq "^arena: printer, game .*: PE: sent bytes that are not a FromBot frame: 64 65 62 75 67.*protocol channel: write debug output to stderr; log: " \
    "$TMP/o.err"
n=$(grep -c "^arena: missing, game" "$TMP/o.err")
check "at most 5 lines per entrant ($n), then where the rest is" \
    bash -c "[ $n -eq 5 ] && grep -q '^arena: missing: more verdicts are not shown here; results.json' '$TMP/o.err'"
check "the closing lines name logs/" grep -q "^logs: $TMP/o/logs/ " "$TMP/o.txt"

check "results.json lists every verdict with its game, detail, log and record" py "$TMP/o" \
    "len(r['verdicts']) == sum(len(x['verdicts']) for x in g) > 0" \
    "all(v['log'].startswith('logs/s') and v['name'] in ('missing', 'printer') for v in r['verdicts'])" \
    "all(v['verdict'] == 'RE' and \"can't open file\" in v['detail'] for v in r['verdicts'] if v['name'] == 'missing')" \
    "all(v['log'] == w['log'] for x in g for w in x['verdicts'] for v in r['verdicts'] if v['game'] == x['game'] and v['seat'] == w['seat'])"
# every verdict's log exists and marks that game at that seat
marks=1
while IFS=$'\t' read -r log gid seat; do
    grep -qF "[arena: game $gid, seat $seat]" "$TMP/o/$log" || { echo "  no marker of $gid seat $seat in $log" >&2; marks=0; }
done < <(python3 -c 'import json,sys; [print("%s\t%s\t%d" % (v["log"], v["game_id"], v["seat"])) for v in json.load(open(sys.argv[1]))["verdicts"]]' "$TMP/o/results.json")
check "each verdict's log has a marker for its game and seat" test "$marks" -eq 1
check "a log holds one marker per game of its slot" \
    bash -c "[ \$(grep -c '^\[arena: game ' \$(ls $TMP/o/logs/s0-slot0-*.log | head -1)) -eq 3 ]"

check "the whole-tournament budget disqualifies the bot that never started; the good ones not" \
    py "$TMP/o" "s['missing']['disqualified'] and s['missing']['error_games'] == s['missing']['games'] > 3" \
    "not s['random']['disqualified'] and not s['greedy']['disqualified']" \
    "s['random']['error_games'] == 0"
check "the bot that never started is never_played, and the table says so, not +0.0" \
    bash -c "grep -Eq '^ +[0-9]+  missing +never played ' '$TMP/o.txt'"
check "... in results.json too; the others played" py "$TMP/o" "s['missing']['never_played']" \
    "not s['random']['never_played'] and not s['printer']['never_played']"
check "the standings show verdict counts and DQ" \
    grep -Eq "missing .*RE [0-9]+, DQ \(errors in [0-9]+ of [0-9]+\)" "$TMP/o.txt"
check "... and say what DQ means under the table" grep -q "^DQ missing: errors in" "$TMP/o.txt"
check "no nan in the table" bash -c "! grep -qiw nan '$TMP/o.txt'"
[ "$failed" -eq 0 ] || { cat "$TMP/o.err" "$TMP/o.txt"; }
# --trace NAME: the frames of one entrant, a file per set it played in
"$ARENA" tournament "$TMP/t.tour" --out "$TMP/tr" --jobs 2 --quiet --trace greedy \
    --set entrant.printer.command="$BOTS/random_bot" --set entrant.missing.command="$BOTS/random_bot"
check "--trace greedy: exit 0" test $? -eq 0
ntr=$(ls "$TMP/tr/traces" 2>/dev/null | wc -l)
check "--trace greedy: a trace per set greedy played (6 of 8)" test "$ntr" -eq 6
check "--trace greedy: only greedy's frames, each way" \
    bash -c "cat $TMP/tr/traces/*.trace | grep -v 'greedy(' | grep -q . && exit 1; grep -qh '<greedy([0-9]): choice { id: ' $TMP/tr/traces/*.trace && grep -qh '>greedy([0-9]): game_end {' $TMP/tr/traces/*.trace"
"$ARENA" tournament "$TMP/t.tour" --out "$TMP/tr2" --trace nobody >/dev/null 2>"$TMP/tr2.err"
check "--trace with no such entrant: exit 2" test $? -eq 2
# overrides are part of the configuration: --memory-mb and --stdout-cap change the hash, and
# tournament.json records them
hash() { "$ARENA" tournament "$TMP/t.tour" --plan "$@" | sed -n '1s/.*configuration //p'; }
h0=$(hash); h1=$(hash --memory-mb 300); h2=$(hash --stdout-cap 5000)
check "--memory-mb and --stdout-cap change the configuration hash" \
    bash -c "[ -n '$h0' ] && [ '$h0' != '$h1' ] && [ '$h0' != '$h2' ] && [ '$h1' != '$h2' ]"
check "--memory-mb is the same configuration as --set sandbox.memory_mb" \
    test "$h1" = "$(hash --set sandbox.memory_mb=300)"
check "tournament.json records the limits the bots ran under" \
    python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["config"]["sandbox"]; assert c["memory_mb"] == 256 and c["stdout_cap"] == 1048576 and "pids" in c, c' \
    "$TMP/o/tournament.json"

# a key of the file given as a flag: the error says how to override it
"$ARENA" tournament "$TMP/t.tour" --decision-ms 50 >/dev/null 2>"$TMP/key.err"
check "--decision-ms: exit 2 and the --set that does it" \
    bash -c "[ $? -eq 2 ] && grep -q \"override it with --set clocks.decision_ms=50\" '$TMP/key.err'"
"$ARENA" tournament "$TMP/t.tour" --rules=gin >/dev/null 2>"$TMP/key2.err"
check "--rules=gin: the --set tournament.rules=gin hint" \
    grep -q "override it with --set tournament.rules=gin" "$TMP/key2.err"
"$ARENA" tournament --help >"$TMP/help.txt"
check "tournament --help lists --plan and --trace" \
    bash -c "grep -q -- '--plan ' '$TMP/help.txt' && grep -q -- '--trace WHO' '$TMP/help.txt'"
check "no bot left behind" noproc "$TMP/o"
finish
