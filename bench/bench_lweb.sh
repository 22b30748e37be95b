#!/usr/bin/env bash
# bench_lweb.sh [VERSIONS [GAMES]] - the league's leaderboard over a big league.db: a league
# made by `arena league init`, filled by SQLite with VERSIONS entrant versions (default 500:
# 100 bots x 5 versions), GAMES 2-seat games (default 1,000,000, in sets of 2) and 40 rounds
# of rating snapshots, served by build/bench/bench_lweb (arena/lweb without a run). Prints
# the time to fill it, and the time of the leaderboard (first load, then cached, then again
# after the 2 s cache) and of an entrant's page, each the median of 5 (curl).
set -euo pipefail
cd "$(dirname "$0")/.."
V=${1:-500} G=${2:-1000000}
B=${OKR_BUILD:-build}
T=${OKR_BENCH_DIR:-$(mktemp -d /tmp/okr-bench-lweb.XXXXXX)}
trap 'kill $SRV 2>/dev/null; [ -n "${OKR_BENCH_DIR:-}" ] || rm -rf "$T"' EXIT
SRV=
t0=$(date +%s.%N)
# OKR_BENCH_DIR=DIR keeps the filled league there, and uses it when it is there already
[ -e "$T/L/league.db" ] || {
printf '[league]\nname = bench\nrules = gin\nseats = 2\nseed = 1\n' >"$T/b.league"
"$B/arena/arena" league init "$T/L" "$T/b.league" >/dev/null
python3 - "$T/L/league.db" "$V" "$G" <<'PY'
import random, sqlite3, sys, time
db, V, G = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
c = sqlite3.connect(db)
c.execute("PRAGMA journal_mode=WAL")
c.execute("PRAGMA synchronous=OFF")
now = time.time()
ids = []
for i in range(V):
    name, ver = "bot%03d" % (i // 5), i % 5 + 1
    st = "active" if ver == 5 else "retired"
    c.execute("INSERT INTO entrants(name, version, prev, command, status, reason, added_at, "
              "changed_at) VALUES(?,?,?,?,?,?,?,?)",
              (name, ver, ids[-1] if ver > 1 else None, "python3 bot.py", st,
               None if st == "active" else "replaced", now, now))
    ids.append(c.execute("SELECT last_insert_rowid()").fetchone()[0])
rng = random.Random(1)
sets = G // 2
c.executemany("INSERT INTO sets(id, kind, deal, seats, state, round, started_at, finished_at) "
              "VALUES(?, 'play', ?, '[]', 'counted', ?, ?, ?)",
              ((s, s, s * 40 // sets, now, now) for s in range(1, sets + 1)))
pairs = [(rng.choice(ids), rng.choice(ids)) for _ in range(sets + 1)]
c.executemany("INSERT INTO games(id, set_id, rotation, game_id, payload) VALUES(?,?,?,?, '{}')",
              ((g, g // 2 + 1, g % 2, "L1-s%d-r%d" % (g // 2 + 1, g % 2)) for g in range(G)))
def seats():
    for g in range(G):
        a, b = pairs[g // 2]
        t = rng.randrange(0, 150)
        yield (g, 0, a, t, 1, 1 if rng.random() < 0.01 else 0)
        yield (g, 1, b, 150 - t, 2, 0)
c.executemany("INSERT INTO game_seats(game, seat, entrant, total, place, error) "
              "VALUES(?,?,?,?,?,?)", seats())
for r in range(1, 41):
    c.execute("INSERT INTO rounds(round, at, sets, games) VALUES(?,?,?,?)", (r, now, r, r))
    ranked = sorted(ids, key=lambda e: rng.random())
    c.executemany("INSERT INTO ratings(round, entrant, rank, rank_lo, rank_hi, score, score_lo, "
                  "score_hi, elo, elo_lo, elo_hi, games, sets) VALUES(?,?,?,?,?,?,?,?,0,0,0,?,?)",
                  ((r, e, k + 1, max(1, k - 3), k + 5, 50.0 - k * 0.2, 48.0 - k * 0.2,
                    52.0 - k * 0.2, 4000, 2000) for k, e in enumerate(ranked)))
c.commit()
c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
c.close()
PY
}
t1=$(date +%s.%N)
printf 'filled: %d versions, %d games in %.1f s (%s)\n' "$V" "$G" "$(echo "$t1 - $t0" | bc)" \
    "$(du -h "$T/L/league.db" | cut -f1)"
"$B/bench/bench_lweb" "$T/L" >"$T/url" &
SRV=$!
for _ in $(seq 50); do [ -s "$T/url" ] && break; sleep 0.1; done
U=$(cat "$T/url")
get() { curl -s -o /dev/null -w '%{time_total}\n' "$U$1"; }
med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
first=$(get /)
cached=$(for _ in 1 2 3 4 5; do get /; done | med)
again=$(for _ in 1 2 3 4 5; do sleep 2.1; get /; done | med)
entrant=$(for _ in 1 2 3 4 5; do get "/entrant?name=bot042"; done | med)
printf 'leaderboard: first %.3f s, cached %.4f s, after the cache %.3f s; entrant page %.3f s\n' \
    "$first" "$cached" "$again" "$entrant"
