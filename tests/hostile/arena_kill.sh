#!/usr/bin/env bash
# arena_kill.sh BUILD_DIR - the arena itself dies or is interrupted mid-game (sandbox research
# table (b) row 38): SIGKILL (no clean-up code runs: every bot, its init and any child must die
# with it, within a short bounded wait; the next arena sweeps the dead one's cgroups), SIGINT
# and SIGTERM (exit 1, "interrupted", partial results, nothing left, no cgroup left).
source "$(dirname "$0")/lib.bash" "$@"

# gone TAG: no process whose command line holds TAG within 3 s
gone() { # (pgrep's output is not wanted in the test's log)
    local i
    for i in $(seq 30); do
        pgrep -f -- "$1" >/dev/null || return 0
        sleep 0.1
    done
    ps -o pid,ppid,stat,args -p "$(pgrep -f -- "$1" | tr '\n' ',' | sed 's/,$//')" >&2
    return 1
}
quiet() { "$@" >/dev/null; }
cgroups_of() { find /sys/fs/cgroup -maxdepth 6 -name "okarena-$1-*" 2>/dev/null; }

# start_match NAME HOSTILE_MODE: a long match in the background (APID); the hostile bot and
# the good bot are tagged; waits until both bots have played (decisions are flowing)
start_match() {
    local name=$1 mode=$2
    CT="${TAG}-${name}-"
    GSEED=$((800000000 + RANDOM))
    OUT="$TMP/$name"
    (cd "$BUILD" && exec "$ARENA" match --rules gin --players 2 --games 40 --seed 5 \
        --bot "$HB --mode $mode --tag $CT" --name hostile --bot "$GOOD --seed $GSEED" --name good \
        --startup-ms 5000 --decision-ms 5000 --bank-ms 5000 --hard-ms 5000 \
        --out "$OUT" --quiet >"$OUT.out" 2>"$OUT.err") &
    APID=$!
    local i
    for i in $(seq 50); do
        [ -n "$(cgroups_of "$APID")" ] && pgrep -f -- "$CT" >/dev/null && [ -s "$OUT/logs/slot0-hostile.log" ] && break
        sleep 0.1
    done
    sleep 0.5
    check "$name: the match is under way (bots running)" quiet pgrep -f -- "--tag $CT"
}

for mode in slow busy ignore_term; do
    name="sigkill_$mode"
    start_match "$name" "$mode"
    n_before=$(pgrep -f -- "$CT" | wc -l)
    kill -KILL "$APID"
    wait "$APID" 2>/dev/null
    check "$name: every bot, init and child dies with the arena (had $n_before)" gone "$CT"
    check "$name: the good bot dies too" gone "--seed $GSEED\$"
    dead=$APID
    stale=$(cgroups_of "$dead" | wc -l)
    # the next arena sweeps the dead arena's cgroups
    "$ARENA" match --rules gin --players 2 --games 2 --rule max_hands=1 --bot "$GOOD" --bot "$GOOD" \
        --out "$TMP/$name-next" --quiet >/dev/null 2>&1
    check "$name: the next arena removes the dead one's cgroups (there were $stale)" \
        test -z "$(cgroups_of "$dead")"
done

for sig in INT TERM; do
    name="sig${sig,,}"
    start_match "$name" slow
    kill -"$sig" "$APID"
    wait "$APID"
    rc=$?
    check "$name: the arena exits 1 (got $rc)" test "$rc" -eq 1
    check "$name: it says it was interrupted" grep -q "interrupted" "$OUT.err"
    check "$name: every bot is gone" gone "$CT"
    check "$name: the good bot is gone" gone "--seed $GSEED\$"
    check "$name: no cgroup left" test -z "$(cgroups_of "$APID")"
    check "$name: partial results are readable" py "r['complete'] is False or r['games'] < 40"
done

finish
