# lib.bash - shared by tests/hostile/*.sh (sourced, not a test itself).
#   source lib.bash BUILD_DIR
#
# Each case plays one short match (gin, 2 seats, 2 games: the hostile bot at both seats in
# turn) between a hostile bot and the well-behaved C random bot, under the default sandbox,
# then checks:
#   - the arena exited 0 (bot errors are results, never arena failures);
#   - the match is complete, every game played, no verdict and no forfeit for the good bot;
#   - the hostile bot got exactly the expected reaction: a verdict kind in every game (RE TLE
#     MLE OLE PE SV, with the evidence in its detail when it matters), or none at all (OK);
#   - for errno cases, the bot's own log lines ("HB connect: EACCES");
#   - nothing is left: no process whose command line holds the case's tag (the bots, their
#     init, any child: the tag is in every command line), and no cgroup directory of that
#     arena (okarena-<arena pid>-*).
#
# Gives: $ARENA $HB (the C hostile bot) $GOOD (random bot) $SRC $TMP, ok/bad/check, play,
# verdict, has_line, has_re, no_line, skip_all, finish; $MODE (the sandbox mode the arena
# reported), $KMSG (1 when SV can name the syscall), $GAMES.
set -u
BUILD=$(cd "${1:?usage: SCRIPT BUILD_DIR}" && pwd)
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ARENA="$BUILD/arena/arena"
# OKR_HOSTILE_BOTDIR: take the bots from another build folder (e.g. the plain build's bots
# against a sanitizer build's arena: ASan bots cannot reserve their shadow under RLIMIT_DATA)
BOTDIR=${OKR_HOSTILE_BOTDIR:-$BUILD}
HB="$BOTDIR/tests/hostile/okhb"
GOOD="$BOTDIR/bots/random_bot"
PYTHON=$(command -v python3)
TMP=$(mktemp -d /tmp/okr-hostile.XXXXXX)
TAG="okhb$$r$RANDOM"
GAMES=2
pass=0
failed=0
skipped=0
ncase=0
SV_NAMED=0

# Short clocks: a hanging bot costs hard-ms per game; startup is generous for the JVM.
# MEMCLOCK: for memory hogs, time enough to fill 400 MB on a loaded machine, so that the
# memory limit, not the clock, is what stops them.
CLOCKS=(--startup-ms 6000 --decision-ms 300 --bank-ms 600 --hard-ms 800)
MEMCLOCK=(--decision-ms 6000 --bank-ms 6000 --hard-ms 6000)
# Short games: three hands of gin (a random gin hand is ~100 actions).
TABLE=(--rules gin --players 2 --games "$GAMES" --rule max_hands=3)
[ "${OKR_SANITIZE:-0}" = 1 ] && CLOCKS=(--startup-ms 10000 --decision-ms 600 --bank-ms 1000 --hard-ms 1500)

cleanup() {
    pkill -KILL -f -- "$TAG" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT

ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
skip() { skipped=$((skipped + 1)); echo "SKIP $1"; }
check() { if "${@:2}"; then ok "$1"; else bad "$1"; fi; }

finish() {
    echo "$pass passed, $failed failed, $skipped skipped"
    [ "$failed" -eq 0 ] || exit 1
    # nothing could run at all: ctest shows the test as skipped (SKIP_RETURN_CODE 77)
    [ "$pass" -eq 0 ] && [ "$skipped" -gt 0 ] && exit 77
    exit 0
}

skip_all() {
    echo "SKIP: $*"
    echo "0 passed, 0 failed, 1 skipped"
    exit 77
}

for f in "$ARENA" "$HB" "$GOOD"; do
    [ -x "$f" ] || { echo "FAIL: $f is not built"; echo "0 passed, 1 failed"; exit 1; }
done

# KMSG: a seccomp kill is named only when the arena can read the kernel's audit lines
KMSG=0
if [ "$(id -u)" = 0 ] && [ -r /dev/kmsg ] &&
    grep -qw kill_process /proc/sys/kernel/seccomp/actions_logged 2>/dev/null; then
    KMSG=1
fi

# The sandbox mode: the arena prints the probe's summary ("sandbox: full (...)") once on
# stderr and records the mode in results.json. No sandbox possible here (exit 2, below the
# default minimum): skip, saying why.
"$ARENA" match "${TABLE[@]}" --bot "$GOOD" --bot "$GOOD" --out "$TMP/probe" \
    >"$TMP/probe.out" 2>"$TMP/probe.err"
prc=$?
MODE=$(sed -n 's/^.*sandbox: \([a-z-]*\) (.*$/\1/p' "$TMP/probe.err" | head -1)
RMODE=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["sandbox"]["mode"])' \
    "$TMP/probe/results.json" 2>/dev/null)
if [ "$prc" -eq 2 ] && grep -qi sandbox "$TMP/probe.err"; then
    skip_all "the arena refuses to sandbox here: $(head -3 "$TMP/probe.err")"
fi
# OKR_HOSTILE_DEV=1: run anyway without a sandbox (to work on the tests themselves)
[ -z "$MODE" ] && [ "${OKR_HOSTILE_DEV:-0}" = 1 ] && MODE=none RMODE=none
if [ "$prc" -ne 0 ] || [ -z "$MODE" ] || [ "$MODE" != "$RMODE" ]; then
    echo "FAIL: a plain match (rc $prc) does not report its sandbox mode on stderr ('$MODE')" \
        "and in results.json ('$RMODE'):"
    head -5 "$TMP/probe.err"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "# $(grep -m1 'sandbox:' "$TMP/probe.err"); syscall names from /dev/kmsg: $KMSG"

# leftovers TAG APID: no process of the case, no cgroup directory of its arena
leftovers() {
    local tag=$1 apid=$2 p i
    for i in 1 2 3 4 5 6 7 8 9 10; do # the arena has exited: allow 1 s for the kernel
        p=$(pgrep -f -- "$tag")
        [ -z "$p" ] && break
        sleep 0.1
    done
    if [ -n "$p" ]; then
        echo "  left running:" >&2
        ps -o pid,ppid,stat,args -p "$(echo $p | tr ' ' ',')" >&2
        return 1
    fi
    p=$(find /sys/fs/cgroup -maxdepth 6 -name "okarena-$apid-*" 2>/dev/null)
    if [ -n "$p" ]; then
        echo "  cgroups left: $p" >&2
        return 1
    fi
    return 0
}

# play NAME BOT_CMD [ARENA_ARGS...]: one match, the hostile bot as --bot 1 (name "hostile",
# so its log is $OUT/logs/slot0-hostile.log). Sets OUT RC LOG CT (the case's tag) SECS.
# The bot command may hold @TAG@, replaced by the case's tag ($PLAYTAG when set: a case that
# must see an earlier run's tag). The arena runs in the build
# folder (like ctest), or in $PLAYCWD with the relative --out $PLAYOUT (default match-out).
# $PLAYFILES: a folder the hostile bot declares as its own (--files), for a multi-file bot.
play() {
    local name=$1 cmd=$2
    shift 2
    ncase=$((ncase + 1))
    CT=${PLAYTAG:-"${TAG}-${name}-"}
    local seed=$((900000000 + ncase * 1000 + RANDOM % 1000))
    GOODCMD="$GOOD --seed $seed"
    OUT="$TMP/$name"
    LOG="$OUT/logs/slot0-hostile.log"
    cmd=${cmd//@TAG@/$CT}
    local t0 t1
    t0=$(date +%s%N)
    local out=$OUT
    [ -n "${PLAYCWD:-}" ] && out=${PLAYOUT:-match-out} # a relative --out inside the cwd
    (cd "${PLAYCWD:-$BUILD}" && exec "$ARENA" match "${TABLE[@]}" --seed 987654321 \
        --bot "$cmd" --name hostile ${PLAYFILES:+--files "$PLAYFILES"} --bot "$GOODCMD" --name good "${CLOCKS[@]}" \
        --out "$out" --quiet "$@" >"$OUT.out" 2>"$OUT.err") &
    local apid=$!
    wait "$apid"
    RC=$?
    if [ -n "${PLAYCWD:-}" ]; then
        rm -rf "$OUT"
        ln -s "$PLAYCWD/${PLAYOUT:-match-out}" "$OUT"
    fi
    t1=$(date +%s%N)
    SECS=$(((t1 - t0) / 1000000))
    check "$name: the arena exits 0 (${SECS} ms)" test "$RC" -eq 0
    [ "$RC" -eq 0 ] || sed 's/^/  arena: /' "$OUT.err" | head -5
    check "$name: no process, no cgroup left" leftovers "$CT" "$apid"
    if pgrep -f -- "--seed $seed\$" >/dev/null; then
        bad "$name: the good bot is still running"
    fi
}

# py EXPR...: python over r (results.json), g (games.jsonl rows), h, gd (the two bots);
# true when every EXPR is (each false one is printed)
py() {
    "$PYTHON" - "$OUT" "$@" <<'PY'
import json, re, sys
d = sys.argv[1]
try:
    r = json.load(open(d + "/results.json"))
    g = [json.loads(l) for l in open(d + "/games.jsonl")]
except Exception as e:
    print("  results unreadable: %r" % e, file=sys.stderr)
    sys.exit(1)
bots = {b["name"]: b for b in r["bots"]}
h, gd = bots.get("hostile"), bots.get("good")
verdicts = [v for x in g for v in x["verdicts"]]
okay = True
for e in sys.argv[2:]:
    try:
        v = eval(e)
    except Exception as ex:
        v = False
        print("  error in %s: %r" % (e, ex), file=sys.stderr)
    if not v:
        print("  false: " + e, file=sys.stderr)
        okay = False
if not okay:
    print("  verdicts: %s" % [(v["verdict"], v["detail"]) for v in verdicts], file=sys.stderr)
sys.exit(0 if okay else 1)
PY
}

# verdict NAME KIND [DETAIL_SUBSTRING]: KIND is OK (no verdict at all) or a verdict that the
# hostile bot gets in every game; the good bot plays every game without a verdict. For SV,
# DETAIL is the syscall: the detail names it ("syscall NAME") or, when the kernel's audit line
# was not to be had, says SIGSYS; never another syscall. SV_NAMED counts the named ones.
verdict() {
    local name=$1 kind=$2 detail=${3:-}
    [ "$RC" -eq 0 ] || { bad "$name: no results (the arena failed)"; return; }
    local conds=("r['complete']" "r['games'] == $GAMES"
                 "sorted(r['bots'][0]['errors']) == sorted(['RE','TLE','MLE','OLE','PE','IA','SV'])"
                 "sum(gd['errors'].values()) == 0 and gd['forfeits'] == 0"
                 "all(v['bot'] == 0 for v in verdicts)")
    if [ "$kind" = OK ]; then
        conds+=("verdicts == []" "sum(h['errors'].values()) == 0")
    else
        conds+=("len(verdicts) == $GAMES" "all(v['verdict'] == '$kind' for v in verdicts)"
                "h['errors']['$kind'] == $GAMES")
        if [ "$kind" = SV ] && [ -n "$detail" ]; then
            # the kernel rate-limits its audit lines (printk: 10 per 5 s), so a kill may go
            # unnamed; a name, when given, must be the right one
            conds+=("all(re.search(r'syscall (\\w+)', v['detail']).group(1) == '$detail' if 'syscall ' in v['detail'] else 'SIGSYS' in v['detail'] for v in verdicts)")
            SV_NAMED=$((SV_NAMED + $(grep -c "syscall $detail[\" ]" "$OUT/games.jsonl" 2>/dev/null)))
        elif [ -n "$detail" ]; then
            conds+=("all('$detail' in v['detail'] for v in verdicts)")
        fi
    fi
    local what="$kind${detail:+ ($detail)}"
    [ "$kind" = OK ] && what="OK: no verdict, the match goes on"
    check "$name: $what; the good bot plays every game cleanly" py "${conds[@]}"
}

# verdict_in NAME KIND1 KIND2...: the table allows several reactions; every game gets the same
# one of them (or, with OK among them, none)
verdict_in() {
    local name=$1
    shift
    local kinds="$*" k got
    got=$(py "True" 2>/dev/null && "$PYTHON" -c "
import json,sys
g=[json.loads(l) for l in open('$OUT/games.jsonl')]
v=sorted(set(x['verdict'] for y in g for x in y['verdicts']))
print(','.join(v) or 'OK')")
    for k in $kinds; do
        if [ "$got" = "$k" ]; then
            verdict "$name" "$k"
            echo "  ($name: reaction $got, the table allows $kinds)"
            return
        fi
    done
    bad "$name: reaction $got, expected one of $kinds"
    py "False" 2>&1 | grep verdicts
}

# has_line NAME LINE: the hostile bot's log holds exactly this line ("HB " is prefixed)
has_line() {
    check "$1: the bot saw \"$2\"" grep -qxF -- "HB $2" "$LOG"
}
# has_re NAME ERE: some log line matches (anchored by the caller)
has_re() {
    check "$1: the bot's log matches /$2/" grep -qE -- "$2" "$LOG"
}
no_line() { # what the bot wrote: the arena's own "[arena: game ID, seat S]" markers aside
    check "$1: the bot's log has no /$2/" bash -c '! grep -v "^\[arena: game " "$2" | grep -qE -- "$1"' _ "$2" "$LOG"
}
