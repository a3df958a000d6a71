#!/usr/bin/env python3
"""softmax_flash_v3_golden.py — inputs and numpy goldens for softmax_flash_v3_blocks.

Writes, raw little-endian, into DIR:
  x.bin     ROWS × COLS halves: normal values of standard deviation 1.5 plus a
            ramp from 0 to 4 along each row, every 97th value raised by 6;
  p.bin     ROWS × COLS float64: the whole row's PASA softmax, exp(y − max) / sum,
            with y = x + (L − G)·s: the row cut into tiles of TILE columns, each
            tile into eight pieces of TILE / 8 columns, L the mean of an element's
            piece, G the row's mean, s = alpha / (1 − alpha) (alpha as a float32);
  mean.bin  ROWS float64: G;
  max.bin   ROWS float64: max y;
  sum.bin   ROWS float64: Σ exp(y − max);
all computed by numpy in float64 from the halves.

Usage: python3 softmax_flash_v3_golden.py --rows R --cols C --tile T
       --alpha A [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--cols", type=int, required=True)
    parser.add_argument("--tile", type=int, required=True)
    parser.add_argument("--alpha", type=float, required=True)
    parser.add_argument("--seed", type=int, default=3031)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    x = rng.normal(0.0, 1.5, (args.rows, args.cols))
    x += np.linspace(0.0, 4.0, args.cols)
    x.reshape(-1)[::97] += 6.0
    x = x.astype(np.float16)
    v = x.astype(np.float64)
    alpha = float(np.float32(args.alpha))
    s = alpha / (1.0 - alpha)
    pieces = v.reshape(args.rows, args.cols // (args.tile // 8), args.tile // 8)
    local = np.repeat(pieces.mean(axis=2), args.tile // 8, axis=1)
    mean = v.mean(axis=1)
    y = v + (local - mean[:, None]) * s
    row_max = y.max(axis=1)
    e = np.exp(y - row_max[:, None])
    row_sum = e.sum(axis=1)
    os.makedirs(args.out, exist_ok=True)
    x.tofile(os.path.join(args.out, "x.bin"))
    (e / row_sum[:, None]).tofile(os.path.join(args.out, "p.bin"))
    mean.tofile(os.path.join(args.out, "mean.bin"))
    row_max.tofile(os.path.join(args.out, "max.bin"))
    row_sum.tofile(os.path.join(args.out, "sum.bin"))


if __name__ == "__main__":
    main()
