#!/usr/bin/env bash
# install-deps.sh - install the Debian 12 packages okarena needs, only those missing.
# Silent when everything is already installed; runs `apt-get update` only when something is
# missing. Needs root (or sudo).
set -euo pipefail

PACKAGES=(
    build-essential cmake pkg-config git
    libseccomp-dev libprotobuf-c-dev protobuf-c-compiler protobuf-compiler
    libevent-dev libcmocka-dev libjansson-dev libinih-dev
    python3 python3-protobuf
    # the Python module okr (sdk/python/okr): headers to build it, pytest to test it
    python3-dev python3-pytest
    clang clang-format valgrind
    nodejs npm
    # toolchains of the positive sandbox suite (tests/hostile/positive.sh): a Go, Rust and
    # Java bot must play a clean match under the real seccomp profile
    golang-go rustc default-jdk-headless
)

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

if [ ${#missing[@]} -eq 0 ]; then
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
echo "install-deps: done"
