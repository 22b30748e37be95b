#!/usr/bin/env bash
# upload.sh BUILD_DIR - `arena league add DIR NAME --archive FILE --cmd COMMAND [--build ...]`
# (docs/league.md, "Archive submissions"): a valid upload (.tar.gz; .zip with a build step)
# unpacks into DIR.bots/NAME/vN and passes its check; every hostile archive of archives.py is
# refused with its reason, stored as a refused version, leaves no folder, and changes nothing
# outside the version's folder: a sentinel folder, the league's folder and the folder around
# it keep their listings. The build steps' own hostile cases are tests/league/build.sh.
source "$(dirname "$0")/../tour/lib.bash" "$@"

mode=$("$ARENA" sandbox 2> /dev/null | sed -n 's/^mode  *//p')
case "$mode" in
full | no-cgroups | rootless) ;;
*)
    echo "SKIP: the sandbox here is '$mode'; a build step needs the jail"
    exit 77
    ;;
esac

L="$TMP/lg"
S="$TMP/sentinel"
W="$TMP/w" # scratch: archives, sources, outputs
mkdir -p "$S/sub" "$TMP/arch" "$TMP/src" "$W"
echo keep > "$S/keep"
echo deep > "$S/sub/file"
cat > "$TMP/t.league" << T
[league]
name = up
rules = gin
seats = 2
seed = 5
bootstrap = 50
jobs = 2
[clocks]
decision_ms = 500
hard_ms = 3000
[entrant random]
command = @random
[entrant greedy]
command = @greedy
T
"$ARENA" league init "$L" "$TMP/t.league" > /dev/null || { echo "FAIL: init" >&2; exit 1; }
B="$L.bots"
python3 "$(dirname "$0")/archives.py" "$TMP/arch" "$S" || { echo "FAIL: archives.py" >&2; exit 1; }

sql() {
    python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1], timeout=30)
for r in c.execute(sys.argv[2], sys.argv[3:]):
    print("|".join(map(str, r)))' "$L/league.db" "$@"
}
# the world outside the versions' folders: the sentinel, the folder around everything (but the
# archives and sources), the league's folder without its database, and DIR.bots without the
# versions' folders, their logs and the locks
world() {
    (cd "$TMP" && find . -maxdepth 1 ! -name w ! -name src ! -name lg.bots -printf '%y %p\n' | sort &&
        find sentinel -printf '%y %m %s %p\n' | sort && find sentinel -type f -exec md5sum {} + | sort &&
        find lg ! -name 'league.db*' -printf '%y %m %p\n' | sort)
    # DIR.bots holds the entrants' folders, each its versions' folders, their logs and a lock
    [ -d "$B" ] && (cd "$B" && find . -mindepth 1 -maxdepth 1 ! -type d -printf '%y %p\n' &&
        find . -mindepth 2 -maxdepth 2 ! -name 'v*' ! -name .lock -printf '%y %p\n')
}
before=$(world)

# --- hostile archives: refused, stored, no folder left ------------------------------------------
n=0
while IFS=$'\t' read -r file expect limits; do
    [ "$expect" = ok ] && continue
    # the small-limit cases, and 4100 entries (1.5 s of creating and removing files on a
    # loaded disk), are unpack.sh's: the same ar_unpack
    [ -n "$limits" ] || [ "$file" = many.tar.gz ] && continue
    n=$((n + 1))
    name="h$n"
    names[n]=$file
    expects[n]=$expect
    "$ARENA" league add "$L" "$name" --archive "$TMP/arch/$file" --cmd ./bot > /dev/null 2> "$W/err"
    rc=$?
    check "$file: refused (exit 1): $(head -c 160 "$W/err")" test "$rc" -eq 1
    check "$file: ... saying '$expect'" grep -qF -- "$expect" "$W/err"
    check "$file: ... no version folder left" test ! -e "$B/$name/v1"
    check "$file: ... nothing outside changed" test "$before" = "$(world)"
done < "$TMP/arch/cases.txt"
sql "SELECT name, status, reason FROM entrants WHERE name LIKE 'h%'" > "$W/refused"
for ((i = 1; i <= n; i++)); do
    check "${names[i]}: ... stored as a refused version with the reason" \
        grep -qF -- "h$i|refused|refused before its check: its archive: " <<< "$(grep -F -- "${expects[i]}" "$W/refused")"
done

# an archive bigger than all it may unpack to: refused before anything is made
truncate -s 70M "$W/huge.tar"
"$ARENA" league add "$L" huge --archive "$W/huge.tar" --cmd ./bot > /dev/null 2> "$W/err"
rc=$?
check "an archive over 64 MiB: refused (exit 2): $(cat "$W/err")" test "$rc" -eq 2
check "... saying so" grep -q "over 67108864 bytes" "$W/err"
check "... nothing made" eval '[ ! -e "$B/huge" ] && [ "$before" = "$(world)" ]'
rm -f "$W/huge.tar"

# --- a valid upload: unpacked, checked by run, plays ---------------------------------------------
mkdir -p "$TMP/src/py"
cp "$SRC/bots/random/random_bot.py" "$TMP/src/py/"
tar czf "$W/py.tgz" -C "$TMP/src/py" .
"$ARENA" league add "$L" pyr --archive "$W/py.tgz" --cmd "python3 random_bot.py" > "$W/out" 2>&1
check "a Python bot in a .tar.gz: added (version 1)" grep -q "pyr version 1 added" "$W/out"
check "... unpacked into DIR.bots/pyr/v1" test -f "$B/pyr/v1/random_bot.py"
# a zip of the same, with a build step that writes a file into its own folder
(cd "$TMP/src/py" && python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], "w"); z.write("random_bot.py"); z.writestr("build.sh", "echo building; echo made > made.txt; cc -O2 -o hello hello.c\n"); z.writestr("hello.c", "#include <stdio.h>\nint main(void) { puts(\"built\"); return 0; }\n")' "$W/py.zip")
"$ARENA" league add "$L" pyr --archive "$W/py.zip" --cmd "python3 random_bot.py" --build "sh build.sh" > "$W/out" 2>&1
check "a .zip with a build step: version 2 added" grep -q "pyr version 2 added" "$W/out"
check "... the build wrote in its folder" test "$(cat "$B/pyr/v2/made.txt" 2> /dev/null)" = made
check "... and compiled C there (cc in the jail)" test "$("$B/pyr/v2/hello" 2> /dev/null)" = built
check "... its log kept" grep -q "^building" "$B/pyr/v2.build.log"
check "... and its temporary folder removed" test ! -e "$B/pyr/v2/.build-tmp"
timeout 120 "$ARENA" league run "$L" --sets 1 --quiet 2> "$W/run.err"
check "run: exit 0" test $? -eq 0
check "the uploaded version 2 passed its check and plays" test "$(sql "SELECT status FROM entrants WHERE name = 'pyr' AND version = 2")" = active
before=$(world)

finish
