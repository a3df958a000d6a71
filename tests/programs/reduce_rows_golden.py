#!/usr/bin/env python3
"""reduce_rows_golden.py — inputs and numpy references for reduce_rows_blocks.

Writes, raw little-endian, into DIR:
  x.bin    ROWS × INNER elements in the chosen dtype: normal values of
           standard deviation 3, each row of COLS values padded with zeros to
           INNER = COLS rounded up to whole 32-byte blocks (as the Reduce
           pages ask), every 16th row starting with 200 (its maximum);
  ref.bin  4 × ROWS float64 values computed by numpy in float64 from the
           rounded inputs: the row sums, the row means, the row maxima and the
           row sums of |x| (for the error bounds of docs/numerics.md).

Usage: python3 reduce_rows_golden.py --rows R --cols C --dtype float|half [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--cols", type=int, required=True)
    parser.add_argument("--dtype", choices=["float", "half"], default="float")
    parser.add_argument("--seed", type=int, default=2031)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    dtype = np.float32 if args.dtype == "float" else np.float16
    size = np.dtype(dtype).itemsize
    inner = (args.cols * size + 31) // 32 * 32 // size
    rng = np.random.default_rng(args.seed)
    x = rng.normal(0.0, 3.0, (args.rows, args.cols))
    x[::16, 0] = 200.0
    x = x.astype(dtype)
    padded = np.zeros((args.rows, inner), dtype=dtype)
    padded[:, : args.cols] = x
    v = x.astype(np.float64)
    ref = np.stack([v.sum(axis=1), v.mean(axis=1), v.max(axis=1), np.abs(v).sum(axis=1)])
    os.makedirs(args.out, exist_ok=True)
    padded.tofile(os.path.join(args.out, "x.bin"))
    ref.astype(np.float64).tofile(os.path.join(args.out, "ref.bin"))


if __name__ == "__main__":
    main()
