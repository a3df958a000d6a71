#!/usr/bin/env python3
"""cube_mix_epilogue_golden.py — inputs and the numpy golden for cube_mix_epilogue.

Writes, raw little-endian, into DIR:
  a.bin     M × K half values and b.bin K × N half values, small integers in
            [-4, 4]; bias.bin N float values, small integers in [-40, 40]
            (every product, sum and the bias are exact in float);
  out.bin   M × N float32: max(A · B + bias, 0), computed by numpy in float64
            from those values and converted (exactly) to float.

Usage: python3 cube_mix_epilogue_golden.py --m M --k K --n N [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for dim in ("m", "k", "n"):
        parser.add_argument("--" + dim, type=int, required=True)
    parser.add_argument("--seed", type=int, default=3212)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    a = rng.integers(-4, 5, (args.m, args.k)).astype(np.float16)
    b = rng.integers(-4, 5, (args.k, args.n)).astype(np.float16)
    bias = rng.integers(-40, 41, args.n).astype(np.float32)
    product = a.astype(np.float64) @ b.astype(np.float64)
    out = np.maximum(product + bias.astype(np.float64), 0.0).astype(np.float32)
    os.makedirs(args.out, exist_ok=True)
    a.tofile(os.path.join(args.out, "a.bin"))
    b.tofile(os.path.join(args.out, "b.bin"))
    bias.tofile(os.path.join(args.out, "bias.bin"))
    out.tofile(os.path.join(args.out, "out.bin"))


if __name__ == "__main__":
    main()
