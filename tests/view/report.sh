#!/usr/bin/env bash
# report.sh BUILD_DIR HELPERS_DIR - `arena report`: the html report's every table has the rows
# and numbers of results.json and games.jsonl (standings, rank probabilities, pairwise,
# crosstable, verdicts, timing from timings.jsonl, duplicate sets hand by hand, games), and links only replay pages that exist; the md and text blocks carry the standings;
# json has the same numbers; a match folder reports too; a folder without results, a broken
# results.json and a bad flag are refused with the file named.
source "$(dirname "$0")/../match/lib.bash" "$@"
PAGES="$(dirname "$0")/pages.py"
export VIEW_TESTS=$(readlink -f "$(dirname "$0")")
H=$(readlink -f "$H") # commands in a .tour file are taken relative to the file

# a tournament with verdicts: a crashing bot forfeits, a slow one loses on time
cat >"$TMP/t.tour" <<TOUR
[tournament]
name = view-test
rules = laws
seats = 3
deals = 2
seed = 77
bootstrap = 100
[clocks]
decision_ms = 200
hard_ms = 400
bank_ms = 200
[errors]
max_error_share = 1
[entrant greedy]
command = @greedy
[entrant random]
command = @random
[entrant crash]
command = $(helper crash --after 30)
[entrant good]
command = $(helper good)
TOUR
"$ARENA" tournament "$TMP/t.tour" --out "$TMP/t" --jobs 2 --no-progress --insecure >"$TMP/t.txt" 2>&1 || cat "$TMP/t.txt"
check "the tournament ran" test -s "$TMP/t/results.json"
check "... with verdicts" grep -q '"verdict":"RE"' "$TMP/t/games.jsonl"

"$ARENA" report "$TMP/t" --format json -o "$TMP/t/report.json" >/dev/null
check "--format json writes the numbers" test -s "$TMP/t/report.json"
out=$("$ARENA" report "$TMP/t" --format html --replays 5)
check "html by default into DIR/report.html, named on stdout" \
    test "$out" = "report: $TMP/t/report.html" -a -s "$TMP/t/report.html"
check "the replays of the first 5 games (referee's and 3 seats' pages each)" \
    test "$(ls "$TMP/t/replays" | wc -l)" -eq 20
python3 "$PAGES" report "$TMP/t" "$TMP/t/report.html" "$TMP/t/report.json"
check "every table agrees with results.json and games.jsonl; links point at pages" test $? -eq 0
check "the html has 2 forest plots (score, win-Elo)" \
    test "$(grep -c '<svg class="forest"' "$TMP/t/report.html")" -eq 2
check "the html fetches nothing" bash -c "! grep -Eq 'https?://|src=' '$TMP/t/report.html'"
check "a verdict links its bot's log" grep -q 'href="logs/s[0-9]*-slot[0-9]-crash.log"' "$TMP/t/report.html"
check "each entrant's logs: its own files (s<set>-slot<k>-NAME.log), all there, counted; none for built-ins" \
    python3 - "$TMP/t" <<'PY'
import os, re, sys
d = sys.argv[1]
h = open(d + "/report.html", encoding="utf-8").read()
table = re.search(r'<table id="t-verdicts">.*?<tbody>(.*?)</tbody>', h, re.S).group(1)
rows = re.findall(r'<tr><td class="l">([^<]*)</td>.*?<td class="l" data-logs="(\d+)">(.*?)</td></tr>', table)
assert len(rows) == 4, rows
for name, n, cell in rows:
    files = sorted(f for f in os.listdir(d + "/logs") if re.fullmatch(r"s\d+-slot\d-%s\.log" % re.escape(name), f))
    assert int(n) == len(files), (name, n, files)
    assert (len(files) == 0) == (name in ("greedy", "random")), (name, files)
    links = re.findall(r'href="([^"]*)"', cell)
    own = [l for l in links if l != "logs/"]
    assert len(own) == min(3, len(files)), (name, links, files)
    for l in own:
        assert l.startswith("logs/") and l[5:] in files and os.path.isfile(os.path.join(d, l)), (name, l)
    assert ("logs/" in links) == (len(files) > 3), (name, links)
PY
for v in $(grep -o 'href="logs/[^"]*"' "$TMP/t/report.html" | sed 's/href="//; s/"$//' | sort -u); do
    test -e "$TMP/t/$v" || [ "$v" = "logs/" ] || bad "a log link to $v, which is not there"
done
check "the replay pages link back to the report" grep -q '"back":"../report.html"' "$TMP/t/replays/"*.seat0.html

# the pasteable blocks
"$ARENA" report "$TMP/t" >"$TMP/text.txt"
check "text: one line per entrant (P(1st) from rank_p), the header, Sets and Verdicts lines" \
    python3 - "$TMP/t/results.json" "$TMP/text.txt" <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["VIEW_TESTS"])
from pages import as_shown
r = json.load(open(sys.argv[1]))
t = open(sys.argv[2]).read().splitlines()
assert t[0].startswith("okarena tournament view-test: laws, 3 seats"), t[0]
assert t[1].startswith("Sets     | N: %d of %d  Games: %d" % (r["sets"], r["sets_scheduled"], r["games"])), t[1]
tot = {}
for s in r["standings"]:
    for k, v in s["verdicts"].items():
        tot[k] = tot.get(k, 0) + v
assert t[2].startswith("Verdicts | ") and all(("%d %s" % (v, k)) in t[2] for k, v in tot.items() if v), t[2]
rows = [l for l in t if l[:4].strip().isdigit()]
assert len(rows) == len(r["standings"]), rows
for l, s in zip(rows, r["standings"]):
    f = l.split()
    assert f[0] == str(s["rank"]) and f[1] == s["name"] and f[2] == ("never" if s["never_played"] else as_shown(s["score"], 3, 1)), (l, s)
    p1 = s["rank_p"].get("1", 0)
    assert [x for x in f if x.endswith("%")][0] == ("<1%" if 0 < p1 < 0.005 else "%.0f%%" % (100 * p1)), (l, s["rank_p"])
PY
"$ARENA" report "$TMP/t" --format md -o "$TMP/r.md" >/dev/null
check "md: a table row per entrant" \
    test "$(grep -c '^| [0-9]* | ' "$TMP/r.md")" -eq 4
check "md: the format follows -o's .md" grep -q '^| rank | entrant |' "$TMP/r.md"

# the marks (issue 25): a bot that never starts (never played, DQ) and one that crashes
# mid-game, under on_error = substitute (the arena plays their moves: substituted), and the
# forfeiting crash of the tournament above: every format of the report carries each mark in
# the entrant's row, as results.json (and games.jsonl's per-seat substituted counts) say
printf '#!/bin/sh\necho "Traceback: File \\"$0\\", line 1" >&2\nexit 1\n' >"$TMP/dead.sh"
chmod +x "$TMP/dead.sh"
cat >"$TMP/k.tour" <<TOUR
[tournament]
name = marks
rules = laws
seats = 3
deals = 2
seed = 918273645
bootstrap = 50
[clocks]
decision_ms = 200
hard_ms = 400
bank_ms = 200
[errors]
on_error = substitute
[entrant greedy]
command = @greedy
[entrant random]
command = @random
[entrant dead]
command = $TMP/dead.sh
[entrant late]
command = $(helper crash --after 20)
TOUR
"$ARENA" tournament "$TMP/k.tour" --out "$TMP/k" --jobs 2 --no-progress --insecure >"$TMP/k.txt" 2>&1 || cat "$TMP/k.txt"
check "the marks tournament: dead never played and is DQ, late had moves substituted" \
    python3 -c "
import json, sys
r = json.load(open('$TMP/k/results.json'))
s = {x['name']: x for x in r['standings']}
assert s['dead']['never_played'] and s['dead']['disqualified'], s['dead']
assert not s['late']['never_played'] and sum(sum(json.loads(l)['substituted']) for l in open('$TMP/k/games.jsonl')) > 0
"
check "... the terminal table says never played and DQ" grep -q 'dead .*never played.*DQ (errors in' "$TMP/k.txt"
"$ARENA" report "$TMP/k" >"$TMP/k-text.txt"
"$ARENA" report "$TMP/k" --format md -o "$TMP/k.md" >/dev/null
"$ARENA" report "$TMP/k" --format json -o "$TMP/k/report.json" >/dev/null
"$ARENA" report "$TMP/k" --format html --replays none >/dev/null
for d in k t; do
    [ "$d" = t ] && { "$ARENA" report "$TMP/t" >"$TMP/t-text.txt"; "$ARENA" report "$TMP/t" --format md -o "$TMP/t.md" >/dev/null; }
    check "marks of $d: text, md, html and json rows carry each entrant's marks as results.json says" \
        python3 - "$TMP/$d" "$TMP/$d-text.txt" "$TMP/$d.md" <<'PY2'
import json, os, re, sys
sys.path.insert(0, os.environ["VIEW_TESTS"])
from pages import marks_of, substituted_by_name
d, text, md = sys.argv[1:4]
r = json.load(open(d + "/results.json"))
g = [json.loads(l) for l in open(d + "/games.jsonl") if l.strip()]
sub = substituted_by_name(g)
rows_t = {l.split()[1]: l for l in open(text).read().splitlines() if l[:4].strip().isdigit()}
rows_m = {l.split("|")[2].strip(): l for l in open(md) if re.match(r"^\| \d+ \| ", l)}
h = open(d + "/report.html", encoding="utf-8").read()
tb = re.search(r'<table id="t-standings">.*?<tbody>(.*?)</tbody>', h, re.S).group(1)
rows_h = {m.group(1): m.group(0) for m in re.finditer(r"<tr><td>\d+</td><td class=\"l\">([^<]*)</td>.*?</tr>", tb)}
js = {x["name"]: x["marks"] for x in json.load(open(d + "/report.json"))["standings"]}
seen = 0
for s in r["standings"]:
    n = s["name"]
    want = marks_of(s, sub[n])
    for fmt, row in (("text", rows_t[n]), ("md", rows_m[n])):
        for m in want:
            assert m in row, (fmt, n, m, row)
        if not want:
            assert not re.search(r"never played|DQ \(|forfeit|substituted", row), (fmt, n, row)
        # never played: in place of the score, as the terminal writes it
        assert s["never_played"] == (row.split("|" if fmt == "md" else None)[3 if fmt == "md" else 2].strip().startswith("never")), (fmt, n, row)
    cell = re.search(r'data-substituted="\d+">([^<]*)</td>', rows_h[n]).group(1)
    assert cell == (", ".join(want) or "-"), ("html", n, cell, want)
    assert ('<td class="mark">never played</td>' in rows_h[n]) == s["never_played"], ("html", n)
    assert js[n]["text"] == ", ".join(want), (n, js[n], want)
    assert (js[n]["never_played"], js[n]["disqualified"], js[n]["forfeits"], js[n]["substituted"]) == (s["never_played"], s["disqualified"], s["forfeits"], sub[n]), (n, js[n])
    attrs = re.search(r'data-never-played="(\d)" data-dq="(\d)" data-forfeits="(\d+)" data-substituted="(\d+)"', rows_h[n]).groups()
    assert attrs == (str(int(s["never_played"])), str(int(s["disqualified"])), str(s["forfeits"]), str(sub[n])), (n, attrs)
    seen += len(want)
assert seen, "no mark at all: nothing checked"
print("  %d marks checked in 4 formats" % seen)
PY2
done
python3 "$PAGES" report "$TMP/k" "$TMP/k/report.html" "$TMP/k/report.json"
check "... and every table of the marks tournament agrees with results.json" test $? -eq 0

# one rounding rule (issue 25: "+52.7 in the terminal, +52.8 in the report"): the report's
# figures are the terminal table's for every entrant of the marks tournament (the same rule,
# util's ar_fmt_num, in both), and a value
# printf wrote differently (results.json's -0.04: "-0.0"; 52.65, binary 52.6499..: "+52.6";
# 251.25, half to even: "+251.2") is written by the rule (av_fmt_num, test_marks.c)
check "the report's score, interval and win-Elo are the terminal table's, digit for digit" \
    python3 - "$TMP/k.txt" "$TMP/k-text.txt" "$TMP/k/results.json" <<'PY2'
import json, re, sys
# Both round by one rule (ar_fmt_num: the value as results.json stores it, 3 decimals for
# scores and 1 for win-Elo, then what is shown), so even a stored tie (252.750, -180.5) whose
# raw value was on either side prints the same.
num = r"([+-]\d+(?:\.\d)?)"
# the terminal's optional luck-adjusted column (docs/luck.md) sits between score and win-Elo
luck = r"(?:[+-]\d+(?:\.\d)? \[[+-]\d+(?:\.\d)?, [+-]\d+(?:\.\d)?\]\s+)?"
row = re.compile(r"^\s*\d+\s+(\S+)\s+(?:never played|%s \[%s, %s\])\s+%s%s \[%s, %s\]" % ((num,) * 3 + (luck,) + (num,) * 3))
term = {m.group(1): m.groups()[1:] for m in map(row.match, open(sys.argv[1])) if m}
rep = {m.group(1): m.groups()[1:] for m in map(row.match, open(sys.argv[2])) if m}
assert len(term) == 4 and set(term) == set(rep), (term, rep)
assert term == rep, (term, rep)
print("  %d figures the same" % sum(len(v) for v in term.values()))
PY2
mkdir -p "$TMP/round"
cat >"$TMP/round/results.json" <<'JSON'
{"name": "round", "config": {"seats": 3, "rules": "laws"}, "standings": [
 {"rank": 1, "entrant": 0, "name": "a", "score": 251.25, "score_ci": [52.65, 300.0], "elo": 12.5, "elo_ci": [-0.4, 20.0], "rank_ci": [1, 1], "p_beats_next": 0.495, "games": 3, "sets": 1, "wins": 3},
 {"rank": 2, "entrant": 1, "name": "b", "score": -0.04, "score_ci": [-52.65, 0.0], "elo": -12.5, "elo_ci": [-20.0, 0.4], "rank_ci": [2, 2], "games": 3, "sets": 1, "wins": 0}]}
JSON
"$ARENA" report "$TMP/round" >"$TMP/round.txt"
"$ARENA" report "$TMP/round" --format html --replays none >/dev/null
check "figures by the rule: +251.3 [+52.7, ...], +0.0 [-52.7, +0.0], win-Elo +13 and -13, p>next 0.50" \
    python3 - "$TMP/round.txt" "$TMP/round/report.html" <<'PY2'
import sys
t, h = open(sys.argv[1]).read(), open(sys.argv[2], encoding="utf-8").read()
for want in ("+251.3 [+52.7, +300.0]", "+0.0 [-52.7, +0.0]", "+13 [+0, +20]", "-13 [-20, +0]", "0.50"):
    assert want in t, (want, t)
for want in ("<td>+251.3</td><td>[+52.7, +300.0]</td>", "<td>+0.0</td><td>[-52.7, +0.0]</td>", "<td>0.50</td>"):
    assert want in h, want
assert "-0.0" not in t and "-0.0" not in h and "-0<" not in h
PY2

# --publish: a folder with no absolute path, no seed, no log unless asked, and each entrant's
# games as its seat saw them (the seat pages, checked as replay.sh checks them)
"$ARENA" report "$TMP/k" --publish "$TMP/pub" >"$TMP/pub.txt" 2>&1
check "--publish: exit 0, prints the folder's size" grep -q "^published: $TMP/pub/index.html: [0-9]* files, [0-9]* bytes" "$TMP/pub.txt"
check "... the size printed is the folder's, and the index states it" python3 - "$TMP/pub" "$TMP/pub.txt" <<'PY2'
import os, re, sys
d, txt = sys.argv[1:3]
total = sum(os.path.getsize(os.path.join(a, f)) for a, _, fs in os.walk(d) for f in fs)
said = int(re.search(r"files, (\d+) bytes", open(txt).read()).group(1))
assert said == total, (said, total)
h = open(d + "/index.html", encoding="utf-8").read()
assert "(%d bytes, this page included)" % total in h, total
PY2
check "... no log file, no referee's page, no replays folder" \
    test ! -e "$TMP/pub/logs" -a ! -e "$TMP/pub/replays" -a -z "$(find "$TMP/pub" -name '*.log' -o -name 't*-s*.html')"
"$ARENA" replay "$TMP/k" --html --all -o "$TMP/ref" --quiet >/dev/null
check "... one folder per entrant, each game of the entrant as its seat saw it, and nothing else" \
    python3 - "$TMP/k" "$TMP/pub" <<'PY2'
import json, os, re, sys
d, pub = sys.argv[1:3]
g = [json.loads(l) for l in open(d + "/games.jsonl") if l.strip()]
want = {}
for x in g:
    pid = x["game_id"].split("-", 1)[1]
    for s, n in enumerate(x["names"]):
        want.setdefault(n, set()).add("%s.seat%d.html" % (pid, s))
got = {n: set(f for f in os.listdir(os.path.join(pub, n)) if f != "index.html") for n in want}
assert got == want, (got, want)
assert sorted(os.listdir(pub)) == sorted(list(want) + ["index.html"]), os.listdir(pub)
for n in want:
    idx = open(os.path.join(pub, n, "index.html"), encoding="utf-8").read()
    assert set(re.findall(r'href="([^"]+\.seat\d\.html)"', idx)) == want[n], n
h = open(pub + "/index.html", encoding="utf-8").read()
for n in want:
    assert 'href="%s/index.html"' % n in h, n
PY2
seeds=$(python3 -c "
import json
print(json.load(open('$TMP/k/results.json'))['config']['seed'])
for l in open('$TMP/k/games.jsonl'):
    x = json.loads(l); print(x['deal_seed']); print(x['game_id'])
" | sort -u)
leaks=0
for f in $(find "$TMP/pub" -type f); do
    for sd in $seeds; do grep -qF -- "$sd" "$f" && { echo "  $f holds $sd"; leaks=$((leaks + 1)); }; done
    grep -qF -- "$TMP" "$f" && { echo "  $f holds the path $TMP"; leaks=$((leaks + 1)); }
    grep -qF -- "$(readlink -f "$BUILD")" "$f" && { echo "  $f holds the path of $BUILD"; leaks=$((leaks + 1)); }
done
check "... no seed (the tournament's, any game's deal seed or full id) and no absolute path in any file" test "$leaks" -eq 0
check "... yet a verdict's detail is there, its path shortened" grep -q 'File &quot;.../dead.sh&quot;' "$TMP/pub/index.html"
seatleaks=0
for f in "$TMP"/pub/*/*.seat*.html; do
    page=$(basename "$f"); k=${page##*.seat}; k=${k%.html}; pid=${page%.seat*}
    id=$(cd "$TMP/k/records" && ls | grep -- "-$pid.jsonl\$" | sed 's/.jsonl$//')
    python3 "$PAGES" seat "$TMP/k/records/$id.jsonl" "$TMP/ref/$id.html" "$f" "$k" >"$TMP/seat.txt" || { cat "$TMP/seat.txt"; seatleaks=$((seatleaks + 1)); }
done
check "... every seat page holds no other seat's hidden card at any step (pages.py seat)" test "$seatleaks" -eq 0
"$ARENA" report "$TMP/t" --publish "$TMP/publ" --with-logs >/dev/null 2>&1
check "--with-logs: the logs are copied, every one" \
    test "$(ls "$TMP/publ/logs" | wc -l)" -eq "$(ls "$TMP/t/logs" | wc -l)" -a "$(ls "$TMP/t/logs" | wc -l)" -gt 0
check "... their game lines without the seed" bash -c "! grep -rq 'game t77-' '$TMP/publ/logs' && grep -rq '^\[arena: game s[0-9]' '$TMP/publ/logs'"
check "... and linked from the index" grep -q 'href="logs/s[0-9]*-slot[0-9]-crash.log"' "$TMP/publ/index.html"
"$ARENA" report "$TMP/t" --with-logs >/dev/null 2>&1
check "--with-logs without --publish: exit 2" test $? -eq 2

# every link of the page's nav points at a part of it; "how to read this" explains each of
# the numbers the issue names; a gauntlet's page shows its SPRT state as results.json has it
check "the nav's links all lead to parts of the page, rank probabilities among them" python3 - "$TMP/t/report.html" <<'PY'
import re, sys
h = open(sys.argv[1], encoding="utf-8").read()
nav = re.search(r"<nav>(.*?)</nav>", h).group(1)
links = re.findall(r'href="#([^"]+)"', nav)
assert "rankp" in links and "howto" in links, links
assert all(('id="%s"' % l) in h for l in links), [l for l in links if ('id="%s"' % l) not in h]
how = re.search(r'<div class="howto">(.*?)</div>', h, re.S).group(1)
for w in ("against the field", "p&gt;next", "rank CI", "Rank probabilities", "rho", "SPRT"):
    assert w in how, w
PY
printf '[tournament]\nname = g\nrules = laws\nseats = 3\nformat = gauntlet\nchallenger = g\nbaseline = r1\n' >"$TMP/g.tour"
printf 'deals = 6\nseed = 4\nbootstrap = 50\n[sprt]\ns0 = 0\ns1 = 50\n' >>"$TMP/g.tour"
printf '[entrant %s]\ncommand = %s\n' g @greedy r1 @random r2 @random >>"$TMP/g.tour"
"$ARENA" tournament "$TMP/g.tour" --out "$TMP/g" --jobs 1 --no-progress >/dev/null 2>&1
"$ARENA" report "$TMP/g" --format html --replays none >/dev/null
check "a gauntlet's page: its SPRT state (LLR, bounds, sets, decision) as results.json has it, linked" \
    python3 - "$TMP/g/results.json" "$TMP/g/report.html" <<'PY'
import json, re, sys
s = json.load(open(sys.argv[1]))["sprt"]
h = open(sys.argv[2], encoding="utf-8").read()
state = re.search(r'<p id="sprt-state">(.*?)</p>', h).group(1)
want = "LLR %.2f (%.2f, %.2f)" % (s["llr"], s["lower"], s["upper"])
assert state.startswith(want) and ("after %d sets -&gt; %s" % (s["sets"], s["decision"])) in state, (state, s)
assert 'href="#sprt"' in h and 'id="sprt"' in h, "no link to the sequential test"
PY

# dealer=winner (RULES 2.3): later hands are dealt differently in each rotation, so the
# duplicate sets compare the first hand only, and say so
printf '[tournament]\nname = w\nrules = laws\nrule = dealer=winner\nseats = 3\ndeals = 2\nseed = 5\nbootstrap = 50\n' >"$TMP/w.tour"
printf '[entrant %s]\ncommand = %s\n' g @greedy r @random good "$(helper good)" >>"$TMP/w.tour"
"$ARENA" tournament "$TMP/w.tour" --out "$TMP/w" --jobs 2 --no-progress --insecure >/dev/null 2>&1
"$ARENA" report "$TMP/w" --format html --replays none >/dev/null
"$ARENA" report "$TMP/w" --format json -o "$TMP/w/report.json" >/dev/null
check "dealer=winner: the duplicate sets show the first hand only, and say why" \
    grep -q 'the first hand (only the first: the dealer follows the winner, RULES 2.3)' "$TMP/w/report.html"
python3 "$PAGES" report "$TMP/w" "$TMP/w/report.html" "$TMP/w/report.json"
check "... and every table agrees with results.json, games.jsonl and timings.jsonl" test $? -eq 0

# a merge of shards reports what the unsharded run reports (built-in players: the games are
# the same in every run)
printf '[tournament]\nname = m\nrules = gin\nseats = 2\ndeals = 3\nseed = 5\nbootstrap = 50\n' >"$TMP/m.tour"
printf '[entrant %s]\ncommand = %s\n' g1 @greedy r1 @random g2 @greedy >>"$TMP/m.tour"
"$ARENA" tournament "$TMP/m.tour" --out "$TMP/whole" --jobs 1 --no-progress >/dev/null 2>&1
for k in 0 1; do
    "$ARENA" tournament "$TMP/m.tour" --out "$TMP/shard$k" --shard "$k/2" --jobs 1 --no-progress \
        >/dev/null 2>&1
done
"$ARENA" merge "$TMP/shard0" "$TMP/shard1" --out "$TMP/merged" >/dev/null 2>&1
"$ARENA" report "$TMP/merged" --format json -o "$TMP/merged.json" >/dev/null
"$ARENA" report "$TMP/whole" --format json -o "$TMP/whole.json" >/dev/null
check "a merge of 2 shards: the same report json as the unsharded run" \
    test -s "$TMP/whole.json" -a -z "$(diff "$TMP/merged.json" "$TMP/whole.json" 2>&1)"
"$ARENA" report "$TMP/shard0" >"$TMP/e0.txt" 2>&1
check "a shard's folder: exit 1, says to run arena merge" \
    test $? -eq 1 -a -n "$(grep 'run arena merge' "$TMP/e0.txt")"

# a match folder
"$ARENA" match --players 3 --games 3 --seed 2 --bot @greedy --bot @random --bot @random \
    --out "$TMP/m" --quiet >/dev/null 2>&1
"$ARENA" report "$TMP/m" -o "$TMP/m/r.html" >/dev/null
check "a match folder: html report with replay links" grep -q 'href="replays/m2-d0-r0.html"' "$TMP/m/r.html"
check "... the replays link back to r.html" grep -q '"back":"../r.html"' "$TMP/m/replays/m2-d0-r0.html"
check "a match folder: text names the bots" bash -c "'$ARENA' report '$TMP/m' | grep -q '@greedy'"

# a match folder's marks: its results.json's bots (substituted_actions, disqualified)
"$ARENA" match --players 3 --games 6 --seed 5 --bot @greedy --bot @random --bot "$(helper crash --after 0)" \
    --out "$TMP/mm" --quiet --insecure >/dev/null 2>&1
"$ARENA" report "$TMP/mm" >"$TMP/mm.txt"
check "a match folder: each bot's row carries its marks as results.json says (DQ once, not as a verdict too)" \
    python3 - "$TMP/mm/results.json" "$TMP/mm.txt" <<'PY2'
import json, os, sys
sys.path.insert(0, os.environ["VIEW_TESTS"])
from pages import marks_of
r = json.load(open(sys.argv[1]))
rows = {l.split()[1]: l for l in open(sys.argv[2]) if l[:4].strip().isdigit()}
n = 0
for b in r["bots"]:
    want = marks_of(b, b["substituted_actions"])
    row = rows[b["name"]]
    assert all(m in row for m in (want[1:] if b["never_played"] else want)), (row, want)
    assert row.count("DQ") == (1 if b["disqualified"] else 0), row
    n += len(want)
assert n, "no mark"
PY2

# refusals
"$ARENA" report "$TMP/none" >"$TMP/e1.txt" 2>&1
check "a folder without results.json: exit 1, names the file" \
    test $? -eq 1 -a -n "$(grep -F "$TMP/none/results.json" "$TMP/e1.txt")"
mkdir -p "$TMP/broken" && printf '{"standings": [\n  1,\n' >"$TMP/broken/results.json"
"$ARENA" report "$TMP/broken" >"$TMP/e2.txt" 2>&1
check "a broken results.json: exit 1 with file:line" \
    test $? -eq 1 -a -n "$(grep -F "$TMP/broken/results.json:3" "$TMP/e2.txt")"
# hostile files: wrong types everywhere, huge indices; an error or a report, never a crash
i=0
for bad in '{"standings": "x", "config": {"seats": 3}}' \
    '{"standings": [{"name": 5, "score_ci": "a", "verdicts": []}], "config": {"seats": 3}, "cross_table": {"order": ["a", "b"], "ahead": 3, "diff": [[1]]}}' \
    '{"standings": [], "config": {"seats": 1000000000}}' '{"bots": 7, "players": 3}' '[1, 2]' \
    '{"standings": [{"name": "a", "rank_p": {"1": 2, "0": 0.5, "-3": 1, "99999999999999999999": 1, "1x": 1, "": 1, "2": "x"}}, {"name": "b", "rank_p": [1]}, {"name": "c", "rank_p": {"3": 1e308}}], "config": {"seats": 3}}'; do
    i=$((i + 1))
    mkdir -p "$TMP/h$i"
    printf '%s\n' "$bad" >"$TMP/h$i/results.json"
    printf '{"game": 2000000000, "seating": [0, 1], "names": [1], "verdicts": [{"seat": 9}], "hand_scores": "x"}\n{}\n' \
        >"$TMP/h$i/games.jsonl"
    for fmt in html text json; do
        "$ARENA" report "$TMP/h$i" --format "$fmt" -o "$TMP/h$i/r.$fmt" >/dev/null 2>&1
        rc=$?
        [ "$rc" -le 1 ] || bad "hostile results.json #$i, --format $fmt: exit $rc"
    done
done
ok "hostile results.json (rank_p of every wrong shape too) and games.jsonl: an error (1) or a report, never a crash"
"$ARENA" report "$TMP/t" --format pdf >/dev/null 2>&1
check "--format pdf: exit 2" test $? -eq 2
finish
