#!/usr/bin/env python3
"""firefox.py CONFIG.json - the replay page and the report in Debian's firefox-esr, headless,
driven through Firefox's own remote protocol, Marionette (JSON over TCP, spoken here with the
standard library: no geckodriver, no npm package, nothing downloaded). CONFIG: {"replay",
"record", "report", "results", "shots"}, as tests/view/firefox.sh writes it.

Each page is opened from file:// in a profile with no network (a dead proxy, no DNS); the
test waits for body[data-ready="1"], steps the replay to its end one decision at a time
comparing the totals shown with the record's, presses Home and End through Firefox's input,
reads the report's standings and rank probabilities against results.json, and fails on any
JS error (a listener in the page from when it is ready, and Firefox's stdout, where content
errors and console messages are printed from the start) or any resource a page fetched.
Prints ok/FAIL lines; exit 1 on any failure, 77 when firefox-esr is absent.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

FIREFOX = os.environ.get("OKR_FIREFOX", "/usr/bin/firefox-esr")
passed = failed = 0


def ok(what):
    global passed
    passed += 1
    print("ok   " + what, flush=True)


def bad(what):
    global failed
    failed += 1
    print("FAIL " + what, flush=True)


def check(what, cond):
    (ok if cond else bad)(what)


class Marionette:
    """The client side of Marionette's protocol 3: each message is `LENGTH:JSON`; a command
    is [0, id, name, params], its answer [1, id, error, result]."""

    def __init__(self, port, deadline):
        while True:
            try:
                self.s = socket.create_connection(("127.0.0.1", port), timeout=60)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
        self.buf = b""
        self.id = 0
        hello = self.read()
        if hello.get("marionetteProtocol") != 3:
            raise RuntimeError("not Marionette protocol 3: %r" % hello)

    def read(self):
        while True:
            if b":" in self.buf:
                n, _, rest = self.buf.partition(b":")
                if len(rest) >= int(n):
                    self.buf = rest[int(n):]
                    return json.loads(rest[:int(n)])
            self.more()

    def more(self):
        b = self.s.recv(1 << 16)
        if not b:
            raise RuntimeError("Marionette closed the connection")
        self.buf += b

    def cmd(self, name, params=None):
        self.id += 1
        body = json.dumps([0, self.id, name, params or {}]).encode()
        self.s.sendall(str(len(body)).encode() + b":" + body)
        while True:
            m = self.read()
            if m[0] == 1 and m[1] == self.id:
                if m[2]:
                    raise RuntimeError("%s: %s" % (name, m[2].get("message", m[2])))
                return m[3]

    def js(self, script, *args):
        r = self.cmd("WebDriver:ExecuteScript", {"script": script, "args": list(args)})
        return r.get("value") if isinstance(r, dict) else r


# Installed right after each navigation: errors from then on (stepping, clicking) are kept in
# the page. Errors while the page loads are caught two ways: the page never sets data-ready,
# and Firefox prints uncaught exceptions and console errors of content on its stdout
# (devtools.console.stdout.content below), which the test scans at the end.
WATCH = """
if (!window.__okrErrors) {
  window.__okrErrors = [];
  window.addEventListener('error', (e) => window.__okrErrors.push('error: ' + e.message), true);
  window.addEventListener('unhandledrejection', (e) => window.__okrErrors.push('rejection: ' + e.reason));
  const ce = console.error;
  console.error = function (...a) { window.__okrErrors.push('console.error: ' + a.join(' ')); return ce.apply(console, a); };
}
return true;
"""

PROFILE = {
    # no network at all: offline, and a proxy that goes nowhere for anything that tries
    "network.proxy.type": 1,
    "network.proxy.http": "127.0.0.1",
    "network.proxy.http_port": 9,
    "network.proxy.ssl": "127.0.0.1",
    "network.proxy.ssl_port": 9,
    "network.proxy.allow_hijacking_localhost": True,
    "network.dns.disabled": True,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.enabled": False,
    "app.update.enabled": False,
    "app.update.disabledForTesting": True,
    "extensions.update.enabled": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.newtabpage.enabled": False,
    "remote.prefs.recommended": True,
    # the page's console errors and uncaught exceptions on stdout, where this test reads them
    "devtools.console.stdout.content": True,
    # ... and not Firefox's own (its background services complain about the dead network)
    "devtools.console.stdout.chrome": False,
    "messaging-system.rsexperimentloader.enabled": False,
    "app.normandy.enabled": False,
    "browser.backup.enabled": False,
    "browser.backup.scheduled.enabled": False,
    "browser.dom.window.dump.enabled": True,
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    if not os.access(FIREFOX, os.X_OK):
        print("SKIP: no %s (scripts/install-deps.sh installs firefox-esr)" % FIREFOX)
        return 77
    cfg = json.load(open(sys.argv[1]))
    prof = tempfile.mkdtemp(prefix="okr-firefox-")
    port = free_port()
    with open(os.path.join(prof, "user.js"), "w") as f:
        for k, v in dict(PROFILE, **{"marionette.port": port}).items():
            f.write("user_pref(%s, %s);\n" % (json.dumps(k), json.dumps(v)))
    log = open(os.path.join(prof, "firefox.log"), "w+")
    env = dict(os.environ, MOZ_HEADLESS="1", MOZ_CRASHREPORTER_DISABLE="1", HOME=prof)
    ff = subprocess.Popen(
        [FIREFOX, "--headless", "--marionette", "--no-remote", "--profile", prof, "about:blank"],
        stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        m = Marionette(port, time.time() + 60)
        m.cmd("WebDriver:NewSession", {"capabilities": {"alwaysMatch": {"acceptInsecureCerts": False}}})
        m.cmd("WebDriver:SetWindowRect", {"width": 1400, "height": 1000})
        run(m, cfg)
        m.cmd("WebDriver:DeleteSession")
    except Exception as e:  # a protocol failure is a failure of the test, said plainly
        bad("firefox: %s" % e)
    finally:
        os.killpg(ff.pid, 15)
        try:
            ff.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(ff.pid, 9)
            ff.wait()
    log.seek(0)
    out = log.read()
    if os.environ.get("OKR_FIREFOX_LOG"):
        print(out)
    # what the page said on the console, and uncaught exceptions, from Firefox's stdout
    # Firefox's own experiment loader (Nimbus) says on the console that it cannot reach its
    # server: that message is Firefox's, not a page's; an uncaught exception of Firefox's own
    # modules names a resource:// file, a page's its file:// address
    errs = [l for l in out.splitlines() if l.startswith(("console.error", "console.warn", "JavaScript error: file://"))
            and not l.startswith("console.error: RSLoader:")]
    check("no console error or JS error on Firefox's output (%d)" % len(errs), not errs)
    for l in errs[:5]:
        print("  " + l)
    shutil.rmtree(prof, ignore_errors=True)
    print("%d passed, %d failed (firefox-esr, Marionette)" % (passed, failed))
    return 1 if failed else 0


def open_page(m, path, hash=""):
    m.cmd("WebDriver:Navigate", {"url": "about:blank"})  # a new document even for a new #n=
    t0 = time.time()
    m.cmd("WebDriver:Navigate", {"url": "file://" + os.path.abspath(path) + hash})
    m.js(WATCH)
    while not m.js("return document.body && document.body.getAttribute('data-ready') === '1';"):
        if time.time() - t0 > 20:
            raise RuntimeError("%s: not ready after 20 s" % path)
        time.sleep(0.05)
    return time.time() - t0


def page_checks(m, what):
    errs = m.js("return window.__okrErrors || ['the error listener is gone'];")
    check("%s: no JS error in the page (%d)" % (what, len(errs)), not errs)
    for e in errs[:5]:
        print("  " + e)
    res = m.js("return performance.getEntriesByType('resource').map((r) => r.name);")
    check("%s: the page fetched nothing (%d resources)" % (what, len(res)), not res)


def screenshot(m, name):
    import base64

    d = m.cmd("WebDriver:TakeScreenshot", {"full": False})
    os.makedirs(cfg_shots, exist_ok=True)
    with open(os.path.join(cfg_shots, name), "wb") as f:
        f.write(base64.b64decode(d["value"] if isinstance(d, dict) else d))


def run(m, cfg):
    global cfg_shots
    cfg_shots = cfg["shots"]
    rec = [json.loads(l) for l in open(cfg["record"])]
    ends = [x["totals"] for x in rec if x["type"] == "hand_end"]
    result = next(x for x in rec if x["type"] == "result")

    ms = open_page(m, cfg["replay"])
    ok("the replay is ready in %.2f s" % ms)
    steps = m.js("return window.okrReplay.steps;")
    check("it opens at step 0 of %d" % steps,
          m.js("return Number(document.body.getAttribute('data-step'));") == 0 and steps > 10)
    # every step, one decision at a time, through the page's own key handling
    seen = m.js("""
const steps = window.okrReplay.steps, seen = [], at = [];
let fin = [];
for (let i = 1; i < steps; i++) {
  document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
  const n = Number(document.body.getAttribute('data-step'));
  if (n !== i) return {error: 'ArrowRight went to ' + n + ', not ' + i};
  const b = document.getElementById('breakdown');
  const title = b.hidden ? '' : b.querySelector('h2').textContent;
  const row = (r) => [...b.querySelectorAll('td[data-row="' + r + '"]')].map((td) => Number(td.textContent));
  if (/^Hand \\d+ scoring/.test(title)) {
    seen.push(row('total'));
    at.push([...document.querySelectorAll('[data-score]')].map((e) => Number(e.textContent)));
  }
  if (row('final').length) fin = row('final');
}
return {seen, at, fin};
""")
    if "error" in seen:
        bad("stepping: " + seen["error"])
        return
    check("stepping through %d steps: %d hand ends shown, the record has %d" % (steps, len(seen["seen"]), len(ends)),
          len(seen["seen"]) == len(ends))
    check("each hand end shows the record's totals (scoring table and seat scores)",
          seen["seen"] == ends and seen["at"] == ends)
    check("the last step shows the record's final totals %s" % result["final_total"],
          seen["fin"] == result["final_total"])
    screenshot(m, "firefox-replay.png")
    # the real keyboard, through Firefox's input: Home, then End
    for key, want in (("\ue011", 0), ("\ue010", steps - 1)):
        m.cmd("WebDriver:PerformActions", {"actions": [{"type": "key", "id": "kb", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]})
        m.cmd("WebDriver:ReleaseActions")
        check("the %s key goes to step %d" % ("Home" if want == 0 else "End", want),
              m.js("return Number(document.body.getAttribute('data-step'));") == want)
    page_checks(m, "replay")

    # the address: a page opened at #n=33 is at step 33
    open_page(m, cfg["replay"], "#n=33")
    check("a page opened at #n=33 shows step 33",
          m.js("return Number(document.body.getAttribute('data-step'));") == 33)
    page_checks(m, "replay at #n=33")

    # a seat's page (RULES 8.3): at every step before a hand's end only that seat's hand is
    # face up, every other hand is card backs; at a hand's end every hand is shown
    k = cfg["seat"]
    open_page(m, cfg["seat_page"])
    view = m.js("""
const k = arguments[0], steps = window.okrReplay.steps, frames = JSON.parse(document.getElementById('okr-data').textContent).frames;
const out = {steps, wrong: [], checked: 0, own: 0, backs: 0, title: document.title};
for (let i = 0; i < steps; i++) {
  window.okrReplay.go(i);
  if (Number(document.body.getAttribute('data-step')) !== i) { out.wrong.push('go(' + i + ') did not move'); break; }
  if (frames[i].k === 'end' || frames[i].k === 'over') continue;
  out.checked++;
  for (const s of document.querySelectorAll('.seat')) {
    const seat = Number(s.getAttribute('data-seat'));
    const faces = s.querySelectorAll('.hand .card:not(.back)').length, backs = s.querySelectorAll('.hand .card.back').length;
    if (seat === k ? backs > 0 : faces > 0) out.wrong.push('step ' + i + ': seat ' + seat + ' shows ' + faces + ' faces, ' + backs + ' backs');
    if (seat === k) out.own += faces > 0; else out.backs += backs > 0;
  }
}
return out;
""", k)
    check("seat %d's page (%s): at each of %d steps before a hand's end, only its own hand is face up"
          % (k, view["title"], view["checked"]),
          not view["wrong"] and view["checked"] > 10 and view["own"] > 10 and view["backs"] > 10
          and "as seen by" in view["title"])
    for w in view["wrong"][:5]:
        print("  " + w)
    m.js("window.okrReplay.go(40);")
    screenshot(m, "firefox-seat.png")
    page_checks(m, "seat %d's page" % k)

    # the report: standings and rank probabilities as results.json has them
    open_page(m, cfg["report"])
    res = json.load(open(cfg["results"]))
    st = res["standings"]
    rows = m.js("return [...document.querySelectorAll('#t-standings tbody tr')].map((r) => r.cells[1].textContent);")
    check("the report shows the standings of results.json (%d rows)" % len(rows), rows == [s["name"] for s in st])
    rp = m.js("""return [...document.querySelectorAll('#t-rankp tbody tr')].map((r) =>
  [...r.querySelectorAll('td')].map((c) => [c.getAttribute('data-p'), c.textContent]));""")
    want = [[[("%.4f" % s["rank_p"][str(k)]) if s["rank_p"].get(str(k), 0) > 0 else None]
             for k in range(1, len(st) + 1)] for s in st]
    check("its rank probabilities are results.json's, each row adding up to 100",
          [[[c[0]] for c in r] for r in rp] == want and all(sum(int(c[1] or 0) for c in r) == 100 for r in rp))
    screenshot(m, "firefox-report.png")
    page_checks(m, "report")


if __name__ == "__main__":
    sys.exit(main())
