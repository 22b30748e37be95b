#!/usr/bin/env bash
# limits.sh BUILD_DIR - the league file's upload limits (docs/league.md, "Upload limits"):
# upload_max_bytes, upload_max_unpacked, upload_max_files, build_seconds and build_mb in
# [league], a bad value named FILE:LINE, a tournament refusing them; an archive the default
# limits take is refused by `league add --archive` under each lowered limit, and by the web
# upload (`run --serve`, /submit) under a lowered upload_max_bytes, each saying which limit.
source "$(dirname "$0")/../tour/lib.bash" "$@"
head_of() {
    cat <<T
[league]
name = lim
rules = gin
seats = 2
seed = 9
$1
[entrant random]
command = @random
[entrant greedy]
command = @greedy
T
}
# ---- bad values, named by line ----
for kv in "upload_max_bytes = 0" "upload_max_unpacked = lots" "upload_max_files = -3" \
    "build_seconds = 0" "build_mb = 2"; do
    head_of "$kv" >"$TMP/bad.league"
    out=$("$ARENA" league init "$TMP/bad-$RANDOM" "$TMP/bad.league" 2>&1)
    rc=$?
    check "'$kv' is refused with FILE:6 (exit 2)" \
        test $rc -eq 2 -a -n "$(grep -F "bad.league:6: ${kv%% *}:" <<<"$out")"
done
cat >"$TMP/t.tour" <<T
[tournament]
rules = gin
seats = 2
upload_max_bytes = 100
[entrant a]
command = @random
[entrant b]
command = @greedy
T
out=$("$ARENA" tournament "$TMP/t.tour" --plan 2>&1)
check "a tournament file refuses a league's key" grep -q "t.tour:4: .*only a league's file" <<<"$out"

# ---- an archive the defaults take ----
mkdir -p "$TMP/bot"
cp "$SRC/bots/random/random_bot.py" "$TMP/bot/bot.py"
head -c 6000 /dev/zero >"$TMP/bot/zeros.dat" # 6000 bytes unpacked, a few dozen packed
echo "notes" >"$TMP/bot/README"
tar -C "$TMP/bot" -czf "$TMP/bot.tar.gz" bot.py zeros.dat README
size=$(stat -c %s "$TMP/bot.tar.gz")
add() { # add LEAGUE_DIR NAME [--build CMD]: the archive
    "$ARENA" league add "$1" "$2" --archive "$TMP/bot.tar.gz" --cmd "python3 bot.py" "${@:3}" 2>&1
}
head_of "" >"$TMP/d.league"
"$ARENA" league init "$TMP/d" "$TMP/d.league" >/dev/null
out=$(add "$TMP/d" okbot)
check "the default limits take the archive ($size bytes)" test $? -eq 0
declare -A want=(
    ["upload_max_bytes = $((size - 1))"]="over $((size - 1)) bytes (upload_max_bytes)"
    ["upload_max_unpacked = 5000"]="zeros.dat"
    ["upload_max_files = 2"]="entries"
)
n=0
for kv in "${!want[@]}"; do
    n=$((n + 1))
    head_of "$kv" >"$TMP/l$n.league"
    "$ARENA" league init "$TMP/l$n" "$TMP/l$n.league" >/dev/null
    out=$(add "$TMP/l$n" lowbot)
    rc=$?
    check "'$kv' refuses it (exit $rc): ${want[$kv]}" \
        test $rc -ne 0 -a -n "$(grep -F -- "${want[$kv]}" <<<"$out")"
    [ $rc -ne 0 ] || echo "$out"
done

# ---- the build's seconds (only where the jail runs builds) ----
mode=$("$ARENA" sandbox 2>/dev/null | sed -n 's/^mode  *//p')
case "$mode" in
full | no-cgroups | rootless)
    head_of "build_seconds = 1" >"$TMP/b.league"
    "$ARENA" league init "$TMP/b" "$TMP/b.league" >/dev/null
    out=$(add "$TMP/b" slowbot --build "sleep 30")
    rc=$?
    check "build_seconds = 1 stops a build of 30 s (exit $rc)" \
        test $rc -ne 0 -a -n "$(grep -i "time limit\|seconds\|1 s" <<<"$out")"
    out=$(add "$TMP/d" quickbuild --build "sleep 1")
    check "... which the default (120 s) lets finish" test $? -eq 0
    ;;
*) echo "(the sandbox here is '$mode': the build_seconds case is left out)" ;;
esac

# ---- the web upload follows the league file too ----
head_of "upload_max_bytes = $((size - 1))" >"$TMP/w.league"
"$ARENA" league init "$TMP/w" "$TMP/w.league" >/dev/null
link=$("$ARENA" league author add "$TMP/w" alice | grep -o 'k=[0-9a-f]*')
"$ARENA" league run "$TMP/w" --serve 0 --jobs 1 -q >"$TMP/run.out" 2>"$TMP/run.err" &
RUN=$!
for _ in $(seq 100); do
    [ -s "$TMP/w/web.url" ] && grep -q "host signs in" "$TMP/run.out" && break
    sleep 0.1
done
url=$(cat "$TMP/w/web.url")
port=${url##*:}
web() { # web NAME: upload the archive as alice; prints the status and the outcome
    curl -s -o "$TMP/resp" -w '%{http_code}' -H "Origin: $url" \
        -b "okr_lg_$port=alice.${link#k=}" -F "name=$1" -F runtime=python3 -F entry=bot.py \
        -F "file=@$TMP/bot.tar.gz" "$url/submit"
    grep -o 'id="outcome">[^<]*' "$TMP/resp" | head -1
}
out=$(web webbot)
check "the web upload is refused under the lowered upload_max_bytes" \
    grep -q "^400.*over $((size - 1)) bytes (upload_max_bytes)" <<<"$out"
[ $? -eq 0 ] || echo "$out"
kill -TERM $RUN
wait $RUN
head_of "" >"$TMP/w2.league"
"$ARENA" league init "$TMP/w2" "$TMP/w2.league" >/dev/null
link=$("$ARENA" league author add "$TMP/w2" alice | grep -o 'k=[0-9a-f]*')
"$ARENA" league run "$TMP/w2" --serve 0 --jobs 1 -q >"$TMP/run.out" 2>"$TMP/run.err" &
RUN=$!
for _ in $(seq 100); do
    [ -s "$TMP/w2/web.url" ] && grep -q "host signs in" "$TMP/run.out" && break
    sleep 0.1
done
url=$(cat "$TMP/w2/web.url")
port=${url##*:}
out=$(web webbot)
check "... which the default takes" grep -q "^200.*Taken" <<<"$out"
[ $? -eq 0 ] || echo "$out"
kill -TERM $RUN
wait $RUN
finish
