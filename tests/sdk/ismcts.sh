#!/usr/bin/env bash
# ismcts.sh BUILD_DIR [quick|strength] - bots/ismcts (Python ISMCTS on the okr module) in the
# arena's jail, against the C greedy bot (bots/greedy), one hand per game (--hands 1), every
# deal in all seat rotations (duplicate).
#
#   quick     (ctest sdk_ismcts, label "sdk"; ~8 s, 12 under load) one gin deal (2 games)
#             and one 3-seat laws deal (3 games) at 100 ms a decision, one german deal (3
#             games, with claims) at 50 ms: every game completes, no verdict
#             against anyone (an illegal move, a crash or a late answer would be one), and the
#             bot's log shows it searched. Then the bot's port of greedy's policy (--greedy)
#             draws every deal with bots/greedy in gin and laws (the same moves), its
#             faster gin version agrees with it on ~2,700 positions, and its Table (the
#             cards the table saw go into each hand) holds only cards the hands hold.
#   strength  (ctest sdk_ismcts_strength, labels "strength;slow": not in scripts/test.sh's run;
#             ~11 CPU-minutes: 6 minutes on a quiet 2-core machine, 15 at a load average of
#             6 to 10; figures in bots/ismcts/README.md)
#             duplicate matches against greedy at the seed below, gin (100 deals) and laws
#             (3 seats, 70 deals) side by side: ismcts's mean score difference vs the field
#             must have a 95% interval entirely above 0 in both (results.json,
#             bots[].score_diff.ci95). The bot searches a fixed number of worlds per decision
#             (--sims: gin 200, laws 20) under a generous clock (10 s a decision), and no
#             search may have been cut by the clock: so the result is a function of the seed
#             alone, the same on a quiet or a loaded machine. Tunable (for the README's other
#             seeds): OKR_ISMCTS_SEED, OKR_ISMCTS_GIN_GAMES, OKR_ISMCTS_LAWS_GAMES (0: skip),
#             OKR_ISMCTS_GIN_SIMS, OKR_ISMCTS_LAWS_SIMS, OKR_ISMCTS_MS.
# Skipped (exit 0) when build/python/okr was not built (no python3-dev), and under
# OKR_SANITIZE=1 (below).
set -u
BUILD=$(cd "${1:?usage: ismcts.sh BUILD_DIR [quick|strength]}" && pwd) || exit 2
MODE=${2:-quick}
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ARENA=$BUILD/arena/arena
GREEDY=$BUILD/bots/greedy_bot
BOT="python3 $SRC/bots/ismcts/ismcts_bot.py"
if [ ! -f "$BUILD/python/okr/__init__.py" ]; then
    echo "ismcts: skipped: the okr module is not built ($BUILD/python/okr)"
    exit 0
fi
if [ "${OKR_SANITIZE:-0}" = 1 ]; then
    # the module is built with ASan there, and Debian's python3 can load it only with the ASan
    # runtime preloaded, which the jail's fresh environment does not do (the module's own
    # sanitizer run is the python_okr test)
    echo "ismcts: skipped under OKR_SANITIZE=1 (run it in a normal build)"
    exit 0
fi
for f in "$ARENA" "$GREEDY"; do
    [ -x "$f" ] || { echo "FAIL missing $f"; exit 1; }
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/okr-ismcts.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# match NAME ARGS...: arena match into $TMP/NAME, summary in $TMP/NAME.txt, status in .rc
match() {
    local name=$1
    shift
    "$ARENA" match --quiet --hands 1 --out "$TMP/$name" "$@" >"$TMP/$name.txt" 2>&1
    echo $? >"$TMP/$name.rc"
}

# judge NAME GAMES STRONGER: the match ran whole, with no verdict, ismcts searched; with
# STRONGER, its interval is above 0 and no search was cut short by the clock (--sims)
judge() {
    echo "---- $1"
    cat "$TMP/$1.txt"
    python3 - "$TMP/$1" "$2" "$(cat "$TMP/$1.rc")" "${3:-}" <<'PY'
import glob, json, sys
d, games, rc, stronger = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
r = json.load(open(d + "/results.json"))
problems = [] if rc == 0 else ["arena exit status %d" % rc]
if not r.get("complete") or r["games"] != games:
    problems.append("match incomplete: %s of %d games" % (r.get("games"), games))
for b in r["bots"]:
    if sum(b["errors"].values()) or b["forfeits"] or b["disqualified"]:
        problems.append("%s: errors %s, %d forfeits" % (b["name"], b["errors"], b["forfeits"]))
logs = "".join(open(f, errors="replace").read() for f in glob.glob(d + "/logs/*ismcts*"))
lines = [line for line in logs.splitlines() if line.startswith("ismcts: ")]
its = [int(line.split()[1]) for line in lines]
if not its or min(its) < 1:
    problems.append("no search in the bot's log")
else:
    print("ismcts: %d searches, %d simulations each on average (min %d)"
          % (len(its), sum(its) // len(its), min(its)))
if stronger:
    cut = sum(1 for line in lines if "cut by the clock" in line)
    if cut:
        problems.append("%d searches cut by the clock: the result depends on the load" % cut)
    diff = {b["name"]: b for b in r["bots"]}[stronger]["score_diff"]
    lo, hi = diff["ci95"]
    print("%s: mean diff %+.1f, 95%% CI [%+.1f, %+.1f] over %d deals, %d games, %.0f s"
          % (stronger, diff["mean"], lo, hi, diff["deals"], r["games"], r["seconds"]))
    if not lo > 0:
        problems.append("%s: the interval is not above 0" % stronger)
for p in problems:
    print("  " + p)
sys.exit(1 if problems else 0)
PY
}

start=$SECONDS
if [ "$MODE" = quick ]; then
    match gin --rules gin --games 2 --seed 16 --decision-ms 100 \
        --bot "$BOT" --name ismcts --bot "$GREEDY" --name greedy
    match laws --rules laws --players 3 --games 3 --seed 16 --decision-ms 100 \
        --bot "$BOT" --name ismcts --bot "$GREEDY" --name greedy_a --bot "$GREEDY" --name greedy_b
    # german: out-of-turn claims, so the seat to act is not always the seat whose turn it is
    match german --rules german --players 3 --games 3 --seed 16 --decision-ms 50 \
        --bot "$BOT" --name ismcts --bot "$GREEDY" --name greedy --bot "$BUILD/bots/random_bot" \
        --name random
    # --greedy (the bot's port of greedy's policy, no search) against the C greedy bot: the
    # same moves, so every rotation of a deal plays the same game and every difference is 0
    match same_gin --rules gin --games 6 --seed 17 --decision-ms 1000 \
        --bot "$BOT --greedy" --name ismcts --bot "$GREEDY" --name greedy
    match same_laws --rules laws --players 3 --games 9 --seed 17 --decision-ms 1000 \
        --bot "$BOT --greedy" --name ismcts --bot "$GREEDY" --name greedy_a \
        --bot "$GREEDY" --name greedy_b
    rc=0
    judge gin 2 || rc=1
    judge laws 3 || rc=1
    judge german 3 || rc=1
    for m in same_gin same_laws; do
        echo "---- $m"
        python3 - "$TMP/$m/results.json" <<'PY' || rc=1
import json, sys
r = json.load(open(sys.argv[1]))
d = {b["name"]: b["score_diff"] for b in r["bots"]}["ismcts"]
print("ismcts --greedy vs greedy: mean diff %+.1f, 95%% CI %s over %d deals"
      % (d["mean"], d["ci95"], d["deals"]))
if not r.get("complete") or d["deals"] < 3 or d["ci95"] != [0, 0]:
    print("  the port of greedy's policy played other moves than bots/greedy")
    sys.exit(1)
PY
    done
    # the faster gin policy of the simulations (fast_gin_action) against the exact port
    PYTHONPATH="$BUILD/python:$SRC/sdk/python:$SRC/bots/ismcts" python3 - <<'PY' || rc=1
import random
import sys
import okr
import ismcts_bot as b
r = okr.rules("gin")
for k in range(okr.KINDS):
    b.VALUES[k] = okr.card_value(k, rules=r) if k < okr.JOKER else 0
rng, n, bad = random.Random(18), 0, 0
for seed in range(60):
    g = okr.Game(r, seed=seed)
    while not g.hand_over():
        acts = g.legal()
        exact = b.greedy_gin_action(g, r, acts)
        n += 1
        bad += b.fast_gin_action(g, r, acts) != exact
        g.apply(acts[exact] if rng.random() < 0.8 else acts[rng.randrange(len(acts))])
print("fast_gin_action: %d of %d positions differ from greedy_gin_action" % (bad, n))
sys.exit(1 if bad or n < 500 else 0)
PY
    # the bot's Table (what the table saw go into each hand) against the true hands: every
    # card it calls known is held, and okr.determinize(known=...) accepts them, in every
    # preset (rummy pile takes, german claims, Jokers taken back, gin)
    PYTHONPATH="$BUILD/python:$SRC/sdk/python:$SRC/bots/ismcts" python3 - <<'PY' || rc=1
import collections
import random
import sys
import okr
import ismcts_bot as b
rng, bad, pos, seen = random.Random(19), 0, 0, 0
for preset, players, games in (("laws", 3, 40), ("german", 3, 30), ("gin", 2, 40),
                               ("parlett", 4, 15), ("arlington", 3, 15)):
    for seed in range(games):
        g = okr.Game(preset, players=players, seed=seed)
        t = b.Table(0)
        while not g.hand_over():
            if g.to_act == 0:
                for e in g.events(0):
                    t.event(e)
                t.set_pile(g.view(0).pile)
                for s, cards in t.known.items():
                    held = collections.Counter(g.hand(s))
                    bad += any(held[k] < n for k, n in collections.Counter(cards).items())
                    seen += len(cards)
                okr.determinize(g.view(0), rng, known=t.known)
                pos += 1
            acts = g.legal()
            # often the moves that put cards into hands face up: takes, claims, melds
            pref = [a for a in acts if a.type in (okr.TAKE, okr.CLAIM, okr.MELD, okr.ADD,
                                                  okr.REPLACE)]
            pick = pref if pref and rng.random() < 0.5 else acts
            g.apply(pick[rng.randrange(len(pick))])
print("Table: %d positions, %d known cards, %d positions with a card not held"
      % (pos, seen, bad))
sys.exit(1 if bad or pos < 1000 or seen < 1000 else 0)
PY
else
    # the seed (4747) was fixed in a commit before the run of the version with the fitted gin
    # opponent hands (1616 before it); other seeds: bots/ismcts/README.md
    SEED=${OKR_ISMCTS_SEED:-4747}
    MS=${OKR_ISMCTS_MS:-10000}
    GIN=${OKR_ISMCTS_GIN_GAMES:-200}
    LAWS=${OKR_ISMCTS_LAWS_GAMES:-210}
    GIN_SIMS=${OKR_ISMCTS_GIN_SIMS:-200}
    LAWS_SIMS=${OKR_ISMCTS_LAWS_SIMS:-20}
    CLOCK=(--decision-ms "$MS" --bank-ms $((MS * 20)) --hard-ms $((MS * 5)))
    if [ "$GIN" -gt 0 ]; then
        match gin --rules gin --games "$GIN" --seed "$SEED" "${CLOCK[@]}" \
            --bot "$BOT --sims $GIN_SIMS" --name ismcts --bot "$GREEDY" --name greedy &
    fi
    if [ "$LAWS" -gt 0 ]; then
        match laws --rules laws --players 3 --games "$LAWS" --seed "$SEED" "${CLOCK[@]}" \
            --bot "$BOT --sims $LAWS_SIMS" --name ismcts --bot "$GREEDY" --name greedy_a \
            --bot "$GREEDY" --name greedy_b &
    fi
    wait
    rc=0
    if [ "$GIN" -gt 0 ]; then
        judge gin "$GIN" ismcts || rc=1
    fi
    if [ "$LAWS" -gt 0 ]; then
        judge laws "$LAWS" ismcts || rc=1
    fi
    echo "ismcts strength: seed $SEED, gin --sims $GIN_SIMS, laws --sims $LAWS_SIMS," \
        "$((SECONDS - start)) s"
fi
echo "ismcts $MODE: $([ "$rc" -eq 0 ] && echo ok || echo FAIL) in $((SECONDS - start)) s"
exit "$rc"
