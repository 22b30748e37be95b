#!/usr/bin/env bash
# crashrank.sh BUILD_DIR - no bot gains rank by crashing (docs/rules.md "Forfeits"), in every
# preset at every table size it allows. Each tournament seats greedy and random players
# (built-ins: they never err) with one bot that plays random legal moves, like the random
# players, and then crashes: at its first decision (it never plays), after 12 decisions (in
# the first hand) or after 40 in its life (later, often behind; it restarts after each crash).
# errors.max_error_share = 1 keeps it from being disqualified, so its forfeits are real
# mid-game ones rather than unplayed games. What must hold:
#   - the crasher ranks below every entrant that played its games out, by score rating and by
#     Plackett-Luce, below the random players whose moves it shares;
#   - in every game, a seat that forfeited scores below every seat that did not, and places
#     last; the forfeit margin is the rules' (2 x (target + winner's bonus));
#   - a forfeited game is nobody's win: wins count completed games won alone.
# OKR_CRASHRANK_SIZES=all (default) or a list like "laws:3 gin:2" for a quick run; under
# OKR_SANITIZE=1 the default is each rule set's smallest and largest table (9 of the 20 sizes,
# the same code paths at a third of the time: under ASan all 20 took 2 minutes).
source "$(dirname "$0")/lib.bash" "$@"
if [ "${OKR_SANITIZE:-0}" = 1 ] && [ -z "${OKR_CRASHRANK_SIZES:-}" ]; then
    OKR_CRASHRANK_SIZES="laws:2 laws:4 parlett:2 parlett:5 arlington:2 arlington:8 german:2 german:6 gin:2"
fi

declare -A MAXP=([laws]=4 [parlett]=5 [arlington]=8 [german]=6 [gin]=2)
declare -A MARGIN=([laws]=2400 [parlett]=2400 [arlington]=2000 [german]=2200 [gin]=200)
cases=()
if [ "${OKR_CRASHRANK_SIZES:-all}" = all ]; then
    for r in laws parlett arlington german gin; do
        for ((k = 2; k <= MAXP[$r]; k++)); do cases+=("$r:$k"); done
    done
else
    read -ra cases <<< "$OKR_CRASHRANK_SIZES"
fi

for c in "${cases[@]}"; do
    r=${c%:*} k=${c#*:}
    extra=""
    [ "$r" = arlington ] && [ "$k" -ge 8 ] && extra="rule = decks=3" # RULES 1.5
    # one crasher per tournament: a forfeit ends the game at once, so a second crasher at the
    # table would never reach its own crash
    for after in 0 12 40; do
        t=$r$k-$after
        {
            cat << T
[tournament]
name = crash-$t
rules = $r
$extra
seats = $k
deals = 1
seed = $((700 + k + after))
bootstrap = 100
[clocks]
startup_ms = 5000
decision_ms = 200
bank_ms = 1000
hard_ms = 2000
[errors]
max_error_share = 1
[entrant greedy]
command = @greedy
[entrant random]
command = @random
[entrant crash]
command = $H/okrh_crash --after $after --seed $after
T
            # k + 1 entrants: k + 1 tables, so the ratings compare entrants across tables
            for ((e = 4; e <= k + 1; e++)); do printf '[entrant random%d]\ncommand = @random\n' "$e"; done
        } > "$TMP/$t.tour"
        if ! "$ARENA" tournament "$TMP/$t.tour" --out "$TMP/$t" --jobs 2 --quiet \
            > "$TMP/$t.txt" 2> "$TMP/$t.err"; then
            bad "$r, $k seats, crash after $after: the tournament finishes"
            tail -5 "$TMP/$t.err"
            continue
        fi
        check "$r, $k seats, crash after $after decisions: the crasher ranks last" \
            py "$TMP/$t" \
            "all(s['crash']['rank'] > s[p]['rank'] for p in s if p != 'crash')" \
            "all(s['crash']['score'] < s[p]['score'] for p in s if p != 'crash')" \
            "all(s['crash']['elo'] < s[p]['elo'] for p in s if p != 'crash')" \
            "s['crash']['forfeits'] > 0" \
            "$after > 0 or (s['crash']['never_played'] and s['crash']['forfeits'] == s['crash']['games'])"
        check "$r, $k seats, crash after $after: a forfeit scores below every seat that played on, by the rules' margin" \
            py "$TMP/$t" \
            "all(max(x['final_total'][f] for f in x['forfeits']) < min([x['final_total'][i] for i in range($k) if i not in x['forfeits']] or [0]) for x in g if x['forfeits'])" \
            "all(x['placements'][f] == $k - len(x['forfeits']) + 1 for x in g for f in x['forfeits'])" \
            "all(x['forfeit_margin'] == ${MARGIN[$r]} for x in g if not x['completed'])"
        check "$r, $k seats, crash after $after: wins count only completed games won alone" \
            py "$TMP/$t" \
            "all(e['wins'] == sum(1 for x in g if x['completed'] and x['placements'].count(1) == 1 for i in range($k) if x['seating'][i] == e['entrant'] and x['placements'][i] == 1) for e in r['standings'])" \
            "s['crash']['wins'] + s['crash']['draws'] <= sum(1 for x in g if x['completed'] for i in range($k) if x['seating'][i] == s['crash']['entrant'])"
    done
done
finish
