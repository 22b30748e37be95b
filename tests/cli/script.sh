#!/usr/bin/env bash
# script.sh BUILD_DIR - `arena script`: ok and refused lines (with RULES numbers) from an
# explicit pack, hand ends and the next deal, the final JSON state, and every error path:
# malformed lines (FILE:LINE, exit 1), bad packs, long lines, NUL bytes, missing files.
set -u
BUILD=${1:?usage: script.sh BUILD_DIR}
ARENA="$BUILD/arena/arena"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 failed=0

ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
check() { if "${@:2}"; then ok "$1"; else bad "$1"; fi; }

[ -x "$ARENA" ] || { echo "no arena binary at $ARENA"; echo "0 passed, 1 failed"; exit 1; }

# mkpack PLAYERS "SEAT0 CARDS" "UPCARD" ["STOCK TOP FIRST"]: a full laws pack (2 decks + Joker,
# 105 cards) in dealing order. The dealer of hand 1 is seat N-1, so pack[0] goes to seat 0,
# pack[1] to seat 1, ... one card at a time for 13 rounds; the next card is the upcard and the
# rest is the stock, the first of it on top. Cards not named fill the other seats in order.
mkpack() {
    python3 - "$@" <<'PY'
import sys
players = int(sys.argv[1])
seat0 = sys.argv[2].split()
upcard = sys.argv[3]
stock_first = sys.argv[4].split() if len(sys.argv) > 4 else []
rest = [r + s for s in "CDHS" for r in "A23456789TJQK"] * 2 + ["JK"]
for c in seat0 + [upcard] + stock_first:
    rest.remove(c)
assert len(seat0) <= 13
seat0 = seat0 + [rest.pop(0) for _ in range(13 - len(seat0))]
pack = []
for rnd in range(13):
    for seat in range(players):
        pack.append(seat0[rnd] if seat == 0 else rest.pop(0))
pack.append(upcard)
pack += stock_first + rest
assert len(pack) == 105 and sorted(pack) == sorted(
    [r + s for s in "CDHS" for r in "A23456789TJQK"] * 2 + ["JK"])
print(" ".join(pack))
PY
}

# json_check FILE PYTHON-EXPR...: each expression over `d` (the last line of FILE) is true
json_check() {
    python3 - "$@" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read().splitlines()[-1])
for expr in sys.argv[2:]:
    assert eval(expr), "%s is false in %s" % (expr, json.dumps(d)[:2000])
PY
}

# ---- 1. the Q of spades in laws: refused with RULES 4.5, another discard accepted ------------
PACK=$(mkpack 3 "QS 3C 6C 9C KD KH 4S 5S 8S 9D TD TH JH" "KC" "AS")
cat >"$TMP/qs.txt" <<'S'
# laws, 3 players: everybody declines the upcard, seat 0 draws
pass
pass
PASS   # keywords are case-insensitive

draw
discard QS      # RULES 4.5: only to go out
discard 3c
S
"$ARENA" script --rules laws --players 3 --pack "$PACK" "$TMP/qs.txt" >"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out" "$TMP/err"
check "qs: exit 0" test "$rc" -eq 0
check "qs: ok line for a pass" grep -qx "$TMP/qs.txt:2: ok pass" "$TMP/out"
check "qs: ok line for the draw" grep -qx "$TMP/qs.txt:6: ok draw" "$TMP/out"
check "qs: refusal names RULES 4.5" grep -q "^$TMP/qs.txt:7: refused (RULES 4.5): " "$TMP/out"
check "qs: the next discard is accepted" grep -qx "$TMP/qs.txt:8: ok discard 3C" "$TMP/out"
check "qs: blank and comment lines are skipped" test "$(grep -c "^$TMP/qs.txt:[0-9]*: " "$TMP/out")" -eq 6
check "qs: nothing on stderr" test ! -s "$TMP/err"
check "qs: final state JSON" json_check "$TMP/out" \
    'd["state"]["phase"] == "draw"' 'd["state"]["to_act"] == 1' 'd["state"]["hand_no"] == 1' \
    'd["state"]["pile"] == ["KC", "3C"]' '"QS" in d["state"]["hands"][0]' \
    '"AS" in d["state"]["hands"][0]' '"3C" not in d["state"]["hands"][0]' \
    'len(d["state"]["hands"]) == 3 and [len(h) for h in d["state"]["hands"]] == [13, 13, 13]' \
    'd["state"]["stock_n"] == 105 - 39 - 1 - 1' 'd["state"]["melds"] == []' \
    'd["state"]["scores"] == [0, 0, 0]' '"last_hand" not in d and "game" not in d'

# ---- 2. going out on the first turn, with a wild card; then the next hand -------------------
PACK=$(mkpack 3 "3H 2C 6C 6D 6S 7C 7D 7S 8C 8D 8S 6H KC" "5H")
cat >"$TMP/out1.txt" <<'S'
take new 3H 2C=4H 5H     # the upcard, melded at once (RULES 6.1)
meld 6C 6D 6S
meld 7c 7d 7s
meld 8C 8D 8S
add 0 6H
discard KC               # out
S
"$ARENA" script --pack "$PACK" "$TMP/out1.txt" >"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out" "$TMP/err"
check "out: exit 0" test "$rc" -eq 0
check "out: take ok" grep -qx "$TMP/out1.txt:1: ok take new 3H 2C=4H 5H" "$TMP/out"
check "out: meld ok" grep -qx "$TMP/out1.txt:3: ok meld 7C 7D 7S" "$TMP/out"
check "out: add ok" grep -qx "$TMP/out1.txt:5: ok add 0 6H" "$TMP/out"
check "out: discard ok" grep -qx "$TMP/out1.txt:6: ok discard KC" "$TMP/out"
check "out: the hand end is reported" grep -q "^$TMP/out1.txt:6: hand 1 over: out, winner seat 0" "$TMP/out"
check "out: final JSON" json_check "$TMP/out" \
    'd["state"]["phase"] == "hand_over"' \
    'd["state"]["melds"][0] == {"owner": 0, "type": "run", "lo": 2, "cards": ["3H", "2C=4H", "5H", "6H"]}' \
    'd["state"]["melds"][1]["type"] == "set" and sorted(d["state"]["melds"][1]["cards"]) == ["6C", "6D", "6S"]' \
    'len(d["state"]["melds"]) == 4 and d["state"]["hands"][0] == []' \
    'd["last_hand"]["ended"] == "out" and d["last_hand"]["winner"] == 0' \
    'd["last_hand"]["seats"][0]["out_bonus"] == 100' \
    'd["last_hand"]["seats"][0]["melded"] > 0 and d["last_hand"]["seats"][1]["debit"] < 0' \
    'd["state"]["scores"] == [s["total"] for s in d["last_hand"]["seats"]]' \
    '"game" not in d'

cp "$TMP/out1.txt" "$TMP/out2.txt"
printf 'next\npass\nnext\n' >>"$TMP/out2.txt"
"$ARENA" script --pack "$PACK" --seed 7 "$TMP/out2.txt" >"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out" "$TMP/err"
check "next: exit 0" test "$rc" -eq 0
check "next: deals hand 2" grep -qx "$TMP/out2.txt:7: dealt hand 2" "$TMP/out"
check "next: play goes on" grep -qx "$TMP/out2.txt:8: ok pass" "$TMP/out"
check "next: refused while the hand runs" grep -q "^$TMP/out2.txt:9: refused" "$TMP/out"
check "next: final JSON" json_check "$TMP/out" 'd["state"]["hand_no"] == 2' \
    'd["state"]["dealer"] == 0' 'd["state"]["melds"] == []' \
    'd["last_hand"]["winner"] == 0' 'd["state"]["scores"][0] > 0'

# an action after the hand ended deals the next hand by itself
cp "$TMP/out1.txt" "$TMP/out3.txt"
echo "pass" >>"$TMP/out3.txt"
"$ARENA" script --pack "$PACK" "$TMP/out3.txt" >"$TMP/out" 2>&1
check "auto next: deals hand 2" grep -qx "$TMP/out3.txt:7: dealt hand 2" "$TMP/out"
check "auto next: then the action" grep -qx "$TMP/out3.txt:7: ok pass" "$TMP/out"

# ---- 3. refusals carry a rule number and the script goes on ---------------------------------
printf 'draw\ndiscard AS\npass\n' >"$TMP/refuse.txt"
"$ARENA" script --seed 3 "$TMP/refuse.txt" >"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out" "$TMP/err"
check "refuse: exit 0" test "$rc" -eq 0
check "refuse: draw in the upcard round" grep -q "^$TMP/refuse.txt:1: refused (RULES [0-9G][0-9.G]*): " "$TMP/out"
check "refuse: discard before drawing" grep -q "^$TMP/refuse.txt:2: refused (RULES [0-9G][0-9.G]*): " "$TMP/out"
check "refuse: then ok" grep -qx "$TMP/refuse.txt:3: ok pass" "$TMP/out"
check "refuse: final JSON" json_check "$TMP/out" 'd["state"]["to_act"] == 1'

# gin works too (2 players by default with --rules gin)
printf 'pass\npass\ndraw\n' >"$TMP/gin.txt"
"$ARENA" script --rules gin --seed 5 "$TMP/gin.txt" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "gin: exit 0" test "$rc" -eq 0
check "gin: three ok lines" test "$(grep -c ": ok " "$TMP/out")" -eq 3
check "gin: final JSON" json_check "$TMP/out" 'd["state"]["phase"] == "play"' \
    'len(d["state"]["hands"]) == 2' 'sorted(len(h) for h in d["state"]["hands"]) == [10, 11]'

# ---- 4. malformed lines: FILE:LINE on stderr, exit 1 -------------------------------------
bad_line() { # NAME LINE-NUMBER EXPECTED-TEXT (file content on stdin)
    cat >"$TMP/bad.txt"
    "$ARENA" script --seed 1 "$TMP/bad.txt" >"$TMP/out" 2>"$TMP/err"
    local rc=$?
    cat "$TMP/err"
    check "$1: exit 1" test "$rc" -eq 1
    check "$1: FILE:LINE: error" grep -q "^$TMP/bad.txt:$2: error: .*$3" "$TMP/err"
}
printf 'pass\n\nfrobnicate 3\npass\n' | bad_line "unknown action" 3 "unknown action 'frobnicate'"
printf 'pass\ndiscard XX\n' | bad_line "unknown card" 2 "unknown card 'XX'"
printf 'meld 4H 6H 9C\n' | bad_line "not a meld" 1 "not a set or a run"
printf 'add x 5H\n' | bad_line "bad meld number" 1 "bad meld number 'x'"
printf 'draw extra\n' | bad_line "trailing token" 1 "unexpected 'extra'"
{ echo pass; head -c 5000 /dev/zero | tr '\0' ' '; echo draw; } | bad_line "long line" 2 "longer than 4096 bytes"
printf 'pass\npa\0ss\n' | bad_line "NUL byte" 2 "NUL byte"
printf '\x80\xff\xfe\n' | bad_line "binary junk" 1 "unknown action"
# a 4096-byte line is still fine
{ printf 'pass'; head -c 4092 /dev/zero | tr '\0' ' '; echo; } >"$TMP/edge.txt"
"$ARENA" script "$TMP/edge.txt" >"$TMP/out" 2>&1
check "4096-byte line is accepted" grep -qx "$TMP/edge.txt:1: ok pass" "$TMP/out"
# no final newline, CRLF line ends
printf 'pass\r\npass' >"$TMP/crlf.txt"
"$ARENA" script "$TMP/crlf.txt" >"$TMP/out" 2>&1
check "CRLF and a last line without newline" test "$(grep -c ": ok pass$" "$TMP/out")" -eq 2
# an empty file: just the state
: >"$TMP/empty.txt"
"$ARENA" script "$TMP/empty.txt" >"$TMP/out" 2>&1
check "empty file: exit 0 and the state" json_check "$TMP/out" 'd["state"]["hand_no"] == 1'

# ---- 5. files and flags ----------------------------------------------------------------------
"$ARENA" script "$TMP/missing.txt" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "missing file: exit 1" test "$rc" -eq 1
check "missing file: FILE: error" grep -q "^$TMP/missing.txt: error: cannot open" "$TMP/err"
"$ARENA" script "$TMP" >"$TMP/out" 2>"$TMP/err"
check "a directory: exit 1" test $? -eq 1

PACK=$(mkpack 3 "" "5H")
"$ARENA" script --pack "${PACK/QS/XX}" "$TMP/qs.txt" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "unknown card in --pack: non-zero exit" test "$rc" -ne 0
check "unknown card in --pack: named" grep -q "arena: --pack: unknown card 'XX'" "$TMP/err"
check "unknown card in --pack: no output" test ! -s "$TMP/out"
"$ARENA" script --pack "${PACK/QS/KS}" "$TMP/qs.txt" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "not a permutation (a card twice too many): non-zero exit" test "$rc" -ne 0
check "not a permutation: refused with a reason" grep -q "^arena: --pack: ." "$TMP/err"
"$ARENA" script --pack "${PACK% JK*}" "$TMP/qs.txt" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "a card short: non-zero exit" test "$rc" -ne 0
check "a card short: refused" grep -q "^arena: --pack: ." "$TMP/err"
"$ARENA" script --pack "$PACK 2C=5H" "$TMP/qs.txt" >/dev/null 2>"$TMP/err"
check "a declaration in --pack is refused" test $? -ne 0
"$ARENA" script --rules gin --pack "$PACK" "$TMP/qs.txt" >/dev/null 2>"$TMP/err"
check "a laws pack for gin is refused" test $? -ne 0

for args in "" "--frobnicate $TMP/qs.txt" "--players 9 $TMP/qs.txt" "--seed x $TMP/qs.txt" \
            "$TMP/qs.txt $TMP/qs.txt" "--rule bogus=1 $TMP/qs.txt" "--rules gin --players 3 $TMP/qs.txt"; do
    # shellcheck disable=SC2086
    "$ARENA" script $args >"$TMP/out" 2>"$TMP/err"
    rc=$?
    check "script $args: exit 2" test "$rc" -eq 2
    check "script $args: says why" test -s "$TMP/err"
done
"$ARENA" script --rule qs_discard=never "$TMP/qs.txt" >/dev/null 2>&1
check "script accepts --rule" test $? -eq 0
"$ARENA" help script | grep -q "usage: arena script"
check "arena help script" test $? -eq 0

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
