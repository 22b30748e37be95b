#!/usr/bin/env python3
"""client.py ARENA LEAGUE_DIR SRC BUILD - drives a running league's web face (arena league run
DIR --serve) as a host and two authors would, over plain HTTP, and checks what each is shown.

- the host signs in with DIR/host.token's link and makes two authors on the host page;
- alice uploads the Python starter bot (bots/random/random_bot.py, runtime python3) and a
  .tar.gz of it; bob the C greedy bot (build/bots/greedy_bot, runtime exec) and a bot that
  exits at once; an archive with "..", an empty name, another author's bot name: each refused
  with its reason on the page;
- both bots pass their check and reach the leaderboard; the crashing one is refused with its
  verdict, which its author (and only its author) reads on its page;
- alice opens one of her games: the page is byte for byte the seat page `arena replay RECORD
  --html --seat S` makes (the view room's, which holds no other seat's concealed card, no seed
  and no game id); a game without her bot, bob's logs and the host page are refused to her;
- refusals: a forged Origin, no Origin on a POST, a wrong Host, a wrong or revoked secret, no
  cookie;
- every response alice received is scanned for the seeds (the league's, each viewed record's),
  the league-seeded game ids and bob's log lines.
Prints one line per check; exit 1 on any failure."""
import http.client
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import tarfile
import time
import urllib.parse

ARENA, L, SRC, BUILD = sys.argv[1:5]
URL = open(os.path.join(L, "web.url")).read().strip()
HOSTPORT = URL.split("://", 1)[1]
PORT = int(HOSTPORT.rsplit(":", 1)[1])
COOKIE = "okr_lg_%d" % PORT
failed = 0
seen = {"alice": []}  # every body alice received


def check(name, ok, detail=""):
    global failed
    print(("ok   " if ok else "FAIL ") + name + ("" if ok or not detail else ": " + detail))
    if not ok:
        failed += 1


def req(method, path, who=None, body=None, headers=None, origin=True):
    h = {"Host": HOSTPORT}
    if who:
        h["Cookie"] = "%s=%s" % (COOKIE, who[1])
    if method == "POST" and origin:
        h["Origin"] = URL
    if headers:
        h.update(headers)
    c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    c.request(method, path, body=body, headers=h)
    r = c.getresponse()
    data = r.read()
    hdrs = {k.lower(): v for k, v in r.getheaders()}
    c.close()
    if who and who[0] == "alice":
        seen["alice"].append((path, data))
    return r.status, hdrs, data.decode("utf-8", "replace")


def multipart(fields, files):
    b = "----okrTestBoundary7MA4YWxkTrZu0gW"
    out = io.BytesIO()
    for k, v in fields.items():
        out.write(("--%s\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n%s\r\n" % (b, k, v))
                  .encode())
    for k, (fname, data) in files.items():
        out.write(("--%s\r\nContent-Disposition: form-data; name=\"%s\"; filename=\"%s\"\r\n"
                   "Content-Type: application/octet-stream\r\n\r\n" % (b, k, fname)).encode())
        out.write(data + b"\r\n")
    out.write(("--%s--\r\n" % b).encode())
    return out.getvalue(), {"Content-Type": "multipart/form-data; boundary=" + b}


def upload(who, name, runtime, fname, data, entry="", build=None):
    fields = {"name": name, "runtime": runtime, "entry": entry}
    if build is not None:
        fields["build"] = build
    body, h = multipart(fields, {"file": (fname, data)})
    st, _, text = req("POST", "/submit", who, body, h)
    m = re.search(r'id="outcome">([^<]*)', text)
    return st, m.group(1) if m else ""


def targz(members):
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as t:
        for name, data in members:
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            ti.mode = 0o644
            t.addfile(ti, io.BytesIO(data))
    return out.getvalue()


def db():
    return sqlite3.connect("file:%s/league.db?mode=ro" % L, uri=True, timeout=30)


# ---- the host ----
secret = open(os.path.join(L, "host.token")).read().strip()
st, h, text = req("GET", "/signin?a=@host&k=" + secret)
check("the host signs in with host.token", st == 200 and
      "HttpOnly" in h.get("set-cookie", "") and "SameSite=Strict" in h.get("set-cookie", ""),
      "%d %s" % (st, h.get("set-cookie")))
check("every page has the replay pages' CSP",
      "default-src 'none'" in h.get("content-security-policy", ""))
host = ("@host", "@host." + secret)
authors = {}
for a in ("alice", "bob"):
    st, _, text = req("POST", "/host", host, "action=author&name=" + a,
                      {"Content-Type": "application/x-www-form-urlencoded"})
    m = re.search(r"signin\?a=%s&amp;k=([0-9a-f]{32})" % a, text)
    check("the host makes author %s" % a, st == 200 and m is not None, text[-300:])
    st, h, _ = req("GET", "/signin?a=%s&k=%s" % (a, m.group(1)))
    check("%s signs in" % a, st == 200 and h.get("set-cookie", "").startswith(COOKIE + "=" + a))
    authors[a] = (a, "%s.%s" % (a, m.group(1)))
alice, bob = authors["alice"], authors["bob"]
hashes = dict(db().execute("SELECT name, hash FROM authors"))
check("league.db keeps only the secrets' SHA-256",
      hashes.get("alice") and authors["alice"][1].split(".")[1] not in json.dumps(hashes) and
      len(hashes["alice"]) == 64)
import hashlib  # noqa: E402
check("... which is SHA-256", hashes.get("bob") ==
      hashlib.sha256(authors["bob"][1].split(".")[1].encode()).hexdigest())

# ---- refusals ----
form = {"Content-Type": "application/x-www-form-urlencoded"}
st, _, _ = req("POST", "/host", host, "action=author&name=eve",
               dict(form, Origin="http://evil.example"))
check("a forged Origin is refused (403)", st == 403)
st, _, _ = req("POST", "/host", host, "action=author&name=eve", form, origin=False)
check("a POST without Origin is refused (403)", st == 403)
st, _, _ = req("GET", "/", headers={"Host": "evil.example:%d" % PORT})
check("a wrong Host is refused (403)", st == 403)
st, _, _ = req("GET", "/signin?a=alice&k=" + "0" * 32)
check("a wrong secret does not sign in (403)", st == 403)
st, _, text = req("GET", "/submit")
check("no cookie: no submission page (403)", st == 403)
body, mh = multipart({"name": "x", "runtime": "exec"}, {"file": ("x", b"x")})
st, _, _ = req("POST", "/submit", None, body, mh)
check("no cookie: no upload (403)", st == 403)
st, _, _ = req("POST", "/submit", ("alice", "alice." + "1" * 32), body, mh)
check("a forged cookie: no upload (403)", st == 403)
st, _, _ = req("GET", "/host", alice)
check("an author is refused the host page (403)", st == 403)
check("eve was never made", "eve" not in dict(db().execute("SELECT name, hash FROM authors")))

# ---- uploads ----
pybot = open(os.path.join(SRC, "bots/random/random_bot.py"), "rb").read()
cbot = open(os.path.join(BUILD, "bots/greedy_bot"), "rb").read()
st, said = upload(alice, "alpy", "python3", "random_bot.py", pybot)
check("alice uploads the Python starter bot", st == 200 and said.startswith("Taken"), said)
st, said = upload(bob, "bobc", "exec", "greedy_bot", cbot)
check("bob uploads the C greedy bot", st == 200 and said.startswith("Taken"), said)
st, said = upload(bob, "bobcrash", "exec", "crash.sh", b"#!/bin/sh\nexit 3\n")
check("bob uploads a bot that exits at once (taken, to be checked)", st == 200, said)
st, said = upload(alice, "alarc", "python3", "bot.tar.gz", targz([("bot/main.py", pybot)]),
                  "bot/main.py")
check("alice uploads a .tar.gz of her bot", st == 200 and said.startswith("Taken"), said)
st, said = upload(alice, "albuilt", "python3", "b.tar.gz", targz([("src/main.py", pybot)]),
                  "built.py", "cp src/main.py built.py")
check("alice uploads a .tar.gz with a build step (built in a worker)",
      st == 200 and "being unpacked and built" in said, said)
st, said = upload(alice, "x", "python3", "bot.py", pybot, "", "make")
check("a build step without an archive is refused", st == 400 and "archive" in said, said)
st, said = upload(alice, "evil", "python3", "evil.tar.gz",
                  targz([("../outside.py", pybot)]), "outside.py")
check("an archive with '..' is refused with its reason",
      st == 400 and "archive" in said and "..&quot; in the path" in said, said)
st, said = upload(bob, "alpy", "exec", "greedy_bot", cbot)
check("another author's bot name is refused with its reason",
      st == 400 and "belongs to another author" in said, said)
st, said = upload(alice, "x", "python3", "bot.py", b"")
check("an empty file is refused with its reason", st == 400 and "empty" in said, said)
st, said = upload(alice, "x", "perl", "bot.py", pybot)
check("a runtime not offered is refused", st == 400 and "how the bot runs" in said, said)
st, said = upload(alice, "../x", "python3", "bot.py", pybot)
check("a bad bot name is refused", st == 400 and "name" in said, said)

# ---- the check, the leaderboard ----
deadline = time.time() + (120 if os.environ.get("OKR_SANITIZE") == "1" else 40)
while time.time() < deadline:
    rows = dict(db().execute("SELECT e.name, e.status FROM entrants e WHERE e.name IN "
                             "('alpy','bobc','bobcrash','alarc','albuilt')"))
    ranked = {n for (n,) in db().execute(
        "SELECT e.name FROM ratings r JOIN entrants e ON e.id = r.entrant WHERE r.round = "
        "(SELECT max(round) FROM rounds) AND r.rank IS NOT NULL AND r.games > 0")}
    if rows.get("bobcrash") == "refused" and {"alpy", "bobc", "alarc", "albuilt"} <= ranked:
        break
    time.sleep(0.5)
check("both bots pass their check and are rated", {"alpy", "bobc"} <= ranked, str(rows))
check("the archive's bot too", "alarc" in ranked, str(rows))
check("and the built one", "albuilt" in ranked, str(rows))
check("the crashing bot is refused by its check", rows.get("bobcrash") == "refused", str(rows))
st, _, text = req("GET", "/")
check("the leaderboard shows them with their authors",
      st == 200 and re.search(r"alpy</a></td><td>alice", text) and
      re.search(r"bobc</a></td><td>bob", text) and "refresh" in text, text[-500:])
st, _, text = req("GET", "/entrant?name=bobcrash", bob)
check("bob reads why his bot was refused", "refused by its check: RE:" in text, text[-800:])
check("... without the league's seed in the game's id", not re.search(r"game L\d+-", text))
st, _, text = req("GET", "/entrant?name=bobcrash", alice)
check("alice does not", "refused by its check: RE" not in text and "(its author sees why)" in text)
st, _, text = req("GET", "/entrant?name=alpy", alice)
check("alpy's page: versions, the rating band, neighbours, games",
      st == 200 and "checked, playing" in text and "<polygon" in text and
      "Against its neighbours" in text and "/game?g=" in text, text[:300])
mylogs = re.findall(r'/log\?f=([^"&]+)', text)
check("alice sees her bot's logs", len(mylogs) > 0)
if mylogs:
    st, _, t = req("GET", "/log?f=" + mylogs[0], alice)
    check("... and reads one", st == 200 and "[arena:" in t and not re.search(r"game L\d+-", t), t[:200])

# ---- games: alice's seat, nothing else ----
c = db()
seed = c.execute("SELECT value FROM meta WHERE key='seed'").fetchone()
mine = c.execute("SELECT g.id, g.game_id, s.seat FROM games g JOIN game_seats s ON s.game = g.id "
                 "JOIN entrants e ON e.id = s.entrant WHERE e.name = 'alpy' AND g.id IN (SELECT "
                 "game FROM game_seats s2 JOIN entrants e2 ON e2.id = s2.entrant WHERE e2.name = "
                 "'bobc') ORDER BY g.id DESC LIMIT 2").fetchall()
if not mine:
    mine = c.execute("SELECT g.id, g.game_id, s.seat FROM games g JOIN game_seats s ON s.game = "
                     "g.id JOIN entrants e ON e.id = s.entrant WHERE e.name = 'alpy' ORDER BY "
                     "g.id DESC LIMIT 2").fetchall()
others = c.execute("SELECT g.id FROM games g WHERE g.id NOT IN (SELECT s.game FROM game_seats s "
                   "JOIN entrants e ON e.id = s.entrant JOIN owners o ON o.entrant = e.name "
                   "WHERE o.author = 'alice') ORDER BY g.id DESC LIMIT 1").fetchall()
boblogs = [f for f in os.listdir(os.path.join(L, "logs")) if f.endswith("-bobc.log")]
c.close()
record_seeds = []
check("alice has games", len(mine) > 0)
def okr_data(t):
    m = re.findall(r'<script type="application/json" id="okr-data">(.*?)</script>', t, re.S)
    if len(m) != 1:
        return None
    d = json.loads(m[0].replace("<\\/", "</"))
    d.pop("back", None)  # the link back to the leaderboard, which the oracle has not
    d.pop("back_label", None)
    return d


for gid, game_id, _ in mine:
    st, _, page = req("GET", "/game?g=%d" % gid, alice)
    rec = os.path.join(L, "records", game_id + ".jsonl")
    header = json.loads(open(rec).readline())
    record_seeds.append(str(header["seed"]))
    data = okr_data(page) if st == 200 else None
    seat = data.get("seat") if data else None
    check("alice opens her game %d as one of her seats saw it (seat %s: %s)" %
          (gid, seat, header["names"][seat] if isinstance(seat, int) else "?"),
          isinstance(seat, int) and
          header["names"][seat].split(".v")[0] in ("alpy", "alarc", "albuilt"),
          "%d" % st)
    if not isinstance(seat, int):
        continue
    out = os.path.join(os.path.dirname(L), "oracle.html")
    subprocess.run([ARENA, "replay", rec, "--html", "--seat", str(seat), "-o", out], check=True,
                   capture_output=True)
    check("... the same seat page `arena replay --seat %d` makes (no other seat's hidden card)"
          % seat, data == okr_data(open(out).read()))
    check("... whose other seats' hands are hidden at the deal",
          all(h is None for i, h in enumerate(data["frames"][0]["hs"]) if i != seat))
check("there is a game without alice's bots", len(others) == 1)
if others:
    st, _, _ = req("GET", "/game?g=%d" % others[0][0], alice)
    check("a game without her bots stays hidden from alice (403)", st == 403)
for f in boblogs[:2]:
    st, _, _ = req("GET", "/log?f=" + f, alice)
    check("bob's log %s is refused to alice (403)" % f, st == 403)
if others:
    st, _, _ = req("POST", "/host", host, "action=reveal&name=0", form)
    check("the host reveals the replays (0 hours after each game)", st == 200)
    st, _, page = req("GET", "/game?g=%d" % others[0][0], alice)
    gid = db().execute("SELECT game_id FROM games WHERE id = ?", (others[0][0],)).fetchone()[0]
    record_seeds.append(str(json.loads(open(os.path.join(L, "records", gid + ".jsonl"))
                                       .readline())["seed"]))
    check("... then alice opens a game without her bot (the referee's page, without the seed)",
          st == 200 and okr_data(page) is not None)
    st, _, _ = req("POST", "/host", host, "action=reveal&name=never", form)
    st2, _, _ = req("GET", "/game?g=%d" % others[0][0], alice)
    check("... and hides them again", st == 200 and st2 == 403)
    st, _, _ = req("POST", "/host", host, "action=reveal&name=soon", form)
    check("a reveal setting that is no setting is refused (400)", st == 400)
st, _, _ = req("GET", "/game?g=0%27", alice)
check("a bad game number is refused (400)", st == 400)
st, _, _ = req("GET", "/log?f=../league.db", host)
check("a log name with .. is refused (400)", st == 400)

# ---- test games: asked by alice, played unrated, hers alone ----
def ask(who, name, opp, origin=True):
    return req("POST", "/test", who, urllib.parse.urlencode({"name": name, "opponent": opp}),
               form, origin=origin)


st, _, text = req("GET", "/entrant?name=alpy", alice)
check("alpy's page offers alice test games against an entrant she chooses",
      'action="/test"' in text and "<option>bobc</option>" in text and
      "<option>alpy</option>" not in text, text[-600:])
st, _, text = req("GET", "/entrant?name=alpy", bob)
check("bob is not offered test games of alice's bot", 'action="/test"' not in text and
      'id="tests"' not in text)
st, _, _ = ask(alice, "alpy", "bobc", origin=False)
check("asking without Origin is refused (403)", st == 403)
st, _, text = ask(alice, "alpy", "bobc")
check("alice asks for test games of alpy against bobc", st == 200 and "Asked: 2 unrated games"
      in text, text[-400:])
st, _, text = ask(alice, "alpy", "greedy")
check("... and against greedy", st == 200, text[-300:])
st, _, text = ask(alice, "alpy", "random")
check("a third within the hour is refused: the page says the limit (429)", st == 429 and
      "at most 2 test sets an hour per author" in text and "the next one from" in text,
      "%d %s" % (st, text[-400:]))
st, _, text = ask(bob, "alpy", "bobc")
check("bob cannot ask for test games of alice's bot (400)", st == 400 and "not your bot" in text)
st, _, text = ask(bob, "bobc", "bobc")
check("nor of a bot against itself (400)", st == 400)
st, _, text = ask(bob, "bobc", "nobody")
check("nor against no entrant (400)", st == 400 and "not playing" in text)
deadline = time.time() + (240 if os.environ.get("OKR_SANITIZE") == "1" else 90)
while time.time() < deadline:
    states = [r[0] for r in db().execute("SELECT state FROM tests WHERE author = 'alice'")]
    if states and all(x in ("played", "failed") for x in states):
        break
    time.sleep(0.5)
check("both test sets are played by the running league", states == ["played", "played"],
      str(states))
c = db()
tgames = c.execute("SELECT g.id, g.game_id, g.seat FROM test_games g JOIN tests t ON t.id = "
                   "g.test WHERE t.author = 'alice' ORDER BY g.id").fetchall()
rated_ids = {r[0] for r in c.execute("SELECT game_id FROM games")}
last_round = c.execute("SELECT games FROM rounds ORDER BY round DESC LIMIT 1").fetchone()
c.close()
check("their 4 games are kept apart from the rated ones", len(tgames) == 4 and
      not ({g[1] for g in tgames} & rated_ids), str(tgames))
jsonl = [json.loads(line)["game_id"] for line in open(os.path.join(L, "games.jsonl"))
         if line.strip()]
results = json.load(open(os.path.join(L, "results.json")))
check("the ratings and standings count only rated games (games.jsonl, results.json)",
      set(jsonl) <= rated_ids and not any("-t" in g for g in jsonl) and
      results.get("games") == len(jsonl) and last_round and last_round[0] == len(jsonl),
      "%d jsonl, results %s, round %s" % (len(jsonl), results.get("games"), last_round))
st, _, text = req("GET", "/entrant?name=alpy", alice)
check("alpy's page lists the test games for alice", len(re.findall(r'href="/test\?g=\d+"', text))
      == 4)
st, _, board = req("GET", "/")
st, _, pub = req("GET", "/entrant?name=alpy")
check("... and no public page names them", not any(g[1].split("-", 1)[1] in board + pub
                                                   for g in tgames))
for gid, game_id, seat in tgames[:2]:
    st, _, page = req("GET", "/test?g=%d" % gid, alice)
    rec = os.path.join(L, "tests", "records", game_id + ".jsonl")
    record_seeds.append(str(json.loads(open(rec).readline())["seed"]))
    data = okr_data(page) if st == 200 else None
    out = os.path.join(os.path.dirname(L), "oracle-t.html")
    subprocess.run([ARENA, "replay", rec, "--html", "--seat", str(seat), "-o", out], check=True,
                   capture_output=True)
    want = okr_data(open(out).read())
    if data:
        want.pop("back", None)
        want.pop("back_label", None)
    check("alice opens test game %d as alpy's seat %d saw it (the seat page of the record)" %
          (gid, seat), data is not None and data.get("seat") == seat and data == want,
          "%d" % st)
    st, _, _ = req("GET", "/test?g=%d" % gid, bob)
    check("bob cannot open it (404)", st == 404)
    st, _, _ = req("GET", "/test?g=%d" % gid)
    check("nor can a visitor (403)", st == 403)

# ---- scan everything alice received ----
bob_lines = set()
for f in boblogs:
    for line in open(os.path.join(L, "logs", f), errors="replace"):
        line = line.strip()
        if line and not line.startswith("[arena"):
            bob_lines.add(line)
league_seed = re.search(r"^seed\s*=\s*(\d+)", open(os.path.join(L, "league.ini")).read(), re.M)
needles = [s for s in record_seeds] + ([league_seed.group(1)] if league_seed else [])
leaks = []
for path, body in seen["alice"]:
    t = body.decode("utf-8", "replace")
    for n in needles:
        if n in t:
            leaks.append("%s: seed %s" % (path, n))
    if re.search(r"\bL\d+-[sct]\d+-r\d+", t):
        leaks.append("%s: a game id with the league's seed" % path)
    for line in bob_lines:
        if line in t:
            leaks.append("%s: bob's log line %r" % (path, line))
check("no response to alice (%d) holds a seed, a seeded game id or bob's log lines (%d lines)"
      % (len(seen["alice"]), len(bob_lines)), not leaks and len(bob_lines) > 0, "; ".join(leaks[:5]))

# ---- the host holds and retires ----
st, _, _ = req("POST", "/host", host, "action=hold&name=bobc", form)
check("the host holds bobc back", st == 200)
st, _, text = req("GET", "/")
check("... and the leaderboard says why",
      re.search(r"bobc</a><div class=\"why\">held: held back by the host", text) is not None)
st, _, _ = req("POST", "/host", host, "action=retire&name=alarc", form)
check("the host retires alarc", st == 200 and
      dict(db().execute("SELECT name, status FROM entrants")).get("alarc") == "retired")
st, _, _ = req("POST", "/host", host, "action=retire&name=nobody", form)
check("retiring no entrant is refused (400)", st == 400)

# ---- revoke, export ----
st, _, text = req("POST", "/host", host, "action=revoke&name=alice", form)
check("the host revokes alice", st == 200)
st, _, _ = req("GET", "/submit", alice)
check("... whose cookie no longer works (403)", st == 403)
st, _, text = req("POST", "/host", host, "action=export&name=site", form)
site = os.path.join(L, "site")
check("the host exports the public pages", st == 200 and os.path.exists(site + "/index.html") and
      os.path.exists(site + "/entrant-alpy.html"))
if os.path.exists(site + "/index.html"):
    t = open(site + "/index.html").read() + open(site + "/entrant-alpy.html").read()
    check("... with no link to a game, no log", "/game?" not in t and "/log?" not in t and
          "entrant-alpy.html" in t)
# ---- the host adds, freezes and starts the final from its page ----
st, _, text = req("POST", "/host", host, "action=add&name=hostbot&command=%40greedy", form)
check("the host adds an entrant from a command", st == 200 and "waits for its check" in text and
      dict(db().execute("SELECT name, status FROM entrants")).get("hostbot") is not None,
      text[-300:])
st, _, text = req("POST", "/host", host, "action=add&name=bobc&command=%40greedy", form)
check("... never a version of an author's bot (400)", st == 400 and
      "belongs to the author bob" in text, text[-300:])
st, _, text = req("POST", "/host", host, "action=add&name=hostx&command=", form)
check("... nor without a command (400)", st == 400 and "a command was expected" in text)
st, said = upload(host, "hostpy", "python3", "random_bot.py", pybot)
check("the host uploads a bot on the submission page", st == 200 and said.startswith("Taken"),
      said)
check("... which is the host's, no author's",
      "hostpy" not in dict(db().execute("SELECT entrant, author FROM owners")) and
      "hostpy" in dict(db().execute("SELECT name, status FROM entrants")))
st, said = upload(host, "bobc", "exec", "greedy_bot", cbot)
check("... never a version of an author's bot (400)", st == 400 and "belongs to the author bob"
      in said, said)
st, _, text = req("POST", "/host", host, "action=freeze&name=league", form)
check("the host freezes the league", st == 200 and
      db().execute("SELECT count(*) FROM meta WHERE key = 'frozen'").fetchone()[0] == 1)
st, said = upload(bob, "bobnew", "exec", "greedy_bot", cbot)
check("... then an upload is refused, saying why", st == 400 and "frozen" in said, said)
deadline = time.time() + (240 if os.environ.get("OKR_SANITIZE") == "1" else 90)
while time.time() < deadline and db().execute(
        "SELECT count(*) FROM sets WHERE state = 'playing'").fetchone()[0]:
    time.sleep(0.5)
last_set = db().execute("SELECT max(id) FROM sets").fetchone()[0]
time.sleep(2.5)
check("... and the running league starts no set (those in flight finish)",
      db().execute("SELECT max(id), sum(state = 'playing') FROM sets").fetchone() ==
      (last_set, 0))
st, _, text = req("POST", "/host", host, "action=final&name=0", form)
check("a final of 0 deals is refused (400)", st == 400)
st, _, text = req("POST", "/host", host, "action=final&name=1", form)
check("the host starts the final (1 deal a table)", st == 200 and "final is started" in text,
      text[-300:])
final = os.path.join(L, "final", "results.json")
deadline = time.time() + (600 if os.environ.get("OKR_SANITIZE") == "1" else 240)
while time.time() < deadline and not os.path.exists(final):
    time.sleep(0.5)
fr = json.load(open(final)) if os.path.exists(final) else {}
names = sorted(e["name"] for e in fr.get("config", {}).get("entrants", []))
check("the run lets its sets in and plays the final: DIR/final/results.json",
      "alpy" in names and "bobc" in names and "alarc" not in names, str(names))
st, _, text = req("GET", "/host", host)
check("the host page says where the final's results are", "its results are in" in text,
      text[-400:])
print("%s" % ("client: all checks passed" if not failed else "client: %d failed" % failed))
sys.exit(1 if failed else 0)
