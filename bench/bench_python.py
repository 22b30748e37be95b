#!/usr/bin/env python3
"""bench_python.py - speed of the engine from Python (`import okr`), next to the C engine.

    PYTHONPATH=build/python python3 bench/bench_python.py [--seconds S] [--build DIR]

Three figures, in one run, on one core:
  1. uniform-random whole gin games through the module, the loop a learner writes:
       acts = g.legal(); g.apply(acts[rng.randrange(len(acts))])
     (and the leaner loop g.apply_legal(rng.randrange(g.legal_count())), no Action objects);
  2. g.copy() of a mid-hand gin game, in microseconds; observe() and action_mask() into
     preallocated buffers; okr.env("gin") stepped by a random agent (the AEC loop);
  3. build/bench/bench_engine --only gin, the C engine on the same games.
Rates are per wall-clock second and per CPU-second of this process (the machine may be
shared). Targets (issue 16): 250,000 actions/s from Python, copy() under 2 us. Anchor:
RLCard's pure-Python gin rummy, 26,600 actions/s (env step loop), 69,500 (raw game object),
a state deepcopy 1.1 ms, on this kind of machine with Debian's Python 3.11."""

import argparse
import os
import random
import re
import subprocess
import sys
import time

import okr

TARGET_ACTIONS = 250_000
TARGET_COPY_US = 2.0


def loop(seconds, objects, seed=1000000):
    """Whole games back to back for `seconds`; `objects`: pick among g.legal()'s Action objects,
    else an index below g.legal_count()."""
    rng = random.Random(1)
    actions = hands = games = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        g = okr.Game("gin", players=2, seed=seed)
        seed += 1
        while not g.over():
            if g.hand_over():
                hands += 1
                g.next_hand()
                continue
            if objects:
                acts = g.legal()
                g.apply(acts[rng.randrange(len(acts))])
            else:
                g.apply_legal(rng.randrange(g.legal_count()))
            actions += 1
        hands += 1
        games += 1
    return actions, hands, games, time.perf_counter() - t0, time.process_time() - c0


def bench_copy(n=200_000):
    g = okr.Game("gin", players=2, seed=7)
    for i in range(12):
        g.apply_legal(i % g.legal_count())
    copy = g.copy
    best = None
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            copy()
        dt = (time.perf_counter() - t0) / n * 1e6
        best = dt if best is None else min(best, dt)
    return best


def bench_encode(seconds):
    """observe() into a preallocated buffer and action_mask() into another, on a mid-hand gin
    game: calls per second (the cost a learner pays per step on top of stepping)."""
    g = okr.Game("gin", players=2, seed=7)
    for i in range(12):
        g.apply_legal(i % g.legal_count())
    obs = bytearray(4 * g.observation_size)
    mask = bytearray(g.action_space)
    out = {}
    for name, call in (("observe(seat, out=buf)", lambda: g.observe(0, out=obs)),
                       ("action_mask(out=buf)", lambda: g.action_mask(out=mask))):
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds / 2:
            for _ in range(1000):
                call()
            n += 1000
        out[name] = n / (time.perf_counter() - t0)
    return out


def env_loop(seconds):
    """okr.env("gin") with a uniform-random agent, the AEC loop as the docs write it (numpy's
    flatnonzero picks among legal indices when numpy is there): env steps per second."""
    try:
        import numpy as np
    except ImportError:
        np = None
    rng = random.Random(3)
    env = okr.env("gin")
    steps = episodes = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        env.reset(seed=episodes)
        episodes += 1
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            m = obs["action_mask"]
            legal = np.flatnonzero(m) if np is not None else [i for i, x in enumerate(m) if x]
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps, episodes, time.perf_counter() - t0, time.process_time() - c0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--build", default=os.environ.get("OKR_BUILD_DIR", "build"))
    a = ap.parse_args()

    print(f"okr bench_python: uniform-random whole gin games, one core, {a.seconds:.1f} s per "
          f"loop, Python {sys.version.split()[0]}")
    print(f"{'loop':<28} {'games':>6} {'hands':>7} {'actions':>9} {'actions/s':>10} "
          f"{'actions/cpu-s':>13} {'hands/s':>8} {'cpu%':>5}")
    rows = {}
    for name, objects in (("legal()+apply(action)", True), ("apply(index)", False)):
        acts, hands, games, el, cpu = loop(a.seconds, objects)
        rows[name] = (acts / el, acts / cpu if cpu else 0)
        print(f"{name:<28} {games:>6} {hands:>7} {acts:>9} {acts / el:>10.0f} "
              f"{acts / cpu:>13.0f} {hands / el:>8.0f} {100 * cpu / el:>5.0f}")
    cp = bench_copy()
    print(f"copy(): {cp:.3f} us (best of 5 x 200,000)")
    for name, rate in bench_encode(a.seconds).items():
        print(f"{name}: {rate:,.0f} calls/s ({1e6 / rate:.2f} us)")
    steps, eps, el, cpu = env_loop(a.seconds)
    print(f"okr.env('gin') random-agent AEC loop: {steps / el:,.0f} steps/s "
          f"({steps / cpu if cpu else 0:,.0f} per cpu-s), {eps / el:,.0f} hands/s "
          f"(RLCard's env: 26,600 steps/s, 223 hands/s)")

    c = os.path.join(a.build, "bench", "bench_engine")
    c_rate = None
    if os.access(c, os.X_OK):
        out = subprocess.run([c, "--seconds", str(a.seconds), "--only", "gin"], check=True,
                             capture_output=True, text=True).stdout
        m = re.search(r"^gin\s+2\s+\d+\s+\d+\s+\d+\s+(\d+)\s.*\s(\d+)\s*$", out, re.M)
        if m:
            c_rate = (int(m.group(1)), int(m.group(2)))
            print(f"{'C bench_engine (gin)':<28} {'':>6} {'':>7} {'':>9} {c_rate[0]:>10} "
                  f"{c_rate[1]:>13}")
    else:
        print(f"(no {c}: build the project to compare with the C engine)")

    py = rows["legal()+apply(action)"]
    print(f"\ntargets: Python actions/s >= {TARGET_ACTIONS}: {py[0]:.0f} "
          f"({'met' if py[0] >= TARGET_ACTIONS else 'MISSED'}), per cpu-s {py[1]:.0f} "
          f"({'met' if py[1] >= TARGET_ACTIONS else 'MISSED'}); copy() < {TARGET_COPY_US} us: "
          f"{cp:.3f} ({'met' if cp < TARGET_COPY_US else 'MISSED'})")
    print("anchor (RLCard gin rummy, pure Python, quoted by issue 16): env step 26,600 "
          "actions/s, raw game 69,500 actions/s, deepcopy 1.1 ms")
    if c_rate:
        print(f"Python/C: {py[1] / c_rate[1]:.3f} of the C engine's actions per cpu-s")


if __name__ == "__main__":
    main()
