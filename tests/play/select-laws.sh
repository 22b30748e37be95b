#!/usr/bin/env bash
# select-laws.sh BUILD_DIR HELPERS_DIR - laws with 3 seats (one --bot filling two: greedy_bot and
# greedy_bot#2) and 4 seats, played in the browser by selecting cards, then a move (select.bash)
source "$(dirname "$0")/select.bash" "$@"
play_select laws3 0 laws --players 3 --rule max_hands=1 --bot "$BUILD/bots/greedy_bot" --seed 9
check "laws3: one --bot in two seats is greedy_bot and greedy_bot#2 in the moves" \
    grep -q 'greedy_bot#2 (seat 2)' "$TMP/laws3.responses"
# (the ASan build, OKR_SANITIZE, plays the 3-seat game only: it runs slower)
[ "${OKR_SANITIZE:-0}" != 1 ] && play_select laws4 1 laws --players 4 --rule max_hands=1 --bot @random --seed 5
finish
