#!/usr/bin/env bash
# tourfiles.sh BUILD_DIR - every shipped tournaments/*.tour file is read and scheduled
# (`arena tournament FILE --plan`); a malformed file gets FILE:LINE and exit 2; a bad --set
# and a bad --shard are refused.
source "$(dirname "$0")/lib.bash" "$@"

# The files name their bots relative to themselves (../build/bots/..., ../bots/...,
# ../submissions/NAME/...): lay out a copy of the repository around this build folder, with
# an executable stand-in for every student's submission of class-ladder.tour.
mkdir -p "$TMP/repo/tournaments"
cp "$SRC"/tournaments/*.tour "$TMP/repo/tournaments/"
ln -s "$BUILD" "$TMP/repo/build"
ln -s "$SRC/bots" "$TMP/repo/bots"
for f in $(sed -n 's#^command = [a-z0-9]* *\.\./\(submissions/[^ ]*\).*#\1#p; s#^command = \.\./\(submissions/[^ ]*\).*#\1#p' "$SRC/tournaments/class-ladder.tour"); do
    mkdir -p "$TMP/repo/$(dirname "$f")"
    printf '#!/bin/sh\nexit 0\n' > "$TMP/repo/$f"
    chmod +x "$TMP/repo/$f"
done
n=0
for f in "$TMP"/repo/tournaments/*.tour; do
    n=$((n + 1))
    "$ARENA" tournament "$f" --plan > "$TMP/plan.txt" 2> "$TMP/plan.err"
    check "$(basename "$f"): parsed and scheduled" test $? -eq 0 || cat "$TMP/plan.err"
    check "$(basename "$f"): has sets" grep -Eq "[1-9][0-9]* sets" "$TMP/plan.txt"
done
check "tournaments/ ships .tour files" test "$n" -ge 5

# out = is relative to the .tour file, as commands are, whatever the current folder; --out
# and the default (results/NAME) are relative to the current folder
mkdir -p "$TMP/o/sub" "$TMP/cwd"
printf '[tournament]\nname = o\nrules = gin\nseats = 2\nout = here-out\n[entrant a]\ncommand = @random\n[entrant b]\ncommand = @greedy\n' > "$TMP/o/sub/o.tour"
(cd "$TMP/cwd" && "$ARENA" tournament ../o/sub/o.tour --quiet > /dev/null 2>&1)
check "out = is taken against the .tour file's folder" test -s "$TMP/o/sub/here-out/results.json"
check "... not against the current folder" test ! -e "$TMP/cwd/here-out"
(cd "$TMP/cwd" && "$ARENA" tournament ../o/sub/o.tour --out mine --quiet > /dev/null 2>&1)
check "--out is taken against the current folder" test -s "$TMP/cwd/mine/results.json"
sed -i '/^out = /d' "$TMP/o/sub/o.tour"
(cd "$TMP/cwd" && "$ARENA" tournament ../o/sub/o.tour --quiet > /dev/null 2>&1)
check "without out =, results/NAME in the current folder" test -s "$TMP/cwd/results/o/results.json"

printf '[tournament]\nrules = gin\nseats = 2\nbogus_key = 3\n[entrant a]\ncommand = @random\n[entrant b]\ncommand = @random\n' > "$TMP/bad.tour"
"$ARENA" tournament "$TMP/bad.tour" --plan 2> "$TMP/bad.err"
check "a malformed file: exit 2" test $? -eq 2
check "... with FILE:LINE" grep -q "bad.tour:4" "$TMP/bad.err"
printf '[tournament]\nrules = gin\nseats = 2\n[entrant a]\ncommand = @random\n[entrant b]\ncommand = @random\n' > "$TMP/ok.tour"
"$ARENA" tournament "$TMP/ok.tour" --plan --set tournament.sed=3 2> "$TMP/set.err"
check "a bad --set: exit 2" test $? -eq 2
"$ARENA" tournament "$TMP/ok.tour" --plan --shard 3/3 2> "$TMP/shard.err"
check "a bad --shard: exit 2" test $? -eq 2
check "... saying why" grep -q "0 <= K < N" "$TMP/shard.err"
# more games than a tournament may hold (docs/tournaments.md): refused when the file is read,
# by --plan, by the run (before it makes its folder) and as an override
printf '[tournament]\nrules = gin\nseats = 2\ndeals = 1000000000\n[entrant a]\ncommand = @random\n[entrant b]\ncommand = @random\n' > "$TMP/huge.tour"
"$ARENA" tournament "$TMP/huge.tour" --plan > /dev/null 2> "$TMP/huge.err"
check "deals = 1000000000: --plan exits 2" test $? -eq 2
check "... naming the line, the key and the limit" \
    grep -q "huge.tour:4: deals = 1000000000: .*more than the limit of" "$TMP/huge.err"
"$ARENA" tournament "$TMP/huge.tour" --out "$TMP/huge" > /dev/null 2> "$TMP/huge-run.err"
check "deals = 1000000000: the run exits 2 (not 134)" test $? -eq 2
check "... and leaves no folder" test ! -e "$TMP/huge"
"$ARENA" tournament "$TMP/ok.tour" --plan --set tournament.deals=1000000000 > /dev/null 2> "$TMP/hugeset.err"
check "--set tournament.deals=1000000000: exit 2" test $? -eq 2
check "... naming the override" grep -q "set tournament.deals=1000000000: deals" "$TMP/hugeset.err"
printf '[tournament]\nrules = gin\nseats = 2\n[entrant a]\ncommand = ./no-such-bot\n[entrant b]\ncommand = @random\n' > "$TMP/nobot.tour"
"$ARENA" tournament "$TMP/nobot.tour" --out "$TMP/nb" 2> "$TMP/nobot.err"
check "a missing bot program: exit 2" test $? -eq 2
check "... with FILE:LINE" grep -q "nobot.tour:5: .*no-such-bot: no such file" "$TMP/nobot.err"
finish
