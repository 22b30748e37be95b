#!/usr/bin/env bash
# fs_net.sh BUILD_DIR - hostile bots against the network, the file system and what a bot can
# see (sandbox research table (b) rows 1-11, 37, 41, 42). Each bot's call is refused with an
# errno it logs ("HB socket(AF_INET,SOCK_STREAM): EACCES"), then it plays on: the match goes on
# without a verdict, nothing reaches the host, no file appears, nothing is left running.
source "$(dirname "$0")/lib.bash" "$@"

# A secret the bots must not see: in the arena's environment, in host /tmp, in the match seed
export OKR_HOSTILE_SECRET="s3cr3t-$TAG"
echo "s3cr3t-$TAG" >"$TMP/secret"

# Host-side listeners: a TCP port on 127.0.0.1 and an abstract unix socket; any connection that
# arrives is written to $TMP/accepted
PORT=$((20000 + RANDOM % 20000))
"$PYTHON" - "$PORT" "$TAG" "$TMP/accepted" <<'PY' &
import os, select, socket, sys, time
port, tag, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
socks = []
t = socket.socket(); t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
t.bind(("127.0.0.1", port)); t.listen(8); socks.append(t)
u = socket.socket(socket.AF_UNIX); u.bind("\0" + tag); u.listen(8); socks.append(u)
end = time.time() + 600
while time.time() < end:
    r, _, _ = select.select(socks, [], [], 1)
    for s in r:
        c, a = s.accept()
        open(out, "a").write("accepted on %s\n" % s.getsockname())
PY
LISTENER=$!
trap 'kill $LISTENER 2>/dev/null; cleanup' EXIT
sleep 0.3

# ---- network -----------------------------------------------------------------------------
play net_tcp "$HB --mode net_tcp --tag @TAG@ --arg $PORT"
verdict net_tcp OK
has_line net_tcp "socket(AF_INET,SOCK_STREAM): EACCES"
has_line net_tcp "socket(AF_INET,SOCK_STREAM) loopback: EACCES"
has_line net_tcp "socket(AF_INET6,SOCK_STREAM): EACCES"

play net_udp "$HB --mode net_udp --tag @TAG@"
verdict net_udp OK
has_line net_udp "socket(AF_INET,SOCK_DGRAM): EACCES"
has_re net_udp "^HB getaddrinfo example.com: FAILED in [0-9]{1,3} ms$" # fails fast, < 1 s

play net_unix "$HB --mode net_unix --tag @TAG@ --arg $TAG"
verdict net_unix OK
has_line net_unix "socket(AF_UNIX,SOCK_STREAM): EACCES"

play net_raw "$HB --mode net_raw --tag @TAG@"
verdict net_raw OK
for fam in "(1<<32)|AF_VSOCK" AF_VSOCK AF_NETLINK AF_ALG AF_PACKET; do
    has_line net_raw "socket($fam): EACCES"
done
check "network: no connection reached the host's listeners" test ! -s "$TMP/accepted"

# ---- reading ----------------------------------------------------------------------------
# (the paths are given as "@PATH": the arena shows a bot the folder of a regular file on its
# command line (a script), which is not what this case is about; arg_bind below is)
play fs_read "$HB --mode fs_read --tag @TAG@ --arg @$ARENA --arg @$BUILD/arena --arg @$GOOD --arg @$BUILD/bots --arg @$TMP/secret --arg @$TMP --arg @$SRC/engine --arg @/etc/ssh"
verdict fs_read OK
for p in /etc/shadow /root /var/log "$ARENA" "$BUILD/arena" "$GOOD" "$BUILD/bots" "$TMP/secret" "$TMP" \
    "$SRC/engine" /etc/ssh; do
    has_line fs_read "read $p: ENOENT"
done
for p in /proc/1/root/etc/shadow /proc/1/cwd /proc/1/root/tmp; do
    has_re fs_read "^HB read $p: E[A-Z]+$"
done
no_line fs_read "s3cr3t"

# the arena's working folder with the match's own output in it (the usual `--out match-out`):
# the records of earlier games hold whole deals, which duplicate play deals again
PLAYCWD="$TMP/cwd" PLAYOUT=match-out
mkdir -p "$PLAYCWD"
play fs_read_cwd "$HB --mode fs_read --tag @TAG@ --arg @match-out --arg @match-out/records --arg @$PLAYCWD/match-out/records --arg @$PLAYCWD"
verdict fs_read_cwd OK
for p in match-out match-out/records "$TMP/cwd/match-out/records"; do
    has_line fs_read_cwd "read $p: ENOENT"
done
# the bot starts in the arena's working folder's path: an empty stand-in, not the real one
has_re fs_read_cwd "^HB read $TMP/cwd: (ENOENT|OK directory with 2 entries)$"

# The contract shows a bot its program's folder and, for an interpreter, its script's: not
# the folder of every word of its command line. Entrants choose their command lines; "."
# there would show the arena's working folder, with this match's records in it.
rm -rf "$PLAYCWD/match-out"
play arg_bind "$HB --mode fs_read --tag @TAG@ --arg . --arg $BUILD/bots --arg $PLAYCWD/match-out/records"
unset PLAYCWD PLAYOUT
verdict arg_bind OK
has_line arg_bind "read $BUILD/bots: ENOENT"
has_line arg_bind "read $TMP/cwd/match-out/records: ENOENT"

# ---- writing ----------------------------------------------------------------------------
play fs_write "$HB --mode fs_write --tag @TAG@ --arg @$BUILD --arg @$TMP"
verdict fs_write OK
no_line fs_write "^HB (create|O_TMPFILE|mkdir) .*: OK$"
check "fs_write: every create, O_TMPFILE and mkdir refused with EROFS, ENOENT or EACCES" \
    bash -c "test \$(grep -cE '^HB (create|O_TMPFILE|mkdir) .*: (EROFS|ENOENT|EACCES)$' '$LOG') -eq 30"
check "fs_write: no file appeared on the host" \
    bash -c "! ls -d '$BUILD/tests/hostile/$CT'* '$BUILD/$CT'* '/$CT'* '/tmp/$CT'* '/dev/shm/$CT'* '/var/tmp/$CT'* '$TMP/$CT'* 2>/dev/null | grep -q ."

play fs_bigfile "$HB --mode fs_bigfile --tag @TAG@"
verdict fs_bigfile OK
no_line fs_bigfile "^HB big file in .*: OK$"
has_re fs_bigfile "^HB big file in <exe dir>: E(ROFS|NOENT|ACCES)$"
has_re fs_bigfile "^HB RLIMIT_FSIZE: "

play paths "$HB --mode paths --tag @TAG@"
verdict paths OK
has_line paths 'open "": ENOENT'
has_line paths "open NULL: EFAULT"
has_line paths "open bad utf-8: ENOENT"
has_line paths "open %n%s%x: ENOENT"
has_line paths "open 5 KiB path: ENAMETOOLONG"
has_line paths "open 300-byte name: ENAMETOOLONG"
has_line paths "open 45 magic links: ELOOP"
check "paths: results.json stays valid JSON with the junk Identify name" \
    py "isinstance(h['identify']['name'], str) and h['identify']['name'].startswith('hb')"

play memfd "$HB --mode memfd --tag @TAG@"
verdict_in memfd SV MLE
[ "$KMSG" = 1 ] && grep -q '"SV"' "$OUT/games.jsonl" &&
    check "memfd: SV names memfd_create" py "all('memfd_create' in v['detail'] for v in verdicts)"

# ---- what a bot can see -----------------------------------------------------------------
play procinfo "$HB --mode procinfo --tag @TAG@ --arg @$TMP"
verdict procinfo OK
has_re procinfo "^HB mountinfo: OK [0-9]+ lines$"
has_line procinfo "mountinfo mentions marker 0: no"
has_line procinfo "cpuinfo: OK"
has_line procinfo "uptime: OK"
has_line procinfo "sysinfo: OK"
has_line procinfo "pid 2 ppid 1"
# /proc is mounted hidepid=2 and our init is not dumpable: the bot sees only itself
has_line procinfo "proc pids: 2"
has_re procinfo "^HB init cmdline: E[A-Z]+$"
no_line procinfo "987654321" # the match seed: with it a bot could deal every card
no_line procinfo "$GOOD"     # another bot's command line
has_re procinfo "^HB init environ: E[A-Z]+$"

play tty "$HB --mode tty --tag @TAG@"
verdict tty OK
# (EACCES: the filter refuses every open for writing before the path is even looked up)
has_re tty "^HB open /dev/tty: (ENOENT|ENXIO|EACCES)$"
has_line tty "ioctl(0,TIOCSTI): ENOTTY"
has_line tty "ioctl(2,TIOCSTI): ENOTTY"
has_line tty "ioctl(0,(1<<32)|TIOCSTI): ENOTTY"

play creds "$HB --mode creds --tag @TAG@"
verdict creds OK
has_re creds "^HB NoNewPrivs:\s+1$"
has_re creds "^HB Seccomp:\s+2$"
has_re creds "^HB CapEff:\s+0+$"
has_re creds "^HB /usr/bin: ro "
has_line creds "cwd: ro"

play fds_env "$HB --mode fds_env --tag @TAG@"
verdict fds_env OK
has_line fds_env "fds: 0 1 2"
has_line fds_env "fds above 2 by fcntl: 0"
has_line fds_env "env LANG=C.UTF-8"
has_line fds_env "env HOME=/nonexistent"
has_re fds_env "^HB env PATH=[^ ]+$"
# the contract: PATH, LANG, HOME and the runtimes' profile variables (and the SDKs' folders),
# nothing else of the arena's environment (a sanitized bot, the ASan build's, also gets the
# sanitizers' options: spawn.c jail_env)
SANVARS=
[ "${OKR_SANITIZE:-0}" = 1 ] && SANVARS="|ASAN_OPTIONS|UBSAN_OPTIONS"
check "fds_env: PATH, LANG, HOME and runtime profile variables only" \
    bash -c "! grep '^HB env [A-Za-z_]*=' '$LOG' | grep -qvE '^HB env (PATH|LANG|HOME|GOMAXPROCS|GOMEMLIMIT|UV_THREADPOOL_SIZE|NODE_OPTIONS|JAVA_TOOL_OPTIONS|PYTHON[A-Z]+|NODE_PATH|OKBOT_PB2_DIR|OKBOT_NODE_MODULES$SANVARS)='"
no_line fds_env "s3cr3t|OKR_"

play benign "$HB --mode benign --tag @TAG@"
verdict benign OK
for what in "isatty(0) TCGETS" "ioctl(0,FIONREAD)" "fcntl(0,F_GETFL)" "fcntl(0,F_SETFL,O_NONBLOCK)" \
    "poll(0)" "getrusage" "sched_yield" "pthread_create"; do
    has_line benign "$what: OK"
done

play timing "$HB --mode timing --tag @TAG@"
verdict timing OK
has_line timing "rdtsc: OK"
has_line timing "clock_gettime(MONOTONIC): OK"
has_line timing "clock_gettime(PROCESS_CPUTIME): OK"
has_line timing "/proc/stat: OK"

# ---- run twice: nothing persists --------------------------------------------------------
ipcs_before=$(ipcs 2>/dev/null | grep -c '^0x')
PLAYTAG="$TAG-persist-"
play persist1 "$HB --mode persist --tag @TAG@"
verdict persist1 OK
has_line persist1 "persist: found 0"
no_line persist1 "left a file"
play persist2 "$HB --mode persist --tag @TAG@"
unset PLAYTAG
verdict persist2 OK
has_line persist2 "persist: found 0"
check "persist: no new SysV IPC object on the host" test "$(ipcs 2>/dev/null | grep -c '^0x')" -le "$ipcs_before"

finish
