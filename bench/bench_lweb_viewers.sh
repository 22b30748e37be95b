#!/usr/bin/env bash
# bench_lweb_viewers.sh [BUILD_DIR] [SETS] [JOBS] [REPS] [VIEWERS] [PERIOD_S] - what viewers of
# the league's pages cost the league: the same league (random_bot, greedy_bot, @random,
# @greedy; gin, 3 hands a game so that games are alike whatever matchmaking picks; short
# clocks) run for SETS sets (`arena league run --init FILE --sets N`) three ways, in turn,
# REPS times each, same machine, same run:
#   none       without --serve
#   serve      --serve, nobody reading
#   viewers    --serve, VIEWERS viewers (default 50) each fetching a page every PERIOD_S
#              seconds (default 1: ten times the leaderboard's own refresh), the leaderboard
#              and an entrant's page in turn (one Python client, a thread a viewer)
# Prints per run the games/s (checks and refits included, as the league plays them), the CPU
# seconds of the whole league (the run and every process it waited for: set workers, bots,
# the web server) per game, and the web server's own CPU seconds and requests served; then
# the medians and their ratios to `none`. Issue 23's target: viewers cost the league at most
# 5%. On a shared machine wall-clock rates swing with the neighbours' load; CPU per game and
# the server's CPU share do not.
#
# usage: bench/bench_lweb_viewers.sh [BUILD_DIR] [SETS] [JOBS] [REPS] [VIEWERS] [PERIOD_S]
#        defaults: build 60 2 3 50 1
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
for f in "$build/arena/arena" "$build/bots/random_bot" "$build/bots/greedy_bot"; do
    [ -x "$f" ] || {
        echo "bench_lweb_viewers: $f is missing (build first)" >&2
        exit 2
    }
done
exec python3 - "$build" "${2:-60}" "${3:-2}" "${4:-3}" "${5:-50}" "${6:-1}" <<'PY'
import http.client, json, os, shutil, statistics, subprocess, sys, tempfile, threading, time
import urllib.parse

build, sets, jobs, reps, nview, period = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
    int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
arena = os.path.join(build, "arena", "arena")
work = tempfile.mkdtemp(prefix="bench_lweb_viewers.")
HZ = os.sysconf("SC_CLK_TCK")
open(os.path.join(work, "b.league"), "w").write("""[league]
rules = gin
seats = 2
seed = 77
hands = 3
bootstrap = 100
jobs = %d
[clocks]
decision_ms = 500
hard_ms = 3000
[entrant random-c]
command = %s/bots/random_bot
[entrant greedy-c]
command = %s/bots/greedy_bot
[entrant random]
command = @random
[entrant greedy]
command = @greedy
""" % (jobs, build, build))


def viewers(url, stop, counts):
    u = urllib.parse.urlsplit(url)
    paths = ["/", "/entrant?name=random-c", "/", "/entrant?name=greedy-c"]

    def one(i):
        time.sleep(period * i / nview)  # spread over the period, as viewers come
        k = i
        while not stop.is_set():
            t = time.monotonic()
            try:
                c = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
                c.request("GET", paths[k % len(paths)], headers={"Host": u.netloc})
                r = c.getresponse()
                r.read()
                c.close()
                counts[0 if r.status == 200 else 1] += 1
            except Exception:
                if not stop.is_set():
                    counts[1] += 1
            k += 1
            stop.wait(max(0.0, period - (time.monotonic() - t)))
    th = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(nview)]
    for t in th:
        t.start()
    return th


def cpu_of(pid):
    try:
        f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / HZ
    except OSError:
        return None


def server_pid(run):
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                st = open("/proc/%s/stat" % p).read()
            except OSError:
                continue
            name = st[st.index("(") + 1:st.rindex(")")]
            if name == "arena:lweb" and int(st.rsplit(")", 1)[1].split()[1]) == run:
                return int(p)
    return None


rows = []
try:
    for r in range(1, reps + 1):
        for mode in ("none", "serve", "viewers"):
            d = os.path.join(work, "l-%s-%d" % (mode, r))
            cmd = [arena, "league", "run", d, "--init", os.path.join(work, "b.league"),
                   "--sets", str(sets), "--quiet"] + ([] if mode == "none" else ["--serve", "0"])
            out = open(os.path.join(work, "out"), "w+")
            t0 = time.monotonic()
            p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
            stop, counts, th, web, webcpu = threading.Event(), [0, 0], [], None, None
            if mode != "none":
                while p.poll() is None and not (os.path.exists(d + "/web.url") and
                                                "host signs in" in open(out.name).read()):
                    time.sleep(0.02)
                if mode == "viewers":
                    th = viewers(open(d + "/web.url").read().strip(), stop, counts)
            while True:
                try:
                    pid, status, ru = os.wait4(p.pid, os.WNOHANG)
                except ChildProcessError:
                    break
                if pid:
                    break
                if mode != "none":
                    web = web or server_pid(p.pid)
                    c = cpu_of(web) if web else None
                    webcpu = c if c is not None else webcpu
                time.sleep(0.1)
            wall = time.monotonic() - t0
            stop.set()
            for t in th:
                t.join(timeout=12)
            if status != 0:
                sys.exit("bench_lweb_viewers: the run failed:\n" + open(out.name).read())
            games = [json.loads(l) for l in open(d + "/games.jsonl") if l.strip()]
            g = len(games)
            cpu = ru.ru_utime + ru.ru_stime
            rows.append((mode, g / wall, cpu / g, webcpu or 0.0, counts[0], counts[1], cpu))
            print("run %d %-8s %3d games in %6.2f s: %6.2f games/s, %.4f CPU-s a game; "
                  "server %.2f CPU-s of %.1f (%.1f%%), %d pages served, %d failed" %
                  (r, mode, g, wall, g / wall, cpu / g, webcpu or 0, cpu,
                   100 * (webcpu or 0) / cpu, counts[0], counts[1]), flush=True)
            for x in (d, d + ".bots", d + "-uploads"):
                shutil.rmtree(x, ignore_errors=True)
finally:
    shutil.rmtree(work, ignore_errors=True)
print("medians of %d runs each (%d viewers, a page each every %g s):" % (reps, nview, period))
base = None
for mode in ("none", "serve", "viewers"):
    rs = [x for x in rows if x[0] == mode]
    gps = statistics.median(x[1] for x in rs)
    cpg = statistics.median(x[2] for x in rs)
    share = statistics.median(x[3] / x[6] for x in rs)
    base = base or (gps, cpg)
    print("  %-8s %6.2f games/s (%.3f)  %.4f CPU-s a game (%.3f)  server %.2f%% of the CPU" %
          (mode, gps, gps / base[0], cpg, cpg / base[1], 100 * share))
PY
