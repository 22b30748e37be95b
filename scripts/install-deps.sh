#!/usr/bin/env bash
# install-deps.sh [demo|test] [--list] - install the Debian 12 packages okarena needs, only those
# missing. `demo`: what building the arena and running the demo tournament needs (the C
# build, Python and Node for the starter bots); `test` (the default): that and what the test
# suite adds (clang, clang-format, valgrind, git, and the Go, Rust and Java toolchains of the
# positive sandbox suite, several hundred MB). Silent when everything is already installed;
# runs `apt-get update` only when something is missing. Needs root (or sudo). --list prints
# the set's packages, one a line, and installs nothing.
set -euo pipefail

SET=${1:-test}
DEMO=(
    build-essential cmake pkg-config
    libseccomp-dev libprotobuf-c-dev protobuf-c-compiler protobuf-compiler
    libevent-dev libcmocka-dev libjansson-dev libinih-dev libsqlite3-dev
    libarchive-dev zlib1g-dev
    python3 python3-protobuf
    nodejs npm
)
TEST=(
    git clang clang-format valgrind
    # wasm-ld, with clang: the engine's helpers for JavaScript bots in WebAssembly
    # (sdk/js/wasm; without them okbot/rules says how to get them)
    lld
    # libFuzzer and the sanitizer runtimes for clang (scripts/fuzz.sh, the fuzz step)
    libclang-rt-14-dev
    # the Python module okr (sdk/python/okr; skipped by a build without the headers) and
    # its tests
    python3-dev python3-pytest
    # okr's observations as numpy arrays (the module works without it; the test covers both)
    python3-numpy
    # `pip install ./sdk/python` into a venv, offline (sdk/python/setup.py, its test)
    python3-pip python3-setuptools python3-venv
    # toolchains of the positive sandbox suite (tests/hostile/positive.sh): a Go, Rust and
    # Java bot must play a clean match under the real seccomp profile
    golang-go rustc default-jdk-headless
    # the browser tests of the pages (tests/view/browser.sh): Debian's chromium, driven by
    # playwright-core from npm (below); never a browser downloaded by a test tool
    chromium
    # ... and Debian's Firefox (tests/view/firefox.sh), driven through its own Marionette
    # protocol by a python3 client: nothing else to install
    firefox-esr
)
case "$SET" in
demo) PACKAGES=("${DEMO[@]}") ;;
test) PACKAGES=("${DEMO[@]}" "${TEST[@]}") ;;
*)
    echo "usage: install-deps.sh [demo|test] [--list]" >&2
    exit 2
    ;;
esac
if [ "${2:-}" = --list ]; then
    printf '%s\n' "${PACKAGES[@]}"
    exit 0
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "install-deps: dpkg-query not found; this script supports Debian 12 only." >&2
    echo "install-deps: needed packages: ${PACKAGES[*]}" >&2
    exit 1
fi

installed() {
    [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" = "install ok installed" ]
}

missing=()
for pkg in "${PACKAGES[@]}"; do
    if installed "$pkg"; then
        continue
    fi
    # NodeSource's nodejs package bundles npm and conflicts with Debian's npm package.
    if [ "$pkg" = npm ] && command -v npm >/dev/null 2>&1; then
        continue
    fi
    missing+=("$pkg")
done

# playwright-core for tests/view/browser.mjs, pinned by tests/view/package-lock.json
npm_view() {
    [ "$SET" = test ] || return 0 # the demo needs no browser
    local dir
    dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tests/view"
    if [ ! -d "$dir/node_modules/playwright-core" ] && command -v npm >/dev/null 2>&1; then
        echo "install-deps: npm ci in tests/view (playwright-core)"
        # a failure is said, not fatal: tests/view/browser.sh then fails and names the cause
        (cd "$dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent) ||
            echo "install-deps: npm ci in tests/view failed; the browser tests will fail" >&2
    fi
}

if [ ${#missing[@]} -eq 0 ]; then
    npm_view
    exit 0
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO=(sudo)
    else
        echo "install-deps: missing ${missing[*]}; run as root to install them." >&2
        exit 1
    fi
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q "${missing[@]}"
npm_view
echo "install-deps: done"
