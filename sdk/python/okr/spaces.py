"""okr.spaces: small descriptions of the environment's spaces, shaped like Gymnasium's
(Discrete, Box, Dict: shape, dtype, n, low/high, contains, sample) without depending on it.

A learner that uses Gymnasium converts them in one line each:
    gymnasium.spaces.Box(low=np.array(b.low), high=np.array(b.high), dtype=b.dtype)
    gymnasium.spaces.Discrete(d.n)
"""

import math
import random


class Discrete:
    """Integers start .. start + n - 1 (the fixed action space: action ids)."""

    def __init__(self, n, start=0):
        self.n, self.start = int(n), int(start)
        self.shape, self.dtype = (), "int64"

    def contains(self, x):
        try:
            i = int(x)
        except (TypeError, ValueError):
            return False
        return i == x and self.start <= i < self.start + self.n

    __contains__ = contains

    def sample(self, mask=None, rng=random):
        """A uniform id; with mask (one 0/1 per id, e.g. action_mask()), among the 1s."""
        if mask is None:
            return self.start + rng.randrange(self.n)
        ok = [i for i, m in enumerate(mask) if m]
        if not ok:
            raise ValueError("sample: the mask allows no action")
        return self.start + ok[rng.randrange(len(ok))]

    def __eq__(self, other):
        return isinstance(other, Discrete) and (self.n, self.start) == (other.n, other.start)

    def __repr__(self):
        return "Discrete(%d)" % self.n if not self.start else "Discrete(%d, start=%d)" % (
            self.n, self.start)


class Box:
    """A flat vector of `shape[0]` numbers, element i in low[i] .. high[i] (inf: unbounded)."""

    def __init__(self, low, high, shape, dtype="float32"):
        n = shape[0]
        self.shape, self.dtype = tuple(shape), dtype
        self.low = tuple(low) if hasattr(low, "__len__") else (low,) * n
        self.high = tuple(high) if hasattr(high, "__len__") else (high,) * n
        if len(self.low) != n or len(self.high) != n:
            raise ValueError("Box: low and high need %d entries" % n)

    def contains(self, x):
        try:
            return len(x) == self.shape[0] and all(
                lo <= v <= hi for lo, v, hi in zip(self.low, x, self.high))
        except TypeError:
            return False

    __contains__ = contains

    def sample(self, rng=random):
        """Uniform where bounded, else near the finite bound (or 0)."""
        out = []
        for lo, hi in zip(self.low, self.high):
            if math.isinf(lo) or math.isinf(hi):
                out.append(0.0 if math.isinf(lo) and math.isinf(hi) else
                           (lo if not math.isinf(lo) else hi))
            else:
                out.append(rng.uniform(lo, hi))
        if self.dtype.startswith(("int", "uint")):
            out = [int(round(v)) for v in out]
        return out

    def __eq__(self, other):
        return isinstance(other, Box) and (self.shape, self.dtype, self.low, self.high) == (
            other.shape, other.dtype, other.low, other.high)

    def __repr__(self):
        return "Box(%s..%s, shape=%s, dtype=%s)" % (min(self.low), max(self.high), self.shape,
                                                    self.dtype)


class Dict:
    """Named subspaces: what observe(agent) returns, {"observation": ..., "action_mask": ...}."""

    def __init__(self, spaces):
        self.spaces = dict(spaces)
        self.shape, self.dtype = None, None

    def __getitem__(self, key):
        return self.spaces[key]

    def keys(self):
        return self.spaces.keys()

    def contains(self, x):
        return isinstance(x, dict) and x.keys() == self.spaces.keys() and all(
            s.contains(x[k]) for k, s in self.spaces.items())

    __contains__ = contains

    def sample(self, rng=random):
        return {k: s.sample(rng=rng) for k, s in self.spaces.items()}

    def __eq__(self, other):
        return isinstance(other, Dict) and self.spaces == other.spaces

    def __repr__(self):
        return "Dict(%s)" % ", ".join("%s: %r" % kv for kv in self.spaces.items())
