#!/usr/bin/env python3
"""luck_stats.py - variance of the per-set score difference, raw and luck-adjusted.

usage: luck_stats.py OUT A B [--theta]
OUT is a tournament folder after `arena luck OUT` (luck.jsonl); A and B are entrant names.
Per duplicate set: d = mean over its rotations of (A's total - B's total), raw and adjusted
(luck_adjusted); prints both means with a 95% interval (normal, over sets), their variances
and the ratio var(adjusted) / var(raw), the same per event type (deal only, draw only), and
with --theta the least-squares scale of the luck that would minimise the variance on these
games (for calibration on games no measurement uses: never to report a measurement with).
"""
import json, sys, math

out, a, b = sys.argv[1], sys.argv[2], sys.argv[3]
games = [json.loads(l) for l in open(out + "/games.jsonl")]
luck = {g["game"]: g for g in map(json.loads, open(out + "/luck.jsonl"))}
sets = {}
for g in games:
    names = g["names"]
    if a not in names or b not in names:
        continue
    i, j = names.index(a), names.index(b)
    L = luck[g["game"]]
    raw = g["final_total"][i] - g["final_total"][j]
    adj = L["luck_adjusted"][i] - L["luck_adjusted"][j]
    deal = L["luck_deal"][i] - L["luck_deal"][j]
    draw = L["luck_draw"][i] - L["luck_draw"][j]
    sets.setdefault(g["set"], []).append((raw, adj, deal, draw))

def mean(v): return sum(v) / len(v)
def var(v):
    m = mean(v); return sum((x - m) ** 2 for x in v) / (len(v) - 1)
rows = [[mean([r[c] for r in rs]) for c in range(4)] for rs in sets.values()]
raw = [r[0] for r in rows]; adj = [r[1] for r in rows]
deal = [r[2] for r in rows]; draw = [r[3] for r in rows]
n = len(rows)
def ci(v):
    m, s = mean(v), math.sqrt(var(v) / len(v)); return f"{m:+.2f} [{m - 1.96 * s:+.2f}, {m + 1.96 * s:+.2f}]"
print(f"{out}: {n} sets, {a} - {b} per game")
print(f"  raw       {ci(raw)}  var {var(raw):.1f}")
print(f"  adjusted  {ci(adj)}  var {var(adj):.1f}  ratio {var(adj) / var(raw):.3f}")
print(f"  deal-only ratio {var([x - d for x, d in zip(raw, deal)]) / var(raw):.3f}, "
      f"draw-only ratio {var([x - d for x, d in zip(raw, draw)]) / var(raw):.3f}")
print(f"  luck terms: deal {ci(deal)}, draw {ci(draw)}")
# Where the raw variance is (issue 24's diagnosis): the per-set difference is the sum over hand
# numbers of the rotations' hand-score differences; hands both rotations played (the same deal
# under dealer=rotate) against hands only the longer game played.
hs = {}
for g in games:
    names = g["names"]
    if a in names and b in names:
        i, j = names.index(a), names.index(b)
        hs.setdefault(g["set"], []).append([h[i] - h[j] for h in g.get("hand_scores", [])])
paired, unpaired, bonus = [], [], []
for k, rs in hs.items():
    m = min(len(r) for r in rs)
    paired.append(sum(sum(r[:m]) for r in rs) / len(rs))
    unpaired.append(sum(sum(r[m:]) for r in rs) / len(rs))
    bonus.append(mean([x[0] for x in sets[k]]) - paired[-1] - unpaired[-1])
if len(paired) > 1 and var(raw) > 0:
    print(f"  share of the raw variance: hands both rotations played {var(paired) / var(raw):.2f}, "
          f"hands only one played {var(unpaired) / var(raw):.2f}, bonuses (final total minus "
          f"hands) {var(bonus) / var(raw):.2f}; the rest is their covariances")
if "--theta" in sys.argv:
    l = [x - y for x, y in zip(raw, adj)]
    ml, mr = mean(l), mean(raw)
    th = sum((x - ml) * (y - mr) for x, y in zip(l, raw)) / sum((x - ml) ** 2 for x in l)
    best = [x - th * y for x, y in zip(raw, l)]
    print(f"  theta {th:.3f}: ratio {var(best) / var(raw):.3f} (fitted on these games)")
