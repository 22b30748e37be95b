#!/usr/bin/env bash
# deps.sh BUILD_DIR - the demo installs only what the demo needs: `install-deps.sh demo` lists
# the C build, Python and Node, none of the test suite's toolchains (Go, Rust, a JDK, the browsers: hundreds
# of MB), and scripts/demo.sh asks for that set; the default set (the test suite's) has both.
set -u
SRC=$(cd "$(dirname "$0")/../.." && pwd)
pass=0
failed=0
check() { if "${@:2}"; then pass=$((pass + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1"; fi; }
demo=$(bash "$SRC/scripts/install-deps.sh" demo --list)
all=$(bash "$SRC/scripts/install-deps.sh" test --list)
check "the demo set builds the arena and runs the starter bots" \
    bash -c "for p in cmake libseccomp-dev protobuf-c-compiler libjansson-dev libinih-dev python3-protobuf nodejs; do grep -qx \$p <<<'$demo' || exit 1; done"
check "the demo set has none of the test toolchains" \
    bash -c "! grep -Eqx 'golang-go|rustc|default-jdk-headless|valgrind|clang|chromium|firefox-esr|python3-dev|libclang-rt-14-dev' <<<'$demo'"
check "the test set is the demo set and the toolchains" \
    bash -c "for p in $(echo $demo) golang-go rustc default-jdk-headless chromium firefox-esr; do grep -qx \$p <<<'$all' || exit 1; done"
check "scripts/demo.sh installs the demo set" grep -q "install-deps.sh demo" "$SRC/scripts/demo.sh"
bash "$SRC/scripts/install-deps.sh" nonsense --list >/dev/null 2>&1
check "an unknown set is a usage error" test $? -eq 2
echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
