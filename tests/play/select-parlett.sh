#!/usr/bin/env bash
# select-parlett.sh BUILD_DIR HELPERS_DIR - parlett (3 seats, the Joker and wild twos) in the
# browser by selecting cards, then a move (select.bash), as select-laws.sh plays laws
source "$(dirname "$0")/select.bash" "$@"
export OKR_SELECT_3DIGITS=1 # a game of 100 moves and more: 3-digit move numbers in the list
play_select parlett 0 parlett --players 3 --rule max_hands=1 --bot @random --seed 5
finish
