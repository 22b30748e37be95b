#!/usr/bin/env bash
# collude.sh BUILD_DIR - two colluding bots at one 2-seat gin table (issue 20): a sender that
# spins for a 1 and sleeps for a 0 during each of its decisions (the same time either way),
# and a receiver whose thread samples the host's counters (/proc/loadavg running tasks,
# /proc/stat idle ticks) every millisecond, and decodes each of the sender's turns from the
# samples it took during that turn (tests/hostile/collude_bot.c).
#
# Chance: the bits are a hash of the turn, so a decoder that learns nothing is right with
# probability 1/2 on each; over N turns its hits are Binomial(N, 1/2). "Better than chance" is
# a one-sided binomial p-value below 0.001 (e.g. 74 or more of 120).
#
#   default (bots frozen between their decisions): the receiver takes no sample while the
#     sender decides (it is frozen: it covers < 2% of the sender's time) and decodes at
#     chance;
#   --ponder: it samples throughout (> 50%), the channel of issue 20 is open, and it decodes
#     better than chance wherever the counters show the load (docs/sandbox.md says so; where
#     they are hidden or fixed, that check says SKIP).
# Also printed, not judged: the same bits decoded from the idle ticks the receiver reads at
# the two ends of the gap while it decides itself. That is a cumulative counter, not a
# channel that needs two bots awake at once: freezing cannot close it; hiding /proc/stat does.
source "$(dirname "$0")/lib.bash" "$@"

COL="$BOTDIR/tests/hostile/okcollude"
[ -x "$COL" ] || { bad "okcollude is not built"; finish; }

judge() { # judge SENDER_LOG RECEIVER_LOG -> "running K N P", "gapidle K N P", "coverage C", "varies V"
    "$PYTHON" - "$1" "$2" <<'PY'
import math, statistics, sys
def sf(k, n):  # P(X >= k), X ~ Binomial(n, 1/2)
    return sum(math.comb(n, i) for i in range(k, n + 1)) / 2.0 ** n
sent = {}
for line in open(sys.argv[1], errors="replace"):
    p = line.split()
    if len(p) == 3 and p[0] == "SENT":
        sent[int(p[1])] = int(p[2])
gaps = []  # (bit, samples, mean running, gap idle ticks, gap ms, covered ms)
for line in open(sys.argv[2], errors="replace"):
    p = line.split()
    if len(p) == 8 and p[0] == "GAP" and int(p[1]) in sent:
        gaps.append((sent[int(p[1])], int(p[2]), float(p[3]), int(p[5]), float(p[6]), float(p[7])))
n = len(gaps)
def decode(vals, one_if_higher):  # threshold at the median; no data: guess 0
    have = [v for v in vals if v is not None]
    if not have:
        return [0] * len(vals)
    t = statistics.median(have)
    return [0 if v is None else int(v > t if one_if_higher else v < t) for v in vals]
for name, dec in (("running", decode([g[2] if g[1] else None for g in gaps], True)),
                  ("gapidle", decode([g[3] if g[3] >= 0 else None for g in gaps], False))):
    k = sum(int(d == g[0]) for d, g in zip(dec, gaps))
    print("%s %d %d %.2g" % (name, k, n, sf(k, n) if n else 1))
print("coverage %.3f" % (sum(g[5] for g in gaps) / max(1e-9, sum(g[4] for g in gaps))))
print("varies %d" % int(len({round(g[2], 3) for g in gaps if g[1]}) > 2))
PY
}

for variant in frozen ponder; do
    extra=()
    [ "$variant" = ponder ] && extra=(--ponder)
    out="$TMP/col-$variant"
    "$ARENA" match --rules gin --players 2 --games 2 --rule max_hands=2 --seed 3 \
        --bot "$COL --role send --ms 15 --tag $TAG" --name sender \
        --bot "$COL --role recv --tag $TAG" --name receiver \
        --decision-ms 2000 --bank-ms 0 --hard-ms 4000 --out "$out" --quiet "${extra[@]}" \
        >"$out.out" 2>"$out.err" &
    apid=$!
    wait "$apid"
    rc=$?
    check "$variant: the match ran (rc $rc)" test "$rc" -eq 0
    judge "$out/logs/slot0-sender.log" "$out/logs/slot1-receiver.log" >"$out.judge"
    read -r _ k n p < <(grep '^running' "$out.judge")
    read -r _ gk gn gp < <(grep '^gapidle' "$out.judge")
    cov=$(sed -n 's/^coverage //p' "$out.judge")
    varies=$(sed -n 's/^varies //p' "$out.judge")
    echo "     $variant: $n sender turns; decoded from samples in the turn: $k/$n (p = $p);" \
        "the receiver covered $cov of the sender's time"
    echo "     $variant: (not judged) from idle ticks read at the ends of the gap: $gk/$gn (p = $gp)"
    check "$variant: nothing left running, no cgroup left" leftovers "$TAG" "$apid"
    check "$variant: at least 60 turns to judge ($n)" test "${n:-0}" -ge 60
    if [ "$variant" = frozen ]; then
        check "frozen: the receiver ran during < 2% of the sender's decisions ($cov)" \
            "$PYTHON" -c "import sys; sys.exit(not $cov < 0.02)"
        check "frozen: decodes no better than chance ($k/$n, p = $p >= 0.001)" \
            "$PYTHON" -c "import sys; sys.exit(not $p >= 0.001)"
    else
        check "ponder: the receiver ran during > 50% of the sender's decisions ($cov)" \
            "$PYTHON" -c "import sys; sys.exit(not $cov > 0.5)"
        if [ "$varies" = 1 ]; then
            check "ponder: decodes better than chance, as docs/sandbox.md says ($k/$n, p = $p)" \
                "$PYTHON" -c "import sys; sys.exit(not $p < 0.001)"
        else
            skip "ponder: the running count does not vary in the jail (hidden or fixed): nothing to decode"
        fi
    fi
done
finish
