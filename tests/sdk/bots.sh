#!/usr/bin/env bash
# bots.sh BUILD_DIR - the C bots (random, greedy, strong) play every preset through
# `arena match` without a single error: no refusal, timeout, crash or forfeit. The strong bot
# keeps to its time budget: it gets 10 ms a decision and only a 2 s bank per game, so a bot
# that ignored time_ms (it thinks up to 250 ms when allowed) would run out and get a TLE, which
# counts as an error below. The arena's clock is the judge, not a wall-time assertion here,
# so a loaded machine cannot make the test flaky.
set -u
BUILD=${1:?usage: bots.sh BUILD_DIR}
ARENA="$BUILD/arena/arena"
BOTS="$BUILD/bots"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 failed=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
for f in "$ARENA" "$BOTS/random_bot" "$BOTS/greedy_bot" "$BOTS/strong_bot"; do
    [ -x "$f" ] || { echo "FAIL missing $f"; exit 1; }
done

# clean DIR: complete, no errors (TLE included), names from Identify
clean() {
    python3 - "$1/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["complete"], "incomplete match"
for b in r["bots"]:
    errors = sum(b["errors"].values())
    assert errors == 0 and b["forfeits"] == 0, "%s: errors %s" % (b["name"], b["errors"])
    assert b["identify"]["name"] in ("random", "greedy", "strong"), b["identify"]
    assert b["identify"]["protocol"] == "1.1", b["identify"]
PY
}

MS=10
[ "${OKR_SANITIZE:-0}" = 1 ] && MS=40
for preset in laws parlett arlington german gin; do
    if [ "$preset" = gin ]; then
        players=(--players 2 --bot "$BOTS/strong_bot" --bot "$BOTS/greedy_bot")
        more=(--players 2 --bot "$BOTS/random_bot" --bot "$BOTS/greedy_bot")
    else
        players=(--players 3 --bot "$BOTS/strong_bot" --bot "$BOTS/greedy_bot" --bot "$BOTS/random_bot")
        more=(--players 4 --bot "$BOTS/random_bot" --bot "$BOTS/greedy_bot"
              --bot "$BOTS/random_bot --seed 9" --bot "$BOTS/greedy_bot")
    fi
    out="$TMP/$preset"
    if "$ARENA" match --quiet --rules "$preset" --games 2 --seed 7 --decision-ms "$MS" \
        --bank-ms 2000 --hard-ms 2000 "${players[@]}" --out "$out" >"$TMP/log" 2>&1 &&
        clean "$out"; then
        ok "$preset: strong, greedy and random play cleanly"
    else
        bad "$preset: strong, greedy and random play cleanly"
        cat "$TMP/log"
    fi
    out="$TMP/$preset-4"
    if "$ARENA" match --quiet --rules "$preset" --games 4 --seed 8 "${more[@]}" --out "$out" \
        >"$TMP/log" 2>&1 && clean "$out"; then
        ok "$preset: greedy and random, ${more[1]} seats"
    else
        bad "$preset: greedy and random, ${more[1]} seats"
        cat "$TMP/log"
    fi
done

# a bot's own command-line errors: exit 2 with a usage line, before any protocol
for b in random_bot strong_bot; do
    "$BOTS/$b" --no-such-flag </dev/null >/dev/null 2>"$TMP/err"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q usage "$TMP/err"; then
        ok "$b rejects an unknown flag"
    else
        bad "$b rejects an unknown flag (exit $rc)"
    fi
done

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
