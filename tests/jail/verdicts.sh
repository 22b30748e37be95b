#!/usr/bin/env bash
# verdicts.sh BUILD_DIR - the sandbox's verdicts through `arena match`, each with its evidence:
# MLE (the cgroup's OOM killer in full mode; a runtime's out-of-memory message when only
# rlimits apply), OLE (--stdout-cap), SV (a forbidden system call, named when the kernel log is
# readable), RE with pid 2's own exit code, and a bot within its limits gets none of them.
set -u
BUILD=$(cd "${1:?usage: verdicts.sh BUILD_DIR}" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
ARENA="$BUILD/arena/arena"
TMP=$(mktemp -d)
TAG="okrv$$x$RANDOM"
trap 'pkill -KILL -f -- "$TAG" 2>/dev/null; rm -rf "$TMP"' EXIT
pass=0 failed=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
check() { if "${@:2}"; then ok "$1"; else bad "$1"; fi; }

mkdir -p "$BUILD/tests/jail/probe"
VB="$BUILD/tests/jail/probe/verdict_bot"
${CC:-cc} -std=c11 -O1 -Wall -Wextra -Werror -o "$VB" "$SRC/tests/jail/verdict_bot.c" ||
    { echo "FAIL cannot build verdict_bot"; exit 1; }

# verdict NAME VERDICT DETAIL-REGEX ARENA-FLAGS... -- BOT-ARGS
run() {
    local name=$1 flags=() args=()
    shift
    while [ "$1" != -- ]; do flags+=("$1"); shift; done
    shift
    args=("$@")
    "$ARENA" match --players 2 --games 2 --bot "$VB ${args[*]} $TAG" --bot @random \
        "${flags[@]}" --out "$TMP/$name" --quiet >/dev/null 2>"$TMP/$name.err"
}
# first verdict and detail of the bot, "VERDICT|detail"
first() {
    python3 - "$TMP/$1" <<'PY'
import json, sys
g = [json.loads(l) for l in open(sys.argv[1] + "/games.jsonl")]
v = [v for x in g for v in x["verdicts"]]
print("%s|%s" % (v[0]["verdict"], v[0]["detail"]) if v else "none|")
PY
}
expect() { # NAME VERDICT REGEX
    local got
    got=$(first "$1")
    if [[ "${got%%|*}" == "$2" && "${got#*|}" =~ $3 ]]; then return 0; fi
    echo "  got: $got" >&2
    return 1
}
mode=$("$ARENA" match --players 2 --games 2 --bot @random --bot @random --out "$TMP/m" \
    2>&1 >/dev/null | sed -n 's/^arena: sandbox: \([a-z-]*\).*/\1/p')
echo "# mode: $mode"

run mem --memory-mb 64 -- mem 400
if [ "$mode" = full ]; then
    check "MLE: 400 MiB under --memory-mb 64 in full mode: the cgroup's OOM killer, as evidence" \
        expect mem MLE "OOM killer.*memory limit of 64 MiB"
else
    check "MLE: 400 MiB under --memory-mb 64 (rlimits only): the out-of-memory message" \
        expect mem MLE "out of memory \(limit 64 MiB\).*cannot allocate memory"
fi
# runtimes' own out-of-memory deaths under rlimits: Go's message comes before kilobytes of
# stack dump (beyond the 2 KiB stderr tail); the JVM prints its message on stdout
run gooom --memory-mb 64 -- gooom
check "MLE: Go's \"fatal error: runtime: out of memory\" before 12 kB of dump" \
    expect gooom MLE "out of memory \(limit 64 MiB\).*fatal error: runtime: out of memory"
run jvmoom --memory-mb 64 -- jvmoom
check "MLE: the JVM's \"insufficient memory\" on stdout is no protocol error" \
    expect jvmoom MLE "out of memory \(limit 64 MiB\).*insufficient memory"
run memok --memory-mb 64 -- mem 16
check "16 MiB under --memory-mb 64: no MLE (RE for leaving before Ready)" \
    expect memok RE "exited with status 0 before Ready"
run ole --stdout-cap 1000 -- stdout
check "OLE: 60 kB on stdout with --stdout-cap 1000" expect ole OLE "more than 1000 bytes on stdout"
run noole -- stdout
check "the same 60 kB under the default cap of 1 MiB is no OLE (the frame is junk: PE)" \
    expect noole PE "not a FromBot"
run sv -- ptrace
check "SV: ptrace is killed by the filter (named when the kernel log is readable)" \
    expect sv SV "syscall ptrace|SIGSYS"
run exit7 -- exit 7
check "RE: pid 2's own exit code is the evidence (not the init's)" \
    expect exit7 RE "exited with status 7 before Ready"
run svoff --no-sandbox -- ptrace
check "--no-sandbox: the same ptrace is allowed (no SV)" \
    expect svoff RE "exited with status 0 before Ready"
check "results.json: every verdict key is present" \
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert all(sorted(b["errors"])==sorted(["RE","TLE","MLE","OLE","PE","IA","SV"]) for b in r["bots"])' \
    "$TMP/sv/results.json"
check "nothing left running" test -z "$(pgrep -f -- "$TAG")"

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
