#!/usr/bin/env python3
"""dropout_select_golden.py — inputs and numpy references for dropout_select_blocks.

Writes, raw little-endian, into DIR:
  x.bin      ROWS × COLS values in the chosen dtype, normal of standard
             deviation 3;
  mask.bin   ROWS × COLS bytes: 0 (drop) for about a fifth, else 1 to 255
             (keep: any nonzero byte keeps);
  ref.bin    where the mask is nonzero, x times 1/keepProb (the reciprocal
             computed in float32 and rounded to the dtype, the product rounded
             once to the dtype, as numpy multiplies two values of the dtype);
             elsewhere the fill value, in the dtype;
  index.bin  numpy's arange of ROWS × COLS, int32.

Usage: python3 dropout_select_golden.py --rows R --cols C --dtype float|half
       [--keep-prob P] [--fill F] [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--cols", type=int, required=True)
    parser.add_argument("--dtype", choices=["float", "half"], default="float")
    parser.add_argument("--keep-prob", type=float, default=0.8)
    parser.add_argument("--fill", type=float, default=-7.5)
    parser.add_argument("--seed", type=int, default=3107)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    dtype = np.float32 if args.dtype == "float" else np.float16
    rng = np.random.default_rng(args.seed)
    x = rng.normal(0.0, 3.0, (args.rows, args.cols)).astype(dtype)
    mask = rng.integers(1, 256, (args.rows, args.cols), dtype=np.uint8)
    mask[rng.random((args.rows, args.cols)) < 0.2] = 0
    scale = dtype(np.float32(1.0) / np.float32(args.keep_prob))
    ref = np.where(mask != 0, x * scale, dtype(args.fill)).astype(dtype)
    index = np.arange(args.rows * args.cols, dtype=np.int32)
    os.makedirs(args.out, exist_ok=True)
    x.tofile(os.path.join(args.out, "x.bin"))
    mask.tofile(os.path.join(args.out, "mask.bin"))
    ref.tofile(os.path.join(args.out, "ref.bin"))
    index.tofile(os.path.join(args.out, "index.bin"))


if __name__ == "__main__":
    main()
