#!/usr/bin/env bash
# demo.sh - install what is missing, build into build/, run a self-play demo.
# Exit status: the arena's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh
cmake -S . -B build
cmake --build build -j "$(nproc)"

status=0
build/arena/arena selfplay || status=$?
exit "$status"
