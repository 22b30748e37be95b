#!/usr/bin/env bash
# misbehave.sh BUILD_DIR - a bot that crashes and a bot that hangs get their verdicts (RE,
# TLE) in the standings and in games.jsonl, the others get none, and the tournament still
# finishes every game. A worker of the arena that dies (here: killed from outside) is
# reported, its set is played again and the results do not change; a set whose worker dies
# twice stops the tournament with a clear message and exit 1.
source "$(dirname "$0")/lib.bash" "$@"

cat > "$TMP/t.tour" <<T
[tournament]
name = misbehave
rules = gin
seats = 2
deals = 2
seed = 51
bootstrap = 100
[clocks]
startup_ms = 3000
decision_ms = 100
bank_ms = 200
hard_ms = 400
[entrant random]
command = $BOTS/random_bot
[entrant greedy]
command = $BOTS/greedy_bot
[entrant crash]
command = $H/okrh_crash --after 5
[entrant hang]
command = $H/okrh_hang --after 3
T
"$ARENA" tournament "$TMP/t.tour" --out "$TMP/o" --jobs 2 --no-progress > "$TMP/o.txt" 2> "$TMP/o.err"
check "finishes (exit 0)" test $? -eq 0 || tail "$TMP/o.err"
check "verdicts counted against the right entrants" py "$TMP/o" \
    "r['complete'] and len(g) == r['games_scheduled']" \
    "s['crash']['verdicts']['RE'] > 0" "s['hang']['verdicts']['TLE'] > 0" \
    "sum(s['random']['verdicts'].values()) == 0 and sum(s['greedy']['verdicts'].values()) == 0" \
    "all(v['entrant'] in (2, 3) for x in g for v in x['verdicts'])" \
    "s['crash']['forfeits'] > 0"
check "the table shows them" grep -Eq "crash .*RE [0-9]" "$TMP/o.txt"
sleep 0.3
check "no bot left behind" noproc "$TMP/o"

# workers that die: slow sets so there is time to kill them
sed -e "s#^command = $BOTS/random_bot#command = $H/okrh_slow --sleep-ms 15 --seed 1#" \
    -e '/^\[entrant crash\]/,$d' "$TMP/t.tour" > "$TMP/w.tour"
"$ARENA" tournament "$TMP/w.tour" --out "$TMP/wref" --jobs 2 --quiet
"$ARENA" tournament "$TMP/w.tour" --out "$TMP/w1" --jobs 2 --no-progress > /dev/null 2> "$TMP/w1.err" &
pid=$!
for _ in $(seq 100); do w=$(pgrep -x -P "$pid" arena:s1) && break; sleep 0.05; done
[ -n "${w:-}" ] && kill -KILL "$w"
wait "$pid"
check "a worker killed once: still exit 0" test $? -eq 0
check "... reported, and its set played again" grep -q "worker of set 1 (pid $w) killed by signal 9.*playing the set again" "$TMP/w1.err"
check "... with the same results" same_outputs "$TMP/wref" "$TMP/w1"

"$ARENA" tournament "$TMP/w.tour" --out "$TMP/w2" --jobs 2 --no-progress > /dev/null 2> "$TMP/w2.err" &
pid=$!
kills=0
for _ in $(seq 200); do
    w=$(pgrep -x -P "$pid" arena:s1) && kill -KILL "$w" && kills=$((kills + 1)) && sleep 0.1
    [ "$kills" -ge 2 ] && break
    sleep 0.03
done
wait "$pid"
rc=$?
check "a worker killed twice: the tournament stops with exit 1" test "$kills" -eq 2 -a "$rc" -eq 1
check "... saying why and how to resume" grep -q "worker of set 1 .* again.*the tournament stops" "$TMP/w2.err"
check "... resume with" grep -q "resume with" "$TMP/w2.err"
"$ARENA" tournament "$TMP/w.tour" --out "$TMP/w2" --jobs 2 --quiet --resume
check "... and --resume finishes it with the same results" same_outputs "$TMP/wref" "$TMP/w2"
finish
