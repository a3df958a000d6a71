#!/usr/bin/env python3
"""cube950_basic_golden.py — inputs and the numpy golden for cube950_basic.

Writes, raw little-endian, into DIR/<type> for each input type (half,
bfloat16, float, int8):
  a.bin   M × K values of the type: small integers in [-4, 4] (so that every
          product and partial sum of the float types is exact in float, and
          the int8 sums exact in int32);
  bt.bin  N × K values (B transposed, the layout of a linear layer's weight);
  c.bin   M × N float64: A · B computed by numpy in float64.
bfloat16 values are written as the top 16 bits of their float32 (exact for
small integers).

Usage: python3 cube950_basic_golden.py --m M --k K --n N [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for dim in ("m", "k", "n"):
        parser.add_argument("--" + dim, type=int, required=True)
    parser.add_argument("--seed", type=int, default=950)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    for name in ("half", "bfloat16", "float", "int8"):
        a = rng.integers(-4, 5, (args.m, args.k))
        bt = rng.integers(-4, 5, (args.n, args.k))
        if name == "half":
            raw_a, raw_bt = a.astype(np.float16), bt.astype(np.float16)
        elif name == "bfloat16":
            raw_a = (a.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
            raw_bt = (bt.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
        elif name == "float":
            raw_a, raw_bt = a.astype(np.float32), bt.astype(np.float32)
        else:
            raw_a, raw_bt = a.astype(np.int8), bt.astype(np.int8)
        out = os.path.join(args.out, name)
        os.makedirs(out, exist_ok=True)
        raw_a.tofile(os.path.join(out, "a.bin"))
        raw_bt.tofile(os.path.join(out, "bt.bin"))
        (a.astype(np.float64) @ bt.astype(np.float64).T).tofile(os.path.join(out, "c.bin"))


if __name__ == "__main__":
    main()
