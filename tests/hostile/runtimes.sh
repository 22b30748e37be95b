#!/usr/bin/env bash
# runtimes.sh BUILD_DIR - hostile bots in Python, Node, Go and Java (sandbox research table (b)
# rows 29, 39, 40): the same kernel-level reactions as for native code. Python: ctypes raw
# syscalls, os.fork, subprocess, multiprocessing, sockets, writes, __pycache__; Node:
# child_process, sockets, heap and Buffer hogs; Go and Java: memory hogs, Java's
# ProcessBuilder. A runtime that is not installed is skipped with a message.
source "$(dirname "$0")/lib.bash" "$@"

# The Python bot runs from a fresh copy, so "no file appears in its folder" (no __pycache__)
# is checkable. The interpreter is the real one behind `python3` (a pyenv shim is a shell
# script that forks, which no jail lets through).
PYBOT="$TMP/pybot"
mkdir -p "$PYBOT"
cp "$SRC/tests/hostile/py/hostile.py" "$SRC/tests/hostile/py/hbwire.py" "$PYBOT/"
PY3=$("$PYTHON" -c 'import sys; print(sys.executable)')
py_case() { # NAME MODE [ARENA_ARGS...]: hostile.py imports hbwire.py: its folder is declared
    PLAYFILES=$PYBOT play "$1" "$PY3 $PYBOT/hostile.py $2 --tag @TAG@" "${@:3}"
}

py_case py_good good
verdict py_good OK
has_line py_good "mode good"

py_case py_connect connect
verdict py_connect OK
has_line py_connect "connect 1.1.1.1:80: EACCES PermissionError"
has_line py_connect "connect 127.0.0.1: EACCES PermissionError"
has_re py_connect "^HB getaddrinfo: .*(gaierror|PermissionError)"
has_re py_connect "^HB getaddrinfo took [0-9]{1,3} ms$"

py_case py_write write
verdict py_write OK
has_re py_write "^HB write <bot dir>: E(ROFS|ACCES|NOENT) "
has_re py_write "^HB write /: E(ROFS|ACCES|NOENT) "
has_re py_write "^HB write /tmp: E(ROFS|ACCES|NOENT) "
has_re py_write "^HB tempfile: .*(FileNotFoundError|PermissionError|OSError)"
check "py_write: no __pycache__ and no file in the bot's folder" \
    test "$(ls -A "$PYBOT" | sort | tr '\n' ' ')" = "hbwire.py hostile.py "

py_case py_ctypes ctypes
verdict py_ctypes SV ptrace
py_case py_fork fork
verdict py_fork SV clone
no_line py_fork "os.fork: OK"
py_case py_subprocess subprocess
verdict_in py_subprocess SV
py_case py_mp mp
verdict_in py_mp SV OK
grep -q '"SV"' "$OUT/games.jsonl" || has_re py_mp "^HB multiprocessing: .*(Error|Exception)"
py_case py_mem mem "${MEMCLOCK[@]}"
verdict py_mem MLE
no_line py_mem "allocated 400 MiB"
py_case py_fds_env fds_env
verdict py_fds_env OK
has_line py_fds_env "fds: 0 1 2 3" # 3: the listing's own descriptor
no_line py_fds_env "s3cr3t|OKR_"

# ---- Node -------------------------------------------------------------------------------
if NODE=$(command -v node); then
    JS="$NODE $SRC/tests/hostile/js/hostile.js"
    play js_good "$JS good --tag @TAG@"
    verdict js_good OK
    # no process may start: killed (SV) or refused with an error the bot sees
    play js_child "$JS child --tag @TAG@"
    verdict_in js_child SV OK
    no_line js_child "child_process: OK"
    grep -q '"SV"' "$OUT/games.jsonl" || has_re js_child "^HB child_process: E[A-Z]+$"
    play js_binding "$JS binding --tag @TAG@"
    verdict_in js_binding SV OK
    no_line js_binding "process.binding spawn: OK"
    grep -q '"SV"' "$OUT/games.jsonl" || has_re js_binding "^HB process.binding spawn: E"
    play js_net "$JS net --tag @TAG@"
    verdict js_net OK
    has_line js_net "net.connect: EACCES"
    play js_mem_heap "$JS mem_heap --tag @TAG@" "${MEMCLOCK[@]}"
    verdict js_mem_heap MLE
    play js_mem_buffer "$JS mem_buffer --tag @TAG@" "${MEMCLOCK[@]}"
    verdict js_mem_buffer MLE
else
    skip "node: not installed"
fi

# ---- Go ---------------------------------------------------------------------------------
GOBOT="$BOTDIR/tests/hostile/positive/okpos_go"
if [ -x "$GOBOT" ]; then
    play go_mem "$GOBOT --mem @TAG@" "${MEMCLOCK[@]}"
    verdict go_mem MLE
else
    skip "go: the Go bot is not built (no golang-go)"
fi

# ---- Java -------------------------------------------------------------------------------
JCP="$BOTDIR/tests/hostile/positive/java/echobot.jar" # a jar: the jail shows a file named as an argument
if JAVA=$(command -v java) && [ -f "$JCP" ]; then
    # with the arena's default heap limit (JAVA_TOOL_OPTIONS), and with the bot's own larger
    # -Xmx (then the memory limit, not the heap, stops it)
    play java_mem "$JAVA -cp $JCP EchoBot --mem @TAG@" "${MEMCLOCK[@]}"
    verdict java_mem MLE
    no_line java_mem "allocated 400"
    play java_mem_xmx "$JAVA -Xmx1g -cp $JCP EchoBot --mem @TAG@" "${MEMCLOCK[@]}"
    verdict java_mem_xmx MLE
    no_line java_mem_xmx "allocated 400"
    play java_fork "$JAVA -cp $JCP EchoBot --fork @TAG@"
    verdict_in java_fork SV
    no_line java_fork "ProcessBuilder: OK"
else
    skip "java: no java or the Java bot is not built (no default-jdk-headless)"
fi

finish
