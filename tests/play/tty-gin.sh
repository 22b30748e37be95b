#!/usr/bin/env bash
# tty-gin.sh BUILD_DIR HELPERS_DIR - `arena play --tty` of gin against greedy_bot in tmux, played
# by selecting cards by position ("sel N") and then the one move the list offers for them: the
# hand shows its live deadwood, best melds, knock limit (RULES G2) and target; the upcard round
# says what take and pass mean (G3); 'sort rank' and 'sort suit' reorder the hand; the moves
# are in words; the table is drawn once per decision, not twice per move; greedy_bot knocks and
# the showdown is shown in full: its melds and deadwood, the lay-offs, the defender's deadwood,
# and how the score is made (G5-G7).
source "$(dirname "$0")/../match/lib.bash" "$@"
source "$(dirname "$0")/tmux.bash"
tmux_start okg \
    "$ARENA play --tty --rules gin --rule max_hands=1 --bot $BUILD/bots/greedy_bot --seed 3 -o $TMP/out; echo ARENA-EXIT \$?; sleep 30"
check "the hand shows its deadwood, best melds, knock limit and target" \
    wait_for 'deadwood [0-9]+ in your 10 cards, best melds:.*knock limit [0-9]+ .*game to [0-9]+' 10
check "the upcard round says what take and pass mean (RULES G3)" wait_for 'upcard round \(RULES G3\): take' 5
keys "sort rank" Enter
check "sort rank shows the hand by rank" wait_for 'your hand \(by rank\): 1:' 5
before=$(screen | grep -c 'your hand (by suit)')
keys "sort suit" Enter
for i in $(seq 50); do [ "$(screen | grep -c 'your hand (by suit)')" -gt "$before" ] && break; sleep 0.1; done
check "sort suit shows it by suit again" test "$(screen | grep -c 'your hand (by suit)')" -gt "$before"
prompts=0
for i in $(seq 300); do
    screen | grep -q 'ARENA-EXIT' && break
    last=$(tmux -L "$S" capture-pane -p | sed '/^$/d')
    if tail -1 <<<"$last" | grep -q '^> *$'; then
        prompts=$((prompts + 1))
        if grep -q 'select cards (sel N ...) for: .*discard' <<<"$last"; then
            # select the last card of the hand, then play the one move offered for it
            n=$(grep -o ' \[\?[0-9]*:' <<<"$(grep 'your hand' <<<"$last" | tail -1)" | wc -l)
            keys "sel $n" Enter
            wait_for "\[$n:" 3
            move=$(tmux -L "$S" capture-pane -p | grep -oE '^  discard +[0-9]+\)' | tail -1 | grep -oE '[0-9]+')
            keys "${move:-1}" Enter
        else
            keys "1" Enter
        fi
        sleep 0.2
    fi
    sleep 0.05
done
screen >"$TMP/screen.txt"
check "the game is played to its end by selecting cards ($prompts decisions)" grep -q 'ARENA-EXIT 0' "$TMP/screen.txt"
check "the moves are in words" grep -qE '^  [0-9]+\. greedy_bot \(seat 1\) discards [0-9AJQK]' "$TMP/screen.txt"
check "the knocker's melds and deadwood are shown (RULES G5)" \
    grep -qE 'greedy_bot \(seat 1\) knocks with meld 1: .*; deadwood .*\([0-9]+\)' "$TMP/screen.txt"
check "the lay-offs are shown" grep -qE 'you \(seat 0\) lay off .* onto meld [0-9]|lays? off nothing' "$TMP/screen.txt"
check "the defender's deadwood is shown" grep -q 'your deadwood after melds and lay-offs: [0-9]' "$TMP/screen.txt"
check "the score is itemised (RULES G7)" grep -qE '(knock|undercut|gin).* = [0-9]+ \(RULES G7\)' "$TMP/screen.txt"
tables=$(grep -c '^game d0-r0, hand' "$TMP/screen.txt")
inputs=$(grep -c '^> [a-z0-9]' "$TMP/screen.txt")
check "the table is drawn once per decision ($tables tables, $inputs lines typed)" test "$tables" -le $((inputs + 2))
check "the game is recorded with no verdict against the human" py "$TMP/out" 'len(g) == 1' \
    'not any(bots["you"]["errors"].values())'
mkdir -p "$BUILD/tests/play"
cp "$TMP/screen.txt" "$BUILD/tests/play/tty-gin-screen.txt"
finish
