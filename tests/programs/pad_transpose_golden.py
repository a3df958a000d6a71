#!/usr/bin/env python3
"""pad_transpose_golden.py — inputs and numpy references for pad_transpose_blocks.

Writes, raw little-endian, into DIR:
  x.bin  MATRICES x ROWS x COLS elements in the chosen dtype, packed: normal
         values of standard deviation 3;
  y.bin  for each matrix: its rows padded on the right to W = COLS rounded up
         to whole 32-byte blocks with -3, transposed to [W, ROWS], and the last
         column dropped: MATRICES x W x (ROWS - 1) elements.

Usage: python3 pad_transpose_golden.py --matrices M --rows R --cols C --dtype float|half [--seed S] --out DIR
"""
import argparse
import os

import numpy as np

PAD_VALUE = -3
UNPAD = 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matrices", type=int, required=True)
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--cols", type=int, required=True)
    parser.add_argument("--dtype", choices=["float", "half"], default="float")
    parser.add_argument("--seed", type=int, default=3131)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    dtype = np.float32 if args.dtype == "float" else np.float16
    size = np.dtype(dtype).itemsize
    width = (args.cols * size + 31) // 32 * 32 // size
    rng = np.random.default_rng(args.seed)
    x = rng.normal(0.0, 3.0, (args.matrices, args.rows, args.cols)).astype(dtype)
    padded = np.full((args.matrices, args.rows, width), PAD_VALUE, dtype=dtype)
    padded[:, :, : args.cols] = x
    y = np.ascontiguousarray(padded.transpose(0, 2, 1)[:, :, : args.rows - UNPAD])
    os.makedirs(args.out, exist_ok=True)
    x.tofile(os.path.join(args.out, "x.bin"))
    y.tofile(os.path.join(args.out, "y.bin"))


if __name__ == "__main__":
    main()
