#!/usr/bin/env bash
# labels.sh BUILD_DIR HELPERS_DIR - one meaning per label (issue 22): a small tournament of
# every rule set, its html report and its progress line. Every label over a score in the
# report (the standings, pairwise, crosstable, games and duplicate-set tables), the text and md
# blocks' headers, the tournament table's and the progress line's must be one of
# docs/report.md's list (which names each label once), and a label of a score carries its
# meaning in a title; every duplicate-set table's rows add up to
# its final total (hands, later hands, the bonuses), and a rule set without bonuses (gin,
# arlington) has no bonus row. labels.py does the reading.
source "$(dirname "$0")/../match/lib.bash" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
B=$(readlink -f "$BUILD")
DOC="$HERE/../../docs/report.md"

for rules in laws parlett arlington german gin; do
    seats=3
    [ $rules = gin ] && seats=2
    [ $rules = german ] && seats=4
    cat >"$TMP/$rules.tour" <<TOUR
[tournament]
name = labels-$rules
rules = $rules
seats = $seats
deals = 1
seed = 9
bootstrap = 20
[entrant greedy]
command = @greedy
[entrant random]
command = @random
[entrant cgreedy]
command = $B/bots/greedy_bot
[entrant crandom]
command = $B/bots/random_bot
TOUR
    # the progress line: the plain line (stderr is not a terminal) ends the run
    "$ARENA" tournament "$TMP/$rules.tour" --out "$TMP/$rules" --jobs 2 --no-progress \
        >"$TMP/$rules.out" 2>"$TMP/$rules.err"
    check "$rules: the tournament ran" test -s "$TMP/$rules/results.json"
    "$ARENA" report "$TMP/$rules" --format html --replays none >/dev/null
    check "$rules: its report" test -s "$TMP/$rules/report.html"
    "$ARENA" report "$TMP/$rules" --format text >"$TMP/$rules.txt"
    "$ARENA" report "$TMP/$rules" --format md >"$TMP/$rules.md"
done
python3 "$HERE/labels.py" "$DOC" "$TMP"/{laws,parlett,arlington,german,gin}
check "the report's and the progress line's labels are the documented ones; duplicate sets add up (labels.py)" \
    test $? -eq 0
finish
