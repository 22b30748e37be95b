#!/usr/bin/env bash
# dq.sh BUILD_DIR HELPERS_DIR - --max-error-share: a bot that errs in more than that share of
# its games, judged from its 4th game on, is disqualified; its remaining games are forfeited
# without being played; the others' results stand.
source "$(dirname "$0")/lib.bash" "$@"

for policy in forfeit substitute; do
    out="$TMP/dq-$policy"
    "$ARENA" match --players 3 --games 12 --seed 8 --on-error "$policy" \
        --bot "$(helper crash --after 5)" --bot "$(helper good)" --bot "$(helper good)" \
        --out "$out" >"$out.out" 2>"$out.err"
    check "$policy: exits 0" test $? -eq 0
    check "$policy: disqualified after 4 games (4 of 4 > 50%)" \
        py "$out" "bots['okrh_crash']['disqualified']" \
        "bots['okrh_crash']['disqualified_after_games'] == 4" \
        "bots['okrh_crash']['errors']['RE'] == 4" "bots['okrh_crash']['error_games'] == 4"
    check "$policy: games 5-12 not played, DQ verdict, the bot placed last" \
        py "$out" "[x['played'] for x in g] == [True] * 4 + [False] * 8" \
        "all(x['verdicts'][0]['verdict'] == 'DQ' and x['placements'][x['seating'].index(0)] == 3 for x in g[4:])" \
        "all('record' not in x for x in g[4:])" "r['games'] == 12"
    check "$policy: the others have no errors" \
        py "$out" "sum(bots['okrh_good']['errors'].values()) + sum(bots['okrh_good#2']['errors'].values()) == 0"
    check "$policy: the table says DQ" grep -q "DQ" "$out.out"
    check "$policy: stderr says so" grep -q "okrh_crash is disqualified" "$out.err"
    check "$policy: no process left" leftovers
done

# --max-error-share 1: never disqualified
out="$TMP/nodq"
"$ARENA" match --players 3 --games 6 --seed 8 --max-error-share 1 \
    --bot "$(helper crash --after 5)" --bot "$(helper good)" --bot "$(helper good)" \
    --out "$out" --quiet >/dev/null 2>&1
check "--max-error-share 1: never disqualified, every game played" \
    py "$out" "not bots['okrh_crash']['disqualified']" "all(x['played'] for x in g)" \
    "bots['okrh_crash']['errors']['RE'] == 6" "bots['okrh_crash']['restarts'] == 5"

# a share that a bot stays under: errs in 1 of 4 games (the helper misbehaves once per
# process and IA keeps the process)
out="$TMP/under"
"$ARENA" match --players 2 --rules gin --games 8 --seed 8 --max-error-share 0.3 \
    --bot "$(helper illegal --after 3)" --bot "$(helper good)" --out "$out" --quiet \
    >/dev/null 2>&1
check "1 error in 8 games under --max-error-share 0.3: not disqualified" \
    py "$out" "not bots['okrh_illegal']['disqualified']" "bots['okrh_illegal']['error_games'] == 1"

finish
