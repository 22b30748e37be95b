#!/usr/bin/env python3
"""pages.py - checks of the pages `arena replay --html` and `arena report` write, for the tests
in tests/view/*.sh. Each command prints what it checked and exits 1 with the reasons on failure.

  pages.py replay RECORD PAGE            the page's steps agree with the record: one step per
                                         deal, action, verdict and hand end; every hand end's
                                         totals and the final totals are the record's
  pages.py seat RECORD REFEREE SEATPAGE K [CLI_SEAT_TEXT]
                                         SEATPAGE holds no card seat K could not know at that
                                         step (scanning every string of every step, and the
                                         page outside its data), no game id, seed or digest;
                                         its own hand is the referee's, and the hand
                                         `arena replay --seat K` printed before each decision
  pages.py report DIR HTML JSON          every table of the html report has the rows
                                         results.json, games.jsonl and timings.jsonl say,
                                         with their numbers
"""

import html.parser
import json
import re
import sys
from collections import Counter

# a card in the notation (QS, 10H, JK) or in the pages' words (Q\u2660, 10\u2665; the Joker
# is not a secret: a seat may be told of a Joker only where it is public anyway)
CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[CDHS\u2663\u2666\u2665\u2660](?![A-Za-z0-9])|(?<![A-Za-z0-9])JK(?![A-Za-z0-9])")
SUIT_OF = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}


def notation(card):
    """a card as the regex found it -> the notation's form (TS for 10S or 10\u2660)"""
    card = card[:-1] + SUIT_OF.get(card[-1], card[-1])
    return "T" + card[2:] if card.startswith("10") else card
problems = []


def bad(msg):
    problems.append(msg)


def done(what):
    if problems:
        for p in problems[:20]:
            print("  " + p)
        print("FAIL %s (%d problems)" % (what, len(problems)))
        sys.exit(1)
    print("checked: " + what)
    sys.exit(0)


def page_data(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="okr-data">(.*?)</script>', text, re.S)
    if not m:
        print("FAIL %s: no data block" % path)
        sys.exit(1)
    data = json.loads(m.group(1))
    frames = data["frames"]
    for key in ["pile", "ml", "hs", "hn", "sc", "clk"]:  # carried forward, as the page does
        for i in range(1, len(frames)):
            if key not in frames[i]:
                frames[i][key] = frames[i - 1][key]
            elif isinstance(frames[i][key], dict) and isinstance(frames[i - 1][key], list):
                full = list(frames[i - 1][key])  # only the seats that changed
                for s, v in frames[i][key].items():
                    full += [None] * (int(s) + 1 - len(full))  # the melds may grow
                    full[int(s)] = v
                frames[i][key] = full
    return text, m.start(1), m.end(1), data


def record_lines(path):
    return [json.loads(l) for l in open(path) if l.strip()]


def cmd_replay(record, page):
    _, _, _, data = page_data(page)
    rec = record_lines(record)
    frames = data["frames"]
    kinds = Counter(f["k"] for f in frames)
    actions = [x for x in rec if x["type"] == "action"]
    ends = [x for x in rec if x["type"] == "hand_end"]
    verdicts = [x for x in rec if x["type"] == "verdict"]
    result = [x for x in rec if x["type"] == "result"][0]
    if kinds["act"] != len(actions):
        bad("%d action steps, the record has %d actions" % (kinds["act"], len(actions)))
    if kinds["end"] != len(ends):
        bad("%d hand ends, the record has %d" % (kinds["end"], len(ends)))
    if kinds["verdict"] != len(verdicts):
        bad("%d verdict steps, the record has %d" % (kinds["verdict"], len(verdicts)))
    if kinds["over"] != 1 or frames[-1]["k"] != "over":
        bad("the last step is not the result")
    acts = [f for f in frames if f["k"] == "act"]
    for f, a in zip(acts, actions):
        if f["note"] != a["action"] or f["a"] != a["seat"]:
            bad("step %d: %s by %d, the record: %s by %d" % (f["n"], f["note"], f["a"], a["action"], a["seat"]))
            break
    qs_lines = 0
    for f, e in zip([f for f in frames if f["k"] == "end"], ends):
        if f["sc"] != e["totals"] or [r["total"] for r in f["end"]["rows"]] != e["totals"]:
            bad("hand %d: totals shown %s, the record's %s" % (e["hand"], f["sc"], e["totals"]))
        if [r["score"] for r in f["end"]["rows"]] != e["scores"]:
            bad("hand %d: hand scores shown differ from the record's" % e["hand"])
        # the Q of spades on its own line (RULES 7.1, the rummy family): +50 for each in the
        # seat's melds, -100 for each left in its hand, counted from the cards on the table at
        # the hand's end; melded, left in hand and going out hold the rest of the record's score
        if not f["end"]["gin"]:
            for s, row in enumerate(f["end"]["rows"]):
                held = (f["hs"][s] or "").split().count("QS")
                laid = sum(1 for m in f["ml"] if m[0] == s for t in m[2].split() if t.split("=")[0] == "QS")
                if (row["qsm"], row["qsh"]) != (50 * laid, -100 * held):
                    bad("hand %d seat %d: Q of spades %+d melded, %+d in hand; the table has %d melded, %d in hand"
                        % (e["hand"], s, row["qsm"], row["qsh"], laid, held))
                if row["melded"] + row["debit"] + row["out"] != e["scores"][s]:
                    bad("hand %d seat %d: the lines add up to %d, the record's score %d"
                        % (e["hand"], s, row["melded"] + row["debit"] + row["out"], e["scores"][s]))
                qs_lines += (row["qsm"], row["qsh"]) != (0, 0)
        # a gin knock's showdown (arrangement, deadwood, lay-offs): on the page after every
        # knock, the record's when it has one (records before protocol 1.1 do not)
        knock = e["ended"] in ("knock", "undercut", "gin")
        if knock and not f["end"].get("sd", {}).get("melds"):
            bad("hand %d: a %s without the knocker's melds on the page" % (e["hand"], e["ended"]))
        if not knock and "sd" in f["end"]:
            bad("hand %d: a showdown on the page without a knock" % e["hand"])
        if "showdown" in e and f["end"].get("sd") != e["showdown"]:
            bad("hand %d: showdown %r, the record's %r" % (e["hand"], f["end"].get("sd"), e["showdown"]))
    if frames[-1]["res"]["final"] != result["final_total"]:
        bad("final totals %s, the record's %s" % (frames[-1]["res"]["final"], result["final_total"]))
    if frames[-1]["res"]["place"] != result["placements"]:
        bad("placements differ from the record's")
    done("%s: %d steps (%d actions, %d hand ends (%d Q of spades lines not 0), %d verdicts) agree with the record"
         % (page, len(frames), len(actions), len(ends), qs_lines, len(verdicts)))


def cards_of(frame, seat=None):
    """Counter of the card kinds the frame shows in hands (one seat, or all), pile and melds."""
    c = Counter()
    hands = frame["hs"] if seat is None else [frame["hs"][seat]]
    for h in hands:
        c.update((h or "").split())
    c.update(frame["pile"].split())
    for m in frame["ml"]:
        for t in m[2].split():
            c.update(t.split("="))
    return c


def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from strings(x)


def cmd_seat(record, referee, seatpage, k, cli_text=None):
    k = int(k)
    text, d0, d1, data = page_data(seatpage)
    _, _, _, ref = page_data(referee)
    header = record_lines(record)[0]
    rec = record_lines(record)
    sf, rf = data["frames"], ref["frames"]
    if len(sf) != len(rf):
        bad("the seat's page has %d steps, the referee's %d" % (len(sf), len(rf)))
    # outside the data: the page's markup, styles and script hold no card at all
    outside = text[:d0] + text[d1:]
    for m in CARD.finditer(outside):
        bad("a card %r in the page outside its data, at byte %d" % (m.group(0), m.start()))
    # nothing from which the deal can be worked out
    for secret in [header["game_id"], str(header["seed"])] + [x["digest"] for x in rec if "digest" in x]:
        if secret in text:
            bad("the page holds %r (game id, seed or digest)" % secret)
    if "seed" in data or "game" in data:
        bad("the page's data has a seed or a game id")
    checked = concealed_total = 0
    for i, (s, r) in enumerate(zip(sf, rf)):
        # what seat k may know at step i: its own hand, the pile and the melds now and just
        # before (a card taken from the pile or laid from the hand is named in the event), and
        # every hand at a hand's end (HandEnd shows them all)
        allowed = cards_of(r, k) | (cards_of(rf[i - 1], k) if i else Counter())
        if r["k"] in ("end", "over"):
            allowed |= cards_of(r)
        concealed = set(cards_of(r)) - set(allowed)
        concealed_total += len(concealed)
        if r["k"] in ("act", "deal", "verdict") and s["hs"][k] != r["hs"][k]:
            bad("step %d: the seat's own hand %r, the referee's %r" % (i, s["hs"][k], r["hs"][k]))
        for j, h in enumerate(s["hs"]):
            if j != k and h is not None and r["k"] not in ("end", "over"):
                bad("step %d: seat %d's hand is in seat %d's page" % (i, j, k))
        if "nl" in s and s.get("a") != k:
            bad("step %d: seat %d's page has another seat's count of legal actions" % (i, k))
        if r["k"] == "end" and s["end"].get("sd") != r["end"].get("sd"):
            bad("step %d: the knock's showdown differs from the referee's (it is public)" % i)
        if "why" in s and s.get("a") != k:
            bad("step %d: seat %d's page has another seat's note (it may speak of its hand)" % (i, k))
        if r["k"] == "act" and "nl" not in r:
            bad("step %d: the referee's page has no count of legal actions" % i)
        own_verdict = s["k"] == "verdict" and s.get("a") == k
        for st in strings(s):
            if own_verdict and st == s.get("txt"):
                continue  # its own verdict's detail quotes its own move
            if st == s.get("why") and s.get("a") == k:
                continue  # its own note: its own words
            for m in CARD.finditer(st):
                checked += 1
                card = notation(m.group(0))
                if card in concealed or card not in allowed:
                    bad("step %d: %s in %r, which seat %d could not know then" % (i, card, st[:80], k))
    # the independent view: the hand `arena replay --seat K` printed before each decision
    if cli_text:
        hands = re.findall(r"^-- seat %d .*?\n   hand  :(.*)$" % k, open(cli_text).read(), re.M)
        before = [sf[i - 1]["hs"][k] for i in range(1, len(sf)) if sf[i]["k"] == "act" and sf[i]["a"] == k]
        if len(hands) != len(before):
            bad("%d decisions in arena replay --seat %d, %d on the page" % (len(hands), k, len(before)))
        for n, (a, b) in enumerate(zip(hands, before)):
            if a.split() != (b or "").split():
                bad("decision %d: arena replay --seat shows %r, the page %r" % (n, a.strip(), b))
                break
    done("%s: %d steps, %d card mentions, %d concealed (step, card) pairs absent; own hand as "
         "the referee's and as arena replay --seat %d" % (seatpage, len(sf), checked, concealed_total, k))


class Tables(html.parser.HTMLParser):
    """Rows (lists of cell texts) of every <table id=...>, and every <a href>."""

    def __init__(self):
        super().__init__()
        self.tables, self.links, self.cur, self.row, self.cell = {}, [], None, None, None
        self.rankp, self.cur_id = [], None  # t-rankp: each body row's data-p per rank (None: empty)
        self.attrs = {}  # each table's attributes

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and "id" in a:
            self.cur = self.tables.setdefault(a["id"], [])
            self.attrs[a["id"]] = a
            self.cur_id = a["id"]
        elif tag == "tr" and self.cur is not None:
            self.row = []
            if self.cur_id == "t-rankp" and self.cur:
                self.rankp.append([])
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ""
            if tag == "td" and self.cur_id == "t-rankp" and self.cur:
                self.rankp[-1].append(a.get("data-p"))
        elif tag == "a" and "href" in a:
            self.links.append(a["href"])

    def handle_endtag(self, tag):
        if tag == "table":
            self.cur = self.cur_id = None
        elif tag == "tr" and self.row is not None:
            self.cur.append(self.row)
            self.row = None
        elif tag in ("td", "th") and self.cell is not None:
            self.row.append(self.cell.strip())
            self.cell = None

    def handle_data(self, d):
        if self.cell is not None:
            self.cell += d


def as_shown(v, stored, dec, sign=True):
    """A number as every page writes it (av_fmt_num): rounded to `stored` decimals as
    results.json stores it, then to `dec`, half away from zero on the decimal value, never -0."""
    from decimal import Decimal, ROUND_HALF_UP
    if v is None:
        return "-"
    x = Decimal(repr(float(v))).quantize(Decimal(1).scaleb(-stored), ROUND_HALF_UP)
    x = x.quantize(Decimal(1).scaleb(-dec), ROUND_HALF_UP)
    if x == 0:
        x = abs(x)
    t = "%.*f" % (dec, x)
    return ("+" + t if sign and x >= 0 else t)


def marks_of(s, substituted):
    """An entrant's marks as the pages write them, from its results.json standing."""
    m = []
    if s.get("never_played"):
        m.append("never played")
    if s.get("disqualified"):
        m.append("DQ (errors in %d of %d)" % (s["error_games"], s["games"]))
    if s.get("forfeits"):
        m.append("%d forfeit%s" % (s["forfeits"], "" if s["forfeits"] == 1 else "s"))
    if substituted:
        m.append("%d move%s substituted" % (substituted, "" if substituted == 1 else "s"))
    return m


def substituted_by_name(g):
    c = Counter()
    for x in g:
        for seat, k in enumerate(x.get("substituted", [])):
            c[x["names"][seat]] += k
    return c


def cmd_report(d, page, jpath):
    import os

    r = json.load(open(d + "/results.json"))
    g = [json.loads(l) for l in open(d + "/games.jsonl")]
    rep = json.load(open(jpath))
    p = Tables()
    p.feed(open(page, encoding="utf-8").read())
    t = p.tables
    st = r["standings"]
    n = len(st)
    body = lambda name: t.get(name, [])[1:]  # without the header row
    if len(body("t-standings")) != n:
        bad("standings: %d rows, results.json has %d entrants" % (len(body("t-standings")), n))
    sub = substituted_by_name(g)
    for row, s in zip(body("t-standings"), st):
        want = [str(s["rank"]), s["name"],
                "never played" if s["never_played"] else as_shown(s["score"], 3, 1),
                "[%s, %s]" % tuple(as_shown(x, 3, 1) for x in s["score_ci"]),
                as_shown(s["elo"], 1, 0), str(s["games"]), str(s["sets"]), str(s["wins"]),
                ", ".join(marks_of(s, sub[s["name"]])) or "-"]
        # with luck-adjusted ratings (docs/luck.md) two columns follow the score's interval
        if "luck_adjusted" in r:
            adj = [as_shown(s["luck_adjusted_score"], 3, 1),
                   "[%s, %s]" % tuple(as_shown(x, 3, 1) for x in s["luck_adjusted_score_ci"])]
            if row[4:6] != adj:
                bad("standings row %s: luck-adjusted %s, results.json %s" % (s["name"], row[4:6], adj))
            row = row[:4] + row[6:]
        elif "luck-adjusted" in "".join(t["t-standings"][0]):
            bad("standings: a luck-adjusted column without luck-adjusted ratings in results.json")
        got = [row[0], row[1], row[2], row[3], row[4], row[8], row[9], row[10], row[12]]
        if got != want:
            bad("standings row %s: %s, results.json %s" % (s["name"], got, want))
        rk = "%d" % s["rank_ci"][0] if s["rank_ci"][0] == s["rank_ci"][1] else "%d-%d" % tuple(s["rank_ci"])
        if row[6] != rk:
            bad("rank CI of %s: %s, results.json %s" % (s["name"], row[6], rk))
    # rank probabilities: a row per entrant in rank order, a column per rank; each cell's
    # data-p is results.json's share, its whole percentage within a point of it, every row's
    # percentages add up to 100, and the rank CI holds at least 95% of the row
    rp = body("t-rankp")
    if len(rp) != n or t["t-rankp"][0][1:] != [str(k) for k in range(1, n + 1)]:
        bad("rank probabilities: %d rows, header %s; results.json has %d entrants" % (len(rp), t.get("t-rankp", [[]])[0], n))
    for row, s, cells in zip(rp, st, p.rankp):
        if row[0] != s["name"]:
            bad("rank probabilities: row %s, results.json %s" % (row[0], s["name"]))
        want = {int(k): v for k, v in s["rank_p"].items()}
        if abs(sum(want.values()) - 1) > 1e-3:
            bad("results.json: %s's rank_p sums to %r" % (s["name"], sum(want.values())))
        lo, hi = s["rank_ci"]
        if sum(v for k, v in want.items() if lo <= k <= hi) < 0.95 - 1e-3:
            bad("results.json: %s's rank CI %d-%d holds less than 95%% of %r" % (s["name"], lo, hi, want))
        got = {k + 1: float(c) for k, c in enumerate(cells) if c is not None}
        if got != {k: v for k, v in want.items() if v > 0}:
            bad("rank probabilities of %s: data-p %r, results.json %r" % (s["name"], got, want))
        shown = [int(c) if c else 0 for c in row[1:]]
        if sum(shown) != 100 or any(abs(shown[k - 1] - 100 * v) >= 1 for k, v in want.items()):
            bad("rank probabilities of %s: %s percent for %r" % (s["name"], shown, want))
        if any(row[k] for k in range(1, n + 1) if k not in want or want[k] == 0):
            bad("rank probabilities of %s: a cell for a rank never reached: %s" % (s["name"], row))
    if "luck_adjusted" in r and [(x["luck_adjusted_score"]["score"], x["luck_adjusted_score"]["ci"]) for x in rep["standings"]] != [(x["luck_adjusted_score"], x["luck_adjusted_score_ci"]) for x in st]:
        bad("report json: the luck-adjusted scores differ from results.json")
    if [x.get("rank_p") for x in rep["standings"]] != [x["rank_p"] for x in st]:
        bad("report json: rank_p differs from results.json")
    order = r["cross_table"]["order"]
    for name in ("t-ahead", "t-cross"):
        rows = body(name)
        if len(rows) != len(order) or any(len(x) != len(order) + 1 for x in rows):
            bad("%s: %d rows, results.json's cross table is %d x %d" % (name, len(rows), len(order), len(order)))
        if [x[0] for x in rows] != order or t[name][0][1:] != order:
            bad("%s: rows or columns not in the cross table's order" % name)
    for i, x in enumerate(body("t-cross")):
        for j, cell in enumerate(x[1:]):
            games = r["cross_table"]["games"][i][j]
            diff = r["cross_table"]["diff"][i][j]
            if diff is None:
                if cell != "-":
                    bad("crosstable %d,%d: %r, results.json has none" % (i, j, cell))
            elif not cell.startswith(as_shown(diff, 3, 1)) or not cell.endswith("%d games" % games):
                bad("crosstable %d,%d: %r, results.json %+.1f over %d games" % (i, j, cell, diff, games))
            # the luck-adjusted difference (docs/luck.md), when results.json has it
            adj = r["cross_table"].get("luck_adjusted_diff")
            if diff is not None and (adj is not None) != ("luck-adjusted" in cell):
                bad("crosstable %d,%d: %r, results.json's luck-adjusted difference %r" % (i, j, cell, adj and adj[i][j]))
            if diff is not None and adj is not None and adj[i][j] is not None and "luck-adjusted " + as_shown(adj[i][j], 3, 1) not in cell:
                bad("crosstable %d,%d: %r, results.json's luck-adjusted %+.1f" % (i, j, cell, adj[i][j]))
    for i, x in enumerate(body("t-ahead")):
        for j, cell in enumerate(x[1:]):
            a = r["cross_table"]["ahead"][i][j]
            if (a is None and cell != "-") or (a is not None and cell != "%.2f" % a):
                bad("ahead %d,%d: %r, results.json %r" % (i, j, cell, a))
    verd = ["RE", "TLE", "MLE", "OLE", "PE", "IA", "SV", "DQ"]
    if len(body("t-verdicts")) != n:
        bad("verdicts: %d rows for %d entrants" % (len(body("t-verdicts")), n))
    from_games = Counter()
    for x in g:
        for v in x["verdicts"]:
            from_games[(x["names"][v["seat"]], v["verdict"])] += 1
    for row, s in zip(body("t-verdicts"), st):
        got = [int(c) for c in row[1:1 + len(verd)]]
        want = [s["verdicts"][v] for v in verd]
        if got != want:
            bad("verdicts of %s: %s, results.json %s" % (s["name"], got, want))
        if int(row[9]) != s["forfeits"]:
            bad("forfeits of %s: %s, results.json %d" % (s["name"], row[9], s["forfeits"]))
        if int(row[10]) != sub[s["name"]]:
            bad("substituted moves of %s: %s, games.jsonl %d" % (s["name"], row[10], sub[s["name"]]))
        for v in verd:
            if v != "DQ" and from_games[(s["name"], v)] != s["verdicts"][v]:
                bad("%s %s: %d in games.jsonl, %d in results.json" % (s["name"], v, from_games[(s["name"], v)], s["verdicts"][v]))
    # the timing columns, recomputed: each game's first line of timings.jsonl (a resumed run
    # may write two), its seats' wall_ms summed and max_ms's largest per entrant, over the
    # decisions games.jsonl counts for the seats it sat in
    first = {}
    for line in open(d + "/timings.jsonl"):
        if line.strip():
            x = json.loads(line)
            first.setdefault(x["game"], x)
    dec, wall, most = Counter(), Counter(), Counter()
    for x in g:
        tl = first.get(x["game"])
        for s, name in enumerate(x["names"] if tl else []):
            dec[name] += x["decisions"][s]
            wall[name] += tl["wall_ms"][s] or 0
            most[name] = max(most[name], tl["max_ms"][s] or 0)
    timed = 0
    for row, s in zip(body("t-verdicts"), st):
        nm = s["name"]
        want = [str(dec[nm]), "%.2f" % (wall[nm] / dec[nm]) if dec[nm] else "-", "%.1f" % most[nm]]
        if row[11:14] != want:
            bad("timing of %s: decisions, mean ms, max ms %s; timings.jsonl and games.jsonl %s" % (nm, row[11:14], want))
        timed += dec[nm]
    if timed == 0:
        bad("timing: no decision in games.jsonl, nothing checked")
    games = body("t-games")
    if len(games) != min(len(g), 2000):
        bad("games: %d rows, games.jsonl has %d" % (len(games), len(g)))
    for row, x in zip(games, g):
        if row[1] != x["game_id"] or int(row[3]) != x["hands"]:
            bad("game %s: row %s" % (x["game_id"], row))
    # the duplicate sets, recomputed from games.jsonl: a set is a run of games with one set
    # number (a rotation seen again starts another); every hand of every rotation when the
    # dealer rotates (RULES 2.3), the first only with dealer=winner
    key = "set" if "set" in g[0] else "deal"
    seats = r["config"]["seats"]
    groups = []
    for x in g:
        if groups and groups[-1][0] == x[key] and x["rotation"] not in groups[-1][1]:
            groups[-1][1][x["rotation"]] = x
        else:
            groups.append((x[key], {x["rotation"]: x}))
    by_hand = "dealer=winner" not in r["config"]["rules_text"]

    def dup_hands(rots):
        n = max(len(x["hand_scores"]) for x in rots.values())
        return min(n if by_hand else min(n, 1), 250)

    def dup_spread(rots):
        best, at = 0, 0
        for hand in range(dup_hands(rots)):
            for s in range(seats):
                v = [x["hand_scores"][hand][s] for x in rots.values() if hand < len(x["hand_scores"])]
                if v and max(v) - min(v) > best:
                    best, at = max(v) - min(v), hand
        return best, at

    text = open(page, encoding="utf-8").read()
    m = re.search(r"(\d+) duplicate sets? in games.jsonl; the (\d+) where", text)
    if not m or int(m.group(1)) != len(groups) or int(m.group(2)) != min(6, len(groups)):
        bad("duplicate sets: the page says %r, games.jsonl has %d sets" % (m and m.group(0), len(groups)))
    heads = re.findall(r"<h3>(?:Set|Deal) (\d+): the same cards up to (\d+) points apart \(hand (\d+)\)</h3>", text)
    spreads = sorted((dup_spread(rots)[0] for _, rots in groups), reverse=True)
    if [int(x[1]) for x in heads] != spreads[:6]:
        bad("duplicate sets shown %s points apart, games.jsonl's furthest %s" % ([x[1] for x in heads], spreads[:6]))
    dup = sorted((k for k in t if k.startswith("t-dupset-")), key=lambda k: int(k[9:]))
    if len(dup) != len(heads) or not dup:
        bad("%d duplicate-set tables, %d headings" % (len(dup), len(heads)))
    hands_checked = 0
    for name, (k, far, at) in zip(dup, heads):
        rots = [x for kk, x in groups if str(kk) == k and dup_spread(x) == (int(far), int(at) - 1)]
        if not rots or p.attrs[name].get("data-set") != k:
            bad("%s: set %s, %s points apart at hand %s: no such set in games.jsonl" % (name, k, far, at))
            continue
        rots = rots[0]
        nrot = max(rots) + 1
        rows = t[name]
        want_who = [rots[a]["names"][s] if a in rots else "-" for s in range(seats) for a in range(nrot)]
        if rows[1] != want_who:
            bad("%s: seats %s, games.jsonl %s" % (name, rows[1], want_who))
        nh = dup_hands(rots)
        # after the hands: "later hands" (hands not compared), the bonuses, "final total"
        extra = [r for r in rows[2 + nh:-1]]
        if len(rows) < 2 + nh + 1 or any(r[0] not in ("later hands", "winner's bonus", "winner's and concealed bonuses") for r in extra):
            bad("%s: %d hand rows, set %s has %d hands; rows after them %s" % (name, len(rows) - 3, k, nh, [r[0] for r in extra]))
        for hand in range(nh):
            hs = lambda a, s: (("%+d" % rots[a]["hand_scores"][hand][s]) if a in rots and hand < len(rots[a]["hand_scores"]) else "-")
            want = [str(hand + 1)] + [hs(a, s) for s in range(seats) for a in range(nrot)]
            if rows[2 + hand] != want:
                bad("%s hand %d: %s, games.jsonl %s" % (name, hand + 1, rows[2 + hand], want))
            hands_checked += 1
        want = ["final total"] + [str(rots[a]["final_total"][s]) if a in rots else "-" for s in range(seats) for a in range(nrot)]
        if rows[-1] != want:
            bad("%s final totals: %s, games.jsonl %s" % (name, rows[-1], want))
    replays = [h for h in p.links if h.startswith("replays/")]
    for h in replays:
        if not os.path.exists(os.path.join(os.path.dirname(page), h)):
            bad("a link to %s, which is not there" % h)
    # the json report: the same rows
    if [s["name"] for s in rep["standings"]] != [s["name"] for s in st] or rep["games"] != r["games"]:
        bad("report json: standings or games differ from results.json")
    if rep["games_listed"] != len(g):
        bad("report json: %d games listed, games.jsonl has %d" % (rep["games_listed"], len(g)))
    done("%s: standings %d rows, rank probabilities %dx%d, pairwise and crosstable %dx%d, verdicts and timing %d rows (%d decisions), games %d rows "
         "(%d linked to replays), %d duplicate sets of %d (%d hands) agree with results.json and games.jsonl"
         % (page, n, n, n, len(order), len(order), n, timed, len(games), len(replays), len(dup), len(groups), hands_checked))


if __name__ == "__main__":
    cmds = {"replay": cmd_replay, "seat": cmd_seat, "report": cmd_report}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        print(__doc__)
        sys.exit(2)
    cmds[sys.argv[1]](*sys.argv[2:])
