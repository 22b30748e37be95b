#!/usr/bin/env bash
# evidence.sh BUILD_DIR HELPERS_DIR - every verdict's detail shows its cause: RE the last lines
# of the bot's stderr (python's "can't open file", a traceback's exception), PE the bytes it
# wrote (a stray print() on stdout is judged at its first bytes, not after a clock), TLE the
# clock that ran out and the flag that sets it; a bot that never played is not shown as even.
source "$(dirname "$0")/lib.bash" "$@"

# run NAME ARGS...: a gin match of 2 games against a good helper, into $TMP/NAME
run() {
    local name=$1
    shift
    timeout 120 "$ARENA" match --rules gin --players 2 --games 2 --seed 5 --out "$TMP/$name" \
        --bot "$@" --bot "$(helper good)" >"$TMP/$name.out" 2>"$TMP/$name.err"
}

# RE: the interpreter's own complaint is the evidence, and the bot never played
run missing "python3 $TMP/no-such-bot.py"
check "RE: python's \"can't open file\" is in the detail" \
    py "$TMP/missing" "all(v['verdict'] == 'RE' and \"can't open file\" in v['detail'] and 'no-such-bot.py' in v['detail'] for x in g for v in x['verdicts'])" \
    "len(g) == 2"
check "RE: the verdict line on stderr shows it too" grep -q "stderr ends: .*can't open file" \
    "$TMP/missing.err"
check "a bot that never made a move is never_played in results.json" \
    py "$TMP/missing" "bots['no-such-bot']['never_played']" "not bots['okrh_good']['never_played']"
check "... and the table says 'never played', not +0.0" \
    grep -Eq "^no-such-bot .*never played" "$TMP/missing.out"
check "... and no nan anywhere in the table" bash -c "! grep -qi nan '$TMP/missing.out'"

cat >"$TMP/raises.py" <<'PY'
import sys
print("loading the model", file=sys.stderr)
def load():
    raise ValueError("weights file is corrupt")
load()
PY
run raises "python3 $TMP/raises.py"
check "RE: a traceback's exception line is in the detail" \
    py "$TMP/raises" "all(v['verdict'] == 'RE' and 'ValueError: weights file is corrupt' in v['detail'] and 'status 1' in v['detail'] for x in g for v in x['verdicts'])"

# PE at once: with clocks of a minute, a stray print() would have been a TLE after 60 s
run print "$(helper print --after 1)" --decision-ms 30000 --hard-ms 60000
check "PE: a print() on stdout mid-game is a protocol error, with the bytes and the hint" \
    py "$TMP/print" "all(v['verdict'] == 'PE' and '64 65 62 75 67 3a' in v['detail'] and '\"debug: think' in v['detail'] and 'stdout is the protocol channel' in v['detail'] for x in g for v in x['verdicts'])" \
    "sum(len(x['verdicts']) for x in g) == 2"
run printhello "$(helper printhello)" --startup-ms 60000
check "PE: a print() before Identify is caught at its first bytes too" \
    py "$TMP/printhello" "all(v['verdict'] == 'PE' and 'starting up' in v['detail'] for x in g for v in x['verdicts'])" \
    "sum(len(x['verdicts']) for x in g) == 2"
run garbage "$(helper garbage --after 0)"
check "PE: binary junk shows its bytes and points to the frame format" \
    py "$TMP/garbage" "all(v['verdict'] == 'PE' and '10 ff ff' in v['detail'] and 'length-prefixed' in v['detail'] for x in g for v in x['verdicts'])"

# TLE: the clock and the flag that sets it
run bank "$(helper hang --after 1)" --decision-ms 100 --bank-ms 200 --hard-ms 5000
check "TLE bank: the detail splits the limit into decision time and bank left" \
    py "$TMP/bank" "all(v['verdict'] == 'TLE' and v['clock'] == 'bank' and '100 ms per decision (--decision-ms)' in v['detail'] and '--bank-ms' in v['detail'] for x in g for v in x['verdicts'])"
run hard "$(helper hang --after 1)" --decision-ms 100 --bank-ms 2000 --hard-ms 300
check "TLE hard: the detail names --hard-ms" \
    py "$TMP/hard" "all(v['verdict'] == 'TLE' and v['clock'] == 'hard' and '--hard-ms' in v['detail'] for x in g for v in x['verdicts'])"
# --trace: one slot (by number or name), or all; a wrong selection is a usage error
timeout 60 "$ARENA" match --rules gin --players 2 --games 2 --out "$TMP/tr" --quiet \
    --bot "$(helper good)" --name first --bot "$(helper full)" --name second --trace 1 \
    >/dev/null 2>"$TMP/tr.err"
# the ids bots get leave out the record id's first part, m<seed>: with the seed and the
# documented PRNG a bot could deal every card (RULES 8.3)
check "no frame to a bot names the seed (game ids without m<seed>)" \
    bash -c "grep -q 'game_id: ' '$TMP/tr.err' && ! grep -Eq 'game_id: \"m[0-9]' '$TMP/tr.err'"
check "--trace 1: frames of slot 1 only, each way, with timestamps" \
    bash -c "grep -Eq '^ *[0-9]+\.[0-9]{3} >second\(1\): game_start \{ game_id: \"d0-r0\"' '$TMP/tr.err' && grep -q '<second(1): choice { id: [0-9]* action {' '$TMP/tr.err' && grep -q '>second(1): game_end {' '$TMP/tr.err' && ! grep -q 'first(0)' '$TMP/tr.err'"
timeout 60 "$ARENA" match --rules gin --players 2 --games 2 --out "$TMP/tr2" --quiet \
    --bot "$(helper good)" --name first --bot "$(helper full)" --name second --trace all \
    >/dev/null 2>"$TMP/tr2.err"
check "--trace all: both bots" bash -c "grep -q '<first(0): ready' '$TMP/tr2.err' && grep -q '<second(1): ready' '$TMP/tr2.err'"
"$ARENA" match --rules gin --players 2 --bot "$(helper good)" --trace third >/dev/null 2>"$TMP/tr3.err"
check "--trace with no such bot: exit 2, naming the choices" \
    bash -c "[ $? -eq 2 ] && grep -q \"expected all, a slot from 0 to 1, or a bot's name: okrh_good\" '$TMP/tr3.err'"
check "nothing left running" leftovers
finish
