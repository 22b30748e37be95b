# lib.bash - shared by tests/match/*.sh (sourced, not a test itself).
#   source lib.bash BUILD_DIR HELPERS_DIR
# Gives: $ARENA, $H (helper bots), $TMP (removed at exit), $TAG (unique to this test run: every
# helper command gets "--name $TAG" so that pgrep finds this test's processes only, even with
# ctest -j), ok/bad/check, helper CMD, json (a python expression over results/games), leftovers,
# and finish (prints the count, exits non-zero on any failure).
set -u
BUILD=${1:?usage: SCRIPT BUILD_DIR HELPERS_DIR}
H=${2:-$BUILD/tests/helpers}
ARENA="$BUILD/arena/arena"
TMP=$(mktemp -d)
TAG="okrt$$x$RANDOM"
pass=0
failed=0
cleanup() {
    pkill -KILL -f -- "$TAG" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT

ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
check() { if "${@:2}"; then ok "$1"; else bad "$1"; fi; }

# helper MODE [ARGS...]: the command string of a helper bot, tagged
helper() { local mode=$1; shift; echo "$H/okrh_$mode --name $TAG $*"; }

# leftovers: no process of this test is still running (zombies included)
leftovers() {
    local p
    p=$(pgrep -f -- "$TAG")
    if [ -n "$p" ]; then
        ps -o pid,ppid,pgid,stat,args -p $(echo $p | tr ' ' ',') >&2
        return 1
    fi
    return 0
}

# py DIR EXPR...: evaluate python with r = results.json, g = list of games.jsonl rows,
# bots = {name: bot} of DIR; succeeds when every EXPR is true (each is printed on failure)
py() {
    python3 - "$@" <<'PY'
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/results.json"))
g = [json.loads(l) for l in open(d + "/games.jsonl")]
bots = {b["name"]: b for b in r["bots"]}
okay = True
for e in sys.argv[2:]:
    try:
        v = eval(e)
    except Exception as ex:
        v = False
        print("  error in %s: %r" % (e, ex), file=sys.stderr)
    if not v:
        print("  false: " + e, file=sys.stderr)
        okay = False
sys.exit(0 if okay else 1)
PY
}

finish() {
    echo "$pass passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit $?
}

[ -x "$ARENA" ] || { echo "no arena binary at $ARENA"; echo "0 passed, 1 failed"; exit 1; }
[ -x "$H/okrh_good" ] || { echo "no helper bots in $H"; echo "0 passed, 1 failed"; exit 1; }
