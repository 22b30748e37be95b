#!/usr/bin/env bash
# view.sh BUILD_DIR - what a bot sees, in real tournaments and matches with spying bots
# (spy_bot.c native, spy_bot.py interpreted: they walk everything they are shown and write it to
# their logs). Whatever the layout and the current folder, a bot sees its program, its scripts,
# the folders it declares (files =, --files) and the SDK; never the .tour file, the output
# folder, another entrant's files. A declared folder holding one of those, "/" or a home is
# refused with FILE:LINE and how to lay the folders out. Also: relative commands in a .tour work
# from any folder; a two-file Python bot works once its folder is declared, and dies with an RE
# that says how to declare it when it is not; docs' own examples. As root, again as nobody.
set -u
BUILD=$(cd "${1:?usage: view.sh BUILD_DIR}" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
ARENA="$BUILD/arena/arena"
TMP=$(mktemp -d /tmp/okr-view.XXXXXX)
chmod 755 "$TMP"
pass=0 failed=0
cleanup() {
    local p
    for p in $(pgrep -f -- "$TMP" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
    rm -rf "$TMP"
}
trap cleanup EXIT
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }
check() { if "${@:2}"; then ok "$1"; else bad "$1"; fi; }

if ! "$ARENA" sandbox 2>/dev/null | grep -Eq '^mode +(full|no-cgroups|rootless)'; then
    echo "skip: this host gives no jail (arena sandbox)"
    exit 0
fi
SPY_C="$TMP/spy_bot"
${CC:-cc} -std=c11 -O1 -Wall -Wextra -Werror -o "$SPY_C" "$SRC/tests/jail/spy_bot.c" ||
    { echo "FAIL cannot build the spy"; exit 1; }

# tour FILE ENTRANT-SECTIONS...: a 2-seat, 1-deal tournament with short clocks
tour() {
    local f=$1
    shift
    {
        printf '[tournament]\nrules = laws\nseats = 2\ndeals = 1\nseed = 4242\nout = results\n'
        printf '[clocks]\nstartup_ms = 5000\ndecision_ms = 500\nbank_ms = 1000\nhard_ms = 2000\n'
        printf '%b' "$@"
    } >"$f"
}
# logs DIR NAME: every log line of entrant NAME
logs() { cat "$1"/logs/*-"$2".log 2>/dev/null; }
# spied DIR NAME: the spy ran to its end
spied() { logs "$1" "$2" | grep -q '^spy DONE'; }
# sees DIR NAME PATH: the spy saw or read PATH (or anything inside it)
sees() { logs "$1" "$2" | grep -Eq "^spy (SEE|READ) $3(/|\$)"; }
blind() { spied "$1" "$2" && ! sees "$@"; }
reads() { logs "$1" "$2" | grep -q "^spy READ $3\$"; }

# ---- 1. the bot beside the .tour, the arena run from elsewhere (native and interpreted) -----
L=$TMP/l1 && mkdir -p "$L/t" "$L/run"
cp "$SRC/tests/jail/spy_bot.py" "$L/t/spy.py"
cp "$SPY_C" "$L/t/spy"
tour "$L/t/class.tour" "[entrant py]\ncommand = python3 spy.py --probe=$L/t/class.tour\n" \
    "[entrant c]\ncommand = ./spy --probe=$L/t/class.tour\n"
(cd "$L/run" && "$ARENA" tournament ../t/class.tour >"$L/out.txt" 2>"$L/err.txt")
R=$L/t/results # out = results: relative to the .tour file, beside the bots
check "beside the .tour: out = is taken against the .tour's folder" test -s "$R/results.json"
check "beside the .tour: 'python3 spy.py' and './spy' are found from another folder" \
    eval 'spied "$R" py && spied "$R" c'
check "beside the .tour: neither bot sees or reads the .tour file" \
    eval 'blind "$R" py "$L/t/class.tour" && blind "$R" c "$L/t/class.tour"'
check "beside the .tour: each sees its own file" eval 'reads "$R" py "$L/t/spy.py" && reads "$R" c "$L/t/spy"'
check "beside the .tour: bots run in the .tour's folder" \
    eval 'logs "$R" py | grep -qx "spy CWD $L/t" && logs "$R" c | grep -qx "spy CWD $L/t"'
check "beside the .tour: the output folder (beside them) and the arena's folder are not shown" \
    eval 'blind "$R" py "$L/run" && blind "$R" c "$L/run" && blind "$R" py "$R" && blind "$R" c "$R"'

# ---- 2. two entrants in one folder ------------------------------------------------------
L=$TMP/l2 && mkdir -p "$L"
cp "$SRC/tests/jail/spy_bot.py" "$L/a.py"
cp "$SRC/tests/jail/spy_bot.py" "$L/b.py"
cp "$SPY_C" "$L/c"
tour "$L/x.tour" "[entrant a]\ncommand = python3 a.py\n[entrant b]\ncommand = python3 b.py\n" \
    "[entrant c]\ncommand = ./c\n"
(cd "$L" && "$ARENA" tournament x.tour >/dev/null 2>&1)
R=$L/results
check "one folder: a sees neither b.py nor c, b neither a.py nor c, c neither script" \
    eval 'blind "$R" a "$L/b.py" && blind "$R" a "$L/c" && blind "$R" b "$L/a.py" && blind "$R" b "$L/c" &&
          blind "$R" c "$L/a.py" && blind "$R" c "$L/b.py"'
check "one folder, run from it: no bot sees the output folder or the .tour" \
    eval 'for n in a b c; do blind "$R" $n "$L/results" && blind "$R" $n "$L/x.tour" || exit 1; done'
# declaring the shared folder is refused, with the line and the way out
printf '[entrant a]\ncommand = python3 a.py\nfiles = .\n[entrant b]\ncommand = python3 b.py\n' >"$L/y.body"
tour "$L/y.tour" "$(cat "$L/y.body")\n"
(cd /tmp && "$ARENA" tournament "$L/y.tour" >/dev/null 2>"$L/y.err")
rc=$?
check "one folder declared as a's own: refused (exit 2) at y.tour:LINE of files =, saying how to lay it out" \
    eval '[ $rc -eq 2 ] && grep -q "y.tour:14: entrant a: .*declared folder $L " "$L/y.err" &&
          grep -q "folder of its own" "$L/y.err" && [ ! -e /tmp/results ]'

# ---- 3. output folder under a bot's folder ----------------------------------------------
L=$TMP/l3 && mkdir -p "$L/bots/a" "$L/bots/b"
cp "$SRC/tests/jail/spy_bot.py" "$L/bots/a/spy.py"
cp "$SPY_C" "$L/bots/b/spy"
tour "$L/t.tour" "[entrant a]\ncommand = python3 bots/a/spy.py\nfiles = bots/a\n" \
    "[entrant b]\ncommand = bots/b/spy\nfiles = bots/b\n"
(cd "$L" && "$ARENA" tournament t.tour --set tournament.out=bots/a/results >/dev/null 2>"$L/err")
rc=$?
check "output folder inside a declared folder: refused (exit 2), naming the output folder" \
    eval '[ $rc -eq 2 ] && grep -q "t.tour:14: entrant a: .*the output folder" "$L/err" && [ ! -e "$L/bots/a/results" ]'
(cd "$L" && "$ARENA" tournament t.tour --set tournament.out=bots/b/results/x >/dev/null 2>"$L/err")
rc=$?
check "output folder inside a native bot's declared folder: refused too" \
    eval '[ $rc -eq 2 ] && grep -q "entrant b: .*the output folder" "$L/err"'
(cd "$L" && "$ARENA" tournament t.tour >/dev/null 2>&1)
R=$L/results
check "declared folders apart: each bot reads its folder, not the other's" \
    eval 'reads "$R" a "$L/bots/a/spy.py" && blind "$R" a "$L/bots/b" && reads "$R" b "$L/bots/b/spy" && blind "$R" b "$L/bots/a"'
# a second tournament whose output lands under bots/ (not declared): the earlier records stay hidden
(cd "$L" && "$ARENA" tournament t.tour --set tournament.out=bots/out2 >/dev/null 2>&1)
check "an output folder beside the bots' folders is never shown" \
    eval 'blind "$L/bots/out2" a "$L/bots/out2" && blind "$L/bots/out2" b "$L/bots/out2"'

# ---- 4. run from the bot's own folder; a two-file Python bot -----------------------------
L=$TMP/l4 && mkdir -p "$L/mybot"
printf 'import helper\nimport okbot\nokbot.run(lambda v, l, c: helper.pick(l), name="two", version="1")\n' >"$L/mybot/bot.py"
printf 'def pick(legal):\n    return 0\n' >"$L/mybot/helper.py"
(cd "$L/mybot" && "$ARENA" match --players 2 --games 2 --bot "python3 bot.py" --files . --bot @random \
    --out ../m1 >/dev/null 2>"$L/m1.err")
check "two-file Python bot, run from its folder with --files .: plays without a verdict, import okbot works" \
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); g=[json.loads(l) for l in open(sys.argv[2])]
sys.exit(0 if len(g)==2 and not any(x.get("verdicts") for x in g) else 1)' "$L/m1/results.json" "$L/m1/games.jsonl"
(cd "$L/mybot" && "$ARENA" match --players 2 --games 2 --bot "python3 bot.py" --bot @random \
    --out ../m2 >/dev/null 2>&1)
check "two-file Python bot without --files: RE whose detail names the missing module, what it saw, and --files" \
    grep -q "RE.*No module named 'helper'.*only bot.py and the SDK; declare more: --files DIR" "$L/m2/games.jsonl"
"$ARENA" check-bot --bot "python3 $L/mybot/bot.py" --decisions 2 >"$L/cb.txt" 2>&1
check "check-bot says what the jail showed and how to declare more" \
    eval 'grep -q "^  jail shows " "$L/cb.txt" && grep -Eq "^  (jail shows)? +$L/mybot/bot.py\$" "$L/cb.txt" && grep -q "declare the folder it needs with --files DIR" "$L/cb.txt"'
"$ARENA" check-bot --bot "python3 $L/mybot/bot.py" --files "$L/mybot" --decisions 2 >"$L/cb2.txt" 2>&1
check "check-bot --files DIR: compliant" grep -q "result: compliant" "$L/cb2.txt"
(cd "$L/mybot" && "$ARENA" match --players 2 --games 2 --bot "python3 bot.py" --files . --bot @random \
    --out out >/dev/null 2>"$L/m3.err")
rc=$?
check "--files . with --out inside it: refused (exit 2) before anything runs" \
    eval '[ $rc -eq 2 ] && grep -q "the output folder" "$L/m3.err" && [ ! -e "$L/mybot/out" ]'

# ---- 5. symlinks pointing out, "..", "/" and the home --------------------------------------
L=$TMP/l5 && mkdir -p "$L/bots/a" "$L/secret"
cp "$SRC/tests/jail/spy_bot.py" "$L/bots/a/spy.py"
echo "seed = 1" >"$L/secret/notes"
ln -s ../../t.tour "$L/bots/a/peek"
ln -s ../../u.tour "$L/bots/a/peeku"
ln -s "$L/secret" "$L/bots/a/data"
tour "$L/t.tour" "[entrant a]\ncommand = python3 bots/a/spy.py\nfiles = bots/a\n[entrant b]\ncommand = @random\n"
(cd "$L" && "$ARENA" tournament t.tour >/dev/null 2>&1)
check "a symlink in a declared folder to the .tour or a folder outside: not readable" \
    eval 'spied "$L/results" a && ! reads "$L/results" a "$L/bots/a/peek" && ! logs "$L/results" a | grep -q "READ .*notes"'
for bad_files in "bots/a/../.." ".." "/" "\"$HOME\"" "bots/a/peeku"; do
    tour "$L/u.tour" "[entrant a]\ncommand = python3 bots/a/spy.py\nfiles = $bad_files\n[entrant b]\ncommand = @random\n"
    (cd / && "$ARENA" tournament "$L/u.tour" >/dev/null 2>"$L/u.err")
    rc=$?
    check "files = $bad_files: refused (exit 2) with u.tour:14" eval '[ $rc -eq 2 ] && grep -q "u.tour:14: entrant a" "$L/u.err"'
done

# ---- 6. the arena's folder above everything -------------------------------------------------
L=$TMP/l6 && mkdir -p "$L/bots/a" "$L/bots/b"
cp "$SRC/tests/jail/spy_bot.py" "$L/bots/a/spy.py"
cp "$SPY_C" "$L/bots/b/spy"
(cd "$L" && "$ARENA" match --players 2 --games 2 --bot "python3 bots/a/spy.py" --files bots/a --name a \
    --bot bots/b/spy --files bots/b --name b --out out >/dev/null 2>&1)
check "run from the parent of everything: each bot sees its folder only, not the other's, not out/" \
    eval 'reads "$L/out" a "$L/bots/a/spy.py" && blind "$L/out" a "$L/bots/b" && blind "$L/out" a "$L/out" &&
          reads "$L/out" b "$L/bots/b/spy" && blind "$L/out" b "$L/bots/a" && blind "$L/out" b "$L/out"'

# ---- 7. the docs' own examples ----------------------------------------------------------
L=$TMP/l7 && mkdir -p "$L"
(cd "$L" && "$ARENA" match --rules laws --players 3 --games 3 --out m \
    --bot "python3 $SRC/bots/random/random_bot.py" --bot "node $SRC/bots/random/random_bot.js" \
    --bot "$BUILD/bots/random_bot" >/dev/null 2>&1)
check "docs/sdk-python.md's example match: 3 games, no verdict" \
    python3 -c 'import json,sys; g=[json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if len(g)==3 and not any(x.get("verdicts") for x in g) else 1)' "$L/m/games.jsonl"

# docs/protocol.md section 9: the bot without an SDK, okr_pb2.py generated next to it, its
# folder declared; Debian's python3 (python3-protobuf), as the section says
if command -v protoc >/dev/null && [ -x /usr/bin/python3 ]; then
    mkdir -p "$L/nosdk"
    awk '/^## 9\./ { f = 1 } f && /^```python/ { p = 1; next } p && /^```/ { exit } p' \
        "$SRC/docs/protocol.md" >"$L/nosdk/bot.py"
    protoc --proto_path="$SRC/proto" --python_out="$L/nosdk" "$SRC/proto/okr.proto"
    (cd "$L" && "$ARENA" match --players 2 --games 2 --bot "/usr/bin/python3 nosdk/bot.py" \
        --files nosdk --bot @random --out m9 >/dev/null 2>&1)
    check "docs/protocol.md section 9's bot, its folder declared: 2 games, no verdict" \
        python3 -c 'import json,sys; g=[json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if len(g)==2 and not any(x.get("verdicts") for x in g) else 1)' "$L/m9/games.jsonl"
else
    echo "skip docs/protocol.md section 9 (no protoc or no /usr/bin/python3)"
fi
# docs/sdk-js.md: a bot kept anywhere writes require('okbot')
if command -v node >/dev/null && [ -d "$BUILD/sdk/js/node_modules" ]; then
    mkdir -p "$L/jsbot"
    printf "const okbot = require('okbot');\nokbot.run(() => 0, { name: 'js-any', version: '1' });\n" \
        >"$L/jsbot/bot.js"
    (cd "$L" && "$ARENA" match --players 2 --games 2 --bot "node jsbot/bot.js" --bot @random \
        --out mjs >/dev/null 2>&1)
    check "docs/sdk-js.md: require('okbot') from a bot outside the checkout: 2 games, no verdict" \
        python3 -c 'import json,sys; g=[json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if len(g)==2 and not any(x.get("verdicts") for x in g) else 1)' "$L/mjs/games.jsonl"
else
    echo "skip docs/sdk-js.md's require('okbot') (no node or no node_modules)"
fi

# ---- 8. as nobody: rootless ----------------------------------------------------------------
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
    NB=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    L=$TMP/l8 && mkdir -p "$L/t" "$L/run"
    cp "$SRC/tests/jail/spy_bot.py" "$L/t/a.py"
    cp "$SPY_C" "$L/t/c"
    tour "$L/t/class.tour" "[entrant a]\ncommand = python3 a.py\n[entrant c]\ncommand = ./c\n"
    chmod -R a+rX "$L" && chown 65534 "$L/run"
    if "${NB[@]}" "$ARENA" sandbox 2>/dev/null | grep -Eq '^mode +rootless'; then
        # --out: relative to the current folder (nobody may write only there)
        (cd "$L/run" && HOME=/nonexistent "${NB[@]}" "$ARENA" tournament ../t/class.tour --out results >/dev/null 2>&1)
        R=$L/run/results
        check "nobody (rootless): two entrants beside the .tour see neither the .tour nor each other" \
            eval 'reads "$R" a "$L/t/a.py" && blind "$R" a "$L/t/c" && blind "$R" a "$L/t/class.tour" &&
                  reads "$R" c "$L/t/c" && blind "$R" c "$L/t/a.py" && blind "$R" c "$L/t/class.tour"'
    else
        echo "skip rootless as nobody: no user namespace for nobody"
    fi
else
    echo "skip rootless as nobody (not root, or no setpriv)"
fi

echo "view.sh: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
