#!/usr/bin/env bash
# jail.sh BUILD_DIR - the jail seen from inside and from outside, through `arena match` with
# real processes: what a bot sees (tests/jail/probe_bot.c writes it to its log: pid 2 under
# our init, uid 1000, hostname "arena", fds 0-2 only, a fresh environment, no /tmp /sys
# /dev/shm /etc/shadow, no writes, no sockets), that its exit status is pid 2's own, and that
# nothing is left afterwards (no process, no cgroup directory, no file) - after a normal end,
# after Ctrl-C, and after the arena itself is SIGKILLed. As root it also runs the arena as
# user nobody (rootless mode). Modes the host cannot give are skipped with a note.
set -u
BUILD=$(cd "${1:?usage: jail.sh BUILD_DIR}" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
ARENA="$BUILD/arena/arena"
H="$BUILD/tests/helpers"
TMP=$(mktemp -d)
TAG="okrj$$x$RANDOM"
pass=0 failed=0
cleanup() {
    pkill -KILL -f -- "$TAG" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
check() { if "${@:2}"; then ok "$1"; else bad "$1"; fi; }
skip() { echo "skip $1"; }

[ -x "$ARENA" ] || { echo "FAIL no arena at $ARENA"; exit 1; }

# the probe lives in the build folder. The host's /tmp must be invisible: no /tmp at all, or,
# when the checkout itself is under /tmp (a CI clone), only the one entry leading to the
# probe's folder
PROBE_DIR="$BUILD/tests/jail/probe"
mkdir -p "$PROBE_DIR"
PROBE="$PROBE_DIR/probe_bot"
TMP_SEEN=ENOENT
case "$(realpath "$PROBE_DIR")" in
/tmp/*)
    rest=$(realpath "$PROBE_DIR")
    rest=${rest#/tmp/}
    TMP_SEEN="[${rest%%/*}]"
    ;;
esac
${CC:-cc} -std=c11 -O1 -Wall -Wextra -Werror -o "$PROBE" "$SRC/tests/jail/probe_bot.c" ||
    { echo "FAIL cannot build the probe"; exit 1; }
rm -f "$PROBE_DIR/probe-was-here" /probe-was-here 2>/dev/null

# facts LOG: "KEY VALUE" lines of the probe's first run
facts() { grep -m 200 '^probe ' "$1" | sed 's/^probe //' | awk '!seen[$0]++'; }
fact() { facts "$1" | awk -v k="$2" '$1 == k { sub(/^[^ ]+ /, ""); print; exit }'; }
is() { [ "$(fact "$1" "$2")" = "$3" ] || { echo "  $2 = '$(fact "$1" "$2")', expected '$3'" >&2; return 1; }; }
one_of() {
    local v
    v=$(fact "$1" "$2")
    for w in "${@:3}"; do [ "$v" = "$w" ] && return 0; done
    echo "  $2 = '$v', expected one of: ${*:3}" >&2
    return 1
}
env_only_allowed() {
    local bad_names
    bad_names=$(facts "$1" | awk '$1 == "env" { split($2, kv, "="); print kv[1] }' |
        grep -Ev '^(PATH|LANG|HOME|ASAN_OPTIONS|UBSAN_OPTIONS|GOMAXPROCS|GOMEMLIMIT|NODE_OPTIONS|UV_THREADPOOL_SIZE|PYTHONDONTWRITEBYTECODE|PYTHONNOUSERSITE|JAVA_TOOL_OPTIONS|OKBOT_PB2_DIR|OKBOT_NODE_MODULES|OKBOT_PROTO|PYTHONPATH|NODE_PATH)$')
    [ -z "$bad_names" ] || { echo "  unexpected variables: $bad_names" >&2; return 1; }
}
# py DIR EXPR...: python over results.json (r) and games.jsonl (g)
py() {
    python3 - "$@" <<'PY'
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/results.json"))
g = [json.loads(l) for l in open(d + "/games.jsonl")]
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
no_procs() {
    local p
    p=$(pgrep -f -- "$TAG")
    [ -z "$p" ] || { ps -o pid,ppid,stat,args -p "$(echo $p | tr ' ' ',')" >&2; return 1; }
}
# no cgroup directory of the arena whose pid is $1 is left
no_cgroups() {
    local left
    left=$(find /sys/fs/cgroup -maxdepth 6 -type d -name "okarena-$1-*" 2>/dev/null)
    [ -z "$left" ] || { echo "  left: $left" >&2; return 1; }
}
no_probe_files() { [ ! -e "$PROBE_DIR/probe-was-here" ] && [ ! -e /probe-was-here ]; }

# ---- 1. what the bot sees -------------------------------------------------------------------
out="$TMP/seen"
OKR_SECRET=hunter2 "$ARENA" match --players 2 --games 2 --bot "$PROBE $TAG" --bot @random \
    --out "$out" >"$out.stdout" 2>"$out.stderr"
rc=$?
log="$out/logs/slot0-probe_bot.log"
mode=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sandbox"]["mode"])' \
    "$out/results.json" 2>/dev/null)
check "the arena runs the probe (exit 0) in a namespaced mode (got '$mode')" \
    test "$rc" -eq 0 -a -f "$log" -a \( "$mode" = full -o "$mode" = no-cgroups -o "$mode" = rootless \)
check "the probe's summary line is printed once on stderr" \
    test "$(grep -c '^arena: sandbox: ' "$out.stderr")" -eq 1
check "the bot is pid 2, its parent our init (pid 1), and it sees only itself in /proc (hidepid)" \
    eval 'is "$log" pid 2 && is "$log" ppid 1 && is "$log" procs 1'
check "the bot runs as uid 1000 on host \"arena\"" \
    eval 'is "$log" uid 1000 && is "$log" hostname arena'
check "only fds 0, 1, 2 are open" is "$log" fds 0,1,2
check "a fresh environment: only the allowed variables, PATH and HOME set" \
    eval 'env_only_allowed "$log" && facts "$log" | grep -qx "env HOME=/nonexistent" &&
          facts "$log" | grep -qx "env LANG=C.UTF-8" && ! grep -q hunter2 "$log"'
check "no /tmp, /sys, /dev/shm or /etc/shadow" \
    eval 'is "$log" tmp "$TMP_SEEN" && is "$log" sys ENOENT && is "$log" devshm ENOENT &&
          is "$log" shadow ENOENT'
check "no writes, to / or to its own folder; no file appears" \
    eval 'one_of "$log" write_root EACCES EROFS EPERM &&
          one_of "$log" write_own_dir EACCES EROFS EPERM && no_probe_files'
check "no sockets" one_of "$log" socket EACCES EPERM
check "its exit status is pid 2's own (exit 0 before Ready), not the init's" \
    py "$out" "all(v['verdict'] == 'RE' and 'exited with status 0 before Ready' in v['detail'] for x in g for v in x['verdicts'])" \
    "len([v for x in g for v in x['verdicts']]) == 2"
check "results.json says the mode, the memory limit and the profile" \
    py "$out" "r['sandbox']['memory_mb'] == 256" "r['bots'][0]['profile'] == 'native'" \
    "sorted(r['bots'][0]['errors']) == sorted(['RE', 'TLE', 'MLE', 'OLE', 'PE', 'IA', 'SV'])"
check "nothing left: no process" no_procs

# ---- 1b. the network namespace: never the host's; one for the arena and all its bots as root
# where Landlock scopes abstract sockets (ABI 6), else one per bot (docs/sandbox.md)
netns_of() { sed -n 's/^probe netns //p' "$1" | head -1; }
two_probes() { # two_probes DIR [COMMAND PREFIX...]: a match of two probes, their netns ids
    local dir=$1
    shift
    "$@" "$ARENA" match --players 2 --games 1 --bot "$PROBE $TAG" --bot "$PROBE $TAG" \
        --out "$dir" >/dev/null 2>"$dir.stderr"
    ns0=$(netns_of "$dir/logs/slot0-probe_bot.log")
    ns1=$(netns_of "$dir/logs/slot1-probe_bot_2.log")
}
host_ns=$(readlink /proc/self/ns/net)
out="$TMP/net"
two_probes "$out"
sbjson=$("$ARENA" sandbox --json 2>/dev/null)
shared=$(python3 -c 'import json,sys; print(int(json.load(sys.stdin)["network"]["shared"]))' <<<"$sbjson")
llabi=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["capabilities"]["landlock"]["value"])' <<<"$sbjson")
check "neither bot is in the host's network namespace ($host_ns; bots: $ns0 $ns1)" \
    test -n "$ns0" -a -n "$ns1" -a "$ns0" != "$host_ns" -a "$ns1" != "$host_ns"
if [ "${llabi:-0}" -ge 6 ]; then
    check "with Landlock ABI $llabi: both bots share one namespace, said on stderr and by arena sandbox" \
        eval 'test "$shared" = 1 -a "$ns0" = "$ns1" &&
              grep -qx "arena: network: one empty network namespace for the arena, bots Landlock-scoped" "$out.stderr"'
else
    check "one network namespace per bot, said on stderr and by arena sandbox" \
        eval 'test "$shared" = 0 -a "$ns0" != "$ns1" && grep -q "^arena: network: a network namespace per bot" "$out.stderr"'
fi

# ---- 2. a real match: nothing left, no cgroup --------------------------------------------------
out="$TMP/match"
"$ARENA" match --players 3 --games 3 --bot "$H/okrh_good --name $TAG" \
    --bot "$H/okrh_good --name $TAG --seed 2" --bot "$H/okrh_full --name $TAG" \
    --out "$out" --quiet >/dev/null 2>&1 &
apid=$!
wait $apid
rc=$?
check "a match of helper bots in the jail completes without a verdict" \
    eval 'test $rc -eq 0 && py "$out" "r[\"complete\"]" "all(not x[\"verdicts\"] for x in g)"'
check "after the match: no process, no cgroup directory" eval 'no_procs && no_cgroups $apid'

# ---- 3. Ctrl-C in the middle ------------------------------------------------------------------
out="$TMP/int"
"$ARENA" match --players 3 --games 30 --bot "$H/okrh_slow --name $TAG --sleep-ms 50" \
    --bot "$H/okrh_good --name $TAG" --bot "$H/okrh_good --name $TAG --seed 3" \
    --out "$out" --quiet >/dev/null 2>&1 &
apid=$!
sleep 2
running=$(pgrep -f -- "$TAG" | wc -l)
# each init (a forked arena) shows "okarena-init BOT..." instead of the arena's command line
# (with the seed and every bot), which only the arena itself still has
inits=$(pgrep -f -- "^okarena-init .*$TAG" | wc -l)
arena_cmd=$(pgrep -f -- "--out $out" | tr '\n' ' ')
kill -INT $apid
wait $apid
rc=$?
check "SIGINT: the bots were running, the arena exits 1" test "$running" -ge 3 -a "$rc" -eq 1
if [ "$mode" != seccomp-only ]; then
    check "the inits' command lines name their bot, not the arena's (got $inits inits; '$arena_cmd')" \
        test "$inits" -eq 3 -a "$arena_cmd" = "$apid "
fi
check "SIGINT: no process, no cgroup directory left" eval 'no_procs && no_cgroups $apid'

# ---- 4. the arena SIGKILLed: the bots die with it --------------------------------------------
out="$TMP/kill"
"$ARENA" match --players 3 --games 30 --bot "$H/okrh_slow --name $TAG --sleep-ms 50" \
    --bot "$H/okrh_good --name $TAG" --bot "$H/okrh_hang --name $TAG --after 1000000" \
    --out "$out" --quiet >/dev/null 2>&1 &
apid=$!
sleep 2
running=$(pgrep -f -- "$TAG" | wc -l)
kill -KILL $apid
wait $apid 2>/dev/null
gone=0
for _ in $(seq 50); do
    if [ -z "$(pgrep -f -- "$TAG")" ]; then gone=1; break; fi
    sleep 0.1
done
check "SIGKILL of the arena: its $running bot processes die with it within 5 s" \
    test "$running" -ge 3 -a "$gone" -eq 1
if [ "$mode" = full ]; then
    # its cgroups are orphans now; the next arena (in full mode) sweeps them
    "$ARENA" match --players 2 --games 2 --bot "$H/okrh_good --name $TAG" --bot @random \
        --out "$TMP/sweep" --quiet >/dev/null 2>&1
    check "SIGKILL of the arena: the next arena removes its cgroup directories" no_cgroups $apid
else
    skip "cgroup sweep (mode $mode has no cgroups)"
fi

# ---- 5. --no-sandbox really is none ------------------------------------------------------------
out="$TMP/off"
OKR_SECRET=hunter2 "$ARENA" match --no-sandbox --players 2 --games 2 --bot "$PROBE $TAG" \
    --bot @random --out "$out" >/dev/null 2>"$out.stderr"
log="$out/logs/slot0-probe_bot.log"
check "--no-sandbox: a warning, the arena's environment, a host pid" \
    eval 'grep -q "warning: --no-sandbox" "$out.stderr" && grep -q "env OKR_SECRET=hunter2" "$log" &&
          [ "$(fact "$log" pid)" != 2 ] && py "$out" "r[\"sandbox\"][\"mode\"] == \"off\""'
# the positive control of the write checks: unconfined, the probe's files do appear
check "--no-sandbox: the probe's writes succeed (so the jail's refusals mean something)" \
    eval '[ -e "$PROBE_DIR/probe-was-here" ] && is "$log" write_own_dir ok'
rm -f "$PROBE_DIR/probe-was-here" /probe-was-here 2>/dev/null
check "--sandbox with an unknown mode is a usage error" \
    eval '"$ARENA" match --sandbox strong --bot @random >/dev/null 2>&1; [ $? -eq 2 ]'

# ---- 6. as nobody: rootless --------------------------------------------------------------------
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
    setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$ARENA" -a -r "$PROBE"; then
    NB=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    nbdir="$TMP/nobody"
    mkdir -p "$nbdir" && chmod 777 "$nbdir" "$TMP"
    "${NB[@]}" "$ARENA" match --players 2 --games 2 --bot "$PROBE $TAG" --bot @random \
        --out "$nbdir/seen" >/dev/null 2>"$nbdir/seen.stderr"
    rc=$?
    log="$nbdir/seen/logs/slot0-probe_bot.log"
    if [ "$rc" -eq 2 ] && grep -q "refusing" "$nbdir/seen.stderr"; then
        skip "rootless: this host gives user nobody no user namespace ($(grep -m1 'best sandbox' "$nbdir/seen.stderr"))"
    else
        check "nobody: rootless mode, pid 2 alone in /proc, uid 1000, fds 0-2, no /tmp, no writes" \
            eval 'py "$nbdir/seen" "r[\"sandbox\"][\"mode\"] == \"rootless\"" &&
                  is "$log" pid 2 && is "$log" procs 1 && is "$log" uid 1000 && is "$log" fds 0,1,2 &&
                  is "$log" tmp "$TMP_SEEN" && one_of "$log" write_root EACCES EROFS EPERM &&
                  one_of "$log" socket EACCES EPERM && no_probe_files'
        "${NB[@]}" "$ARENA" match --sandbox full --bot @random --out "$nbdir/full" \
            >/dev/null 2>"$nbdir/full.stderr"
        rc=$?
        check "nobody: --sandbox full is refused (exit 2) and says what is missing" \
            eval 'test $rc -eq 2 && grep -q "weaker than --sandbox full" "$nbdir/full.stderr"'
        "${NB[@]}" "$ARENA" match --sandbox full --insecure --players 2 --games 2 \
            --bot "$H/okrh_good --name $TAG" --bot @random --out "$nbdir/ins" \
            >/dev/null 2>"$nbdir/ins.stderr"
        rc=$?
        check "nobody: --insecure runs it anyway in rootless, with a warning" \
            eval 'test $rc -eq 0 && grep -q "warning: --insecure" "$nbdir/ins.stderr" &&
                  py "$nbdir/ins" "r[\"sandbox\"][\"mode\"] == \"rootless\"" "all(not x[\"verdicts\"] for x in g)"'
        check "nobody: nothing left running" no_procs
        two_probes "$nbdir/net" "${NB[@]}"
        if [ "${llabi:-0}" -ge 6 ]; then
            check "nobody: both bots share one network namespace (the arena's own user namespace), not the host's" \
                eval 'test -n "$ns0" -a "$ns0" = "$ns1" -a "$ns0" != "$host_ns" &&
                      grep -qx "arena: network: one empty network namespace for the arena, bots Landlock-scoped" "$nbdir/net.stderr"'
            # the second layer as nobody: jailed helpers without a filter reach nothing
            NETNS_TEST="$BUILD/tests/jail/jail_test_netns"
            if [ -x "$NETNS_TEST" ]; then
                check "nobody: with the filter off, Landlock refuses abstract sockets between bots and to the arena" \
                    eval '(cd "$nbdir" && "${NB[@]}" "$NETNS_TEST" >"$nbdir/netns_test.out" 2>&1)'
            fi
        else
            check "nobody: one network namespace per bot, neither the host's" \
                eval 'test -n "$ns0" -a -n "$ns1" -a "$ns0" != "$ns1" -a "$ns0" != "$host_ns" -a "$ns1" != "$host_ns" &&
                      grep -q "^arena: network: a network namespace per bot" "$nbdir/net.stderr"'
        fi
    fi
else
    skip "rootless as nobody (not root, no setpriv, or nobody cannot reach the build folder)"
fi

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
