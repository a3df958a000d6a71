#!/usr/bin/env python3
"""softmax_flash_golden.py — inputs and numpy goldens for softmax_flash_blocks.

Writes, raw little-endian, into DIR:
  x.bin    ROWS × COLS elements in the chosen dtype: normal values of
           standard deviation 2 plus a ramp from 0 to 6 along each row (so a
           later column tile often raises the running max), every 97th value
           raised by 12;
  y.bin    ROWS × COLS float64: each row's softmax, exp(x - max) / sum;
  max.bin  ROWS float64: each row's max;
  sum.bin  ROWS float64: each row's sum of exp(x - max);
all computed by numpy in float64 from the dtype's values.

Usage: python3 softmax_flash_golden.py --rows R --cols C --dtype float|half
       [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--cols", type=int, required=True)
    parser.add_argument("--dtype", choices=["float", "half"], default="float")
    parser.add_argument("--seed", type=int, default=3030)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    dtype = np.float32 if args.dtype == "float" else np.float16
    rng = np.random.default_rng(args.seed)
    x = rng.normal(0.0, 2.0, (args.rows, args.cols))
    x += np.linspace(0.0, 6.0, args.cols)
    x.reshape(-1)[::97] += 12.0
    x = x.astype(dtype)
    v = x.astype(np.float64)
    row_max = v.max(axis=1)
    e = np.exp(v - row_max[:, None])
    row_sum = e.sum(axis=1)
    os.makedirs(args.out, exist_ok=True)
    x.tofile(os.path.join(args.out, "x.bin"))
    (e / row_sum[:, None]).tofile(os.path.join(args.out, "y.bin"))
    row_max.tofile(os.path.join(args.out, "max.bin"))
    row_sum.tofile(os.path.join(args.out, "sum.bin"))


if __name__ == "__main__":
    main()
