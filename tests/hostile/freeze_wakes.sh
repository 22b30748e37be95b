#!/usr/bin/env bash
# freeze_wakes.sh BUILD_DIR - what freezing a bot between its decisions costs (issue 20,
# docs/sandbox.md "Bots run only while they decide"): in the jailed modes the arena stops and
# continues the program alone, and the jail's init (pid 1, the program's parent) sleeps through
# all of it. The init waits for the program's exit in sigwaitinfo with SA_NOCLDSTOP; a parent
# asleep in wait4 is woken by every stop and continue of its child (and the cgroup freezer
# would freeze and thaw it too), two wake-ups for nothing per change of seat.
#
# Two C random bots play gin (thousands of decisions a second, a stop and a continue of each
# at every change of seat); over about a second of play the test reads the context switches of
# each init and of its program from /proc, and checks that the program switched many times
# (it decided and was stopped) while its init did not (at most 5: nothing per freeze).
source "$(dirname "$0")/lib.bash" "$@"

case "$MODE" in
full | no-cgroups | rootless) ;;
*) skip_all "sandbox mode '$MODE' has no init (no pid namespace)" ;;
esac

switches() { # switches PID -> voluntary + involuntary context switches so far (empty: gone)
    awk '/^voluntary_ctxt_switches|^nonvoluntary_ctxt_switches/ {n += $2; s = 1}
         END {if (s) print n}' "/proc/$1/status" 2>/dev/null
}

out="$TMP/fw"
"$ARENA" match --rules gin --players 2 --games 200 --seed 1 \
    --bot "$GOOD --seed 1" --bot "$GOOD --seed 2" \
    --decision-ms 10000 --hard-ms 20000 --out "$out" --quiet >"$out.out" 2>"$out.err" &
apid=$!
inits=""
for ((i = 0; i < 100; i++)); do # up to 10 s for both bots to start (ASan, a loaded machine)
    inits=$(pgrep -P "$apid" -x okarena-init | tr '\n' ' ')
    [ "$(wc -w <<<"$inits")" -ge 2 ] && break
    sleep 0.1
done
check "the arena started two jailed bots (inits: $inits)" test "$(wc -w <<<"$inits")" -ge 2
declare -A prog init0 prog0
for p in $inits; do
    prog[$p]=$(pgrep -P "$p" | head -1)
done
sleep 0.5 # past the start-up (both bots run together until Ready)
for p in $inits; do
    init0[$p]=$(switches "$p")
    prog0[$p]=$(switches "${prog[$p]:-0}")
done
sleep 1
for p in $inits; do
    i1=$(switches "$p") g1=$(switches "${prog[$p]:-0}")
    if [ -z "${init0[$p]}" ] || [ -z "$i1" ] || [ -z "${prog0[$p]}" ] || [ -z "$g1" ]; then
        bad "init $p: the match ended before a second of play was measured"
        continue
    fi
    di=$((i1 - init0[$p])) dg=$((g1 - prog0[$p]))
    echo "     init $p: $di context switches in 1 s; its program ${prog[$p]}: $dg"
    check "init $p: its program decided and was stopped ($dg switches >= 200)" test "$dg" -ge 200
    check "init $p: not woken by the stops and continues ($di switches <= 5)" test "$di" -le 5
done
kill -INT "$apid" 2>/dev/null
wait "$apid"
gone() { # the inits and programs of this arena, and its cgroups, are gone within 1 s
    local i p
    for ((i = 0; i < 10; i++)); do
        p=$(for q in $inits "${prog[@]}"; do [ -d "/proc/$q" ] && echo "$q"; done)
        [ -z "$p" ] && break
        sleep 0.1
    done
    [ -z "$p" ] && [ -z "$(find /sys/fs/cgroup -maxdepth 6 -name "okarena-$apid-*" 2>/dev/null)" ]
}
check "nothing left running, no cgroup left" gone
finish
