#!/usr/bin/env bash
# fuzz.sh TARGET|all SECONDS [LIBFUZZER-FLAG...] - run the libFuzzer target tests/fuzz/fuzz_TARGET
# (or every target, OKR_FUZZ_JOBS at once, default one per core) for SECONDS each, under
# ASan + UBSan, on its seed corpus
# (tests/fuzz/corpus/TARGET, read only) and a working corpus that keeps what it finds
# (build-fuzz/corpus/TARGET). Builds build-fuzz/ first (CC=clang, -DOKR_FUZZ=ON; Debian's
# clang and libclang-rt-14-dev). A crash, a leak, a timeout (10 s an input) or a failed check
# stops that target; the input is saved as build-fuzz/artifacts/TARGET/crash-* and the exit
# status is non-zero. Reproduce with: build-fuzz/tests/fuzz/fuzz_TARGET FILE.
# Prints one line per target: executions, coverage (libFuzzer's cov: and ft:), corpus size.
#   bash scripts/fuzz.sh engine 600          # ten minutes on the engine
#   bash scripts/fuzz.sh all 20              # what scripts/test.sh runs
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2

if [ $# -lt 2 ]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
target=$1 seconds=$2
shift 2
BUILD=${OKR_FUZZ_BUILD:-build-fuzz}
all=$(cd tests/fuzz && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//')
if [ "$target" = all ]; then
    targets=$all
elif grep -qx "$target" <<<"$all"; then
    targets=$target
else
    echo "fuzz.sh: no target '$target'; the targets are:" $all >&2
    exit 2
fi

if ! command -v clang >/dev/null; then
    echo "fuzz.sh: clang is not installed (scripts/install-deps.sh)" >&2
    exit 2
fi
# OKR_WERROR stays off: clang warns where gcc does not, and the fuzz build is not the place
# to fail on a warning (the gcc builds of scripts/test.sh are).
mkdir -p "$BUILD"
blog="$BUILD/fuzz-build.log"
CC=clang cmake -S . -B "$BUILD" -DOKR_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$blog" 2>&1 ||
    { cat "$blog"; exit 2; }
# shellcheck disable=SC2046
cmake --build "$BUILD" -j "$(nproc 2>/dev/null || echo 2)" --target $(sed 's/^/fuzz_/' <<<"$targets") \
    >>"$blog" 2>&1 || { tail -40 "$blog"; exit 2; }

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# run_one TARGET: one target for $seconds, its summary line (and on failure the evidence) in
# $BUILD/fuzz_TARGET.result; exit status non-zero on a failure
run_one() {
    local t=$1 work="$BUILD/corpus/$1" art="$BUILD/artifacts/$1" log="$BUILD/fuzz_$1.log"
    local res="$BUILD/fuzz_$1.result" dict=() seeds=() rc=0
    mkdir -p "$work" "$art"
    case $t in
    replay | journal | merge) dict=(-dict=tests/fuzz/record.dict) ;;
    tourfile) dict=(-dict=tests/fuzz/tour.dict) ;;
    esac
    [ -d "tests/fuzz/corpus/$t" ] && seeds=("tests/fuzz/corpus/$t")
    # -close_fd_mask=3: the commands' own output (stdout, stderr) is not the fuzzer's
    "$BUILD/tests/fuzz/fuzz_$t" "$work" "${seeds[@]}" "${dict[@]}" -max_total_time="$seconds" \
        -timeout=10 -rss_limit_mb=2048 -max_len=8192 -close_fd_mask=3 -print_final_stats=1 \
        -artifact_prefix="$art/" "${extra[@]}" >"$log" 2>&1 || rc=$?
    local done_line execs cov
    done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\) corp: \([0-9]*\).*/cov \1, ft \2, corpus \3/p' <<<"$done_line")
    if [ "$rc" -eq 0 ]; then
        echo "fuzz_$t: ${execs:-?} executions in ${seconds} s, ${cov:-no stats}, 0 crashes" >"$res"
    else
        {
            echo "fuzz_$t: FAILED (exit $rc) after ${execs:-?} executions; log $log:"
            grep -E 'ERROR|SUMMARY|fuzz_[a-z]+:|Test unit written|artifact' "$log" | head -20
        } >"$res"
    fi
    return "$rc"
}

# OKR_FUZZ_JOBS targets at once (default: one per core), each for the full $seconds on a core
# of its own: the same fuzzing per target, in a fraction of the wall time
extra=("$@")
jobs=${OKR_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || jobs=1
failed=0
running=0
for t in $targets; do
    rm -f "$BUILD/fuzz_$t.result"
    if [ "$running" -ge "$jobs" ]; then
        wait -n || failed=1
        running=$((running - 1))
    fi
    run_one "$t" &
    running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
    wait -n || failed=1
    running=$((running - 1))
done
for t in $targets; do # in order, whatever order they finished in
    cat "$BUILD/fuzz_$t.result" 2>/dev/null || { echo "fuzz_$t: no result"; failed=1; }
done
exit "$failed"
