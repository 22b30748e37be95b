"""timing_judge.py SENDER_LOG RECEIVER_LOG LEVELS - the timing channel between two colluders
(tests/hostile/collude_bot.c --role time / timerecv): how many bits per move the receiver gets
from the time between its Choice and its next Decision (the sender's turn in between).

Prints "hits K N P" (LEVELS 2: each turn decoded as a 1 when its gap is above the median;
P = 2 min(P(X >= K), P(X <= K)) for X ~ Binomial(N, 1/2), the chance of doing as well by
guessing, either way round) and "mi B"
(bits per move: the mutual information between the symbol and the gap rounded to 0.5 ms,
plug-in estimate minus its mean over 200 shufflings of the symbols, the estimate's bias on
N samples, at least 0), and
"capacity C" (LEVELS 2: 1 - H(error rate), the binary channel's bits per move)."""
import collections, math, statistics, sys

sent = {}
for line in open(sys.argv[1], errors="replace"):
    p = line.split()
    if len(p) == 3 and p[0] == "SENT":
        sent[int(p[1])] = int(p[2])
levels = int(sys.argv[3])
pairs = []
for line in open(sys.argv[2], errors="replace"):
    p = line.split()
    if len(p) == 3 and p[0] == "TGAP" and int(p[1]) in sent:
        pairs.append((sent[int(p[1])], float(p[2])))
n = len(pairs)
if levels == 2 and n:
    t = statistics.median(g for _, g in pairs)
    k = sum(int((g > t) == bool(b)) for b, g in pairs)
    # two-sided: a receiver that reads the gap the other way round (a 1 when it is below the
    # median) decodes as well
    hi = sum(math.comb(n, i) for i in range(k, n + 1)) / 2.0 ** n
    lo = sum(math.comb(n, i) for i in range(0, k + 1)) / 2.0 ** n
    sf = min(1.0, 2 * min(hi, lo))
    print("hits %d %d %.2g" % (k, n, sf))
    e = 1 - k / n
    h = 0 if e in (0, 1) else -(e * math.log2(e) + (1 - e) * math.log2(1 - e))
    print("capacity %.3f" % max(0.0, 1 - h if e < 0.5 else 0.0))
def H(counter, total):
    return -sum(c / total * math.log2(c / total) for c in counter.values() if c)
def mi_of(syms, gaps):
    ys = [round(g * 2) for g in gaps]
    return (H(collections.Counter(syms), n) + H(collections.Counter(ys), n)
            - H(collections.Counter(zip(syms, ys)), n))
if n:
    import random
    syms, gaps = [b for b, _ in pairs], [g for _, g in pairs]
    rng = random.Random(1)
    null = []
    for _ in range(200):
        s = syms[:]
        rng.shuffle(s)
        null.append(mi_of(s, gaps))
    print("mi %.3f" % max(0.0, mi_of(syms, gaps) - statistics.mean(null)))
print("turns %d" % n)
