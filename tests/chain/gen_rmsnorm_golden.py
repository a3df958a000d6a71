#!/usr/bin/env python3
"""gen_rmsnorm_golden.py — inputs and the float64 golden for rmsnorm_blocks.

Writes, raw little-endian, into DIR:
  input_x.bin (ROWS x H) in the chosen dtype, standard normal in the first
    ORIGINAL_H columns and zero in the padding columns after them;
  input_gamma.bin (H), uniform in [0.5, 1.5);
  golden_y.bin (ROWS x H, float32): y = x / sqrt(sum(x^2) / ORIGINAL_H + eps)
    * gamma per row, computed in float64 from those inputs (eps = 1e-5 as a
    value of the dtype, as the program passes it) and rounded once to
    float32, so that a half output is compared before any second rounding.

Usage: python3 gen_rmsnorm_golden.py --rows R --h H --original-h HO
                                     --dtype float|half [--seed N] --out DIR
"""
import argparse
import os

import numpy as np


def rms_norm_float64(x, gamma, original_h, eps):
    """RMS norm over the last axis with the mean over original_h columns."""
    mean_square = (x * x).sum(axis=1) / original_h
    return x / np.sqrt(mean_square + eps)[:, None] * gamma


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--h", type=int, required=True)
    parser.add_argument("--original-h", type=int, required=True)
    parser.add_argument("--dtype", choices=["float", "half"], default="float")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    dtype = np.float32 if args.dtype == "float" else np.float16
    rng = np.random.default_rng(args.seed)
    x = np.zeros((args.rows, args.h), dtype=dtype)
    x[:, :args.original_h] = rng.standard_normal((args.rows, args.original_h)).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, args.h).astype(dtype)
    eps = float(dtype(1e-5))
    y = rms_norm_float64(x.astype(np.float64), gamma.astype(np.float64), args.original_h, eps)
    os.makedirs(args.out, exist_ok=True)
    x.tofile(os.path.join(args.out, "input_x.bin"))
    gamma.tofile(os.path.join(args.out, "input_gamma.bin"))
    y.astype(np.float32).tofile(os.path.join(args.out, "golden_y.bin"))


if __name__ == "__main__":
    main()
