#!/usr/bin/env python3
"""client.py URL OUTDIR MODE - hostile and honest requests to an `arena ... --serve` server.

MODE "hostile": while the run goes on, every kind of bad request (no or wrong token, wrong
Host, methods, unknown paths, traversal, oversized and garbage requests, a flood of idle
connections and of long polls); each must get an error status (or, for bytes that are not
HTTP, a closed connection), and the server must still answer a good request afterwards.
Prints "ok ..." / "FAIL ..." lines; exits 1 on any failure."""
import http.client
import json
import select
import socket
import sys
import time
import urllib.parse

url, out, mode = sys.argv[1], sys.argv[2], sys.argv[3]
u = urllib.parse.urlparse(url)
host, port = u.hostname, u.port
token = urllib.parse.parse_qs(u.query)["t"][0]
cookie = "okr_t_%d" % port  # okr_web names its token cookie by port
failed = 0


def check(name, cond):
    global failed
    print(("ok   " if cond else "FAIL ") + name)
    if not cond:
        failed += 1


def get(path, method="GET", headers=None, timeout=10):
    c = http.client.HTTPConnection(host, port, timeout=timeout)
    c.request(method, path, headers=headers or {})
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, dict(r.getheaders()), body


def raw(data, timeout=5):
    """Send bytes, return the status line (or "" when the server closed without one)."""
    s = socket.create_connection((host, port), timeout=timeout)
    try:
        s.sendall(data)
        got = b""
        while b"\r\n" not in got:
            part = s.recv(4096)
            if not part:
                break
            got += part
        return got.split(b"\r\n")[0].decode("latin-1")
    except (ConnectionResetError, BrokenPipeError):
        return ""
    finally:
        s.close()


def state():
    st, _, body = get("/state?t=" + token)
    return st, json.loads(body) if st == 200 else None


if mode == "hostile":
    st, h, body = get("/?t=" + token)
    check("the page with the token: 200", st == 200 and b"okr-state" in body)
    check("the page sets the token cookie HttpOnly", cookie + "=" + token in h.get("Set-Cookie", "")
          and "HttpOnly" in h.get("Set-Cookie", ""))
    csp = h.get("Content-Security-Policy", "")
    check("the page has a CSP that allows no other host and frames only this server's pages",
          "default-src 'none'" in csp and "frame-ancestors 'self'" in csp
          and "frame-src 'self'" in csp and h.get("X-Frame-Options") == "SAMEORIGIN")
    st, _, _ = get("/state?t=" + token, headers={"Cookie": cookie + "=" + token})
    check("the cookie alone lets in", get("/state", headers={"Cookie": cookie + "=" + token})[0] == 200)
    for name, path, hdr in [
        ("no token", "/", None),
        ("no token on the state", "/state", None),
        ("a wrong token", "/?t=" + "0" * 32, None),
        ("the token minus a character", "/?t=" + token[:-1], None),
        ("the token plus a character", "/?t=" + token + "0", None),
        ("a wrong cookie", "/state", {"Cookie": cookie + "=" + "f" * 32}),
        ("an empty token", "/state?t=", None),
        ("a 2000-byte token", "/state?t=" + "a" * 2000, None),
    ]:
        check(name + ": 403", get(path, headers=hdr)[0] == 403)
    check("a replay without the token: 403", get("/replay?game=x")[0] == 403)
    check("the report without the token: 403", get("/report")[0] == 403)
    # okr_web refuses a wrong Host like a wrong token (403; the live server's own said 421)
    check("another Host (DNS rebinding): 403",
          get("/state?t=" + token, headers={"Host": "evil.example:%d" % port})[0] == 403)
    check("another site's Origin: 403",
          get("/state?t=" + token, headers={"Origin": "http://evil.example"})[0] == 403)
    for m in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"]:
        check(m + ": 405", get("/state?t=" + token, method=m)[0] == 405)
    for p in ["/nope", "/state/", "/replay/", "/replay/.html", "/replay/..%2F..%2Fetc%2Fpasswd.html",
              "/replay/../../etc/passwd.html", "/replay/%2e%2e/results.html",
              "/table/..html", "/table/.x.html", "/replay/a..b.html", "/replay/x;rm.html", "/replay/%00.html",
              "//etc/passwd", "/replay/no-such-game.html",
              "/replay/" + "a" * 300 + ".html", "/../results.json", "/results.json",
              "/records/", "/journal.jsonl", "/replay/x.html", "/table/x.html",
              "/replay", "/replay?game=", "/replay?game=../../etc/passwd", "/replay?game=..%2F..%2Fetc%2Fpasswd",
              "/replay?game=.hidden", "/replay?game=a..b", "/replay?game=x%00y", "/table?game=../results",
              "/replay?game=" + "a" * 300, "/replay?game=no-such-game", "/state?since=x", "/state?since=1e9"]:
        st, _, body = get(p + ("&" if "?" in p else "?") + "t=" + token)
        check("%s: 404 or 400 (%d)" % (p[:60], st), st in (400, 404) and b"root:" not in body)
    st, _, body = get("/table?game=no-such-game&t=" + token)
    check("a table not being played: a page that says so", st == 200 and b"not being played" in body)
    st = raw(b"GET /state?t=" + token.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX: " % port
             + b"a" * 20000 + b"\r\n\r\n")
    check("20 kB of headers: refused (%s)" % st, st == "" or st.split()[1] in ("400", "413", "431"))
    st = raw(b"GET /" + b"a" * 100000 + b" HTTP/1.1\r\n\r\n")
    check("a 100 kB request line: refused (%s)" % st[:40], st == "" or st.split()[1] in ("400", "414", "431"))
    st = raw(b"\x00\xff\xfe garbage \x01\r\n\r\n")
    check("binary garbage: refused (%s)" % st[:40], st == "" or st.split()[1] in ("400", "405", "501"))
    st = raw(b"GET /state?t=" + token.encode() + b" HTTP/9.9\r\n\r\n")
    check("HTTP/9.9: refused (%s)" % st[:40], st == "" or st.split()[1].startswith(("4", "5")))
    st = raw(b"POST /state?t=" + token.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
             b"Content-Length: 10000000\r\n\r\n" % port + b"x" * 1000)
    check("a 10 MB body: refused (%s)" % st[:40], st == "" or st.split()[1] in ("400", "405", "413"))
    # many connections at once: idle ones, half requests, and more long polls than are held
    idle = []
    for _ in range(300):
        s = socket.create_connection((host, port), timeout=5)
        idle.append(s)
    for s in idle[:100]:
        s.sendall(b"GET /state?tok")  # never finished
    st, s1 = state()
    check("with 300 connections open a good request is answered", st == 200)
    for s in idle:
        s.close()
    time.sleep(0.3)
    st, s2 = state()
    check("after they all closed the server still answers", st == 200)
    sys.exit(1 if failed else 0)

if mode == "polls":
    # more long polls than are held, while nothing changes (the run is over): the ones
    # beyond the cap get 503 at once, the server stays up
    # wait until nothing changes any more (an ended table leaves the list a few seconds after
    # its end; a change answers every held poll and would empty the queue under test)
    # (with --serve-delay the last table leaves delay + 2 s after the end: wait for no tables)
    _, s0 = state()
    settled = False
    for _ in range(40):
        time.sleep(1)
        _, s1 = state()
        if s1["version"] == s0["version"] and s1["state"] == "finished" and not s1["tables"]:
            settled = True
            break
        s0 = s1
    # a state still changing would answer the held polls: say so rather than count them
    check("the state settles (finished, no tables, the same version for 1 s) within 40 s "
          "(state %s, %d tables, version %d)" % (s0["state"], len(s0["tables"]), s0["version"]),
          settled)
    if not settled:
        sys.exit(1)
    polls = []
    for _ in range(600):
        s = socket.create_connection((host, port), timeout=30)
        s.sendall(b"GET /state?since=%d&t=%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n"
                  % (s0["version"], token.encode(), port))
        polls.append(s)
    # the answers, as they come (a busy machine may take seconds to accept 600 connections)
    busy, answered, deadline, heads = 0, set(), time.time() + 20, {}
    def take(s):
        answered.add(s)
        head = s.recv(200)
        line = head.split(b"\r\n", 1)[0].decode("latin-1")
        heads[line] = heads.get(line, 0) + 1
        return b" 503 " in head
    while busy < 600 - 512 and time.time() < deadline:
        ready, _, _ = select.select([s for s in polls if s not in answered], [], [], 0.5)
        busy += sum(1 for s in ready if take(s))
    time.sleep(0.3)
    ready, _, _ = select.select([s for s in polls if s not in answered], [], [], 0)
    busy += sum(1 for s in ready if take(s))
    _, s2 = state()
    check("long polls beyond the cap get 503 (%d of 600; answers %s; version %d then %d)"
          % (busy, heads, s0["version"], s2["version"]), busy == 600 - 512)
    st, _ = state()
    check("with 600 long polls open a good request is answered", st == 200)
    for s in polls:
        s.close()
    sys.exit(1 if failed else 0)

if mode == "final":
    # after the run: the page ends on the results, the finished games have replays, the report
    deadline = time.time() + 240  # a loaded machine with sanitizers is slow
    s = None
    while time.time() < deadline:
        st, s = state()
        if s and s["state"] == "finished":
            break
        time.sleep(0.2)
    check("the state says finished", s is not None and s["state"] == "finished" and s["final"])
    r = json.load(open(out + "/results.json"))
    want = [(x["name"], x["score"]) for x in r["standings"]] if "standings" in r else None
    got = [(x["name"], x["score"]) for x in s["standings"]]
    check("final standings equal results.json", want == got)
    ngames = sum(1 for _ in open(out + "/journal.jsonl"))
    check("every game counted (%d)" % s["games"], s["games"] == ngames)
    gid = s["recent"][0]["id"]
    st, h, body = get("/replay?game=%s&t=%s" % (gid, token))
    check("a finished game's replay page: 200", st == 200 and b"okReplay" in body or b"replay" in body)
    st, h, body = get("/report?t=" + token)
    check("the report: 200", st == 200 and b"t-standings" in body)
    sys.exit(1 if failed else 0)
if mode == "seeds":
    # every response a viewer can get during and after the run (the page, the state, the
    # pages of the tables being played, the replays of finished games, the report) must not
    # carry the run's seed (argv[4]) nor any game's seeds (the records' headers): with them a
    # spectator could work out the deals of the games not played yet
    import glob
    import re
    bodies = {}  # what was asked -> the last body

    def fetch(path):
        st, _, body = get(path + ("&" if "?" in path else "?") + "t=" + token, timeout=60)
        key = path.split("?")[0] + ("?" + path.split("?")[1] if "?" in path else "")
        bodies[key] = (st, body)
        return st, body

    tables_seen, deadline, s = set(), time.time() + 240, None
    fetch("/")
    while time.time() < deadline:
        st, body = fetch("/state")
        s = json.loads(body) if st == 200 else None
        bodies["/state#%d" % s["version"]] = (st, body)
        for t in s["tables"]:
            st, body = fetch("/table?game=" + t["id"])
            if st == 200 and b"okr-data" in body or b"frames" in body:
                tables_seen.add(t["id"])
        for g in s["recent"]:
            if "/replay?game=" + g["id"] not in bodies:
                fetch("/replay?game=" + g["id"])
        if s["state"] == "finished":
            break
        time.sleep(0.05)
    check("the run finished", s is not None and s["state"] == "finished")
    fetch("/")
    fetch("/report")
    seeds = set(sys.argv[4].split(","))
    for rec in glob.glob(out + "/records/*.jsonl"):
        head = json.loads(open(rec).readline())
        seeds.add(str(head["seed"]))
        seeds.add(str(head["match_seed"]))
    seeds.discard("")
    pat = re.compile(rb"(?<![0-9])(" + b"|".join(re.escape(x.encode()) for x in seeds) + rb")(?![0-9])")
    check("%d seeds to look for, from the tournament file and %d records"
          % (len(seeds), len(glob.glob(out + "/records/*.jsonl"))), len(seeds) >= 2)
    check("the pages of %d tables in progress were seen" % len(tables_seen), len(tables_seen) >= 2)
    nrep = sum(1 for k, v in bodies.items() if k.startswith("/replay?") and v[0] == 200)
    check("%d replay pages of finished games were seen" % nrep, nrep >= 2)
    check("the report was seen", bodies["/report"][0] == 200)
    leaks = [(k, m.group(0).decode()) for k, (_, b) in bodies.items() for m in [pat.search(b)] if m]
    check("no seed in any of %d responses%s" % (len(bodies), "" if not leaks else
          ": " + ", ".join("%s has %s" % l for l in leaks[:5])), not leaks)
    sys.exit(1 if failed else 0)
print("unknown mode", mode)
sys.exit(2)
