#!/usr/bin/env bash
# positive/run.sh BUILD_DIR LANG - the positive sandbox suite: a bot written in LANG (c cpp
# python js go rust java) plays a complete match cleanly inside the default sandbox, under
# the seccomp profile the arena picks for it, against the C random bot. So an allow-list that
# misses a syscall some runtime needs (glibc's rseq, a new futex call...) fails here, on every
# image CI builds, instead of in a tournament. Registered by tests/hostile/CMakeLists.txt as
# hostile_positive_<lang>; a language whose toolchain or runtime is missing prints SKIP and
# exits 77 (ctest: skipped).
set -u
BUILD=$(cd "${1:?usage: run.sh BUILD_DIR LANG}" && pwd)
LANG_=${2:?usage: run.sh BUILD_DIR LANG}
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
ARENA="$BUILD/arena/arena"
GOOD="$BUILD/bots/random_bot"
POS="$BUILD/tests/hostile/positive"
TMP=$(mktemp -d /tmp/okr-positive.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

skip() { echo "SKIP: $LANG_: $*"; exit 77; }
fail() { echo "FAIL: $LANG_: $*"; exit 1; }

# LANG -> the command a user would type, the name it identifies as, the profile it must get
case "$LANG_" in
c) cmd="$GOOD"; ident=random; profile=native ;;
cpp) [ -x "$POS/okpos_cpp" ] || skip "no C++ compiler: okpos_cpp not built"
    cmd="$POS/okpos_cpp"; ident=echo-cpp; profile=native ;;
python) command -v python3 >/dev/null || skip "no python3"
    cmd="python3 $SRC/bots/random/random_bot.py 3"; ident=random-py; profile=interpreted ;;
js) command -v node >/dev/null || skip "no node (nodejs)"
    [ -d "$BUILD/sdk/js/node_modules" ] || [ -d "$SRC/sdk/js/node_modules" ] ||
        skip "the JS SDK's node_modules (protobufjs) are not installed"
    cmd="node $SRC/bots/random/random_bot.js 3"; ident=random-js; profile=interpreted ;;
go) [ -x "$POS/okpos_go" ] || skip "no Go toolchain (golang-go): okpos_go not built"
    cmd="$POS/okpos_go"; ident=echo-go; profile=native ;;
rust) [ -x "$POS/okpos_rust" ] || skip "no rustc: okpos_rust not built"
    cmd="$POS/okpos_rust"; ident=echo-rust; profile=native ;;
java) command -v java >/dev/null || skip "no java (default-jdk-headless)"
    [ -f "$POS/java/echobot.jar" ] || skip "no javac or jar: echobot.jar not built"
    cmd="java -cp $POS/java/echobot.jar EchoBot"; ident=echo-java; profile=interpreted ;;
*) fail "unknown language (c cpp python js go rust java)" ;;
esac
[ -x "$ARENA" ] && [ -x "$GOOD" ] || fail "the arena or the random bot is not built"

# the sandbox must be there (the default minimum is rootless): when the host cannot give one,
# there is nothing to check
"$ARENA" sandbox >"$TMP/sb" 2>&1
mode=$(sed -n 's/^sandbox: \([a-z-]*\).*/\1/p' "$TMP/sb" | head -1)
case "$mode" in
full | no-cgroups | rootless) ;;
*) skip "no sandbox on this host ($(tail -1 "$TMP/sb"))" ;;
esac

ms=300
[ "${OKR_SANITIZE:-0}" = 1 ] && ms=1000
t0=$(date +%s%N)
(cd "$BUILD" && "$ARENA" match --rules gin --players 2 --games 2 --rule max_hands=5 --seed 11 \
    --bot "$cmd" --name pos --bot "$GOOD" --name good --startup-ms 10000 --decision-ms "$ms" \
    --bank-ms 3000 --hard-ms 3000 --out "$TMP/out" >"$TMP/stdout" 2>"$TMP/stderr")
rc=$?
t1=$(date +%s%N)
echo "# $LANG_: $cmd ($(( (t1 - t0) / 1000000 )) ms, sandbox $mode)"
if [ "$rc" -ne 0 ]; then
    cat "$TMP/stderr"
    fail "the arena exited $rc"
fi
python3 - "$TMP/out" "$ident" "$profile" "$mode" <<'PY' || { sed 's/^/  log: /' "$TMP/out/logs/slot0-pos.log" | tail -20; exit 1; }
import json, sys
d, ident, profile, mode = sys.argv[1:]
r = json.load(open(d + "/results.json"))
g = [json.loads(l) for l in open(d + "/games.jsonl")]
b = {x["name"]: x for x in r["bots"]}
pos = b["pos"]
checks = [
    ("the match is complete", r["complete"] and r["games"] == 2),
    ("every game completed, no verdict", all(x["completed"] and not x["verdicts"] for x in g)),
    ("no error for the bot", sum(pos["errors"].values()) == 0 and pos["forfeits"] == 0),
    ("no error for the opponent", sum(b["good"]["errors"].values()) == 0),
    ("it identified as %s" % ident, pos["identify"]["name"] == ident),
    ("it ran under the %s profile" % profile, pos.get("profile") == profile),
    ("in sandbox mode %s" % mode, r.get("sandbox", {}).get("mode") == mode),
    ("it was never restarted", pos["restarts"] == 0),
]
bad = 0
for what, ok in checks:
    print("%s %s" % ("ok  " if ok else "FAIL", what))
    bad += not ok
if bad:
    print("  verdicts:", [(v["verdict"], v["detail"]) for x in g for v in x["verdicts"]])
sys.exit(1 if bad else 0)
PY
echo "PASS: $LANG_ plays cleanly in the sandbox"
