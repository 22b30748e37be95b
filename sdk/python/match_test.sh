#!/usr/bin/env bash
# match_test.sh BUILD_DIR - the Python, JavaScript and C random bots play complete matches
# against each other through `arena match`, in every preset:
#   laws 3p, german 3p          python + js + c
#   parlett 4p, arlington 4p    python + js + c + python (another seed)
#   gin 2p                      python-js, js-c, c-python
# and every game must complete with no verdict against any bot. Exits 0 with a SKIP message
# when the arena has no `match` subcommand yet. Registered by sdk/python/CMakeLists.txt.
#
# Environment: OKR_MATCH_GAMES games per match (default 3); OKR_SANITIZE=1 (the ASan build:
# games end at the target or after 4 hands, RULES 7.7, as random players take many hands to
# reach a target and the test took 2 minutes there; the normal build plays them out); OKBOT_PB2_DIR and
# OKBOT_NODE_MODULES are passed through to the bots (ctest sets them).
set -uo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
BUILD=$(cd "$1" && pwd) || exit 2
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ARENA=$BUILD/arena/arena
GAMES=${OKR_MATCH_GAMES:-3}

if [ ! -x "$ARENA" ]; then
    echo "sdk_match: FAIL: $ARENA not built" >&2
    exit 1
fi
if ! "$ARENA" help match >/dev/null 2>&1; then
    echo "sdk_match: SKIP: $ARENA has no 'match' subcommand yet"
    exit 0
fi

# The bots' command lines, as a user would type them (absolute paths, so any cwd works).
PY="python3 $SRC/bots/random/random_bot.py"
JS="node $SRC/bots/random/random_bot.js"
C="$BUILD/bots/random_bot"
if [ ! -x "$C" ]; then
    echo "sdk_match: FAIL: the C random bot $C is not built" >&2
    exit 1
fi

OUT=$(mktemp -d "${TMPDIR:-/tmp}/okr-sdk-match.XXXXXX")
failed=0
trap '[ "$failed" -eq 0 ] && rm -rf "$OUT"' EXIT

n=0
match() { # match RULES PLAYERS SEED BOT...
    local rules=$1 players=$2 seed=$3
    shift 3
    n=$((n + 1))
    local dir="$OUT/$n-$rules" log="$OUT/$n-$rules"
    local args=(match --rules "$rules" --players "$players" --games "$GAMES" --seed "$seed"
                --out "$dir")
    [ "${OKR_SANITIZE:-0}" = 1 ] && args+=(--rule max_hands=4)
    local bot
    for bot in "$@"; do
        args+=(--bot "$bot")
    done
    echo "==== arena ${args[*]}"
    local rc=0
    "$ARENA" "${args[@]}" >"$log.stdout" 2>"$log.stderr" || rc=$?
    if [ "$rc" -ne 0 ]; then
        echo "sdk_match: FAIL: arena exited $rc" >&2
        tail -n 30 "$log.stdout" "$log.stderr" >&2
        failed=1
        return
    fi
    # Every game listed, complete, and without a verdict against anyone.
    if ! python3 - "$dir" "$GAMES" <<'PY'; then
import json
import math
import os
import sys

out, requested = sys.argv[1], int(sys.argv[2])
problems = []
try:
    with open(os.path.join(out, "results.json")) as f:
        results = json.load(f)
    with open(os.path.join(out, "games.jsonl")) as f:
        games = [json.loads(line) for line in f if line.strip()]
except (OSError, ValueError) as e:
    sys.exit("sdk_match: %s" % e)

# `arena match` plays whole deals: ceil(G / players) deals, each in every seat rotation.
players = results.get("players")
scheduled = math.ceil(requested / players) * players
if results.get("complete") is not True:
    problems.append("results.json: complete=%r" % results.get("complete"))
if results.get("games") != scheduled or len(games) != scheduled:
    problems.append("%s games in results.json, %d in games.jsonl, %d expected"
                    % (results.get("games"), len(games), scheduled))
for g in games:
    gid = g.get("game_id")
    if g.get("played") is not True or g.get("completed") is not True:
        problems.append("game %s: played=%r completed=%r"
                        % (gid, g.get("played"), g.get("completed")))
    if g.get("verdicts"):
        problems.append("game %s: verdicts %s" % (gid, json.dumps(g["verdicts"])))
    if g.get("forfeits"):
        problems.append("game %s: forfeits %s" % (gid, g["forfeits"]))
    if any(g.get("substituted", [])):
        problems.append("game %s: substituted actions %s" % (gid, g["substituted"]))
for b in results.get("bots", []):
    name = "bot %s (%s)" % (b.get("index"), b.get("command"))
    errors = {k: v for k, v in b.get("errors", {}).items() if v}
    if errors or b.get("error_games") or b.get("forfeits") or b.get("disqualified"):
        problems.append("%s: errors %s, error_games %s, forfeits %s, disqualified %s"
                        % (name, errors, b.get("error_games"), b.get("forfeits"),
                           b.get("disqualified")))
    if not b.get("decisions"):
        problems.append("%s answered no decisions" % name)
    print("sdk_match:   %-60s identify %s, %s decisions, mean %.2f ms"
          % (name, json.dumps(b.get("identify")), b.get("decisions"),
             b.get("mean_decision_ms") or 0.0))
for p in problems:
    print("sdk_match: " + p)
print("sdk_match: %d games checked, %d problems" % (len(games), len(problems)))
sys.exit(1 if problems else 0)
PY
        echo "sdk_match: FAIL: $rules (files in $dir)" >&2
        tail -n 20 "$log.stderr" >&2
        for f in "$dir"/logs/*; do
            [ -f "$f" ] && { echo "--- $f" >&2; tail -n 20 "$f" >&2; }
        done
        failed=1
    fi
}

match laws 3 11 "$PY" "$JS" "$C"
match german 3 12 "$C" "$PY" "$JS"
match parlett 4 13 "$PY" "$JS" "$C" "$PY 2"
match arlington 4 14 "$JS" "$C" "$PY" "$JS 2"
match gin 2 15 "$PY" "$JS"
match gin 2 16 "$JS" "$C"
match gin 2 17 "$C" "$PY"

if [ "$failed" -ne 0 ]; then
    echo "sdk_match: FAILED (arena output kept in $OUT)"
    exit 1
fi
echo "sdk_match: all matches complete, no verdicts"
