#!/usr/bin/env bash
# checkbot.sh BUILD_DIR HELPERS_DIR - `arena check-bot`: a compliant helper passes (exit 0) in
# every preset with its report, having played every seat of the table; every misbehaving one
# fails (exit 1) naming its verdict, also one that is wrong only away from seat 0; a program
# that cannot be found is a usage error (exit 2).
source "$(dirname "$0")/lib.bash" "$@"

for preset in laws parlett arlington german gin; do
    "$ARENA" check-bot --bot "$(helper good)" --rules "$preset" --decisions 30 >"$TMP/$preset.txt" 2>&1
    check "good bot, $preset: compliant (exit 0)" test $? -eq 0
    check "good bot, $preset: report" grep -q "^result: compliant$" "$TMP/$preset.txt"
done
f="$TMP/laws.txt"
check "report: handshake with protocol, name and version" \
    grep -q "handshake    ok: Identify protocol 1.0, name \"$TAG\", version \"1.0\"" "$f"
check "report: startup time" grep -qE "ready        ok: [0-9.]+ ms after spawn" "$f"
check "report: every reply valid" \
    grep -Eq "decisions    [0-9]+ answered \(30 asked for, a game at every seat, each to its end\), every reply valid and legal" "$f"
check "report: every seat played, in rotation order, with its decisions" \
    grep -Eq "^  seats        every seat of 3 played: seat 0 \([0-9]+ decisions\), seat 2 \([0-9]+\), seat 1 \([0-9]+\)$" "$f"
check "report: 3 games, one per seat" grep -q "games        3 played to their end" "$f"
check "gin: both seats" grep -Eq "^  seats        every seat of 2 played: seat 0 .*, seat 1 " "$TMP/gin.txt"
"$ARENA" check-bot --bot "$(helper good)" --rules parlett --players 5 --decisions 5 >"$TMP/p5.txt" 2>&1
check "5 seats: compliant, every seat" grep -Eq "^  seats        every seat of 5 played: seat 0 .*, seat 4 .*, seat 3 .*, seat 2 .*, seat 1 \([0-9]+\)$" "$TMP/p5.txt"

# An action with the protobuf default seat 0 (built by hand, no SDK to fill the seat in) is
# right at seat 0 only: check-bot must play the other seats to see it refused (RULES 2.2: seats
# 0..N-1; docs/protocol.md: an action for another seat is IA with rule "protocol").
"$ARENA" check-bot --bot "$(helper seatless)" >"$TMP/seatless.txt" 2>&1
check "seat 0 at every seat: not compliant (exit 1)" test $? -eq 1
check "seat 0 at every seat: IA protocol at seat 2, the second game" \
    grep -q "verdict      FAIL: IA RULES protocol: the action is for seat 0; seat 2 must act" "$TMP/seatless.txt"
check "seat 0 at every seat: the report names the seat and game" \
    grep -q "^               at seat 2, game m1-d0-r1$" "$TMP/seatless.txt"
check "seat 0 at every seat: the seats line says what was played" \
    grep -Eq "^  seats        played seat 0 \([0-9]+ decisions\), seat 2 \(1\); not seat 1$" "$TMP/seatless.txt"
check "seat 0 at every seat: NOT compliant" grep -q "^result: NOT compliant" "$TMP/seatless.txt"
check "report: whole games, to GameEnd" grep -Eq "games        [1-9][0-9]* played to their end" "$f"
check "report: the program as the jail runs it" grep -q "in the jail  $H/okrh_good --name $TAG" "$f"

# a bare interpreter name: the jail's PATH decides which program runs, and the report says it
cat >"$TMP/bot.py" <<'PY'
import sys
print("loading", file=sys.stderr)
raise SystemExit("no model file: weights.bin")
PY
"$ARENA" check-bot --bot "python3 $TMP/bot.py" --stderr >"$TMP/py.txt" 2>"$TMP/py.err"
check "python bot: not compliant, exit 1" test $? -eq 1
check "python bot: the program in the jail is a system python3" \
    grep -Eq "in the jail  /usr(/local)?/bin/python3 $TMP/bot.py" "$TMP/py.txt"
check "python bot: the RE detail ends with its stderr" \
    grep -q "verdict      FAIL: RE: exited with status 1 before Ready; stderr ends: \"loading | no model file: weights.bin\"" "$TMP/py.txt"
check "--stderr: the bot's stderr as it runs" grep -q "^no model file: weights.bin" "$TMP/py.err"

# A print that reaches the channel before the SDK is loaded (flushed at once, as with flush=True
# or PYTHONUNBUFFERED): PE, and the hint says what to do in that language; other programs keep
# the general hint (the C helper's stray print below).
cat >"$TMP/early.py" <<'PY'
print("loading my bot", flush=True)
import okbot
okbot.run(lambda view, legal, ctx: 0, name="early")
PY
"$ARENA" check-bot --bot "python3 $TMP/early.py" >"$TMP/early-py.txt" 2>&1
check "python print before import okbot: PE, the hint says to import okbot first" \
    grep -q "verdict      FAIL: PE: sent bytes that are not a FromBot frame: 6c 6f 61 64 .*; stdout is the protocol channel: import okbot before anything prints (it sends print() to stderr), or print to sys.stderr$" "$TMP/early-py.txt"
if command -v node >/dev/null; then
    cat >"$TMP/early.js" <<'JS'
console.log('loading my bot');
const okbot = require('okbot');
okbot.run(() => 0, { name: 'early' });
JS
    "$ARENA" check-bot --bot "node $TMP/early.js" >"$TMP/early-js.txt" 2>&1
    check "javascript console.log before require('okbot'): PE, the hint says to require it first" \
        grep -q "; stdout is the protocol channel: require('okbot') before anything writes (it sends console.log to stderr), or write to stderr$" "$TMP/early-js.txt"
fi

# --trace: every frame each way, as text
"$ARENA" check-bot --bot "$(helper print --after 3)" --trace >"$TMP/tr.txt" 2>"$TMP/tr.err"
check "stray print: not compliant, PE with the bytes" \
    grep -q "verdict      FAIL: PE: sent bytes that are not a FromBot frame: 64 65 62 75 67" "$TMP/tr.txt"
check "stray print from a C program: the general hint" \
    grep -q "; stdout is the protocol channel: write debug output to stderr$" "$TMP/tr.txt"
check "--trace: the handshake each way" bash -c "grep -Eq '^ *[0-9]+\.[0-9]{3} >okrh_print\(0\): hello \{ major: 1 ' '$TMP/tr.err' && grep -Eq '<okrh_print\(0\): identify \{ major: 1 name: \"$TAG\"' '$TMP/tr.err' && grep -q '<okrh_print(0): ready { }' '$TMP/tr.err'"
check "--trace: decisions and choices" \
    bash -c "[ \$(grep -c '<okrh_print(0): choice { id: ' '$TMP/tr.err') -eq 3 ] && grep -q '>okrh_print(0): decision { id: ' '$TMP/tr.err'"
check "--trace: the stray bytes and the verdict" \
    bash -c "grep -q '<okrh_print(0): stray bytes (.*): 64 65 62 75 67' '$TMP/tr.err' && grep -q '!okrh_print(0): verdict PE: ' '$TMP/tr.err'"
check "report: latency p50/p95/max" grep -qE "latency      p50 [0-9.]+ ms, p95 [0-9.]+ ms, max [0-9.]+ ms" "$f"
check "report: exits on Bye" grep -q "goodbye      ok: exited" "$f"

"$ARENA" check-bot --bot "$(helper full)" >"$TMP/full.txt" 2>&1
check "full-action answers: compliant" test $? -eq 0

"$ARENA" check-bot --bot "$(helper nobye)" >"$TMP/nobye.txt" 2>&1
check "ignoring Bye: compliant with a warning" test $? -eq 0
check "ignoring Bye: the warning" grep -q "result: compliant (with warnings)" "$TMP/nobye.txt"

CLOCKS=(--startup-ms 1500 --decision-ms 300 --bank-ms 2000 --hard-ms 1000)
for c in "crash RE" "exit RE" "hang TLE" "garbage PE" "oversized PE" "wrongid PE" \
         "illegal IA" "badindex IA" "closeout RE" "flood PE" "noread TLE" "badmajor PE" \
         "noready TLE" "slowstart TLE"; do
    read -r mode verdict <<<"$c"
    "$ARENA" check-bot --bot "$(helper "$mode" --sleep-ms 3000)" "${CLOCKS[@]}" \
        >"$TMP/$mode.txt" 2>&1
    check "$mode: not compliant (exit 1)" test $? -eq 1
    check "$mode: reports $verdict" grep -q "verdict      FAIL: $verdict" "$TMP/$mode.txt"
    check "$mode: says NOT compliant" grep -q "^result: NOT compliant" "$TMP/$mode.txt"
done
check "badmajor: the handshake line says why" \
    grep -q "handshake    FAIL: Identify says protocol 2.0" "$TMP/badmajor.txt"

"$ARENA" check-bot --bot "no-such-bot-program-okr" >"$TMP/missing.txt" 2>&1
check "a program not in PATH: exit 2" test $? -eq 2
check "a program not in PATH: says so" grep -q "not found in PATH" "$TMP/missing.txt"
"$ARENA" check-bot >/dev/null 2>&1
check "no --bot: exit 2" test $? -eq 2
"$ARENA" check-bot --bot @random >/dev/null 2>&1
check "a built-in is not a program to check: exit 2" test $? -eq 2

check "no process left" leftovers
finish
