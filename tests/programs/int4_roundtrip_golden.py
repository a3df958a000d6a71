#!/usr/bin/env python3
"""int4_roundtrip_golden.py — inputs and numpy references for int4_roundtrip_blocks.

Writes, raw little-endian, into DIR:
  x.bin        ROWS x COLS half: normal values of standard deviation 5 (many
               beyond [-8, 7], which saturate), with exact ties (k + 0.5) in
               the first rows;
  dscale.bin   COLS half: AscendAntiQuant's scale of each column;
  doffset.bin  COLS half: AscendAntiQuant's offset of each column;
and for each rounding mode M (the RoundMode number: 0 none, 1 rint, 2 floor,
3 ceil, 4 round, 5 trunc):
  qM.bin       ROWS x COLS / 2 bytes: x rounded by the mode and clamped to
               [-8, 7], packed two a byte, element 2i in the low nibble;
  yM.bin       ROWS x COLS half: those integers as half;
  aM.bin       ROWS x COLS half: (y + doffset) rounded to half, times dscale
               rounded to half.
numpy's float16 operations compute in float32 and round once to float16, which
is the correctly rounded half result for a sum or product of two halves.

Usage: python3 int4_roundtrip_golden.py --rows R --cols C [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def rounded(x, mode):
    """x (float64, exact halves) rounded to integers by RoundMode `mode`."""
    if mode in (0, 1):
        return np.rint(x)  # ties to even
    if mode == 2:
        return np.floor(x)
    if mode == 3:
        return np.ceil(x)
    if mode == 4:
        return np.sign(x) * np.floor(np.abs(x) + 0.5)  # ties away from zero
    return np.trunc(x)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--cols", type=int, required=True)
    parser.add_argument("--seed", type=int, default=2028)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    x = rng.normal(0.0, 5.0, (args.rows, args.cols)).astype(np.float16)
    x[:4, :] = (rng.integers(-9, 9, (4, args.cols)) + 0.5).astype(np.float16)
    dscale = rng.uniform(-0.5, 0.5, args.cols).astype(np.float16)
    doffset = rng.uniform(-3, 3, args.cols).astype(np.float16)

    os.makedirs(args.out, exist_ok=True)
    for name, a in (("x", x), ("dscale", dscale), ("doffset", doffset)):
        a.tofile(os.path.join(args.out, name + ".bin"))
    for mode in range(6):
        q = np.clip(rounded(x.astype(np.float64), mode), -8, 7).astype(np.int8)
        nibbles = (q.reshape(-1) & 0xF).astype(np.uint8)
        packed = nibbles[0::2] | (nibbles[1::2] << 4)
        y = q.astype(np.float16)
        a = (y + doffset[None, :]).astype(np.float16)
        a = (a * dscale[None, :]).astype(np.float16)
        for name, arr in (("q", packed), ("y", y), ("a", a)):
            arr.tofile(os.path.join(args.out, "%s%d.bin" % (name, mode)))


if __name__ == "__main__":
    main()
