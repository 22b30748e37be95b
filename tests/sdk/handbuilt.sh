#!/usr/bin/env bash
# handbuilt.sh BUILD_DIR - bots that build their actions by hand, without naming a seat
# ({ type: PASS } in JavaScript, Action(type=PASS) in Python, (okr_action){.type = OKR_A_PASS}
# in C, a legal action copied without its seat otherwise), pass `arena check-bot` in C, Python
# and JavaScript at every table size it checks here: the SDK fills in the seat of the decision
# (docs/sdk-c.md, docs/sdk-python.md, docs/sdk-js.md), and check-bot plays every seat (3-seat
# laws: seats 0, 2 and 1). A seat the bot writes itself is sent as written, and a wrong one is
# refused (RULES 2.2; IA with rule "protocol", docs/protocol.md section 6). Before the SDKs
# filled the seat in, every one of these bots was refused at seat 2 of 3-seat laws.
# Registered by tests/sdk/CMakeLists.txt; the C bot is tests/sdk/handbuilt_bot.c.
set -u
BUILD=${1:?usage: handbuilt.sh BUILD_DIR}
ARENA="$BUILD/arena/arena"
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 failed=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
check() { # check NAME COMMAND...
    local name=$1
    shift
    if "$@"; then ok "$name"; else bad "$name"; fi
}
[ -x "$ARENA" ] || { echo "FAIL missing $ARENA"; exit 1; }

langs=("c:$BUILD/tests/sdk/okrt_handbuilt_bot")
command -v python3 >/dev/null && langs+=("py:python3 $SRC/sdk/python/tests/bots/probe_bot.py")
command -v node >/dev/null && langs+=("js:node $SRC/sdk/js/test/bots/probe_bot.js")

for entry in "${langs[@]}"; do
    lang=${entry%%:*} bot=${entry#*:}
    [ "$lang" = c ] && mode="" || mode=" handbuilt"
    for table in "laws 3" "laws 2" "laws 4" "german 3" "gin 2"; do
        read -r preset players <<<"$table"
        f="$TMP/$lang-$preset-$players.txt"
        "$ARENA" check-bot --bot "$bot$mode" --rules "$preset" --players "$players" \
            --decisions 20 >"$f" 2>&1
        rc=$?
        check "$lang $preset $players seats: hand-built actions compliant (exit 0)" test $rc -eq 0
        check "$lang $preset $players seats: every seat played" \
            grep -q "^  seats        every seat of $players played: " "$f"
        [ $rc -eq 0 ] || sed 's/^/     | /' "$f"
    done
    f="$TMP/$lang-laws-3.txt"
    check "$lang laws 3 seats: seat 0, then 2, then 1" \
        grep -Eq "^  seats        every seat of 3 played: seat 0 \([0-9]+ decisions\), seat 2 \([0-9]+\), seat 1 \([0-9]+\)$" "$f"

    # an explicit seat is the bot's word: seat 1 at seat 0 is refused at once
    f="$TMP/$lang-seat1.txt"
    "$ARENA" check-bot --bot "$bot$mode 1" >"$f" 2>&1
    check "$lang: an action with seat 1 written in: not compliant (exit 1)" test $? -eq 1
    check "$lang: refused at seat 0 as an action for another seat" \
        grep -q "verdict      FAIL: IA RULES protocol: the action is for seat 1; seat 0 must act" "$f"
done

echo "handbuilt: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
