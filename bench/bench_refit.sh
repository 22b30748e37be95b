#!/usr/bin/env bash
# bench_refit.sh [GAMES [ENTRANTS [BOOTSTRAP [random|ring]]]] - one refit of a big league: a league made by
# `arena league init` (gin, 2 seats, built-in entrants), filled by SQLite with GAMES counted
# games (default 100,000, in sets of 2) among ENTRANTS versions (default 50) whose payloads
# have the journal's shape (random totals), then `arena league run --sets <counted + 1>`:
# it loads every counted game (the start-up), plays one set and refits over all of them with
# BOOTSTRAP replicates (default 200) before it stops. Pairs: random (any two versions) or
# ring (a version and the next one: a league whose matchmaking has long played neighbours,
# a sparse graph of comparisons, on which the fit converges slowly). Prints the start-up, the refit (from the
# set's commit to the round's snapshot, both stored in league.db) and the CPU time of the run.
set -euo pipefail
cd "$(dirname "$0")/.."
G=${1:-100000} E=${2:-50} BS=${3:-200} PAIRS=${4:-random}
B=${OKR_BUILD:-build}
T=$(mktemp -d /tmp/okr-bench-refit.XXXXXX)
trap 'rm -rf "$T"' EXIT
printf '[league]\nname = refit\nrules = gin\nseats = 2\nseed = 5\nbootstrap = %d\njobs = 1\n' "$BS" > "$T/b.league"
"$B/arena/arena" league init "$T/L" "$T/b.league" > /dev/null
python3 - "$T/L/league.db" "$E" "$G" "$PAIRS" << 'PY'
import json, random, sqlite3, sys, time
db, E, G, ring = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "ring"
c = sqlite3.connect(db)
c.execute("PRAGMA synchronous=OFF")
now = time.time()
for i in range(E):
    c.execute("INSERT INTO entrants(id, name, version, command, cwd, memory_mb, startup_ms, status, "
              "added_at, changed_at) VALUES (?,?,1,?,'/tmp',0,0,'active',?,?)",
              (i + 1, "b%03d" % i, "@random" if i % 2 else "@greedy", now, now))
rng = random.Random(1)
sets, games, seats = [], [], []
for s in range(1, G // 2 + 1):
    a, b = rng.sample(range(1, E + 1), 2)
    if ring:
        b = a % E + 1
    sets.append((s, s, "[%d,%d]" % (a, b), now, now))
    for r in range(2):
        seat = [a, b] if r == 0 else [b, a]
        t = rng.randrange(0, 150)
        tot = [t, 150 - t]
        pl = [1, 2] if tot[0] > tot[1] else [2, 1]
        g, gid = s * 2 + r, "L5-s%d-r%d" % (s, r)
        p = {"game": g, "set": s, "table": 0, "deal": s, "rotation": r, "game_id": gid,
             "deal_seed": "1", "seating": seat, "names": ["b%03d" % (x - 1) for x in seat],
             "played": True, "completed": True, "final_total": tot, "placements": pl,
             "winners": [pl.index(1)], "forfeits": [], "hands": 1, "hand_scores": [tot],
             "verdicts": [], "actions": 100, "decisions": [50, 50], "substituted": [0, 0],
             "digest": "0", "record": "records/%s.jsonl" % gid,
             "luck_adjusted": [tot[0] - 1.5, tot[1] + 1.5]}
        games.append((g, s, r, gid, json.dumps(p, separators=(",", ":"))))
        seats += [(g, q, seat[q], tot[q], pl[q], 0) for q in range(2)]
c.executemany("INSERT INTO sets(id, kind, deal, seats, state, round, started_at, finished_at) "
              "VALUES (?, 'play', ?, ?, 'counted', 1, ?, ?)", sets)
c.executemany("INSERT INTO games(id, set_id, rotation, game_id, payload) VALUES (?,?,?,?,?)", games)
c.executemany("INSERT INTO game_seats(game, seat, entrant, total, place, error) "
              "VALUES (?,?,?,?,?,?)", seats)
c.commit()
PY
t0=$(date +%s.%N)
/usr/bin/time -f '%U %S' -o "$T/cpu" "$B/arena/arena" league run "$T/L" --sets $((G / 2 + 1)) 2> "$T/err"
t1=$(date +%s.%N)
python3 - "$T/L/league.db" "$t0" "$t1" "$(cat "$T/cpu")" "$G" "$E" "$BS" "$PAIRS" << 'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
t0, t1 = float(sys.argv[2]), float(sys.argv[3])
u, s = map(float, sys.argv[4].split())
G, E, BS, P = sys.argv[5:9]
start = c.execute("SELECT started_at FROM sets ORDER BY id DESC LIMIT 1").fetchone()[0]
done = c.execute("SELECT finished_at FROM sets ORDER BY id DESC LIMIT 1").fetchone()[0]
snap = c.execute("SELECT max(at) FROM rounds").fetchone()[0]
print("%s games, %s entrants (%s pairs), %s bootstrap replicates: start-up (loading the games) %.1f s, "
      "refit %.1f s; the run %.1f s wall, %.1f s CPU (user %.1f)" % (G, E, P, BS, start - t0, snap - done,
                                                                   t1 - t0, u + s, u))
PY
