#!/usr/bin/env bash
# fulldisk.sh BUILD_DIR - a league whose disk fills up stops with a clear error, counts nothing
# of the set it could not finish, and after space returns goes on: every counted set whole, no
# game twice. Needs root (a 3 MB tmpfs for the league's folder); skipped (77) without it.
source "$(dirname "$0")/../tour/lib.bash" "$@"

if [ "$(id -u)" != 0 ] || ! mkdir -p "$TMP/m" || ! mount -t tmpfs -o size=3m tmpfs "$TMP/m" 2> /dev/null; then
    echo "skipped: needs root to mount a small tmpfs"
    exit 77
fi
trap 'umount -l "$TMP/m" 2> /dev/null; cleanup' EXIT
L="$TMP/m/lg"
cat > "$TMP/t.league" << T
[league]
name = full
rules = gin
seats = 2
seed = 5
bootstrap = 100
jobs = 2
# 3 hands a game: random players take many hands to reach gin's target (under ASan on a loaded
# machine 5 sets, not the 6 this test waits for, were counted in a minute)
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
"$ARENA" league init "$L" "$TMP/t.league" > /dev/null
"$ARENA" league run "$L" --sets 4 --quiet 2> "$TMP/run1.err"
check "a first run counts 4 sets" test "$(sql "SELECT count(*) FROM sets WHERE kind = 'play' AND state = 'counted'")" -eq 4

# fill the disk while it runs
"$ARENA" league run "$L" --sets 200 --quiet 2> "$TMP/run2.err" &
pid=$!
for _ in $(seq 600); do # up to 60 s: a loaded CI machine plays slowly
    [ "$(sql "SELECT count(*) FROM sets WHERE kind = 'play' AND state = 'counted'")" -ge 6 ] && break
    sleep 0.1
done
dd if=/dev/zero of="$TMP/m/filler" bs=64k 2> /dev/null
for _ in $(seq 300); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
kill -0 "$pid" 2> /dev/null && kill -KILL "$pid"
wait "$pid"
rc=$?
before=$(sql "SELECT count(*) FROM games")
check "the disk filled in the middle of the run: $before games were counted" test "$before" -ge 12
check "on a full disk the run stops within 30 s (exit 1)" test "$rc" -eq 1
check "... saying why" grep -Eqi "disk is full|no space left" "$TMP/run2.err"
grep -Ei "full|space|stopping" "$TMP/run2.err" | head -4 | cut -c1-220 | sed 's/^/  | /'

# space returns: it goes on, nothing lost, nothing twice
rm -f "$TMP/m/filler"
mount -o remount,size=64m "$TMP/m"
"$ARENA" league run "$L" --sets $((before / 2 + 4)) --quiet 2> "$TMP/run3.err"
check "after space returns it goes on, 4 sets more (exit 0)" test $? -eq 0 -a "$(sql "SELECT count(*) FROM sets WHERE kind = 'play' AND state = 'counted'")" -eq $((before / 2 + 4))
check "the games counted before the disk filled are all there" test "$(sql "SELECT count(*) FROM games WHERE id IN (SELECT id FROM games ORDER BY id LIMIT $before)")" -eq "$before"
check "every counted set whole, no game of another counted" test "$(sql "SELECT count(*) FROM sets s WHERE state = 'counted' AND kind = 'play' AND (SELECT count(*) FROM games g WHERE g.set_id = s.id) != 2")" -eq 0 -a "$(sql "SELECT count(*) FROM games g JOIN sets s ON s.id = g.set_id WHERE s.state != 'counted'")" -eq 0
n=$((before + 8))
py "$L" "len(g) == $n" "len(set(x['game_id'] for x in g)) == $n"
check "games.jsonl: $n games, none twice" test $? -eq 0
finish
