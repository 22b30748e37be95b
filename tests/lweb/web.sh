#!/usr/bin/env bash
# web.sh BUILD_DIR - the league's web face over HTTP (client.py): a league runs with --serve;
# the host makes two authors on its page, each uploads a bot (the Python starter bot, the C
# greedy bot; a .tar.gz; hostile uploads refused with their reasons), the bots pass their
# check and reach the leaderboard, an author sees her games as her seat saw them and nothing
# of the other's (no hidden card, seed or log in any response), forged Origin, wrong Host,
# bad secrets and missing cookies are refused, the host reveals the replays and hides them
# again, revokes an author and exports; alice asks for test games (unrated, hers alone,
# refused past the league's test_sets_per_hour); the host adds from a command and an upload,
# freezes the league and starts the final from its page.
source "$(dirname "$0")/../tour/lib.bash" "$@"
L="$TMP/lg"
cat >"$TMP/t.league" <<T
[league]
name = web
rules = gin
seats = 2
seed = 770211
bootstrap = 20
jobs = 1
test_sets_per_hour = 2
[clocks]
decision_ms = 2000
hard_ms = 5000
startup_ms = 10000
[entrant greedy]
command = @greedy
[entrant random]
command = @random
T
"$ARENA" league init "$L" "$TMP/t.league" >/dev/null
check "init" test $? -eq 0
"$ARENA" league run "$L" --serve 0 --jobs 1 >"$TMP/run.out" 2>"$TMP/run.err" &
RUN=$!
for _ in $(seq 100); do
    grep -q "host signs in" "$TMP/run.out" 2>/dev/null && break
    sleep 0.1
done
check "run --serve prints the pages' address and the host's link" \
    grep -q "the host signs in with http://127.0.0.1:[0-9]*/signin?a=@host&k=[0-9a-f]\{32\}" "$TMP/run.out"
check "host.token is the host's alone (0600)" test "$(stat -c %a "$L/host.token")" = 600
out=$("$ARENA" league author add "$L" carol)
check "author add prints a sign-in link" grep -q "signin?a=carol&k=[0-9a-f]\{32\}" <<<"$out"
check "author revoke" "$ARENA" league author revoke "$L" carol
"$ARENA" league author revoke "$L" carol 2>/dev/null
check "... twice: no such author (exit 2)" test $? -eq 2
"$ARENA" league author add "$L" "../x" 2>/dev/null
check "a bad author name (exit 2)" test $? -eq 2
python3 "$(dirname "$0")/client.py" "$ARENA" "$L" "$SRC" "$BUILD"
check "client.py: the pages, the authors, the uploads" test $? -eq 0
for _ in $(seq 100); do
    grep -q "the pages stay up" "$TMP/run.err" && break
    sleep 0.1
done
check "after the final the pages stay up" grep -q "the pages stay up" "$TMP/run.err"
kill -TERM $RUN
wait $RUN
check "the run stops on SIGTERM with its server" test $? -eq 0
check "... and no server is left" noproc "arena:lweb"
"$ARENA" league export "$L" -o "$TMP/site" >/dev/null
check "export -o SITE writes the public pages" test -s "$TMP/site/index.html" -a -s "$TMP/site/entrant-greedy.html"
finish
