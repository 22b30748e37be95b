#!/usr/bin/env bash
# selfplay.sh BUILD_DIR - `arena selfplay`: a JSON summary as the last line for every preset,
# both policies, determinism, refused rule options (exit 2 naming the option), bad flags.
set -u
BUILD=${1:?usage: selfplay.sh BUILD_DIR}
ARENA="$BUILD/arena/arena"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 failed=0

ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
check() { if "${@:2}"; then ok "$1"; else bad "$1"; fi; }

# check_json FILE PRESET PLAYERS POLICY GAMES: the last line of FILE is the summary object
check_json() {
    python3 - "$@" <<'PY'
import json, sys
path, preset, players, policy, games = sys.argv[1:6]
lines = open(path).read().splitlines()
doc = json.loads(lines[-1])
need = ["rules", "options", "players", "games", "hands", "actions", "seconds", "seed",
        "policy", "wins", "mean_final"]
missing = [k for k in need if k not in doc]
assert not missing, "missing keys %s" % missing
assert doc["rules"] == preset, doc["rules"]
assert doc["players"] == int(players) and doc["games"] == int(games)
assert doc["policy"] == policy
assert len(doc["wins"]) == int(players) and len(doc["mean_final"]) == int(players)
assert sum(doc["wins"]) >= int(games), "every game has a winner"
assert doc["hands"] >= int(games) and doc["actions"] > 0
assert isinstance(doc["seconds"], (int, float))
assert "decks=" in doc["options"]
PY
}

[ -x "$ARENA" ] || { echo "no arena binary at $ARENA"; echo "0 passed, 1 failed"; exit 1; }

for preset in laws parlett arlington german gin; do
    players=3
    [ "$preset" = gin ] && players=2
    for policy in random greedy; do
        out="$TMP/$preset-$policy.txt"
        "$ARENA" selfplay --rules "$preset" --players "$players" --games 6 --seed 11 \
            --policy "$policy" >"$out" 2>"$TMP/err"
        rc=$?
        check "selfplay $preset $policy exits 0" test "$rc" -eq 0
        check "selfplay $preset $policy last line is the JSON summary" \
            check_json "$out" "$preset" "$players" "$policy" 6
    done
done

# defaults: laws, 3 players, 20 games, seed 1, random
"$ARENA" selfplay >"$TMP/default.txt" 2>&1
check "selfplay with defaults exits 0" test $? -eq 0
check "selfplay defaults are laws/3/20/random" check_json "$TMP/default.txt" laws 3 random 20
check "selfplay prints a readable summary" grep -q "^hands [0-9]*, actions [0-9]*" "$TMP/default.txt"

# --quiet: the JSON line only
"$ARENA" selfplay --games 2 --quiet >"$TMP/quiet.txt"
check "--quiet prints one line" test "$(wc -l <"$TMP/quiet.txt")" -eq 1
check "--quiet line is the summary" check_json "$TMP/quiet.txt" laws 3 random 2

# the same seed gives the same games (everything but the time)
strip_time() { python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).read().splitlines()[-1])
d.pop("seconds"); d.pop("actions_per_second", None)
print(json.dumps(d, sort_keys=True))' "$1"; }
"$ARENA" selfplay --games 5 --seed 99 --quiet >"$TMP/a.txt"
"$ARENA" selfplay --games 5 --seed=99 --quiet >"$TMP/b.txt"
"$ARENA" selfplay --games 5 --seed 100 --quiet >"$TMP/c.txt"
check "same seed, same result" test "$(strip_time "$TMP/a.txt")" = "$(strip_time "$TMP/b.txt")"
check "another seed, another result" test "$(strip_time "$TMP/a.txt")" != "$(strip_time "$TMP/c.txt")"
# game k uses seed S+k: games 1..4 of seed 99 are games 0..3 of seed 100
"$ARENA" selfplay --games 4 --seed 100 --quiet >"$TMP/d.txt"
"$ARENA" selfplay --games 1 --seed 99 --quiet >"$TMP/e.txt"
check "game k uses seed S+k" python3 -c '
import json, sys
a, d, e = (json.loads(open(p).read().splitlines()[-1]) for p in sys.argv[1:4])
assert a["hands"] == d["hands"] + e["hands"] and a["actions"] == d["actions"] + e["actions"]
assert [x + y for x, y in zip(d["wins"], e["wins"])] == a["wins"]' "$TMP/a.txt" "$TMP/d.txt" "$TMP/e.txt"

# --rule overrides go into the options string
"$ARENA" selfplay --games 2 --quiet --rule qs_discard=any --rule jokers=0 >"$TMP/rule.txt"
check "--rule is applied" python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).read().splitlines()[-1])
assert "qs_discard=any" in d["options"] and "jokers=0" in d["options"]' "$TMP/rule.txt"

# refused options: exit 2, the option named, with its rule
expect_refusal() { # NAME EXPECTED_TEXT ARGS...
    local name=$1 text=$2
    shift 2
    "$ARENA" selfplay --games 1 "$@" >"$TMP/out" 2>"$TMP/err"
    local rc=$?
    check "$name: exit 2" test "$rc" -eq 2
    check "$name: message names '$text'" grep -qF -- "$text" "$TMP/err"
    check "$name: no JSON on stdout" test ! -s "$TMP/out"
}
# (the reasons are the engine's words: only the option's name and the rule are checked)
expect_refusal "unknown option" "arena: bogus: " --rule bogus=1
expect_refusal "value out of range" "arena: qs_discard: " --rule qs_discard=sometimes
expect_refusal "value out of range has its rule" "(RULES 4.5)" --rule qs_discard=sometimes
expect_refusal "number out of range" "arena: decks: " --rule decks=9
expect_refusal "number out of range has its rule" "(RULES 1.5)" --rule decks=9
expect_refusal "no '='" "arena: --rule: expected OPTION=VALUE" --rule decks
expect_refusal "too many players" "arena: players: " --players 5
expect_refusal "too many players has its rule" "(RULES 2.1)" --players 5
expect_refusal "gin for three" "(RULES 2.1)" --rules gin --players 3
expect_refusal "too few cards" "(RULES 1.5)" --rules arlington --players 8
expect_refusal "unknown preset" "arena: --rules: 'poker'" --rules poker
expect_refusal "gin-only option in laws" "arena: spade_double" --rule spade_double=1

# bad flags: usage, exit 2
for args in "--frobnicate" "--games" "--games 0" "--games x" "--players 0" "--seed -1" \
            "--policy clever" "extra"; do
    # shellcheck disable=SC2086
    "$ARENA" selfplay $args >"$TMP/out" 2>"$TMP/err"
    rc=$?
    check "selfplay $args: exit 2" test "$rc" -eq 2
    check "selfplay $args: says why" test -s "$TMP/err"
done
"$ARENA" selfplay --frobnicate 2>"$TMP/err" >/dev/null
check "unknown flag prints the usage" grep -q "usage: arena selfplay" "$TMP/err"

# the step bound: a game that does not end is an error, not a hang
"$ARENA" selfplay --games 1 --max-actions 50 >"$TMP/out" 2>"$TMP/err"
rc=$?
check "--max-actions: exit 1" test "$rc" -eq 1
check "--max-actions: says so" grep -q "no end after 50 actions" "$TMP/err"

# --trace writes the game in the notation; `arena script` replays it to the same end
for preset in laws parlett arlington german gin; do
    players=3
    [ "$preset" = gin ] && players=2
    for policy in random greedy; do
        trace="$TMP/trace-$preset-$policy.txt"
        "$ARENA" selfplay --rules "$preset" --players "$players" --games 1 --seed 21 \
            --policy "$policy" --trace "$trace" --quiet >"$TMP/sp.txt"
        check "trace $preset $policy: written" grep -q "^# game 0 seed 21 " "$trace"
        "$ARENA" script --rules "$preset" --players "$players" --seed 21 "$trace" \
            >"$TMP/replay.txt" 2>"$TMP/err"
        rc=$?
        check "trace $preset $policy: replays with exit 0" test "$rc" -eq 0
        check "trace $preset $policy: no refusals" test "$(grep -c ": refused" "$TMP/replay.txt")" -eq 0
        check "trace $preset $policy: every action line ok" test \
            "$(grep -c ": ok " "$TMP/replay.txt")" -eq "$(grep -vc '^#\|^next$' "$trace")"
        check "trace $preset $policy: same winners, hands and actions" python3 -c '
import json, sys
sp = json.loads(open(sys.argv[1]).read().splitlines()[-1])
rp = json.loads(open(sys.argv[2]).read().splitlines()[-1])
assert rp["state"]["phase"] == "game_over", rp["state"]["phase"]
assert rp["state"]["hand_no"] == sp["hands"]
winners = [s for s, w in enumerate(sp["wins"]) if w]
assert rp["game"]["winners"] == winners, (rp["game"]["winners"], winners)
assert [s["final_total"] for s in rp["game"]["seats"]] == [int(x) for x in sp["mean_final"]]
' "$TMP/sp.txt" "$TMP/replay.txt"
    done
done
"$ARENA" selfplay --games 1 --trace "$TMP/no/such/dir/t.txt" >/dev/null 2>"$TMP/err"
check "--trace to an unwritable path: exit 1" test $? -eq 1
check "--trace to an unwritable path: says so" grep -q "arena: --trace: cannot write" "$TMP/err"

# help
"$ARENA" help >"$TMP/help.txt"
check "arena help exits 0" test $? -eq 0
for c in selfplay script match replay check-bot tournament merge sandbox; do
    check "help lists $c in one line" grep -Eq "^  $c +[a-z]" "$TMP/help.txt"
done
# docs/cli.md counts the subcommands in words and lists each in its table
SRC=$(cd "$(dirname "$0")/../.." && pwd)
ncmd=$(sed -n '/^commands:/,/^[^ ]/p' "$TMP/help.txt" | grep -cE '^  [a-z-]+ ')
words=(zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen)
check "docs/cli.md says there are ${words[$ncmd]} subcommands, as help lists" \
    grep -q "It has ${words[$ncmd]} subcommands" "$SRC/docs/cli.md"
for c in $(sed -n '/^commands:/,/^[^ ]/p' "$TMP/help.txt" | awk '/^  [a-z-]+ /{print $1}'); do
    check "docs/cli.md's table has arena $c" grep -q "^| \`arena $c\` |" "$SRC/docs/cli.md"
done
check "help is a short overview ($(wc -l <"$TMP/help.txt") lines), saying where to read more" \
    bash -c "[ \$(wc -l <'$TMP/help.txt') -le 20 ] && grep -q 'docs/cli.md' '$TMP/help.txt' && grep -q 'arena help COMMAND' '$TMP/help.txt'"
"$ARENA" 2>"$TMP/alone.txt"
check "arena alone prints the same overview" cmp -s "$TMP/help.txt" "$TMP/alone.txt"
"$ARENA" --help >/dev/null
check "arena --help exits 0" test $? -eq 0
"$ARENA" selfplay --help | grep -q "usage: arena selfplay"
check "arena selfplay --help" test $? -eq 0
"$ARENA" >/dev/null 2>&1
check "arena alone exits 2" test $? -eq 2
"$ARENA" frobnicate >/dev/null 2>"$TMP/err"
check "unknown command exits 2" test $? -eq 2
check "unknown command is named" grep -q "unknown command 'frobnicate'" "$TMP/err"

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
