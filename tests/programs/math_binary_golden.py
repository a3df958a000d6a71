#!/usr/bin/env python3
"""math_binary_golden.py — inputs and numpy goldens for math_binary_blocks.

Writes, raw little-endian, into DIR:
  x.bin       N float32: normal values of standard deviation 2, with ±0,
              ±inf and NaN among the first;
  y.bin       N float32 exponents, uniform in [-3, 3], every fourth an
              integer;
  c.bin       N bytes, 0 or 1 (Where's condition);
  golden.bin  4 × N float32: x clamped to [-1.5, 2] (NaN kept), where(c, x,
              y), Power's slot (unused: see power.bin), and the running sums
              of each row of 64 in float32 (numpy's cumsum adds in order);
  power.bin   N float64: |x| ** y, for the program's ulp check.

Usage: python3 math_binary_golden.py --n N [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--seed", type=int, default=2031)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    x = rng.normal(0.0, 2.0, args.n).astype(np.float32)
    x[:5] = [0.0, -0.0, np.inf, -np.inf, np.nan]
    y = rng.uniform(-3.0, 3.0, args.n).astype(np.float32)
    y[::4] = np.round(y[::4])
    c = (rng.random(args.n) < 0.5).astype(np.uint8)
    clamp = np.where(np.isnan(x), x, np.minimum(np.maximum(x, np.float32(-1.5)), np.float32(2.0)))
    where = np.where(c != 0, x, y)
    with np.errstate(all="ignore"):
        power = np.power(np.abs(x).astype(np.float64), y.astype(np.float64))
    rows = x.reshape(-1, 64)
    cumsum = np.cumsum(rows, axis=1, dtype=np.float32).reshape(-1)
    golden = np.stack([clamp, where, np.zeros_like(x), cumsum]).astype(np.float32)
    os.makedirs(args.out, exist_ok=True)
    x.tofile(os.path.join(args.out, "x.bin"))
    y.tofile(os.path.join(args.out, "y.bin"))
    c.tofile(os.path.join(args.out, "c.bin"))
    golden.tofile(os.path.join(args.out, "golden.bin"))
    power.tofile(os.path.join(args.out, "power.bin"))


if __name__ == "__main__":
    main()
