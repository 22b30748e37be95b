#!/usr/bin/env bash
# selftest.sh SOURCE_DIR - scripts/check-rooms.py fails, with file:line, on each kind of wrong
# include it exists to catch, and passes on the tree as it is. Each case copies the checked
# folders to a scratch tree, breaks one thing and runs the check there.
set -uo pipefail
SRC=${1:?usage: selftest.sh SOURCE_DIR}
CHECK="$SRC/scripts/check-rooms.py"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fails=0

fresh() { # a clean copy of the checked folders in $WORK/tree
    rm -rf "$WORK/tree"
    mkdir -p "$WORK/tree/scripts"
    (cd "$SRC" && cp -r engine proto arena sdk bots bench tests "$WORK/tree/")
}

# expect_fail NAME FILE LINE_TEXT PATTERN: append LINE_TEXT to FILE, the check must exit 1 and
# print a line holding FILE:LINE and PATTERN (a wrong include starts with FILE:LINE:; a circle
# names every include on it).
expect_fail() {
    local name=$1 file=$2 text=$3 pattern=$4 out rc line
    fresh
    printf '%s\n' "$text" >>"$WORK/tree/$file"
    line=$(wc -l <"$WORK/tree/$file")
    out=$(python3 "$CHECK" "$WORK/tree" 2>&1)
    rc=$?
    if [ "$rc" -eq 1 ] && grep -F "$file:$line" <<<"$out" | grep -qF -- "$pattern"; then
        echo "ok   $name"
    else
        echo "FAIL $name: exit $rc, wanted '$file:$line: ...$pattern'; got:"
        sed 's/^/     /' <<<"$out"
        fails=$((fails + 1))
    fi
}

fresh
if out=$(python3 "$CHECK" "$WORK/tree" 2>&1); then
    echo "ok   the tree as it is passes"
else
    echo "FAIL the tree as it is: $out"
    fails=$((fails + 1))
fi

expect_fail "tour includes cli" arena/tour/schedule.c '#include "cli/cli.h"' 'includes cli/cli.h (cli)'
expect_fail "match includes cli" arena/match/record.c '#include "cli/cli_bots.h"' '(cli)'
expect_fail "jail includes match" arena/jail/spawn.c '#include "match/bot.h"' 'includes match/bot.h (match)'
expect_fail "util includes jail" arena/util/util.c '#include "jail/spawn.h"' '(jail)'
expect_fail "engine includes proto" engine/src/card.c '#include "okr.pb-c.h"' 'engine may include only engine'
expect_fail "engine includes arena" engine/src/game.c '#include "util/util.h"' '(util)'
expect_fail "engine includes by path" engine/src/meld.c '#include "../../arena/jail/cgroup.h"' '(jail)'
expect_fail "proto includes match" proto/codec.c '#include "match/record.h"' '(match)'
expect_fail "sdk includes the arena" sdk/c/src/okbot.c '#include "tour/rank.h"' '(tour)'
expect_fail "a bot includes the arena" bots/random/random_bot.c '#include "jail/seccomp.h"' '(jail)'
expect_fail "bench includes cli" bench/bench_rank.c '#include "cli/cli.h"' '(cli)'
expect_fail "match tests include tour" tests/match/test_match_units.c '#include "tour/rank.h"' '(tour)'
expect_fail "a missing header" arena/match/loop.c '#include "nowhere.h"' 'no such file'
expect_fail "a circle in proto" proto/wire.c '#include "frame.h"' 'circle of includes'
expect_fail "a circle in match" arena/match/policy.c '#include "match.h"' 'circle of includes'
expect_fail "fork outside the jail" arena/tour/journal.c 'static int f(void) { return fork(); }' 'calls fork()'
expect_fail "exec outside the jail" arena/match/bot.c 'static void g(char **a) { execvp(a[0], a); }' 'calls execvp()'
expect_fail "popen in the engine" engine/src/score.c 'static void h(void) { popen("x", "r"); }' 'calls popen()'

# what is not a call is not reported: a comment, a string, a member
fresh
printf '%s\n' '/* a fork( in a comment */' 'static const char *s = "fork(";' \
    'struct ops { int (*fork)(void); };' 'static int k(struct ops *o) { return o->fork(); }' \
    >>"$WORK/tree/arena/tour/journal.c"
if out=$(python3 "$CHECK" "$WORK/tree" 2>&1); then
    echo "ok   comments, strings and members are not calls"
else
    echo "FAIL comments, strings and members: $out"
    fails=$((fails + 1))
fi

[ "$fails" -eq 0 ] && echo "selftest: all cases behaved" || echo "selftest: $fails case(s) failed"
exit $((fails > 0))
