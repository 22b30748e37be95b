#!/usr/bin/env bash
# summary.sh BUILD_DIR HELPERS_DIR - what a person reads at the end of `arena play` and
# `arena match`: a human who leaves is said to have left the game, not "RE" (results.json and
# games.jsonl keep the code RE), in the closing table, the arena's line and the replay page;
# one --bot filling several seats gets a row per seat (greedy_bot, greedy_bot#2), as the play
# page names them, whose figures add up to the bot's in results.json.
# (The report's games list says it in words too.)
source "$(dirname "$0")/../match/lib.bash" "$@"

# one move, then quit, in the terminal (a pipe): 3 seats, one --bot in two of them
(printf '1\n'; sleep 1; printf 'quit\n') | timeout 30 "$ARENA" play --tty --rules laws --players 3 \
    --bot "$BUILD/bots/greedy_bot" --seed 3 -o "$TMP/q" >"$TMP/q.out" 2>&1
check "arena play ends by itself after quit" test $? -eq 0
check "the closing table says the human left (left 1), with no RE in that row" \
    bash -c "row() { grep -E \"^\$1 +[0-9]\" \"\$2\"; }; row you '$TMP/q.out' | grep -q ' left 1 ' && ! row you '$TMP/q.out' | grep -qw RE"
check "the arena's line says the seat left the game" \
    grep -q 'seat 0 (you) left the game (verdict RE)' "$TMP/q.out"
check "no line shows leaving as 'RE:' alone" bash -c "! grep -q 'RE: left the game' '$TMP/q.out'"
check "results.json and games.jsonl keep the code RE (machine formats unchanged)" py "$TMP/q" \
    'bots["you"]["errors"]["RE"] == 1' \
    'any(v["verdict"] == "RE" and v["detail"] == "left the game (quit)" for x in g for v in x["verdicts"])'
check "one --bot in two seats: a row each, greedy_bot and greedy_bot#2" \
    bash -c "grep -qE '^greedy_bot +1 ' '$TMP/q.out' && grep -qE '^greedy_bot#2 +1 ' '$TMP/q.out'"
"$ARENA" replay "$TMP/q" --html --game 0 -o "$TMP/q.html" >/dev/null 2>&1
check "the replay page says who left the game, in words" grep -q 'you (seat 0) left the game' "$TMP/q.html"
check "... and not 'verdict RE against you'" bash -c "! grep -q 'verdict RE against you' '$TMP/q.html'"
"$ARENA" replay "$TMP/q" --game 0 >"$TMP/q.replay" 2>&1
check "arena replay's text says the seat left the game" \
    grep -q '^verdict: seat 0 (you) left the game (RE)$' "$TMP/q.replay"
"$ARENA" report "$TMP/q" --format html --replays none -o "$TMP/q-report.html" >/dev/null 2>&1
check "the report's games list says who left the game, in words" \
    grep -q 'you <span class="bad">left the game</span> (verdict RE)' "$TMP/q-report.html"

# arena match: greedy_bot fills slots 0 and 2 of 3; each slot its own row, the figures add up
"$ARENA" match --rules laws --players 3 --bot "$BUILD/bots/greedy_bot" --bot "$BUILD/bots/random_bot" \
    --games 3 --seed 2 --out "$TMP/m" >"$TMP/m.out" 2>/dev/null
check "arena match plays" test $? -eq 0
python3 - "$TMP/m" "$TMP/m.out" <<'PY' >"$TMP/m.check" 2>&1
import json, re, sys
r = json.load(open(sys.argv[1] + "/results.json"))
rows = {}
for l in open(sys.argv[2]):
    m = re.match(r"^(\S+) +(\d+) +(\d+)  ((?:\d+ ){2}\d+) ", l)
    if m:
        rows[m.group(1)] = (int(m.group(2)), [int(x) for x in m.group(4).split()])
print(rows)
assert set(rows) == {"greedy_bot", "greedy_bot#2", "random_bot"}, rows
bots = {b["name"]: b for b in r["bots"]}
assert rows["greedy_bot"][0] == rows["greedy_bot#2"][0] == 3
places = [a + b for a, b in zip(rows["greedy_bot"][1], rows["greedy_bot#2"][1])]
assert places == bots["greedy_bot"]["placements"], (places, bots["greedy_bot"]["placements"])
assert rows["random_bot"][1] == bots["random_bot"]["placements"]
PY
check "arena match: a row per slot of greedy_bot, places adding up to results.json's" test $? -eq 0 ||
    cat "$TMP/m.check"
finish
