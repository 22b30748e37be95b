#!/usr/bin/env bash
# pace.sh BUILD_DIR - what remains of issue 20, said plainly: a bot sees how long the others
# took to move. Two colluders at a 2-seat gin table: the sender takes 1 ms or 6 ms over each
# decision of its turn (a bit per turn, agreed from the turn: tests/hostile/collude_bot.c
# --role time), the receiver times the gap between its Choice and its next Decision.
#   without pace: the receiver decodes better than chance (one-sided binomial p < 0.001);
#   with --pace 60 (longer than any of the sender's decisions, with room for a loaded machine):
#     no better than chance either way round (two-sided p >= 0.001), and the bits per move
#     (tests/hostile/timing_judge.py) are printed.
# The 5 ms between a 0 and a 1 is half of a 10 ms kernel tick and a quarter past 4 ms: when the
# arena's loop timers ran on the coarse clock (one tick behind), the pace wait woke past its
# due time by an amount set by where in the tick the sender answered, and in CI (cgroup v1,
# freezing by signals) 84 of 119 bits got through --pace 60 (arena/match/loop.c).
# About 15 s.
source "$(dirname "$0")/lib.bash" "$@"

COL="$BOTDIR/tests/hostile/okcollude"
JUDGE="$(dirname "$0")/timing_judge.py"
[ -x "$COL" ] || { bad "okcollude is not built"; finish; }

for pace in 0 60; do
    out="$TMP/pace-$pace"
    "$ARENA" match --rules gin --players 2 --games 2 --rule max_hands=2 --seed 3 \
        --bot "$COL --role time --ms 5 --tag $TAG" --name sender \
        --bot "$COL --role timerecv --tag $TAG" --name receiver \
        --decision-ms 2000 --bank-ms 0 --hard-ms 4000 --pace "$pace" --out "$out" --quiet \
        >"$out.out" 2>"$out.err" &
    apid=$!
    wait "$apid"
    rc=$?
    check "pace $pace: the match ran (rc $rc)" test "$rc" -eq 0
    check "pace $pace: nothing left running, no cgroup left" leftovers "$TAG" "$apid"
    "$PYTHON" "$JUDGE" "$out/logs/slot0-sender.log" "$out/logs/slot1-receiver.log" 2 >"$out.judge"
    read -r _ k n p < <(grep '^hits' "$out.judge")
    cap=$(sed -n 's/^capacity //p' "$out.judge")
    mi=$(sed -n 's/^mi //p' "$out.judge")
    echo "     pace $pace: $k/$n turns decoded (p = $p); $cap bits per move as a binary channel," \
        "$mi bits per move (mutual information)"
    check "pace $pace: at least 60 turns to judge (${n:-0})" test "${n:-0}" -ge 60
    if [ "$pace" = 0 ]; then
        check "no pace: the decision times carry the bits ($k/$n, p = $p < 0.001)" \
            "$PYTHON" -c "import sys; sys.exit(not $p < 0.001)"
    else
        check "pace $pace: no better than chance ($k/$n, p = $p >= 0.001)" \
            "$PYTHON" -c "import sys; sys.exit(not $p >= 0.001)"
    fi
done
finish
