#!/usr/bin/env bash
# bench_live.sh [BUILD_DIR] [ROUNDS] [DEALS] - does watching a tournament live slow it down?
# Games per second of one tournament of fast bots (the C random and greedy starter bots, laws
# at 3 seats, 2 jobs) played three ways in each round, in turn: without --serve, with --serve
# and no viewer, and with --serve and 20 viewers long-polling the state the whole time (one
# python select() loop over 20 keep-alive connections, each asking again as soon as it has
# an answer, as the page does). Rounds interleave the three so that a busy machine hurts all three alike; the
# figures are the median per mode and its ratio to no --serve. Target: at most 5% slower.
set -euo pipefail
BUILD=${1:-build}
ROUNDS=${2:-3}
DEALS=${3:-6}
ARENA="$BUILD/arena/arena"
B=$(readlink -f "$BUILD")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
{
    printf '[tournament]\nname = bench-live\nrules = laws\nseats = 3\ndeals = %d\nseed = 4\nbootstrap = 0\n' "$DEALS"
    printf '[clocks]\ndecision_ms = 1000\n'
    for i in 1 2; do printf '[entrant random%d]\ncommand = %s/bots/random_bot\n' $i "$B"; done
    for i in 1 2; do printf '[entrant greedy%d]\ncommand = %s/bots/greedy_bot\n' $i "$B"; done
} >"$TMP/b.tour"

cat >"$TMP/viewers.py" <<'PY'
# viewers.py URL N OUTFILE: N viewers long-polling the state until SIGTERM, which writes to
# OUTFILE how many answers each got (the first, immediate one not counted: only answers to a
# held poll, that is news during the run) and exits. Each viewer is one keep-alive connection
# that loads the page once, then asks /state?since=V again as soon as an answer has fully
# arrived, as the page does. All 20 are driven by one thread with select(), and the version is
# read from the head of the body instead of parsing the whole JSON: the viewers share the
# run's two cores, and what is measured is what serving them costs the run, not the cost of
# 20 python threads (the browser's parsing and drawing happen on the spectator's machine).
import os, re, selectors, signal, socket, sys, time, urllib.parse
url, n, outfile = sys.argv[1], int(sys.argv[2]), sys.argv[3]
u = urllib.parse.urlparse(url)
tok = urllib.parse.parse_qs(u.query)["t"][0]
got = [0] * n
VERSION = re.compile(rb'"version":(\d+)')
sel = selectors.DefaultSelector()
class Viewer:
    def __init__(self, i):
        self.i, self.v, self.sock = i, 0, None
        self.connect()
    def connect(self):
        if self.sock:
            sel.unregister(self.sock)
            self.sock.close()
        self.sock, self.buf = None, b""
        try:
            s = socket.create_connection((u.hostname, u.port), timeout=5)
        except OSError:
            return  # the server went away at the end of the run
        s.setblocking(False)
        self.sock, self.page = s, True
        sel.register(s, selectors.EVENT_READ, self)
        self.send("/?t=" + tok)
    def send(self, path):
        req = "GET %s HTTP/1.1\r\nHost: %s:%d\r\n\r\n" % (path, u.hostname, u.port)
        try:
            self.sock.sendall(req.encode())
        except OSError:
            self.connect()
    def readable(self):
        try:
            data = self.sock.recv(1 << 16)
        except OSError:
            data = b""
        if not data:
            return self.connect()
        self.buf += data
        while True:
            head_end = self.buf.find(b"\r\n\r\n")
            if head_end < 0:
                return
            head = self.buf[:head_end].lower()
            m = re.search(rb"content-length: *(\d+)", head)
            size = head_end + 4 + (int(m.group(1)) if m else 0)
            if len(self.buf) < size:
                return
            body, self.buf = self.buf[head_end + 4:size], self.buf[size:]
            if self.page:
                self.page = False
            elif head.startswith(b"http/1.1 200"):
                if self.v > 0:
                    got[self.i] += 1
                m = VERSION.search(body, 0, 64)
                self.v = int(m.group(1)) if m else self.v
            self.send("/state?since=%d&t=%s" % (self.v, tok))
def done(*_):
    with open(outfile, "w") as f:
        f.write("%d %d %d\n" % (sum(got), sum(1 for g in got if g > 0), min(got)))
    os._exit(0)
signal.signal(signal.SIGTERM, done)
viewers = [Viewer(i) for i in range(n)]
while True:
    for key, _ in sel.select(timeout=0.5):
        key.data.readable()
    for w in viewers:
        if w.sock is None:
            time.sleep(0.05)
            w.connect()
PY

run() { # MODE ROUND: prints games/s
    local mode=$1 out="$TMP/o-$1-$2" t0 t1 games
    local extra=()
    [ "$mode" != off ] && extra=(--serve --serve-linger 0)
    t0=$(date +%s.%N)
    if [ "$mode" = viewers ]; then
        "$ARENA" tournament "$TMP/b.tour" --out "$out" --jobs 2 --quiet "${extra[@]}" 2>"$TMP/se" &
        local pid=$! url=""
        for _ in $(seq 200); do
            url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/?t=[0-9a-f]*' "$TMP/se" | head -1 || true)
            [ -n "$url" ] && break
            sleep 0.01
        done
        python3 "$TMP/viewers.py" "$url" 20 "$TMP/answers" &
        local vp=$!
        wait $pid
        kill -TERM $vp 2>/dev/null || true
        wait $vp 2>/dev/null || true
        local a=(0 0 0)
        [ -s "$TMP/answers" ] && read -r -a a <"$TMP/answers"
        rm -f "$TMP/answers"
        echo "   (the viewers got ${a[0]} state answers to held polls during the run; ${a[1]} of 20 got at least one, the fewest ${a[2]})" >&2
    else
        "$ARENA" tournament "$TMP/b.tour" --out "$out" --jobs 2 --quiet "${extra[@]}" 2>/dev/null
    fi
    t1=$(date +%s.%N)
    games=$(wc -l <"$out/journal.jsonl")
    python3 -c "print('%.2f' % ($games / ($t1 - $t0)))"
    rm -rf "$out"
}

echo "tournament: 4 bots (2 random_bot, 2 greedy_bot), laws, 3 seats, $DEALS deals, 2 jobs; $ROUNDS rounds"
declare -A all
for r in $(seq "$ROUNDS"); do
    for mode in off serve viewers; do
        g=$(run $mode "$r")
        all[$mode]="${all[$mode]:-} $g"
        echo "round $r  $mode  $g games/s"
    done
done
python3 - "${all[off]}" "${all[serve]}" "${all[viewers]}" <<'PY'
import statistics, sys
off, serve, view = ([float(x) for x in a.split()] for a in sys.argv[1:])
m = statistics.median(off)
for name, xs in (("no --serve", off), ("--serve, 0 viewers", serve), ("--serve, 20 viewers", view)):
    print("%-22s median %7.2f games/s  ratio %.3f  (%s)" % (name, statistics.median(xs),
          statistics.median(xs) / m, " ".join("%.2f" % x for x in xs)))
PY
