#!/usr/bin/env python3
"""math_rounding_golden.py — inputs and numpy goldens for math_rounding_blocks.

Writes, raw little-endian, into DIR:
  x.bin       N elements in the chosen dtype: normal values of standard
              deviation 300, every eighth one an exact half-integer (a tie),
              every 32nd one an integer, plus ±0 at the start;
  golden.bin  6 × N elements in the same dtype, computed by numpy in float64
              and rounded to the dtype (exact: each result is a value of it):
              ceil, floor, round half to even (np.rint), trunc,
              x − trunc(x), and the sign (+0 for ±0).

Usage: python3 math_rounding_golden.py --n N --dtype float|half [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--dtype", choices=["float", "half"], default="float")
    parser.add_argument("--seed", type=int, default=2030)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    dtype = np.float32 if args.dtype == "float" else np.float16
    rng = np.random.default_rng(args.seed)
    x = rng.normal(0.0, 300.0, args.n)
    x[::8] = np.floor(x[::8]) + 0.5
    x[::32] = np.floor(x[::32])
    x[0], x[1] = 0.0, -0.0
    x = x.astype(dtype)
    v = x.astype(np.float64)
    trunc = np.trunc(v)
    sign = np.where(v > 0, 1.0, np.where(v < 0, -1.0, 0.0))
    golden = np.stack([np.ceil(v), np.floor(v), np.rint(v), trunc, v - trunc, sign])
    os.makedirs(args.out, exist_ok=True)
    x.tofile(os.path.join(args.out, "x.bin"))
    golden.astype(dtype).tofile(os.path.join(args.out, "golden.bin"))


if __name__ == "__main__":
    main()
