#!/usr/bin/env python3
"""matmul_golden.py — inputs and the numpy goldens for the Matmul programs
(matmul_cube.asc, matmul_mix_epilogue.asc).

Writes, raw little-endian, into DIR:
  a.bin    M × K of A's type, at.bin its transpose (K × M);
  b.bin    K × N of B's type, bt.bin its transpose (N × K);
  bias.bin N values of the bias type (float, or int32 for int8 inputs);
  res.bin  M × N float: a residual for the vector epilogue;
  c.bin    M × N float64: A · B + bias, in float64 from the stored values;
  abs.bin  M × N float64: |bias| + |A| · |B|, what the error bound scales;
  epi.bin  M × N float64: max(float32(c) + residual, 0), the epilogue's
           result (exact for the small-integer fill).
Fills: exact — small integers (every product and partial sum is exact in
float and int32); random — normal values of standard deviation 1 (half or
float inputs).

Usage: python3 matmul_golden.py --type half|bfloat16|float|int8 --m M --k K --n N
       --fill exact|random [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def to_bfloat16_bits(x):
    """float32 values (exact in bfloat16) as bfloat16 bits."""
    return (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--type", choices=["half", "bfloat16", "float", "int8"], required=True)
    for dim in ("m", "k", "n"):
        parser.add_argument("--" + dim, type=int, required=True)
    parser.add_argument("--fill", choices=["exact", "random"], required=True)
    parser.add_argument("--seed", type=int, default=2032)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    m, k, n = args.m, args.k, args.n
    if args.fill == "exact":
        a = rng.integers(-4, 5, (m, k)).astype(np.float64)
        b = rng.integers(-4, 5, (k, n)).astype(np.float64)
        bias = rng.integers(-8, 9, n).astype(np.float64)
        res = rng.integers(-64, 65, (m, n)).astype(np.float64)
    else:
        if args.type not in ("half", "float"):
            parser.error("the random fill is for half or float inputs")
        kept = np.float16 if args.type == "half" else np.float32
        a = rng.normal(0.0, 1.0, (m, k)).astype(kept).astype(np.float64)
        b = rng.normal(0.0, 1.0, (k, n)).astype(kept).astype(np.float64)
        bias = rng.normal(0.0, 1.0, n).astype(np.float32).astype(np.float64)
        res = rng.normal(0.0, 1.0, (m, n)).astype(np.float32).astype(np.float64)
    if args.type == "half":
        store = lambda x: x.astype(np.float16)
    elif args.type == "bfloat16":
        store = to_bfloat16_bits
    elif args.type == "float":
        store = lambda x: x.astype(np.float32)
    else:
        store = lambda x: x.astype(np.int8)
    os.makedirs(args.out, exist_ok=True)
    out = lambda name: os.path.join(args.out, name)
    store(a).tofile(out("a.bin"))
    store(np.ascontiguousarray(a.T)).tofile(out("at.bin"))
    store(b).tofile(out("b.bin"))
    store(np.ascontiguousarray(b.T)).tofile(out("bt.bin"))
    (bias.astype(np.int32) if args.type == "int8" else bias.astype(np.float32)).tofile(out("bias.bin"))
    res.astype(np.float32).tofile(out("res.bin"))
    c = a @ b + bias
    c.tofile(out("c.bin"))
    (np.abs(bias) + np.abs(a) @ np.abs(b)).tofile(out("abs.bin"))
    epi = np.maximum(c.astype(np.float32).astype(np.float64) + res, 0.0)
    epi.tofile(out("epi.bin"))


if __name__ == "__main__":
    main()
