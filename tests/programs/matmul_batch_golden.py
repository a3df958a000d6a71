#!/usr/bin/env python3
"""matmul_batch_golden.py — inputs and the numpy golden for matmul_batch.asc.

The batches are (b, h, g) over B batches, H heads and G groups; batch
(b, h, g) computes C = A · B + bias with A M × K, B K × N, bias N values.
Writes, raw little-endian, into DIR, each tensor in the layout --layout
names (normal: A [B·H·G, M, K], B [B·H·G, K, N], C [B·H·G, M, N]; bsngd:
A [B, M, H, G, K], B [B, K, H, G, N], the layouts' S rows of D elements, C
[B, H, G, M, N] (BNGS1S2); sbngd: A [M, B, H, G, K], B [K, B, H, G, N], C
[M, B, H, G, N]):
  a.bin    A, half: small integers in [-4, 4] (--fill exact: every product
           and partial sum is exact in float) or normal values of standard
           deviation 1 (--fill random);
  b.bin    B, half, filled alike;
  bias.bin [B·H·G, N] float;
  c.bin    C in float64: A · B + bias from the stored values;
  abs.bin  |bias| + |A| · |B| in float64, what the error bound scales (in
           C's layout).

Usage: python3 matmul_batch_golden.py --layout normal|bsngd|sbngd --batch B --heads H
       --groups G --m M --k K --n N --fill exact|random [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", choices=["normal", "bsngd", "sbngd"], required=True)
    for dim in ("batch", "heads", "groups", "m", "k", "n"):
        parser.add_argument("--" + dim, type=int, required=True)
    parser.add_argument("--fill", choices=["exact", "random"], required=True)
    parser.add_argument("--seed", type=int, default=2032)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    lead = (args.batch, args.heads, args.groups)
    shapes = {"a": lead + (args.m, args.k), "b": lead + (args.k, args.n)}
    if args.fill == "exact":
        a = rng.integers(-4, 5, shapes["a"]).astype(np.float16)
        b = rng.integers(-4, 5, shapes["b"]).astype(np.float16)
        bias = rng.integers(-8, 9, lead + (args.n,)).astype(np.float32)
    else:
        a = rng.normal(0.0, 1.0, shapes["a"]).astype(np.float16)
        b = rng.normal(0.0, 1.0, shapes["b"]).astype(np.float16)
        bias = rng.normal(0.0, 1.0, lead + (args.n,)).astype(np.float32)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    bias64 = bias.astype(np.float64)[..., np.newaxis, :]
    c = a64 @ b64 + bias64
    magnitude = np.abs(a64) @ np.abs(b64) + np.abs(bias64)
    if args.layout == "bsngd":
        # [B, H, G, S, D] -> [B, S, H, G, D]
        a = np.ascontiguousarray(a.transpose(0, 3, 1, 2, 4))
        b = np.ascontiguousarray(b.transpose(0, 3, 1, 2, 4))
    elif args.layout == "sbngd":
        # [B, H, G, S, D] -> [S, B, H, G, D], C too
        a, b, c, magnitude = (np.ascontiguousarray(x.transpose(3, 0, 1, 2, 4))
                              for x in (a, b, c, magnitude))
    os.makedirs(args.out, exist_ok=True)
    a.tofile(os.path.join(args.out, "a.bin"))
    b.tofile(os.path.join(args.out, "b.bin"))
    bias.tofile(os.path.join(args.out, "bias.bin"))
    c.tofile(os.path.join(args.out, "c.bin"))
    magnitude.tofile(os.path.join(args.out, "abs.bin"))


if __name__ == "__main__":
    main()
