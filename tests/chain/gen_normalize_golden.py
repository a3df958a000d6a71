#!/usr/bin/env python3
"""gen_normalize_golden.py — inputs and float64 goldens for normalize_blocks.

Writes, raw little-endian, into DIR (layout: normalize_blocks.asc):
  input_x.bin (PADDED_ROWS x RP, the dtype): standard normal in the first ROWS
    rows and R columns, zero elsewhere; RP = R rounded up to 32 bytes,
    PADDED_ROWS = BLOCKS * rowsPerBlock with rowsPerBlock = ceil(ROWS / BLOCKS)
    rounded up to 16;
  input_mean.bin, input_variance.bin (PADDED_ROWS, float32): each row's mean
    and population variance (zero past ROWS), computed with numpy and rounded
    to float32, as a program would pass them;
  input_gamma.bin (R, uniform in [0.5, 1.5)), input_beta.bin (R, uniform in
    [-0.5, 0.5)), the dtype;
  golden_y.bin (ROWS x R) and golden_rstd.bin (ROWS), float32: rstd =
    1 / sqrt(variance + eps) and y = (x - mean) * rstd * gamma + beta (gamma
    and beta left out as --config says) in float64 from those very inputs, eps
    = 1e-5, rounded once to float32.

Usage: python3 gen_normalize_golden.py --rows N --r R --blocks B
         --dtype float|half --config norm|nogamma|nobeta|noopt [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--r", type=int, required=True)
    parser.add_argument("--blocks", type=int, required=True)
    parser.add_argument("--dtype", choices=["float", "half"], default="float")
    parser.add_argument("--config", choices=["norm", "nogamma", "nobeta", "noopt"],
                        default="norm")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    dtype = np.float32 if args.dtype == "float" else np.float16
    align = 32 // np.dtype(dtype).itemsize
    rp = (args.r + align - 1) // align * align
    per_block = -(-args.rows // args.blocks)
    padded = args.blocks * (-(-per_block // 16) * 16)
    rng = np.random.default_rng(args.seed)
    x = np.zeros((padded, rp), dtype=dtype)
    x[:args.rows, :args.r] = rng.standard_normal((args.rows, args.r)).astype(dtype)
    wide = x[:args.rows, :args.r].astype(np.float64)
    mean = np.zeros(padded, dtype=np.float32)
    variance = np.zeros(padded, dtype=np.float32)
    mean[:args.rows] = wide.mean(axis=1)
    variance[:args.rows] = wide.var(axis=1)
    gamma = rng.uniform(0.5, 1.5, args.r).astype(dtype)
    beta = rng.uniform(-0.5, 0.5, args.r).astype(dtype)
    eps = float(np.float32(1e-5))
    rstd = 1.0 / np.sqrt(variance[:args.rows].astype(np.float64) + eps)
    y = (wide - mean[:args.rows, None].astype(np.float64)) * rstd[:, None]
    if args.config in ("norm", "nobeta"):
        y = y * gamma.astype(np.float64)
    if args.config in ("norm", "nogamma"):
        y = y + beta.astype(np.float64)
    os.makedirs(args.out, exist_ok=True)
    x.tofile(os.path.join(args.out, "input_x.bin"))
    mean.tofile(os.path.join(args.out, "input_mean.bin"))
    variance.tofile(os.path.join(args.out, "input_variance.bin"))
    gamma.tofile(os.path.join(args.out, "input_gamma.bin"))
    beta.tofile(os.path.join(args.out, "input_beta.bin"))
    y.astype(np.float32).tofile(os.path.join(args.out, "golden_y.bin"))
    rstd.astype(np.float32).tofile(os.path.join(args.out, "golden_rstd.bin"))


if __name__ == "__main__":
    main()
