#!/usr/bin/env bash
# build.sh BUILD_DIR - the build step of an upload (`arena league add DIR NAME --archive FILE
# --cmd COMMAND --build COMMAND --build-secs N`, docs/league.md "Archive submissions"), run in
# the jail: builds that fail, fork without end (stopped by the task limit, or by the time
# limit when they never give up), flood their output, never end, write a file over the size
# limit, leave a daemon, write outside their folder
# or reach for the network are refused (or kept in) with a clear reason, leave no
# process behind, and change nothing outside the version's folder: a sentinel folder, the
# league's folder and the folder around it keep their listings. A C bot using the C SDK
# (okbot.h, libokbot.a: shown to the build) builds and passes its check.
source "$(dirname "$0")/../tour/lib.bash" "$@"

mode=$("$ARENA" sandbox 2> /dev/null | sed -n 's/^mode  *//p')
case "$mode" in
full | no-cgroups | rootless) ;;
*)
    echo "SKIP: the sandbox here is '$mode'; a build step needs the jail"
    exit 77
    ;;
esac

L="$TMP/lg"
S="$TMP/sentinel"
W="$TMP/w" # scratch: archives, sources, outputs
mkdir -p "$S/sub" "$TMP/arch" "$TMP/src" "$W"
echo keep > "$S/keep"
echo deep > "$S/sub/file"
cat > "$TMP/t.league" << T
[league]
name = up
rules = gin
seats = 2
seed = 5
bootstrap = 50
jobs = 2
[clocks]
decision_ms = 500
hard_ms = 3000
[entrant random]
command = @random
[entrant greedy]
command = @greedy
T
"$ARENA" league init "$L" "$TMP/t.league" > /dev/null || { echo "FAIL: init" >&2; exit 1; }
B="$L.bots"

sql() {
    python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1], timeout=30)
for r in c.execute(sys.argv[2], sys.argv[3:]):
    print("|".join(map(str, r)))' "$L/league.db" "$@"
}
# the world outside the versions' folders: the sentinel, the folder around everything (but the
# archives and sources), the league's folder without its database, and DIR.bots without the
# versions' folders, their logs and the locks
world() {
    (cd "$TMP" && find . -maxdepth 1 ! -name w ! -name src ! -name lg.bots -printf '%y %p\n' | sort &&
        find sentinel -printf '%y %m %s %p\n' | sort && find sentinel -type f -exec md5sum {} + | sort &&
        find lg ! -name 'league.db*' -printf '%y %m %p\n' | sort)
    # DIR.bots holds the entrants' folders, each its versions' folders, their logs and a lock
    [ -d "$B" ] && (cd "$B" && find . -mindepth 1 -maxdepth 1 ! -type d -printf '%y %p\n' &&
        find . -mindepth 2 -maxdepth 2 ! -name 'v*' ! -name .lock -printf '%y %p\n')
}
before=$(world)

before=$(world)

# --- build steps -----------------------------------------------------------------------------------
# build NAME SECS SCRIPT: a .tar.gz of build.sh (SCRIPT), added with --build "sh build.sh"
build() {
    mkdir -p "$TMP/src/$1"
    printf '%s\n' "$3" > "$TMP/src/$1/build.sh"
    tar czf "$W/$1.tgz" -C "$TMP/src/$1" .
    local t0=$(date +%s%N)
    "$ARENA" league add "$L" "$1" --archive "$W/$1.tgz" --cmd "python3 build.sh" \
        --build "sh build.sh" --build-secs "$2" > "$W/$1.out" 2> "$W/$1.err"
    rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
}
refused() { # NAME WHAT: exit 1, WHAT in stderr and in the stored reason, no folder left
    check "$1: refused (exit 1) in $ms ms: $(head -c 200 "$W/$1.err")" test "$rc" -eq 1
    check "$1: ... saying '$2'" grep -qF -- "$2" "$W/$1.err"
    check "$1: ... stored with the reason" \
        test "$(sql "SELECT status, instr(reason, ?1) > 0 FROM entrants WHERE name = ?2" "$2" "$1")" = "refused|1"
    check "$1: ... its folder removed, its log kept" eval "[ ! -e '$B/$1/v1' ] && [ -f '$B/$1/v1.build.log' ]"
    check "$1: ... nothing outside changed" test "$before" = "$(world)"
}

build fails 20 'echo "compiling..."; echo "bot.c:3: error: expected ;" >&2; exit 3'
refused fails "exit status 3"
check "fails: ... the log's end in the reason" grep -q "bot.c:3: error: expected ;" "$W/fails.err"

# a fork bomb: the task limit stops it (sh gives up: "Cannot fork")
build forks 20 'while :; do sleep 4321 & done'
refused forks "Cannot fork"
check "forks: no process of it left" noproc "sleep 4321"
# ... and one that never gives up: the time limit
build forks2 3 'exec bash -c "while :; do sleep 4322 & done" 2> /dev/null'
refused forks2 "stopped after 3 s, its time limit"
check "forks2: no process of it left" noproc "sleep 4322"

build floods 20 'yes flood-line'
refused floods "its output passed 1048576 bytes"
check "floods: stopped at once (${ms} ms)" test "$ms" -lt 10000
check "floods: its log is capped" test "$(stat -c %s "$B/floods/v1.build.log")" -lt $((1048576 + 4096))

build sleeps 2 'echo started; exec sleep 8765'
refused sleeps "stopped after 2 s, its time limit"
check "sleeps: stopped on time (${ms} ms)" test "$ms" -lt 8000
check "sleeps: no process of it left" noproc "sleep 8765"

build daemon 20 'setsid sh -c "sleep 5678" > /dev/null 2>&1 < /dev/null & echo left a daemon'
check "daemon: a build that leaves a process behind succeeds" test "$rc" -eq 0
check "daemon: ... and the process dies with its jail" noproc "sleep 5678"

# a file over the size limit (64 MiB). (More than the folder may hold, 512 MiB or 20000
# files, is stopped the same way, by a look at the folder twice a second: too slow a test on
# a loaded disk.)
build bigfile 20 'exec head -c 70000000 /dev/zero > big'
refused bigfile "a file over its size limit"

# writes everywhere but its folder: all fail, the build itself succeeds
build writer 20 "touch '$S/evil' /tmp/evil-okr ../evil '$L/evil' 2>&1; echo x >> '$S/keep'; rm -rf '$S/sub' 2>&1; mkdir /evil 2>&1; ls '$L' 2>&1; true"
check "writer: a build that tries to write outside its folder: added" test "$rc" -eq 0
check "writer: ... nothing outside changed" test "$before" = "$(world)"
check "writer: ... no /tmp/evil-okr" test ! -e /tmp/evil-okr
check "writer: ... it could not see the league's folder" grep -q "No such file" "$B/writer/v1.build.log"

# the C SDK in the jail: a C bot that #includes okbot.h and links libokbot builds, and passes
# its check
mkdir -p "$TMP/src/cbot"
cp "$SRC/bots/random/random_bot.c" "$TMP/src/cbot/bot.c"
tar czf "$W/cbot.tgz" -C "$TMP/src/cbot" .
# a sanitized build's archives need the sanitizers' runtimes at the link
san=
[ "${OKR_SANITIZE:-}" = 1 ] && san="-fsanitize=address,undefined"
"$ARENA" league add "$L" cbot --archive "$W/cbot.tgz" --cmd ./bot --build \
    "cc -O2 $san -o bot bot.c -lokbot -lokrpb -lokr_engine -lprotobuf-c -lm" >"$W/cbot.out" 2>"$W/cbot.err"
check "cbot: a C bot using the C SDK (okbot.h, libokbot) builds in the jail: $(head -c 300 "$W/cbot.err")" \
    test $? -eq 0 -a -x "$B/cbot/v1/bot"
check "cbot: ... nothing outside changed" test "$before" = "$(world)"
# the check plays it (the built-ins' sets too: a few sets in all)
"$ARENA" league run "$L" --sets 2 --jobs 1 --quiet >/dev/null 2>&1
check "cbot: ... and it passes its check" test "$(sql "SELECT status FROM entrants WHERE name = 'cbot'")" = active
before=$(world)

build net 20 'python3 -c "import socket; socket.create_connection((\"1.1.1.1\", 53), 2)"'
refused net "exit status 1"
check "net: no network (the log says why)" grep -qiE "unreachable|network|resolution" "$B/net/v1.build.log"

finish
