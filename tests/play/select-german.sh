#!/usr/bin/env bash
# select-german.sh BUILD_DIR HELPERS_DIR - german with 4 seats in the browser by selecting cards,
# then a move, with a claim out of turn (RULES 6.G) (select.bash)
source "$(dirname "$0")/select.bash" "$@"
play_select german4 1 german --players 4 --rule max_hands=2 --bot @random --seed 9
finish
