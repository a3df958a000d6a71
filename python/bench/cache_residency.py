"""cache_residency.py — how much a warm in-cache call depends on the data the
caller touched since: the engine's fused layer-norm backward at 65536 x 64
float (x, dy and dx: 48 MiB) on 2 threads, each timed sample right after an
untimed call on the same arrays (as `normgrad bench` times in-cache rows),
with no other data touched in between, or after reading TOUCH MiB of other
arrays. Medians and ranges over the rounds, one process.

Usage: build/venv/bin/python python/bench/cache_residency.py [--touch MIB] [--rounds N]
"""
import argparse
import statistics
import time

import numpy as np

import normgrad

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--touch", type=int, default=96, help="MiB of other arrays read between samples")
parser.add_argument("--rounds", type=int, default=15)
args = parser.parse_args()

rows, cols = 65536, 64
rng = np.random.default_rng(1)
x = rng.standard_normal((rows, cols), dtype=np.float32)
dy = rng.standard_normal((rows, cols), dtype=np.float32)
gamma = np.ones(cols, np.float32)
_, mean, rstd = normgrad.layer_norm_forward(x, gamma, np.zeros(cols, np.float32))
out = (np.empty_like(x), np.empty(cols, np.float32), np.empty(cols, np.float32))
other = np.ones(args.touch * 2**20 // 4, np.float32)


def timed(touch):
    if touch:
        other.sum()
    normgrad.layer_norm_backward(x, dy, gamma, mean, rstd, out=out, threads=2)
    start = time.perf_counter()
    normgrad.layer_norm_backward(x, dy, gamma, mean, rstd, out=out, threads=2)
    return (time.perf_counter() - start) * 1e3


samples = {False: [], True: []}
for _ in range(args.rounds):
    for touch in samples:
        samples[touch].append(timed(touch))
for touch, ms in samples.items():
    label = f"after reading {args.touch} MiB of other arrays" if touch else "nothing else touched"
    print(f"{label:>36}: median {statistics.median(ms):.3f} ms "
          f"(range {min(ms):.3f}-{max(ms):.3f})")
