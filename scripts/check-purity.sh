#!/usr/bin/env bash
# check-purity.sh SRC BUILD - check that the rules engine stays pure.
#
#   1. engine/src and engine/include (*.c *.h *.inc *.def) include only <stdint.h> <stddef.h>
#      <string.h> <limits.h> <assert.h> <stdbool.h> and quoted headers found in engine/src
#      or engine/include;
#   2. they use none of malloc calloc realloc free printf fprintf fopen rand srand time clock
#      getenv (as calls), float double long double _FloatN __float128, pthread*;
#   3. BUILD/engine/libokr_engine.a defines no mutable global (nm types b B d D, also C G g
#      S s), except .data.rel.ro (read-only after relocation: const tables of pointers
#      land there in position-independent code) and data the sanitizers generate
#      (__unnamed_N, __asan*, __ubsan*); r R t T are fine. It also must not call
#      any of the functions above, nor other stdio/stdlib/time functions.
#
# Checks 1-2 look at the code with comments (and, for 2, string and character literals)
# blanked out, so prose does not trip them. Every finding is printed as file:line: reason.
# Exit status: 0 pure, 1 impure, 2 usage or setup error.
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: $0 SOURCE_DIR BUILD_DIR" >&2
    exit 2
fi
SRC=$(cd "$1" && pwd)
BUILD=$(cd "$2" && pwd)
LIB="$BUILD/engine/libokr_engine.a"
status=0

# ---- 1 + 2: sources ---------------------------------------------------------------------------

python3 - "$SRC" <<'PY' || status=1
import os
import re
import sys

src = sys.argv[1]
roots = [os.path.join(src, "engine", "src"), os.path.join(src, "engine", "include")]
ALLOWED = {"stdint.h", "stddef.h", "string.h", "limits.h", "assert.h", "stdbool.h"}
CALLS = ("malloc calloc realloc free printf fprintf fopen rand srand time clock getenv").split()
# A call or address-of use of a banned function, not a struct member (x.free, x->free).
CALL_RE = re.compile(r"(?<![\w.])(?<!->)(" + "|".join(CALLS) + r")\s*\(")
WORD_RE = re.compile(r"\b(float|double|_Float\d+x?|__float128|_Complex|pthread\w*)\b")
INCLUDE_RE = re.compile(r"^\s*#\s*include(?:_next)?\b\s*(.*)$")
EXTS = (".c", ".h", ".inc", ".def")

sys.path.insert(0, os.path.join(src, "scripts"))
from csource import blank  # noqa: E402  comments and literals blanked, lines kept




def resolve(name, here):
    """A quoted header counts as a project header if it exists under engine/src or
    engine/include (searched from the including file's folder, then both roots)."""
    for base in [here] + roots:
        path = os.path.realpath(os.path.join(base, name))
        if os.path.isfile(path) and any(path.startswith(os.path.realpath(r) + os.sep)
                                        for r in roots):
            return path
    return None


files = []
for root in roots:
    for dirpath, _, names in os.walk(root):
        files += [os.path.join(dirpath, f) for f in sorted(names) if f.endswith(EXTS)]
if not files:
    print("check-purity: no engine sources found under %s/engine" % src)
    sys.exit(1)

bad = 0
for path in sorted(files):
    rel = os.path.relpath(path, src)
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    code = blank(text, keep_strings=True).split("\n")
    bare = blank(text, keep_strings=False).split("\n")
    for no, (line, bline) in enumerate(zip(code, bare), 1):
        m = INCLUDE_RE.match(line)
        if m:
            arg = m.group(1).strip()
            sys_m = re.fullmatch(r"<([^>]+)>", arg)
            usr_m = re.fullmatch(r'"([^"]+)"', arg)
            if sys_m and sys_m.group(1).strip() in ALLOWED:
                continue
            if usr_m and resolve(usr_m.group(1), os.path.dirname(path)):
                continue
            print("%s:%d: forbidden #include %s (allowed: <%s> and engine headers)"
                  % (rel, no, arg, "> <".join(sorted(ALLOWED))))
            bad += 1
            continue
        for m in CALL_RE.finditer(bline):
            print("%s:%d: forbidden call: %s()" % (rel, no, m.group(1)))
            bad += 1
        for m in WORD_RE.finditer(bline):
            print("%s:%d: forbidden in the engine: %s" % (rel, no, m.group(1)))
            bad += 1

if bad:
    print("check-purity: %d finding(s) in engine sources" % bad)
    sys.exit(1)
print("check-purity: %d engine source files clean" % len(files))
PY

# ---- 3: the built archive ---------------------------------------------------------------------

if [ ! -f "$LIB" ]; then
    echo "check-purity: $LIB not found (build the project first)"
    exit 1
fi

# Symbols in .data.rel.ro* are exempt: gather them per object file with objdump.
relro=$(objdump -t "$LIB" | awk '
    /^In archive/ { next }
    /:[ \t]+file format/ { obj = $1; sub(/:$/, "", obj); next }
    $0 ~ /[ \t]\.data\.rel\.ro/ { print obj " " $NF }')

mutable=$(nm -l --defined-only "$LIB" | RELRO="$relro" awk '
    BEGIN { n = split(ENVIRON["RELRO"], a, "\n"); for (i = 1; i <= n; i++) ok[a[i]] = 1 }
    /:$/ { obj = $1; sub(/:$/, "", obj); next }
    NF >= 3 && $2 ~ /^[bBdDCGgSs]$/ {
        if ((obj " " $3) in ok) next
        if ($3 ~ /^(__unnamed_[0-9]+|___?(asan|ubsan|sancov|odr_asan).*)$/) next
        where = (NF >= 4) ? $4 : obj
        printf "%s: mutable global %s (nm type %s, in %s)\n", where, $3, $2, obj
    }')
if [ -n "$mutable" ]; then
    echo "$mutable"
    echo "check-purity: libokr_engine.a has mutable globals (only const data and code allowed)"
    status=1
fi

banned='^(malloc|calloc|realloc|free|aligned_alloc|posix_memalign|alloca|printf|fprintf|sprintf|snprintf|vprintf|vfprintf|vsprintf|vsnprintf|puts|fputs|putchar|fputc|fwrite|fread|fopen|fclose|fflush|rand|srand|random|srandom|rand_r|drand48|time|clock|clock_gettime|gettimeofday|getenv|secure_getenv|exit|_exit|pthread_.*|__.*printf_chk)$'
calls=$(nm --undefined-only "$LIB" | awk -v re="$banned" '
    /:$/ { obj = $1; sub(/:$/, "", obj); next }
    $1 == "U" && $2 ~ re { printf "%s: calls %s\n", obj, $2 }')
if [ -n "$calls" ]; then
    echo "$calls"
    echo "check-purity: libokr_engine.a calls functions the engine must not use"
    status=1
fi

if [ "$status" -eq 0 ]; then
    echo "check-purity: libokr_engine.a has no mutable globals and no forbidden calls"
fi
exit "$status"
