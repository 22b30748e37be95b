#!/usr/bin/env bash
# hold.sh BUILD_DIR - an entrant that passes its check and then fails its games is held back,
# with the reason stored, and gets no set while held, while the others play on; `retire`
# reaches a running league: the retired entrant gets no new set, its games stay counted; a
# version whose check the arena cannot play (its files hold another entrant's program) is
# refused once, not checked again and again.
source "$(dirname "$0")/../tour/lib.bash" "$@"

L="$TMP/lg"
cat > "$TMP/t.league" << T
[league]
name = hold
rules = gin
seats = 2
seed = 3
bootstrap = 100
jobs = 2
# 3 hands a game: random players take many hands to reach gin's target, and every set here
# is one to wait for
hands = 3
[clocks]
decision_ms = 500
hard_ms = 3000
[entrant random]
command = @random
[entrant greedy]
command = @greedy
[entrant good]
command = $H/okrh_good
T
sql() {
    python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1], timeout=30)
for r in c.execute(sys.argv[2]):
    print("|".join(map(str, r)))' "$L/league.db" "$1"
}
until_sql() {
    local i
    for ((i = 0; i < $1 * 10; i++)); do
        [ "$(sql "$2")" != 0 ] && return 0
        sleep 0.1
    done
    echo "  timed out: $2" >&2
    return 1
}
# flaky: plays well for its check, then (once the test drops a file into its folder) crashes
# at its first decision: a copy of the helper bot in a folder of its own, which it may read
# (a native program: a script's runtime gets an address-space limit that an ASan build of the
# helper cannot live under)
mkdir -p "$TMP/flaky"
cp "$H/okrh_good" "$TMP/flaky/"
"$ARENA" league init "$L" "$TMP/t.league" > /dev/null
"$ARENA" league add "$L" flaky --files "$TMP/flaky" -- "$TMP/flaky/okrh_good" --crash-if "$TMP/flaky/broken" > /dev/null
# its files hold good's program: the jail cannot start good next to it
"$ARENA" league add "$L" clash --files "$H" -- "$H/okrh_good" --seed 5 > /dev/null

"$ARENA" league run "$L" --hold-s 600 --sets 400 2> "$TMP/run.err" &
pid=$!
until_sql 60 "SELECT count(*) FROM entrants WHERE name = 'flaky' AND status = 'active'"
check "flaky passes its check" test "$(sql "SELECT status FROM entrants WHERE name = 'flaky'")" = active
touch "$TMP/flaky/broken"
until_sql 60 "SELECT count(*) FROM entrants WHERE name = 'flaky' AND status = 'held'"
check "flaky is held back once its games fail" test "$(sql "SELECT status FROM entrants WHERE name = 'flaky'")" = held
check "... with the reason stored" grep -q "held back for 600 s: errors or time-outs in" <<< "$(sql "SELECT reason FROM entrants WHERE name = 'flaky'")"
check "... and said" grep -q "flaky held back for 600 s" "$TMP/run.err"
held_at=$(sql "SELECT changed_at FROM entrants WHERE name = 'flaky'")
n0=$(sql "SELECT count(*) FROM sets WHERE kind = 'play'")
until_sql 30 "SELECT count(*) >= $n0 + 6 FROM sets WHERE kind = 'play'"
fid=$(sql "SELECT id FROM entrants WHERE name = 'flaky'")
check "no set for flaky while it is held" test "$(sql "SELECT count(*) FROM sets s, json_each(s.seats) j WHERE s.kind = 'play' AND j.value = $fid AND s.started_at > $held_at + 0.5")" -eq 0
check "... while the others play on" test "$(sql "SELECT count(*) FROM sets WHERE kind = 'play' AND started_at > $held_at")" -ge 6
check "clash: refused before its check, never played" test "$(sql "SELECT status FROM entrants WHERE name = 'clash'")" = refused -a "$(sql "SELECT count(*) FROM sets s, json_each(s.seats) j WHERE j.value = (SELECT id FROM entrants WHERE name = 'clash')")" -eq 0
check "... with the jail's reason" grep -q "refused before its check: .*would show it another entrant's files" <<< "$(sql "SELECT reason FROM entrants WHERE name = 'clash'")"
check "good, whose program clash's files hold, plays on" test "$(sql "SELECT status FROM entrants WHERE name = 'good'")" = active

# retire reaches the running league
"$ARENA" league retire "$L" good > /dev/null
check "retire good while running: exit 0" test $? -eq 0
gid=$(sql "SELECT id FROM entrants WHERE name = 'good'")
at=$(sql "SELECT changed_at FROM entrants WHERE name = 'good'")
n0=$(sql "SELECT count(*) FROM sets WHERE kind = 'play'")
until_sql 30 "SELECT count(*) >= $n0 + 6 FROM sets WHERE kind = 'play'"
check "no new set for good once retired (those in flight finish)" test "$(sql "SELECT count(*) FROM sets s, json_each(s.seats) j WHERE s.kind = 'play' AND j.value = $gid AND s.started_at > $at + 0.5")" -eq 0
kill -TERM "$pid"
wait "$pid"
check "SIGTERM: exit 0" test $? -eq 0
py "$L" "s['good']['games'] > 0" "'clash' not in s"
check "good's games stay counted in results.json" test $? -eq 0
finish
