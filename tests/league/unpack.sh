#!/usr/bin/env bash
# unpack.sh BUILD_DIR - ar_unpack (arena/league/unpack.h) on archives made here by archives.py:
# valid .tar.gz, .tar, .zip and multi-member gzip unpack whole, plain files and folders with
# modes 0755/0644 only; every hostile one ("..", absolute paths, symlinks and hard links in and
# out, devices, a fifo, zip bombs, a file over the limit, too many entries, truncated or corrupt
# data, garbage, names twice, control characters, too deep) is refused with its reason, leaves
# its folder empty, and changes nothing outside it (a sentinel folder's listing and contents,
# and the work folder's, are the same before and after).
source "$(dirname "$0")/../tour/lib.bash" "$@"

U="$BUILD/tests/league/okrt_unpack"
[ -x "$U" ] || { echo "FAIL: no $U" >&2; exit 1; }
W="$TMP/work"
mkdir -p "$W/sentinel/sub" "$W/arch"
echo keep > "$W/sentinel/keep"
echo deep > "$W/sentinel/sub/file"
python3 "$(dirname "$0")/archives.py" "$W/arch" "$W/sentinel" || { echo "FAIL: archives.py" >&2; exit 1; }

# listing LEADING: every path below $W (but the archives and the folder unpacked into) with
# its type, mode, size and checksum
listing() {
    (cd "$W" && find . -path ./arch -prune -o -path ./out -prune -o -printf '%y %m %s %p\n' | sort &&
        find sentinel -type f -exec md5sum {} + | sort)
}
before=$(listing)

while IFS=$'\t' read -r file expect limits; do
    rm -rf "$W/out"
    mkdir "$W/out"
    # shellcheck disable=SC2086
    out=$("$U" "$W/arch/$file" "$W/out" $limits)
    rc=$?
    if [ "$expect" = ok ]; then
        check "$file: unpacked" test "$rc" -eq 0
        modes=$(cd "$W/out" && find . -mindepth 1 -printf '%y%m %p\n' | sort)
        check "$file: plain files 0644/0755 and folders 0755 only" \
            test -z "$(grep -vE '^(f644|f755|d755) ' <<< "$modes")"
        check "$file: bot 0755, lib/data.txt 0644, deep/a/b/c.txt" \
            eval 'grep -qx "f755 ./bot" <<< "$modes" && grep -qx "f644 ./lib/data.txt" <<< "$modes" && [ "$(cat "$W/out/deep/a/b/c.txt")" = c ]'
    else
        check "$file: refused (exit 1): ${out#refused: }" test "$rc" -eq 1
        check "$file: ... saying '$expect'" grep -qF -- "$expect" <<< "$out"
        check "$file: ... its folder left empty" test -z "$(ls -A "$W/out")"
    fi
    check "$file: nothing outside its folder changed" test "$before" = "$(listing)"
done < "$W/arch/cases.txt"

# a folder that is not empty is refused and left alone
rm -rf "$W/out" && mkdir "$W/out" && echo mine > "$W/out/mine"
out=$("$U" "$W/arch/valid.tar.gz" "$W/out")
check "a folder not empty: refused, and its file kept" eval '[ $? -eq 1 ] && grep -q "not empty" <<< "$out" && [ "$(cat "$W/out/mine")" = mine ]'
finish
