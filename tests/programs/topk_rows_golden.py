#!/usr/bin/env python3
"""topk_rows_golden.py — inputs and numpy references for topk_rows_blocks.

Writes, raw little-endian, into DIR:
  x.bin    ROWS × VOCAB float32 logits, normal of standard deviation 4; in
           every row the value 30 at positions 7, VOCAB/2 and VOCAB-1 (a tie
           above everything else, across chunks) and 25.5 at 3 other places;
  ref.bin  ROWS × K int32: the positions of each row's K largest, by numpy's
           stable argsort of the negated row (equal values in position order).

Usage: python3 topk_rows_golden.py --rows R --vocab V --k K [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--vocab", type=int, required=True)
    parser.add_argument("--k", type=int, required=True)
    parser.add_argument("--seed", type=int, default=3107)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    x = rng.normal(0.0, 4.0, (args.rows, args.vocab)).astype(np.float32)
    x[:, [7, args.vocab // 2, args.vocab - 1]] = 30.0
    x[:, [11, 4001, 20001]] = 25.5
    ref = np.argsort(-x, axis=1, kind="stable")[:, : args.k].astype(np.int32)
    os.makedirs(args.out, exist_ok=True)
    x.tofile(os.path.join(args.out, "x.bin"))
    ref.tofile(os.path.join(args.out, "ref.bin"))


if __name__ == "__main__":
    main()
