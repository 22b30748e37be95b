#!/usr/bin/env bash
# tty.sh BUILD_DIR HELPERS_DIR - `arena play --tty` in a real terminal (tmux): the table and
# the numbered moves are drawn, `help` answers, a move typed in the notation and a number are
# both taken, a move typed in the notation that is not legal now (a discard, a meld) is refused
# with the engine's rule number and changes nothing, and a whole gin game is played to its end
# by typing move numbers; the game is recorded and replays. Skipped (77) only when tmux is not
# installed.
source "$(dirname "$0")/../match/lib.bash" "$@"
source "$(dirname "$0")/tmux.bash"
tmux_start okr \
    "$ARENA play --tty --rules gin --rule max_hands=1 --bot @random --seed 4 -o $TMP/out; echo ARENA-EXIT \$?; sleep 30"

check "the table is drawn: your hand and numbered moves" wait_for 'your move' 10
check "moves are grouped by kind (gin upcard: take, pass)" \
    bash -c "tmux -L $S capture-pane -p | grep -qE '^  (take|pass) +1\)'"
keys "help" Enter
check "help answers" wait_for 'type the number of a move' 5
keys "discard zz" Enter
check "a line that is not a move says why (the notation)" \
    wait_for "not a move in the notation \(docs/notation.md\): unknown card 'zz' -- nothing changed" 5
keys "99" Enter
check "an out-of-range number is refused" wait_for 'no move 99' 5
# moves in the notation that are not legal now: the engine says which rule refuses them
keys "discard qs" Enter
check "an illegal discard is refused with its rule number (the gin upcard, RULES G3)" \
    wait_for 'refused \(RULES G3\): no discard now -- nothing changed' 5
keys "meld 4h 5h 6h" Enter
check "an illegal meld is refused with its rule number (gin has no melds on the table, RULES G4)" \
    wait_for 'refused \(RULES G4\): no meld now -- nothing changed' 5
check "after the refusals the same decision still waits: nothing was played" \
    bash -c "! tmux -L $S capture-pane -p -S -2000 | grep -q 'you: '"
keys "pass" Enter # a move typed in the notation
check "a move typed as text is played: the game goes on, said in words" wait_for 'you \(seat 0\) pass' 10
# at the first turn after drawing: a discard of a card that is not in the hand
for i in $(seq 200); do
    last=$(tmux -L "$S" capture-pane -p | sed '/^$/d')
    if tail -1 <<<"$last" | grep -q '^> *$'; then
        grep -qE 'select cards \(sel N ...\) for: .*discard' <<<"$last" && break
        keys "1" Enter # draw (or take)
        sleep 0.3
    fi
    sleep 0.05
done
hand=$(grep 'your hand:' <<<"$last" | tail -1)
missing=$(for c in AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD \
    AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS; do
    grep -qw "$c" <<<"$hand" || { echo "$c"; break; }; done)
keys "discard $missing" Enter
check "a discard of a card not in the hand ($missing) is refused with its rule number" \
    wait_for "refused \(RULES [0-9G][0-9.]*\): [^-]*-- nothing changed" 5
# then play by numbers to the end: always the first listed move
for i in $(seq 400); do
    screen | grep -q 'ARENA-EXIT' && break
    if tmux -L "$S" capture-pane -p | sed '/^$/d' | tail -1 | grep -q '^> *$'; then
        keys "1" Enter
    fi
    sleep 0.05
done
check "the whole game is played to its end" wait_for 'game over:' 5
check "arena play exits 0" wait_for 'ARENA-EXIT 0' 10
check "the game is recorded with no verdict against the human" py "$TMP/out" 'len(g) == 1' \
    'not any(bots["you"]["errors"].values())'
check "the record replays and verifies" "$ARENA" replay "$TMP/out" --game 0 --quiet
# one game asked, one played: not "1 of 2 games" (the deal's rotation it never plays)
check "the summary says 1 of 1 games" bash -c "tmux -L $S capture-pane -p -S -2000 | grep -q ', 1 of 1 games,'"
screen >"$TMP/screen.txt"
mkdir -p "$BUILD/tests/play"
cp "$TMP/screen.txt" "$BUILD/tests/play/tty-screen.txt"
finish
