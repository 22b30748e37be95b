#!/usr/bin/env bash
# cli.sh BUILD_DIR HELPERS_DIR - `arena match` command line: usage errors (exit 2), --games
# rounding, determinism for the same seed, a --bot with a quoted argument, and SIGINT: partial
# results, exit 1, nothing left running.
source "$(dirname "$0")/lib.bash" "$@"

usage() { # usage NAME EXPECTED-STDERR ARGS...
    local name=$1 want=$2
    shift 2
    "$ARENA" match "$@" >"$TMP/u.out" 2>"$TMP/u.err"
    local rc=$?
    check "$name: exit 2" test "$rc" -eq 2
    check "$name: '$want'" grep -qF -- "$want" "$TMP/u.err"
}
G=$(helper good)
usage "no --bot" "at least one --bot" --players 2
usage "more bots than seats" "3 bots for 2 seats" --players 2 --bot "$G" --bot "$G" --bot "$G"
usage "bad --on-error" "expected forfeit or substitute" --bot "$G" --on-error retry
usage "bad --substitute" "expected first, random or greedy" --bot "$G" --substitute best
usage "bad --max-error-share" "expected a number from 0 to 1" --bot "$G" --max-error-share 2
usage "unterminated quote" "unterminated double quote" --bot "$G \"x"
usage "program not in PATH" "not found in PATH" --bot "no-such-bot-program-okr --x"
usage "no such file" "no such file" --bot "/no/such/bot"
usage "unknown built-in" "unknown built-in" --bot "@smart"
usage "--name before --bot" "give it after the --bot" --name x --bot "$G"
usage "refused rule option" "gin_bonus" --bot "$G" --rule gin_bonus=30
usage "gin for 3" "RULES 2.1" --rules gin --players 3 --bot "$G"
usage "bad clock" "--decision-ms" --bot "$G" --decision-ms 0
usage "unknown flag" "unknown argument" --bot "$G" --fast
usage "--rule misspelt: did you mean" '--rule wild_two: did you mean "wild_twos"?' --bot "$G" \
    --rule wild_two=1
# a bot in the current folder named without ./, a folder, a script without its interpreter
mkdir -p "$TMP/here/botdir"
cp "$H/okrh_good" "$TMP/here/mybot"
printf 'print(1)\n' >"$TMP/here/bot.py"
cd "$TMP/here" || exit 1
usage "bare name found here" "did you mean --bot './mybot'?" --bot mybot
usage "a folder as a bot" "botdir: a folder, not a program" --bot botdir
usage "a folder as a bot: what to give" "give the program inside it" --bot ./botdir
usage "a script named bare" "did you mean --bot 'python3 bot.py'?" --bot bot.py
usage "a script without x bit" "name its interpreter, e.g. --bot 'python3 ./bot.py'" --bot ./bot.py
cd - >/dev/null || exit 1

# --out into a folder an earlier match used: its records and logs go, other files stay
"$ARENA" match --players 3 --games 6 --bot "$G" --out "$TMP/reuse" --quiet >/dev/null 2>&1
echo mine >"$TMP/reuse/notes.txt"
"$ARENA" match --players 3 --games 3 --bot "$G" --out "$TMP/reuse" >/dev/null 2>"$TMP/reuse.err"
check "--out reused: says it removed the earlier match's files" \
    grep -q "removed 11 files of an earlier match" "$TMP/reuse.err"
check "--out reused: only the new match's records, and the user's file kept" \
    bash -c "[ \$(ls '$TMP/reuse/records' | wc -l) -eq 3 ] && [ \$(wc -l <'$TMP/reuse/games.jsonl') -eq 3 ] && [ -f '$TMP/reuse/notes.txt' ]"

# rounding and determinism: seeded helpers play the same games twice
run() {
    "$ARENA" match --players 3 --games 4 --seed 77 --bot "$(helper good --seed 1)" \
        --bot "$(helper full --seed 2)" --bot "$(helper good --seed 3)" --out "$1" \
        >"$1.out" 2>"$1.err"
}
run "$TMP/a"
check "--games 4 for 3 players: exit 0" test $? -eq 0
check "--games 4 rounded up to 6, said on stderr" grep -q "rounded up to 6" "$TMP/a.err"
run "$TMP/b"
strip() { python3 -c "
import json, sys
for l in open(sys.argv[1]):
    x = json.loads(l)
    for k in ('seconds', 'cpu_ms', 'ms'):
        x.pop(k, None)
    print(json.dumps(x, sort_keys=True))" "$1"; }
check "same seed, same bots: identical games.jsonl" \
    test "$(strip "$TMP/a/games.jsonl")" = "$(strip "$TMP/b/games.jsonl")"
check "same seed, same bots: identical records (but the times)" \
    test "$(strip "$TMP/a/records/m77-d1-r2.jsonl")" = "$(strip "$TMP/b/records/m77-d1-r2.jsonl")"
check "results.json names the seed, the rules and the version" \
    py "$TMP/a" "r['seed'] == 77" "r['rules']['preset'] == 'laws'" "'decks=' in r['rules']['options']" \
    "r['arena_version']" "r['games_requested'] == 4 and r['games'] == 6"

# a quoted argument reaches the bot as one word (the helper takes --name "a b")
"$ARENA" match --players 2 --rules gin --games 2 --bot "$H/okrh_good --name \"$TAG two words\"" \
    --bot "$G" --name other --out "$TMP/q" --quiet >/dev/null 2>&1
check "quoted argument: one word for the bot" \
    py "$TMP/q" "bots['okrh_good']['identify']['name'] == '$TAG two words'" "'other' in bots"

# SIGINT in the middle: partial results, exit 1, no process left
"$ARENA" match --players 3 --games 300 --bot "$(helper slow --sleep-ms 20)" --bot "$G" \
    --bot "$G" --out "$TMP/int" --quiet >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
sleep 2
kill -INT "$pid"
wait "$pid"
rc=$?
check "SIGINT: exit 1" test "$rc" -eq 1
check "SIGINT: says so" grep -q "interrupted" "$TMP/int.err"
check "SIGINT: results.json marks the match incomplete" \
    py "$TMP/int" "not r['complete']" "r['interrupted_by'] == 2" "r['games'] == len(g)"
check "SIGINT: the interrupted game's record says aborted" \
    grep -lq '"type":"aborted"' "$TMP/int/records/"*.jsonl
check "SIGINT: no process left" leftovers

finish
