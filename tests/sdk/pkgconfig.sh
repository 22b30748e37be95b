#!/usr/bin/env bash
# pkgconfig.sh BUILD_DIR - a bot author's build: compile bots/random/random_bot.c with nothing
# but `pkg-config --cflags --libs okbot`, first against the build tree (okbot-uninstalled.pc),
# then against `cmake --install` into a fresh prefix; each program must then play a match.
set -u
BUILD=${1:?usage: pkgconfig.sh BUILD_DIR}
SRC=${OKR_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
ARENA="$BUILD/arena/arena"
CC=${CC:-cc}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 failed=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
check() { if "${@:2}"; then ok "$1"; else bad "$1"; fi; }

# sanitizer builds need the sanitizer runtime at link time too
EXTRA=()
[ "${OKR_SANITIZE:-0}" = 1 ] && EXTRA=(-fsanitize=address,undefined)

# build LABEL PKG_CONFIG_PATH OUT: compile the random bot with pkg-config's flags
build() {
    local flags
    flags=$(PKG_CONFIG_PATH=$2 pkg-config --cflags --libs okbot) || return 1
    echo "  $1: $CC ... $flags"
    # shellcheck disable=SC2086
    "$CC" -std=c11 -Wall -Wextra -Werror "${EXTRA[@]}" "$SRC/bots/random/random_bot.c" $flags -o "$3"
}

# plays OUT: the program plays a short match without an error
plays() {
    [ -x "$ARENA" ] || { echo "  (no arena: only starting the bot)"; "$1" </dev/null; return; }
    "$ARENA" match --quiet --rules gin --games 2 --bot "$1" --bot "$1 --seed 3" \
        --out "$TMP/m-$(basename "$1")" >/dev/null 2>&1 || return 1
    python3 - "$TMP/m-$(basename "$1")/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["complete"], "incomplete"
for b in r["bots"]:
    assert sum(b["errors"].values()) == 0, b["errors"]
    assert b["identify"]["name"] == "random", b["identify"]
PY
}

check "okbot-uninstalled.pc exists" test -f "$BUILD/sdk/c/okbot-uninstalled.pc"
check "build against the build tree" build tree "$BUILD/sdk/c" "$TMP/bot-tree"
check "the build-tree bot plays" plays "$TMP/bot-tree"

PREFIX="$TMP/prefix"
if cmake --install "$BUILD" --prefix "$PREFIX" >"$TMP/install.log" 2>&1; then
    ok "cmake --install into a fresh prefix"
else
    bad "cmake --install into a fresh prefix"
    cat "$TMP/install.log"
fi
PC=$(dirname "$(find "$PREFIX" -name okbot.pc | head -1)")
check "okbot.pc, okbot.h and okr/okr.h are installed" \
    test -f "$PC/okbot.pc" -a -f "$PREFIX/include/okbot.h" -a -f "$PREFIX/include/okr/okr.h"
# only the installed files: hide the build tree's .pc
check "build against the install" build install "$PC" "$TMP/bot-installed"
check "the installed bot plays" plays "$TMP/bot-installed"
check "the installed .pc names no build or source path" \
    bash -c "! grep -q -e '$BUILD' -e '$SRC' '$PC/okbot.pc'"

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
