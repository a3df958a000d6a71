#!/usr/bin/env python3
"""cube_matmul_golden.py — inputs and the numpy golden for cube_matmul_blocks.

Writes, raw little-endian, into DIR:
  a.bin    M × K half values, b.bin  K × N half values: small integers in
           [-4, 4] (--fill exact: every product and partial sum is exact in
           float) or normal values of standard deviation 1 (--fill random);
  c.bin    M × N float64: A · B computed by numpy in float64 from the half
           values (exact for both fills' products);
  abs.bin  M × N float64: |A| · |B|, the sum of the terms' magnitudes that
           the program's error bound scales.

Usage: python3 cube_matmul_golden.py --m M --k K --n N --fill exact|random [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for dim in ("m", "k", "n"):
        parser.add_argument("--" + dim, type=int, required=True)
    parser.add_argument("--fill", choices=["exact", "random"], required=True)
    parser.add_argument("--seed", type=int, default=2032)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    if args.fill == "exact":
        a = rng.integers(-4, 5, (args.m, args.k)).astype(np.float16)
        b = rng.integers(-4, 5, (args.k, args.n)).astype(np.float16)
    else:
        a = rng.normal(0.0, 1.0, (args.m, args.k)).astype(np.float16)
        b = rng.normal(0.0, 1.0, (args.k, args.n)).astype(np.float16)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    os.makedirs(args.out, exist_ok=True)
    a.tofile(os.path.join(args.out, "a.bin"))
    b.tofile(os.path.join(args.out, "b.bin"))
    (a64 @ b64).tofile(os.path.join(args.out, "c.bin"))
    (np.abs(a64) @ np.abs(b64)).tofile(os.path.join(args.out, "abs.bin"))


if __name__ == "__main__":
    main()
