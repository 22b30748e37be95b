#!/usr/bin/env bash
# misbehave.sh BUILD_DIR HELPERS_DIR - every misbehaving helper bot, under both --on-error
# policies, against two well-behaved ones: the helper gets exactly its verdict, the arena
# survives, the match completes with clean results for the good bots, and no process is left.
source "$(dirname "$0")/lib.bash" "$@"

# generous for the well-behaved bots (a loaded machine must not make them late), short enough
# for the hanging ones: a decision may take min(300 + 2000, 1000) ms
CLOCKS=(--startup-ms 1500 --decision-ms 300 --bank-ms 2000 --hard-ms 1000)

# mode verdict clock-or-rule (or -) detail-substring
cases=(
    "crash RE - SIGABRT"
    "exit RE - status 3"
    "hang TLE hard no Choice within 1000 ms"
    "garbage PE - not a FromBot"
    "oversized PE - longer than 65536"
    "wrongid PE - expected"
    "illegal IA RULES -"
    "badindex IA protocol out of range"
    "closeout RE - closed its output"
    "flood PE - -"
    "print PE - protocol channel"
    "printhello PE - 73 74 61 72 74 69 6e 67"
    "noread TLE hard -"
    "badmajor PE - protocol version 2.0"
    "noready TLE startup no Ready"
    "slowstart TLE startup no Identify"
)

for c in "${cases[@]}"; do
    read -r mode verdict clock detail <<<"$c"
    for policy in forfeit substitute; do
        out="$TMP/$mode-$policy"
        timeout 120 "$ARENA" match --players 3 --games 3 --seed 4 --on-error "$policy" \
            --bot "$(helper "$mode" --sleep-ms 3000)" --bot "$(helper good)" \
            --bot "$(helper full)" "${CLOCKS[@]}" --out "$out" --quiet \
            >"$out.out" 2>"$out.err"
        rc=$?
        name="$mode/$policy"
        check "$name: the arena finishes the match (exit 0)" test "$rc" -eq 0
        [ "$rc" -eq 0 ] || { cat "$out.err"; continue; }
        key=clock
        [ "$verdict" = IA ] && key=rule
        conds=("r['games'] == 3" "r['complete']"
               "all(v['verdict'] == '$verdict' and v['seat'] == x['seating'].index(0) for x in g for v in x['verdicts'])"
               "sum(bots['okrh_$mode']['errors'].values()) == bots['okrh_$mode']['errors']['$verdict'] > 0"
               "sum(bots['okrh_good']['errors'].values()) == 0 and sum(bots['okrh_full']['errors'].values()) == 0"
               "bots['okrh_good']['forfeits'] == 0 and bots['okrh_full']['forfeits'] == 0")
        if [ "$clock" = RULES ]; then # a rule number such as 4.2 or 4.5, whichever phase it was
            conds+=("all(v.get('rule', '')[:1].isdigit() for x in g for v in x['verdicts'])")
        elif [ "$clock" != - ]; then
            conds+=("all(v.get('$key') == '$clock' for x in g for v in x['verdicts'])")
        fi
        [ "$detail" != - ] && conds+=("all('$detail' in v['detail'] for x in g for v in x['verdicts'])")
        check "$name: exactly $verdict ${clock/#-/} for the helper, nothing for the others" \
            py "$out" "${conds[@]}"
        if [ "$policy" = forfeit ]; then
            check "$name: the erring seat forfeits and is placed last" \
                py "$out" "all(x['forfeits'] == [x['seating'].index(0)] and x['placements'][x['seating'].index(0)] == 3 for x in g if x['verdicts'])" \
                "bots['okrh_$mode']['forfeits'] == bots['okrh_$mode']['error_games']" \
                "all(not x['completed'] for x in g if x['verdicts'])"
        else
            check "$name: the game goes on with substitutes" \
                py "$out" "all(x['completed'] and not x['forfeits'] for x in g)" \
                "bots['okrh_$mode']['substituted_actions'] > 0"
        fi
        check "$name: the verdict line is on stderr, the table on stdout" \
            grep -q "decisions in" "$out.out"
        check "$name: no process left" leftovers
    done
done

# IA and a crash: a bot that keeps its connection after an illegal action gets a Refused and
# plays on; a crashed one is restarted for the next game
out="$TMP/restart"
"$ARENA" match --players 3 --games 6 --seed 4 --bot "$(helper crash --after 40)" \
    --bot "$(helper good)" --bot "$(helper good)" --out "$out" --quiet >/dev/null 2>&1
check "a crashed bot is restarted for the next game" \
    py "$out" "bots['okrh_crash']['restarts'] >= 1" "r['games'] == 6"

# a seat that dies while another thinks: under forfeit the thinking seat's decision is
# withdrawn, and its late answer (arriving in the next game, maybe while it is asked again)
# is dropped without a verdict
out="$TMP/withdrawn"
"$ARENA" match --rules gin --players 2 --games 6 --seed 3 --max-error-share 1 \
    --bot "$(helper slow --sleep-ms 300)" --bot "$(helper idlecrash --after 2)" \
    --out "$out" --quiet >/dev/null 2>&1
check "withdrawn decisions: the crashing seat forfeits every game with RE SIGALRM" \
    py "$out" "r['games'] == 6" "bots['okrh_idlecrash']['errors']['RE'] == 6" \
    "all('SIGALRM' in v['detail'] for x in g for v in x['verdicts'])"
check "withdrawn decisions: no verdict for the seat whose decision was withdrawn" \
    py "$out" "sum(bots['okrh_slow']['errors'].values()) == 0"

# a bot that writes a lot to stderr: capped log, no verdict
out="$TMP/chatty"
"$ARENA" match --players 2 --rules gin --games 2 --bot "$(helper chatty)" --bot "$(helper good)" \
    --log-cap 50000 --out "$out" --quiet >/dev/null 2>&1
check "chatty stderr: no verdict, stderr counted" \
    py "$out" "sum(bots['okrh_chatty']['errors'].values()) == 0" \
    "bots['okrh_chatty']['stderr_bytes'] > 1000000"
size=$(stat -c %s "$out/logs/slot0-okrh_chatty.log")
check "chatty stderr: its log is capped (50000 bytes + a note)" test "$size" -lt 51000
check "chatty stderr: the log says it was truncated" grep -q "truncated at 50000 bytes" \
    "$out/logs/slot0-okrh_chatty.log"

# bots that leave children behind, in their group or in a new session; one that ignores Bye.
# In the sandbox (the default) a new process is a forbidden system call: the forking bots get
# SV (the syscall is named when the kernel log is readable) and nothing is left running.
out="$TMP/children"
"$ARENA" match --players 3 --games 3 --bot "$(helper fork)" --bot "$(helper daemon)" \
    --bot "$(helper nobye)" --out "$out" --quiet >/dev/null 2>&1
check "children, sandboxed: fork and daemon get SV, the Bye-ignoring bot nothing" \
    py "$out" "r['games'] == 3" "r['sandbox']['mode'] != 'off'" \
    "bots['okrh_fork']['errors']['SV'] == 3 and bots['okrh_daemon']['errors']['SV'] == 3" \
    "all(('clone' in v['detail'] or 'SIGSYS' in v['detail']) for x in g for v in x['verdicts'])" \
    "sum(bots['okrh_nobye']['errors'].values()) == 0"
check "children, sandboxed: nothing left running" leftovers
# Without the sandbox the children exist, and the arena still leaves none behind
out="$TMP/children-off"
"$ARENA" match --no-sandbox --players 3 --games 3 --bot "$(helper fork)" \
    --bot "$(helper daemon)" --bot "$(helper nobye)" --out "$out" --quiet >/dev/null 2>&1
check "children, --no-sandbox: exits 0, no verdicts" \
    py "$out" "r['games'] == 3" "r['sandbox']['mode'] == 'off'" "all(not x['verdicts'] for x in g)"
check "children, --no-sandbox: nothing left running" leftovers

finish
