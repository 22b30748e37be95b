#!/usr/bin/env bash
# protofuzz.sh BUILD_DIR HELPERS_DIR - the live protocol against a fuzz-driven bot: for each of
# OKR_PROTOFUZZ_SEEDS seeds (default 28: each fault twice), okrh_protofuzz --seed S picks one fault (Identify,
# Ready or Choice out of order, repeated, empty, oversized, with a wrong id or index, in the
# handshake or at its K-th decision, or after Bye) and maybe writes every frame a byte at a
# time with pauses. The real bot.c state machine must give the verdict docs/protocol.md
# promises ("okrh_protofuzz --seed S --plan" prints it) in every game (an IA, which keeps the
# process, in the first only), nothing to the other bot, and the arena must finish the match;
# no process is left.
source "$(dirname "$0")/lib.bash" "$@"

CLOCKS=(--startup-ms 3000 --decision-ms 500 --bank-ms 3000 --hard-ms 3000)
seeds=${OKR_PROTOFUZZ_SEEDS:-28}
declare -A seen
for s in $(seq 0 $((seeds - 1))); do
    read -r fault verdict < <("$H/okrh_protofuzz" --seed "$s" --plan)
    seen[$fault]=1
    out="$TMP/s$s"
    timeout 120 "$ARENA" match --players 2 --rules gin --rule max_hands=2 --games 2 --seed "$s" \
        --bot "$(helper protofuzz --seed "$s")" --bot "$(helper good)" "${CLOCKS[@]}" \
        --max-error-share 1 --out "$out" --quiet >"$out.out" 2>"$out.err"
    rc=$?
    name="seed $s ($fault)"
    check "$name: the arena finishes the match (exit 0)" test "$rc" -eq 0
    [ "$rc" -eq 0 ] || { tail -5 "$out.err"; continue; }
    if [ "$verdict" = - ]; then
        want="sum(bots['okrh_protofuzz']['errors'].values()) == 0 and all(x['completed'] for x in g)"
    elif [ "$verdict" = IA ]; then # the process is not killed and behaves from then on
        want="[[v['verdict'] for v in x['verdicts']] for x in g] == [['IA'], []] and g[0]['verdicts'][0]['seat'] == g[0]['seating'].index(0)"
    else # the process is killed; its successor, with the same seed, errs the same way
        want="all([v['verdict'] for v in x['verdicts']] == ['$verdict'] and x['verdicts'][0]['seat'] == x['seating'].index(0) for x in g)"
    fi
    check "$name: verdict $verdict in every game, none for the other bot" \
        py "$out" "r['games'] == 2" "$want" \
        "sum(bots['okrh_good']['errors'].values()) == 0 and bots['okrh_good']['forfeits'] == 0"
done
[ "$seeds" -ge 14 ] && check "the seeds reach every fault (${!seen[*]})" test "${#seen[@]}" -ge 14
check "no process left" leftovers
finish
