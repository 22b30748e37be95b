#!/usr/bin/env bash
# presets.sh BUILD_DIR HELPERS_DIR - `arena match` with well-behaved helper bots in every
# preset: the duplicate schedule (seating rotation, deal seeds), results.json and games.jsonl
# consistency, one process per slot, every record replays to its final totals, and no process
# is left behind.
source "$(dirname "$0")/lib.bash" "$@"

for preset in laws parlett arlington german gin; do
    players=3
    [ "$preset" = gin ] && players=2
    [ "$preset" = german ] && players=4
    out="$TMP/$preset"
    bots=()
    for ((i = 0; i < players; i++)); do
        if ((i % 2)); then bots+=(--bot "$(helper full --seed $i)"); else bots+=(--bot "$(helper good --seed $i)"); fi
    done
    "$ARENA" match --rules "$preset" --players "$players" --games 5 --seed 9 "${bots[@]}" \
        --out "$out" --quiet >"$TMP/$preset.out" 2>"$TMP/$preset.err"
    check "$preset: match exits 0" test $? -eq 0
    games=$(( (5 + players - 1) / players * players ))
    check "$preset: --games 5 rounded up to $games, every game played and completed" \
        py "$out" "r['games'] == $games" "len(g) == $games" "r['complete']" \
        "all(x['played'] and x['completed'] for x in g)" "r['deals'] == $games // $players"
    check "$preset: no verdicts, no restarts" \
        py "$out" "all(not x['verdicts'] for x in g)" \
        "all(sum(b['errors'].values()) == 0 and b['restarts'] == 0 for b in r['bots'])"
    check "$preset: seat i of game (d, r) holds slot (i + r) mod N; deal seed shared by rotations" \
        py "$out" "all(x['game_id'] == 'm9-d%d-r%d' % (x['deal'], x['rotation']) for x in g)" \
        "all(len(set(y['deal_seed'] for y in g if y['deal'] == x['deal'])) == 1 for x in g)" \
        "len(set(x['deal_seed'] for x in g)) == r['deals']" \
        "all(x['seating'] == [((i + x['rotation']) % $players) % len(r['bots']) for i in range($players)] for x in g)"
    check "$preset: placements, wins and totals add up" \
        py "$out" "all(sum(b['placements']) == b['appearances'] for b in r['bots'])" \
        "sum(b['appearances'] for b in r['bots']) == $games * $players" \
        "all(b['wins'] + b['draws'] == b['placements'][0] for b in r['bots'])" \
        "all(b['total_final'] == sum(x['final_total'][i] for x in g for i in range($players) if x['seating'][i] == b['index']) for b in r['bots'])" \
        "all(len(x['hand_scores'][0]) == $players for x in g)"
    check "$preset: score difference vs the field has a t-interval over the deals" \
        py "$out" "all(b['score_diff']['deals'] == r['deals'] for b in r['bots'])" \
        "all(b['score_diff']['half_width'] is None or b['score_diff']['half_width'] >= 0 for b in r['bots'])" \
        "abs(sum(b['score_diff']['mean'] * b['appearances'] for b in r['bots'])) < 1e-6 * $games * 1000 + 1e-6"
    check "$preset: timing and CPU are recorded" \
        py "$out" "all(b['decisions'] > 0 and b['mean_decision_ms'] >= 0 and b['cpu_ms'] > 0 for b in r['bots'])" \
        "r['decisions'] == sum(b['decisions'] for b in r['bots'])" "r['decisions_per_second'] > 0"
    check "$preset: one log per slot (one process per seat)" \
        test "$(ls "$out/logs" | wc -l)" -eq "$players"
    check "$preset: summary table on stdout" grep -q "decisions in" "$TMP/$preset.out"
    replayed=0
    for rec in "$out"/records/*.jsonl; do
        id=$(basename "$rec" .jsonl)
        want=$(python3 -c "import json,sys; print(' '.join(str(t) for x in map(json.loads, open('$out/games.jsonl')) if x['game_id'] == '$id' for t in x['final_total']))")
        got=$("$ARENA" replay --quiet "$rec")
        if [ $? -eq 0 ] && [[ "$got" == *"final totals $want,"* ]]; then
            replayed=$((replayed + 1))
        else
            echo "  $rec: $got (want $want)"
        fi
    done
    check "$preset: all $games records replay to their final totals" test "$replayed" -eq "$games"
    check "$preset: no helper process left" leftovers
done

# K < N: two bots fill four seats cyclically (four processes), still rotated
out="$TMP/cyclic"
"$ARENA" match --players 4 --games 8 --seed 3 --bot "$(helper good)" --bot "$(helper good)" \
    --out "$out" --quiet >/dev/null 2>&1
check "2 bots x 4 seats: exits 0" test $? -eq 0
check "2 bots x 4 seats: seats alternate, each bot sits twice per game" \
    py "$out" "all(x['seating'] == [(i + x['rotation']) % 4 % 2 for i in range(4)] for x in g)" \
    "all(b['seats_per_game'] == 2 and b['appearances'] == 16 and b['games'] == 8 for b in r['bots'])" \
    "r['bots'][0]['name'] == 'okrh_good' and r['bots'][1]['name'] == 'okrh_good#2'"
check "2 bots x 4 seats: four processes, four logs" test "$(ls "$out/logs" | wc -l)" -eq 4
check "2 bots x 4 seats: no helper process left" leftovers

# built-in entrants next to a program
out="$TMP/builtin"
"$ARENA" match --players 3 --games 3 --bot "$(helper good)" --bot @random --bot @greedy \
    --out "$out" --quiet >/dev/null 2>&1
check "built-in @random and @greedy seats: exits 0" test $? -eq 0
check "built-in seats: played, no decisions timed for them" \
    py "$out" "r['games'] == 3" "bots['@random']['decisions'] == 0" "bots['okrh_good']['decisions'] > 0"

finish
