"""labels.py DOC DIR... - one meaning per label (issue 22), for tests/view/labels.sh.

DOC is docs/report.md: its table between <!-- labels --> and <!-- /labels --> lists every label
the pages show over scores, each once, with its scale ("-" for a count or a name). Each DIR is a
tournament folder of one rule set (named after it) with report.html, and DIR.err its stderr.
Checks, for every DIR:
- every header of the report's score tables (standings, pairwise, crosstable, games, duplicate
  sets, with their row labels) is a documented label, and one of a score carries a title;
- the progress line's leader names its scale with a documented label;
- every duplicate-set table's rows add up to its final total in every column; gin and arlington
  (no winner's or concealed bonus) have no bonus row, laws, parlett and german have one.
Treats every byte it reads as untrusted: a page that does not parse is a failure, not a crash.
Prints ok/FAIL lines; exits 1 on any failure."""
import html.parser
import os
import re
import sys

problems = []


def bad(msg):
    problems.append(msg)
    print("FAIL " + msg)


def documented(doc):
    text = open(doc, encoding="utf-8").read()
    m = re.search(r"<!-- labels -->\n(.*?)<!-- /labels -->", text, re.S)
    if not m:
        bad("%s: no <!-- labels --> table" % doc)
        return {}
    labels = {}
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or not cells[0].startswith("`"):
            continue
        label = cells[0].strip("`")
        if label in labels:
            bad("docs: the label %r is listed twice (ambiguous)" % label)
        labels[label] = cells[2]
    if len(labels) < 20:
        bad("docs: only %d labels listed" % len(labels))
    return labels


class Cells(html.parser.HTMLParser):
    """Every cell of every <table id=...>: (table id, section, row class, tag, class, title, text)."""

    def __init__(self):
        super().__init__()
        self.cells, self.table, self.section, self.rowcls, self.cell, self.first = [], None, None, None, None, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.table = a.get("id")
        elif tag in ("thead", "tbody"):
            self.section = tag
        elif tag == "tr":
            self.rowcls, self.first = a.get("class") or "", True
        elif tag in ("td", "th") and self.table:
            self.cell = [self.table, self.section, self.rowcls, tag, a.get("class") or "", a.get("title") or "", "", self.first]
            self.first = False

    def handle_endtag(self, tag):
        if tag == "table":
            self.table = None
        elif tag in ("td", "th") and self.cell is not None:
            self.cell[6] = self.cell[6].strip()
            self.cells.append(tuple(self.cell))
            self.cell = None

    def handle_data(self, d):
        if self.cell is not None:
            self.cell[6] += d


def shown_labels(cells):
    """(label, title, where) of the report's score tables"""
    out = []
    for table, section, rowcls, tag, cls, title, text, first in cells:
        dup = table.startswith("t-dupset-")
        if table in ("t-standings", "t-games") and section == "thead":
            out.append((text, title, table))
        elif table in ("t-ahead", "t-cross") and section == "thead" and first:
            out.append((text, title, table))
        elif dup and section == "thead" and "who" not in cls:
            out.append((re.sub(r"^seat \d+'s", "seat N's", text), title, table))
        elif dup and section == "tbody" and first and rowcls.split() and set(rowcls.split()) & {"later", "bonus", "final"}:
            out.append((text, title, table))
    return out


def value(cell):
    if cell == "-":
        return 0
    if not re.fullmatch(r"[+-]?\d{1,9}", cell):
        raise ValueError("not a number: %r" % cell[:40])
    return int(cell)


def dupsets(rules, cells):
    tables = {}
    for table, section, rowcls, tag, cls, title, text, first in cells:
        if table.startswith("t-dupset-") and section == "tbody":
            rows = tables.setdefault(table, [])
            if first:
                rows.append((rowcls, []))
            rows[-1][1].append(text)
    if not tables:
        bad("%s: no duplicate-set table" % rules)
    sums = bonus_rows = 0
    for name, rows in sorted(tables.items()):
        finals = [r for r in rows if "final" in r[0].split()]
        if len(finals) != 1 or rows[-1] is not finals[0]:
            bad("%s %s: the last row is not the one final total row" % (rules, name))
            continue
        bonus_rows += sum("bonus" in r[0].split() for r in rows)
        width = len(finals[0][1])
        try:
            for col in range(1, width):
                parts = [value(r[1][col]) for r in rows[:-1] if len(r[1]) == width]
                want = value(finals[0][1][col])
                if sum(parts) != want:
                    bad("%s %s column %d: the rows add up to %d, the final total is %d" % (rules, name, col, sum(parts), want))
                sums += 1
        except (ValueError, IndexError) as e:
            bad("%s %s: %s" % (rules, name, e))
    has_bonus = rules in ("laws", "parlett", "german")
    if has_bonus and not bonus_rows:
        bad("%s: no winner's bonus row in its duplicate sets" % rules)
    if not has_bonus and bonus_rows:
        bad("%s: a bonus row, which the rule set does not have" % rules)
    print("checked %s: %d duplicate-set tables, %d columns summed against their final totals, %d bonus rows"
          % (rules, len(tables), sums, bonus_rows))


def blocks(rules, d, labels):
    """The pasteable blocks (`arena report --format text|md`, DIR.txt and DIR.md) and the
    tournament's own table (DIR.out): every header of the standings is a documented label, the
    score's names its scale, and the blocks say what the score is."""
    for fmt in ("txt", "md", "out"):  # out: arena tournament's own table
        try:
            text = open(d.rstrip("/") + "." + fmt, encoding="utf-8").read()
        except (OSError, UnicodeDecodeError) as e:
            bad("%s %s: %s" % (rules, fmt, e))
            continue
        head = [l for l in text.splitlines() if l.startswith("| rank |" if fmt == "md" else "rank  ")]
        if len(head) != 1:
            bad("%s %s: %d standings headers" % (rules, fmt, len(head)))
            continue
        cells = ([c.strip() for c in head[0].strip().strip("|").split("|")] if fmt == "md"
                 else re.split(r"\s{2,}", head[0].strip()))
        for c in cells:
            if c not in labels:
                bad("%s %s: the header %r is not in docs/report.md's list" % (rules, fmt, c))
        if not any(c.startswith("score (pts/game vs average)") for c in cells):
            bad("%s %s: no score header naming its scale: %r" % (rules, fmt, cells))
        if fmt != "out" and "Score: a rating, points per game against an average entrant" not in text:
            bad("%s %s: the block does not say what the score is" % (rules, fmt))
        print("checked %s %s: %d headers" % (rules, fmt, len(cells)))


def main(doc, dirs):
    labels = documented(doc)
    for d in dirs:
        rules = os.path.basename(d.rstrip("/"))
        p = Cells()
        try:
            p.feed(open(os.path.join(d, "report.html"), encoding="utf-8").read())
        except (OSError, UnicodeDecodeError) as e:
            bad("%s: %s" % (d, e))
            continue
        seen = shown_labels(p.cells)
        for text, title, where in seen:
            if text not in labels:
                bad("%s %s: the label %r is not in docs/report.md's list" % (rules, where, text))
            elif labels[text] != "-" and not title:
                bad("%s %s: the label %r (a %s) has no explanation (title)" % (rules, where, text, labels[text]))
        need = {"score (pts/game vs average)", "score 95% CI", "final total", "seats (final total, place)"}
        if not need <= {t for t, _, _ in seen}:
            bad("%s: the report lacks the labels %s" % (rules, sorted(need - {t for t, _, _ in seen})))
        print("checked %s: %d labels of the report" % (rules, len(seen)))
        dupsets(rules, p.cells)
        blocks(rules, d, labels)
        err = open(d.rstrip("/") + ".err", encoding="utf-8", errors="replace").read()
        lead = re.findall(r"leader \S+ \([+-]\d+\.\d ([^)]*)\)", err)
        if not lead:
            bad("%s: no leader in the progress line: %r" % (rules, err[-300:]))
        for x in set(lead):
            if x not in labels:
                bad("%s: the progress line's label %r is not in docs/report.md's list" % (rules, x))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    main(sys.argv[1], sys.argv[2:])
