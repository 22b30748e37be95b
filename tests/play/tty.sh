#!/usr/bin/env bash
# tty.sh BUILD_DIR HELPERS_DIR - `arena play --tty` in a real terminal (tmux): the table and
# the numbered moves are drawn, `help` answers, a move typed in the notation and a number are
# both taken, a move that is not legal is refused and changes nothing, and a whole gin game is
# played to its end by typing move numbers; the game is recorded and replays. Skipped (77)
# only when tmux is not installed.
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
check "a move that is not listed is refused" wait_for 'not one of the legal moves' 5
keys "99" Enter
check "an out-of-range number is refused" wait_for 'no move 99' 5
keys "pass" Enter # a move typed in the notation
check "a move typed as text is played" wait_for 'you: pass' 10
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
screen >"$TMP/screen.txt"
mkdir -p "$BUILD/tests/play"
cp "$TMP/screen.txt" "$BUILD/tests/play/tty-screen.txt"
finish
