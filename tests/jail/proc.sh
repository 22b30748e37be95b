#!/usr/bin/env bash
# proc.sh BUILD_DIR - every path a jailed bot can read is in the list of docs/sandbox.md ("Every
# path a bot can read"), and none of them is a live host-wide counter. A native probe
# (proc_probe.c) walks all it is shown and reads every file twice, 200 ms of CPU apart; a path
# outside the list, or one whose text changed (LIVE), fails. A Python probe checks that the
# runtime still starts and that os.cpu_count() answers. As root, again as nobody (rootless).
set -u
BUILD=$(cd "${1:?usage: proc.sh BUILD_DIR}" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
ARENA="$BUILD/arena/arena"
TMP=$(mktemp -d /tmp/okr-proc.XXXXXX)
chmod 755 "$TMP"
trap 'rm -rf "$TMP"' EXIT
pass=0 failed=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }

if ! "$ARENA" sandbox 2>/dev/null | grep -Eq '^mode +(full|no-cgroups|rootless)'; then
    echo "skip: this host gives no jail (arena sandbox)"
    exit 0
fi
${CC:-cc} -std=c11 -O1 -Wall -Wextra -Werror -o "$TMP/probe" "$SRC/tests/jail/proc_probe.c" ||
    { echo "FAIL cannot build the probe"; exit 1; }
cat >"$TMP/probe.py" <<'PY'
import os, sys
print("CPUS %r" % (os.cpu_count(),), file=sys.stderr)
for f in ("loadavg", "uptime"):
    print("TEXT %s %s" % (f, open("/proc/" + f).read().strip()), file=sys.stderr)
PY
chmod 755 "$TMP/probe" "$TMP/probe.py"
# the documented list: the first word of each line of the fenced block after the marker
awk '/<!-- readable-paths -->/ {m = 1; next} m == 1 && /^```/ {m = 2; next}
     m == 2 && /^```/ {exit} m == 2 {print $1}' "$SRC/docs/sandbox.md" >"$TMP/list"
[ -s "$TMP/list" ] || { echo "FAIL no readable-paths list in docs/sandbox.md"; exit 1; }

# run AS... : the probes' stderr in $TMP/out-$tag.txt, then every check
run() {
    local tag=$1
    shift
    (cd "$TMP" && "$@" "$ARENA" check-bot --bot ./probe --stderr --decisions 1 >"$TMP/out-$tag.txt" 2>&1)
    (cd "$TMP" && "$@" "$ARENA" check-bot --bot "python3 probe.py" --stderr --decisions 1 \
        >"$TMP/py-$tag.txt" 2>&1)
    if ! grep -q '^DONE' "$TMP/out-$tag.txt"; then
        bad "$tag: the probe ran to its end"
        tail -5 "$TMP/out-$tag.txt"
        return
    fi
    ok "$tag: the probe ran to its end ($(grep '^DONE' "$TMP/out-$tag.txt"))"
    python3 - "$TMP/list" "$TMP/out-$tag.txt" "$TMP" <<'PY' && ok "$tag: every path it saw or read is in the documented list, none live" || bad "$tag: the documented list"
import sys
pats = [l.strip() for l in open(sys.argv[1]) if l.strip()]
shown = sys.argv[3]  # its program's folder: the program, shown by the rule "program"
def listed(p):
    if p == shown or p.startswith(shown + "/") or (shown + "/").startswith(p.rstrip("/") + "/"):
        return True
    for q in pats:
        if q.endswith("/**") and (p == q[:-3] or p.startswith(q[:-2])):
            return True
        if p == q:
            return True
    return False
bad = 0
for line in open(sys.argv[2]):
    w = line.rstrip("\n").split(" ", 1)
    if len(w) != 2 or w[0] not in ("SEE", "READ", "LIVE"):
        continue
    if w[0] == "LIVE":
        print("  live (changed while the probe spun): %s" % w[1]); bad = 1
    elif not listed(w[1]):
        print("  not in docs/sandbox.md's list: %s %s" % (w[0], w[1])); bad = 1
sys.exit(bad)
PY
    local miss=""
    for p in /sys /proc/sys /proc/pressure /proc/vmstat /proc/interrupts /proc/pid/loadavg \
        /proc/pid/stat /proc/pid/sys; do
        grep -q "^SEE $p\$" "$TMP/out-$tag.txt" && miss="$miss $p"
    done
    if [ -z "$miss" ]; then ok "$tag: no /sys, /proc/sys, pressure, vmstat, interrupts"; else bad "$tag: shown:$miss"; fi
    if grep -q '^TEXT loadavg 0.00 0.00 0.00 1/1 2$' "$TMP/py-$tag.txt" &&
        grep -q '^TEXT uptime 0.00 0.00$' "$TMP/py-$tag.txt"; then
        ok "$tag: /proc/loadavg and /proc/uptime are fixed texts"
    else
        bad "$tag: /proc/loadavg, /proc/uptime"; grep -E '^(TEXT|CPUS)' "$TMP/py-$tag.txt"
    fi
    if grep -Eq '^CPUS [1-9][0-9]*$' "$TMP/py-$tag.txt"; then
        ok "$tag: Python starts, os.cpu_count() answers ($(grep '^CPUS' "$TMP/py-$tag.txt"))"
    else
        bad "$tag: os.cpu_count()"; tail -5 "$TMP/py-$tag.txt"
    fi
}

run root
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    NB=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    if "${NB[@]}" "$ARENA" sandbox 2>/dev/null | grep -Eq '^mode +rootless'; then
        HOME=/nonexistent run nobody "${NB[@]}"
    else
        echo "skip rootless as nobody: no user namespace for nobody"
    fi
fi

echo "proc.sh: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
