#!/usr/bin/env python3
"""welford_update_golden.py — inputs and numpy goldens for welford_update_blocks and
welford_finalize_chain.

Writes, raw little-endian, into DIR:
  x.bin             ROWS rows of N·K elements in the chosen dtype: row r holds
                    R = (N − 1)·K + TAIL standard-normal values (mean 2, std 1.5),
                    then zeros up to N·K (the padding of the last chunk);
  golden_mean.bin   ROWS × K float32: for lane j, the mean of the row's elements
                    j, K + j, 2K + j, … (N of them for j < TAIL, N − 1 beyond),
                    computed by numpy in float64;
  golden_m2.bin     ROWS × K float32: the sum of squared deviations from that
                    mean over the same elements (numpy var · count, float64).

Usage: python3 welford_update_golden.py --rows ROWS --k K --n N --tail TAIL
                                        --dtype float|half [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--k", type=int, required=True)
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--tail", type=int, required=True)
    parser.add_argument("--dtype", choices=["float", "half"], default="float")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    dtype = np.float32 if args.dtype == "float" else np.float16
    rng = np.random.default_rng(args.seed)
    k, n, tail = args.k, args.n, args.tail
    x = np.zeros((args.rows, n * k), dtype=dtype)
    length = (n - 1) * k + tail
    x[:, :length] = rng.normal(2.0, 1.5, (args.rows, length)).astype(dtype)
    chunks = x.astype(np.float64).reshape(args.rows, n, k)
    mean = np.empty((args.rows, k))
    m2 = np.empty((args.rows, k))
    for j in range(k):
        lane = chunks[:, :n if j < tail else n - 1, j]
        mean[:, j] = lane.mean(axis=1)
        m2[:, j] = lane.var(axis=1) * lane.shape[1]
    os.makedirs(args.out, exist_ok=True)
    x.tofile(os.path.join(args.out, "x.bin"))
    mean.astype(np.float32).tofile(os.path.join(args.out, "golden_mean.bin"))
    m2.astype(np.float32).tofile(os.path.join(args.out, "golden_m2.bin"))
    row = x[:, :length].astype(np.float64)
    row.mean(axis=1).astype(np.float32).tofile(os.path.join(args.out, "golden_row_mean.bin"))
    row.var(axis=1).astype(np.float32).tofile(os.path.join(args.out, "golden_row_var.bin"))


if __name__ == "__main__":
    main()
