#!/usr/bin/env bash
# tricks.sh BUILD_DIR - the visible-set rule holds against folder tricks (issue 20): a mount
# point inside a declared folder, a hard link to the .tour file, to another entrant's file or
# to a file of the output folder inside it, a --files folder that is a bind mount of the
# .tour's folder: each refused at start (exit 2) with its name; a hard link between two files of
# the bot's own folder is not. The mounts need root: skipped without.
set -u
BUILD=$(cd "${1:?usage: tricks.sh BUILD_DIR}" && pwd)
ARENA="$BUILD/arena/arena"
BOT="$BUILD/bots/random_bot"
TMP=$(mktemp -d /tmp/okr-tricks.XXXXXX)
chmod 755 "$TMP"
mounted=()
cleanup() {
    local m
    for m in "${mounted[@]}"; do umount "$m" 2>/dev/null; done
    rm -rf "$TMP"
}
trap cleanup EXIT
pass=0 failed=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }

if ! "$ARENA" sandbox 2>/dev/null | grep -Eq '^mode +(full|no-cgroups|rootless)'; then
    echo "skip: this host gives no jail (arena sandbox)"
    exit 0
fi
C=$TMP/srv/class
mkdir -p "$C/bots/alice" "$C/bots/bob"
cp "$BOT" "$C/bots/alice/alice"
cp "$BOT" "$C/bots/bob/bob"
cat >"$C/class.tour" <<'T'
[tournament]
rules = laws
seats = 2
deals = 1
seed = 4242
out = results

[clocks]
startup_ms = 5000
decision_ms = 500
bank_ms = 1000
hard_ms = 2000

[entrant alice]
command = bots/alice/alice
files = bots/alice

[entrant bob]
command = bots/bob/bob
files = bots/bob
T

# refused NAME WORDS... : the tournament exits 2 at once and its message holds every WORD
refused() {
    local name=$1
    shift
    (cd "$C" && timeout 20 "$ARENA" tournament class.tour >"$TMP/out.txt" 2>"$TMP/err.txt")
    local rc=$? w
    local msg
    msg=$(grep -v '^arena: \(sandbox\|network\):' "$TMP/err.txt")
    if [ $rc -ne 2 ] || [ -n "$(ls "$C/results/records" 2>/dev/null)" ]; then
        bad "$name: exit $rc, expected 2 before any game"
        echo "$msg" | head -3
        return
    fi
    for w in "$@"; do
        if ! grep -qF -- "$w" <<<"$msg"; then
            bad "$name: the message does not name $w"
            echo "$msg" | head -3
            return
        fi
    done
    ok "$name: refused: ${msg:0:160}..."
}

# 1. a hard link to the .tour file in alice's declared folder (the issue's trick 3)
ln "$C/class.tour" "$C/bots/alice/notes.txt"
refused "a hard link to the .tour in a declared folder" \
    "class.tour:16: entrant alice" "$C/bots/alice/notes.txt" "$C/class.tour" "hard link"
rm "$C/bots/alice/notes.txt"

# 2. deeper, and to another entrant's program
mkdir -p "$C/bots/alice/lib/x"
ln "$C/bots/bob/bob" "$C/bots/alice/lib/x/helper"
refused "a hard link to another entrant's program, two folders down" \
    "$C/bots/alice/lib/x/helper" "$C/bots/bob/bob" "entrant bob"
rm -r "$C/bots/alice/lib"

# 3. a hard link to a file of the output folder (a resumed run's journal)
mkdir -p "$C/results"
echo '{}' >"$C/results/journal.jsonl"
ln "$C/results/journal.jsonl" "$C/bots/alice/j"
refused "a hard link to a file of the output folder" "$C/bots/alice/j" \
    "$C/results/journal.jsonl" "the output folder"
rm -r "$C/bots/alice/j" "$C/results"

# 4. a hard link between two of alice's own files: hers, shown
ln "$C/bots/alice/alice" "$C/bots/alice/alice2"
(cd "$C" && timeout 120 "$ARENA" tournament class.tour >"$TMP/out.txt" 2>"$TMP/err.txt")
rc=$?
if [ $rc -eq 0 ] && ls "$C/results/records/"* >/dev/null 2>&1; then
    ok "a hard link between two files of the bot's own folder: the run plays"
else
    bad "a hard link between two files of the bot's own folder: exit $rc"
    tail -3 "$TMP/err.txt"
fi
rm -rf "$C/bots/alice/alice2" "$C/results"

if [ "$(id -u)" != 0 ]; then
    echo "skip the mount points: not root"
else
    # 5. the issue's trick 2: mount --bind /srv/class bots/alice/mnt
    mkdir "$C/bots/alice/mnt"
    if mount --bind "$C" "$C/bots/alice/mnt"; then
        mounted+=("$C/bots/alice/mnt")
        refused "a bind mount inside a declared folder" \
            "class.tour:16: entrant alice" "holds a mount point, $C/bots/alice/mnt"
        umount "$C/bots/alice/mnt"
    else
        bad "mount --bind failed"
    fi
    rmdir "$C/bots/alice/mnt"
    # 6. a --files folder that is the .tour's folder under another name (a bind mount of it)
    mkdir -p "$TMP/elsewhere"
    if mount --bind "$C" "$TMP/elsewhere"; then
        mounted+=("$TMP/elsewhere")
        (cd "$C" && timeout 20 "$ARENA" match --bot bots/alice/alice --files "$TMP/elsewhere" \
            --bot @random --games 1 --out results >"$TMP/out.txt" 2>"$TMP/err.txt")
        rc=$?
        if [ $rc -eq 2 ] && grep -qF "its declared folder $TMP/elsewhere is the same folder as $C (a bind mount)" "$TMP/err.txt"; then
            ok "a --files folder that is a bind mount of the output folder's: refused"
        else
            bad "a --files folder that is a bind mount of the output folder's: exit $rc"
            tail -2 "$TMP/err.txt"
        fi
        umount "$TMP/elsewhere"
    else
        bad "mount --bind failed"
    fi
fi

echo "tricks.sh: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
