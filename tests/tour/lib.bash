# lib.bash - shared by tests/tour/*.sh (sourced, not a test itself).
#   source lib.bash BUILD_DIR
# Gives: $ARENA, $BOTS (the C bots), $H (helper bots), $SRC, $TMP (removed at exit), ok/bad/
# check, same A B (byte-identical files), tour FILE [extra lines] (a .tour file with short
# clocks), py EXPR... over DIR/results.json, and finish (exits non-zero on any failure).
set -u
BUILD=$(cd "${1:?usage: SCRIPT BUILD_DIR}" && pwd)
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ARENA="$BUILD/arena/arena"
BOTS="$BUILD/bots"
H="$BUILD/tests/helpers"
TMP=$(mktemp -d /tmp/okr-tour.XXXXXX)
pass=0
failed=0
cleanup() {
    # this test's arenas and workers only (their bots die with them: PR_SET_PDEATHSIG)
    local p
    for p in $(pgrep -f -- "$TMP" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
    [ -n "${KEEP:-}" ] || rm -rf "$TMP"
}
trap cleanup EXIT

# noproc PATTERN: no live process has PATTERN in its command line
noproc() { ! pgrep -f -- "$1" > /dev/null; }
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
check() { if "${@:2}"; then ok "$1"; else bad "$1"; fi; }
same() { cmp -s "$1" "$2" || { echo "  differ: $1 $2" >&2; diff <(head -c 2000 "$1") <(head -c 2000 "$2") | head -5 >&2; return 1; }; }
# same_outputs DIR1 DIR2: results.json, standings.csv and games.jsonl byte for byte
same_outputs() { same "$1/results.json" "$2/results.json" && same "$1/standings.csv" "$2/standings.csv" && same "$1/games.jsonl" "$2/games.jsonl"; }

if [ ! -x "$ARENA" ] || ! "$ARENA" help tournament >/dev/null 2>&1; then
    echo "FAIL: $ARENA has no 'tournament' subcommand" >&2
    exit 1
fi

# py DIR EXPR...: python with r = results.json, g = games.jsonl rows, s = {name: standing}
py() {
    python3 - "$@" <<'PY'
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/results.json"))
g = [json.loads(l) for l in open(d + "/games.jsonl")]
s = {e["name"]: e for e in r["standings"]}
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
