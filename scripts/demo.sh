#!/usr/bin/env bash
# demo.sh - install what the demo is missing (install-deps.sh demo: not the test suite's
# toolchains), build into build/, run the demo tournament
# (tournaments/demo.tour: the starter bots of every language, about a minute on 2 cores).
# Its results go to demo-out/ (replaced on every run). Exit status: the arena's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh demo
cmake -S . -B build
cmake --build build -j "$(nproc)"

rm -rf demo-out
status=0
build/arena/arena tournament tournaments/demo.tour --out demo-out || status=$?
# the page to look at: standings, plots, every game's replay (docs/report.md)
if [ -s demo-out/results.json ]; then
    build/arena/arena report demo-out --format html -o demo-out/report.html >/dev/null || status=$?
    echo "report: demo-out/report.html (open it in a browser; every game's replay is linked)"
fi
exit "$status"
