#!/usr/bin/env bash
# select-gin.sh BUILD_DIR HELPERS_DIR - gin and arlington in the browser by selecting cards, then a
# move (select.bash)
source "$(dirname "$0")/select.bash" "$@"
play_select gin 0 gin --rule max_hands=1 --bot "$BUILD/bots/greedy_bot" --seed 21
# (the ASan build, OKR_SANITIZE, plays gin only: it runs slower)
[ "${OKR_SANITIZE:-0}" != 1 ] && play_select arlington 0 arlington --players 3 --rule max_hands=1 --bot @random --seed 4
finish
