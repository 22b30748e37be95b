#!/usr/bin/env bash
# replay.sh BUILD_DIR HELPERS_DIR - `arena replay --html`: the page of a game agrees with its
# record step by step (laws with verdicts and substituted moves, gin, 4-seat german with
# claims); a seat's page holds no card that seat could not know at any step, anywhere in the
# file, nor the game id, seed or digests, and its hands are what `arena replay --seat` shows;
# a tampered record is refused with file:line and no page is left; a gin knock's showdown
# (melds, deadwood, lay-offs) is on every page, also for a record from before protocol 1.1.
source "$(dirname "$0")/../match/lib.bash" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
PAGES="$(dirname "$0")/pages.py"

# laws, 3 seats, with an illegal move and a crash played by the arena (substitute)
"$ARENA" match --players 3 --games 3 --seed 31 --on-error substitute --bot "$(helper good)" \
    --bot "$(helper crash --after 40)" --bot "$(helper illegal --after 9)" --out "$TMP/laws" \
    --quiet >/dev/null 2>&1
"$ARENA" match --rules gin --players 2 --games 2 --seed 4 --bot @greedy --bot @random \
    --out "$TMP/gin" --quiet >/dev/null 2>&1
"$ARENA" match --rules german --players 4 --games 4 --seed 8 --bot @greedy --bot @random \
    --out "$TMP/german" --quiet >/dev/null 2>&1
check "the matches ran" test -s "$TMP/laws/results.json" -a -s "$TMP/gin/results.json" \
    -a -s "$TMP/german/results.json"
check "the laws match has verdicts in its records" grep -q '"type":"verdict"' "$TMP"/laws/records/*.jsonl

for m in laws gin german; do
    "$ARENA" replay "$TMP/$m" --html --each-seat --quiet >"$TMP/$m.out" 2>&1
    check "$m: every game's pages written (exit 0)" test $? -eq 0
    for rec in "$TMP/$m"/records/*.jsonl; do
        id=$(basename "$rec" .jsonl)
        page="$TMP/$m/replays/$id.html"
        python3 "$PAGES" replay "$rec" "$page"
        check "$m/$id: the referee's page agrees with the record" test $? -eq 0
        players=$(python3 -c "import json; print(json.loads(open('$rec').readline())['players'])")
        pub=$(echo "$id" | sed -E 's/^[mt][0-9]+-//') # a seat's page is named without the seed
        for ((k = 0; k < players; k++)); do
            "$ARENA" replay "$rec" --seat "$k" >"$TMP/cli.txt" 2>&1
            python3 "$PAGES" seat "$rec" "$page" "$TMP/$m/replays/$pub.seat$k.html" "$k" "$TMP/cli.txt"
            check "$m/$id seat $k: nothing concealed, own hand as arena replay --seat" test $? -eq 0
        done
    done
done
# the match's seed, as its game ids name it (m<seed>-d0-r0); a record's "seed" is its deal's
seed=$(basename "$(ls "$TMP"/laws/records/*.jsonl | head -1)" .jsonl | sed -E 's/^m([0-9]+)-.*/\1/')
check "no seat page's file name holds the match's seed ($seed)" \
    test -z "$(ls "$TMP"/{laws,gin,german}/replays | grep 'seat' | grep -e "m$seed" -e "$seed-")"
check "  and the referee's page links them by those names" \
    grep -q '"href":"d0-r0.seat0.html"' "$TMP/laws/replays/m$seed-d0-r0.html"

# one page: the default name, -o, --seat K
rec=$(ls "$TMP"/gin/records/*.jsonl | head -1)
id=$(basename "$rec" .jsonl)
A=$(readlink -f "$ARENA")
(cd "$TMP" && "$A" replay "$rec" --html >/dev/null)
check "FILE --html writes ID.html in the current folder" test -s "$TMP/$id.html"
"$ARENA" replay "$rec" --html --seat 1 -o "$TMP/one.html" >/dev/null
check "--seat 1 -o PAGE writes that page" test -s "$TMP/one.html"
check "... a seat's page (no other hand, no seed)" python3 "$PAGES" seat "$rec" "$TMP/$id.html" "$TMP/one.html" 1
"$ARENA" replay "$TMP/gin" --game 1 --html -o "$TMP/g1.html" >/dev/null
check "DIR --game K --html -o PAGE" grep -q 'okr-data' "$TMP/g1.html"
# the table is drawn by table.js and table.css, which the play page inlines too (tests/play)
check "the page inlines table.js and table.css byte for byte" python3 -c '
import sys
page = open(sys.argv[1], encoding="utf-8").read()
sys.exit(0 if all(open(f, encoding="utf-8").read() in page for f in sys.argv[2:]) else 1)' \
    "$TMP/g1.html" "$HERE/../../arena/view/assets/table.js" "$HERE/../../arena/view/assets/table.css"
check "the page asks the browser to fetch nothing (CSP default-src 'none')" \
    grep -q "default-src 'none'" "$TMP/g1.html"
check "a page has no http(s) address in it" bash -c "! grep -Eq 'https?://' '$TMP/g1.html'"

# a hostile name cannot close the data block or add markup
"$ARENA" match --players 2 --rules gin --games 2 --seed 3 --bot @greedy \
    --name '</script><script>alert(1)</script>' --bot @random --out "$TMP/evil" --quiet >/dev/null 2>&1
"$ARENA" replay "$TMP/evil" --game 0 --html -o "$TMP/evil.html" >/dev/null
check "a name with </script> stays inside the data" \
    test "$(grep -o '</script>' "$TMP/evil.html" | wc -l)" -eq 2
check "... and is escaped in the title" grep -q '<title>.*&lt;/script&gt;' "$TMP/evil.html"

# a record that does not replay: file:line, exit 1, no page left
sed '5s/"action":"[^"]*"/"action":"discard JK"/' "$rec" >"$TMP/bad.jsonl"
"$ARENA" replay "$TMP/bad.jsonl" --html -o "$TMP/bad.html" >"$TMP/bad.txt" 2>&1
rc=$?
check "a tampered record: exit 1" test "$rc" -eq 1
check "... with the record's file:line" grep -q 'bad.jsonl:5:' "$TMP/bad.txt"
check "... and no page" test ! -e "$TMP/bad.html"
head -c 300 "$rec" >"$TMP/cut.jsonl"
"$ARENA" replay "$TMP/cut.jsonl" --html -o "$TMP/cut.html" >"$TMP/cut.txt" 2>&1
check "a record cut short: exit 1, a message" test $? -eq 1 -a -s "$TMP/cut.txt"
# hostile records: wrong types, seats out of range, a verdict for seat 99; refused, never a crash
hdr=$(head -1 "$rec")
i=0
for body in '{"type":"header","players":99}' '{"type":"header","rules":"laws","players":"x","names":5}' \
    "$hdr"$'\n''{"type":"verdict","seat":99}' "$hdr"$'\n''{"type":"action","seat":-5,"action":7}' \
    "$hdr"$'\n''{"type":"hand_end","hand":1}' "$hdr"$'\n''[]' '"x"'; do
    i=$((i + 1))
    printf '%s\n' "$body" >"$TMP/h$i.jsonl"
    "$ARENA" replay "$TMP/h$i.jsonl" --html --each-seat -o "$TMP/h$i.html" >"$TMP/h$i.txt" 2>&1
    rc=$?
    [ "$rc" -eq 1 ] && grep -q "h$i.jsonl:[0-9]*:" "$TMP/h$i.txt" ||
        bad "hostile record #$i: exit $rc: $(head -c 200 "$TMP/h$i.txt")"
    # one reader (arena/match/record_read.c): the text replay refuses it with the same words
    why=$("$ARENA" replay --quiet "$TMP/h$i.jsonl" 2>&1 | sed -n 's/^replay: MISMATCH: //p')
    [ -n "$why" ] && grep -qF "$why" "$TMP/h$i.txt" ||
        bad "hostile record #$i: arena replay says '$why', the page '$(head -c 200 "$TMP/h$i.txt")'"
done
ok "hostile records: each refused with file:line (exit 1) and the same message by arena replay, none crashes"
# a record written before protocol 1.1 (no "showdown" on its hand ends): still replays, and
# its pages show each knock's melds, deadwood and lay-offs, worked out again by the engine
old="$(dirname "$0")/fixtures/gin-1.0.jsonl"
check "a 1.0 gin record has no showdown lines" test -z "$(grep showdown "$old")"
check "a 1.0 gin record replays (exit 0)" "$ARENA" replay --quiet "$old"
"$ARENA" replay "$old" --html -o "$TMP/old.html" >/dev/null &&
    "$ARENA" replay "$old" --html --seat 1 -o "$TMP/old.seat1.html" >/dev/null
check "... and arena replay lists each knock's melds and lay-offs" \
    test "$("$ARENA" replay "$old" | grep -c '^   seat [01] knocks with .*; deadwood.*; laid off: ')" -eq \
    "$(grep -cE '"ended":"(knock|undercut|gin)"' "$old")"
check "a 1.0 gin record: its pages are written" test -s "$TMP/old.html" -a -s "$TMP/old.seat1.html"
check "... the referee's page agrees with it, a knock's showdown on every knock" \
    python3 "$PAGES" replay "$old" "$TMP/old.html"
check "... the seat's page has the same showdowns and nothing concealed" \
    python3 "$PAGES" seat "$old" "$TMP/old.html" "$TMP/old.seat1.html" 1
# a showdown in a record is checked against the engine's
python3 - "$rec" "$TMP/sd.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
e = [x for x in lines if x.get("showdown")][0]
e["showdown"]["deadwood"] = "KS"
open(sys.argv[2], "w").write("".join(json.dumps(x) + "\n" for x in lines))
PY
"$ARENA" replay --quiet "$TMP/sd.jsonl" >"$TMP/sd.txt" 2>&1
check "a changed showdown: a mismatch, with file:line" \
    grep -q "sd.jsonl:[0-9]*: hand [0-9]*: the knock's showdown differs" "$TMP/sd.txt"
# notes on choices (protocol 1.1) from a hostile bot: markup, a newline, too long, invalid
# UTF-8. Each is cut to a valid prefix of at most 280 bytes and counted, never refused; the
# pages hold it only as data, and only the referee's and the bot's own seat page have it.
"$ARENA" match --rules gin --players 2 --games 2 --seed 6 --bot "$(helper notes)" --bot @greedy \
    --out "$TMP/notes" --quiet >/dev/null 2>&1
check "notes: the match ran, every game completed, no verdict" \
    py "$TMP/notes" "all(x['completed'] and not x['verdicts'] for x in g)"
check "notes: every note the bot sent was cut or cleaned, and counted in results.json" \
    py "$TMP/notes" "bots['okrh_notes']['notes_cut'] == bots['okrh_notes']['decisions'] > 0" \
    "bots['@greedy']['notes_cut'] == 0"
python3 - "$TMP"/notes/records/*.jsonl <<'PY' && ok "notes: in the records, valid UTF-8 of at most 280 bytes, no control characters, cut at a character" || bad "notes in the records"
import json, sys
long = short = 0
for path in sys.argv[1:]:
    for line in open(path, "rb"):
        x = json.loads(line.decode("utf-8"))  # the whole line is valid UTF-8
        if "note" not in x:
            continue
        b = x["note"].encode("utf-8")
        assert len(b) <= 280 and not any(c < 0x20 or c == 0x7F for c in b), x
        if x["note"].startswith("</script><img"):
            assert len(b) >= 279 and x["note"].endswith("\u00e9"), (len(b), x["note"][-5:])
            long += 1
        else:
            assert x["note"] == "ok ", x["note"]  # the prefix before the invalid byte
            short += 1
assert long and short, (long, short)
PY
nrec="$TMP/notes/records/m6-d0-r0.jsonl"
nown=$(python3 -c "import json; print(json.loads(open('$nrec').readline())['names'].index('okrh_notes'))")
check "notes: arena replay lists them, as --seat $nown too, never as the other seat" \
    test "$("$ARENA" replay "$nrec" | grep -c '  note: ')" -gt 0 \
    -a "$("$ARENA" replay "$nrec" --seat "$nown" | grep -c '  note: ')" -gt 0 \
    -a "$("$ARENA" replay "$nrec" --seat $((1 - nown)) | grep -c '  note: ')" -eq 0
"$ARENA" replay "$TMP/notes" --html --each-seat --quiet >/dev/null 2>&1
check "notes: the pages are written" test -s "$TMP/notes/replays/d0-r0.seat1.html"
for id in m6-d0-r0 m6-d0-r1; do
    ref="$TMP/notes/replays/$id.html"
    own=$(python3 -c "import json; print(json.loads(open('$TMP/notes/records/$id.jsonl').readline())['names'].index('okrh_notes'))")
    python3 - "$ref" "$TMP/notes/replays/${id#m6-}.seat$own.html" "$TMP/notes/replays/${id#m6-}.seat$((1 - own)).html" <<'PY' && ok "notes $id: no markup from a note in any page; the referee and the bot's seat show them, the other seat none" || bad "notes $id: pages"
import html.parser, json, re, sys
class Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.tags = []
    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
def page(path):
    text = open(path, encoding="utf-8").read()
    t = Tags(); t.feed(text)
    data = json.loads(re.search(r'<script type="application/json" id="okr-data">(.*?)</script>', text, re.S).group(1))
    return text, t.tags, data
for path, want in zip(sys.argv[1:], ("all", "own", "none")):
    text, tags, data = page(path)
    assert not [a for t, a in tags if t == "img" or any(k.startswith("on") for k in a)], path
    assert "onerror" not in text.replace("onerror=alert(1)\\u003e", ""), path  # only inside the data
    scripts = [t for t, a in tags if t == "script"]
    assert len(scripts) == 2, (path, len(scripts))  # the data and the page's own script
    notes = [f for f in data["frames"] if "why" in f]
    if want == "none":
        assert not notes and "onerror" not in text, path
    else:
        assert notes and all(f["why"].startswith("</script><img") or f["why"] == "ok " for f in notes), path
        assert len({f["a"] for f in notes}) == 1, path  # the one bot that writes notes
PY
done
"$ARENA" replay "$rec" --html --seat 5 -o "$TMP/s5.html" >"$TMP/s5.txt" 2>&1
check "--seat 5 of a 2-seat game: exit 1, says so" grep -q 'the game has 2 seats' "$TMP/s5.txt"
"$ARENA" replay "$rec" --html --bogus >/dev/null 2>&1
check "an unknown flag: exit 2" test $? -eq 2
finish
