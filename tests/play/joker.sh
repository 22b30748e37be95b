#!/usr/bin/env bash
# joker.sh BUILD_DIR HELPERS_DIR - a Joker replaced by its natural card (RULES 5.2), and the
# pile taken onto a Joker (4.3 b), said in words naming the natural card and what the Joker
# stood for: in the terminal's moves (ttyfirst.py answers every decision with the first legal
# move), in the page's moves (/state's words, joker.py going for the Joker), in the replay page
# (spectator and the seat's). Laws, 3 seats, one hand, seeds where it happens.
source "$(dirname "$0")/../match/lib.bash" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
NAT='the natural ([^ ,]+) in place of the Joker of meld [0-9]+, which stood for \1'

# the terminal: the human replaces a Joker (seed 9), another seat takes the pile onto one (seed 3)
timeout 120 python3 "$HERE/ttyfirst.py" "$TMP/t9.out" "$ARENA" --rules laws --players 3 \
    --rule max_hands=1 --bot @random --seed 9 -o "$TMP/t9" >/dev/null 2>&1
check "tty: the game is played to its end" test $? -eq 0
check "tty: your replacement in words: the natural card, what the Joker stood for (RULES 5.2)" \
    grep -qP "you \(seat 0\) put $NAT, and take the Joker into hand \(RULES 5\.2\)" "$TMP/t9.out"
timeout 120 python3 "$HERE/ttyfirst.py" "$TMP/t3.out" "$ARENA" --rules laws --players 3 \
    --rule max_hands=1 --bot @random --seed 3 -o "$TMP/t3" >/dev/null 2>&1
check "tty: another seat's take onto its Joker in words (RULES 4.3 b)" \
    grep -qP "@random(?:#2)? \(seat [12]\) takes the pile \(its top card and [0-9]+ more\), putting $NAT, and taking the Joker into hand" "$TMP/t3.out"

# the replay of that game, as a spectator and as seat 0 saw it
"$ARENA" replay "$TMP/t9" --html --game 0 -o "$TMP/r9.html" >/dev/null 2>&1
"$ARENA" replay "$TMP/t9" --html --game 0 --seat 0 -o "$TMP/r9s.html" >/dev/null 2>&1
check "replay: the replacement in words" \
    grep -qP '"a":0,"txt":"puts '"$NAT"', and takes the Joker into hand \(RULES 5\.2\)' "$TMP/r9.html"
check "replay as seat 0 saw it: the same" grep -qP "puts $NAT, and takes the Joker" "$TMP/r9s.html"
check "replay: no 'a natural card' without its name" bash -c "! grep -q 'puts a natural card' '$TMP/r9.html'"

# the page: another seat replaces its Joker (seed 4); joker.py plays the human over HTTP
"$ARENA" play --rules laws --players 3 --rule max_hands=1 --bot @random --seed 4 -o "$TMP/p4" \
    >"$TMP/p4.out" 2>&1 </dev/null &
pid=$!
for i in $(seq 100); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/?t=[0-9a-f]*' "$TMP/p4.out" 2>/dev/null) && break
    sleep 0.1
done
check "page: the game is played to its end" timeout 120 python3 "$HERE/joker.py" "$url" "$TMP/p4.words" 4
for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill "$pid" 2>/dev/null
wait "$pid"
check "page: another seat's replacement in words, with its cards" \
    grep -qP "@random(?:#2)? \(seat [12]\) puts $NAT, and takes the Joker into hand \(RULES 5\.2\)" "$TMP/p4.words"
finish
