#!/usr/bin/env python3
"""cube_sparse_golden.py — inputs and the numpy golden for cube_sparse_mmad.

Writes, raw little-endian, into DIR:
  a.bin    M × K int8 values (A, row major, the full range);
  bd.bin   the densified B as the sparse pages store it in GM: a K × N int8
           B with at most two nonzeros in each group of four along K keeps
           two values a group (the index page's generation table), and the
           (K / 2) × N result is cut into Zn fractals of 32 rows × 16
           columns (row-major fractals, each column's 32 values together),
           zero-padded to whole fractals;
  idx.bin  its 2-bit indices, the same Zn order, four a byte (the first in
           the low bits): 128 bytes a fractal;
  c.bin    M × N int32: A · B (the original B) in int64 by numpy, exact.

Usage: python3 cube_sparse_golden.py --m M --k K --n N [--seed S] --out DIR
(K a multiple of 4)
"""
import argparse
import os

import numpy as np

# The index page's table: nonzero pattern (bit i: value i of the group) ->
# the two indices and which values of the group the dense pair holds
# (None: a zero).
DENSIFY = {
    0b1100: (2, 2, 2, 3), 0b1010: (1, 2, 1, 3), 0b1001: (0, 2, 0, 3),
    0b0110: (1, 1, 1, 2), 0b0101: (0, 1, 0, 2), 0b0011: (0, 0, 0, 1),
    0b1000: (0, 2, None, 3), 0b0100: (2, 0, 2, None), 0b0010: (1, 0, 1, None),
    0b0001: (0, 0, 0, None), 0b0000: (0, 0, None, None),
}


def sparse_b(rng, k, n):
    b = np.zeros((k, n), dtype=np.int8)
    for g in range(k // 4):
        for col in range(n):
            count = rng.integers(0, 3)
            places = rng.choice(4, size=count, replace=False)
            for p in places:
                v = int(rng.integers(-128, 128))
                b[4 * g + p, col] = v if v != 0 else 1
    return b


def densify(b):
    k, n = b.shape
    values = np.zeros((k // 2, n), dtype=np.int8)
    indices = np.zeros((k // 2, n), dtype=np.uint8)
    for g in range(k // 4):
        for col in range(n):
            group = b[4 * g:4 * g + 4, col]
            pattern = sum(1 << i for i in range(4) if group[i] != 0)
            i0, i1, v0, v1 = DENSIFY[pattern]
            values[2 * g, col] = 0 if v0 is None else group[v0]
            values[2 * g + 1, col] = 0 if v1 is None else group[v1]
            indices[2 * g, col], indices[2 * g + 1, col] = i0, i1
    return values, indices


def zn(matrix):
    """(rows, N) -> Zn fractals of 32 x 16, zero-padded, as a flat array."""
    rows, n = matrix.shape
    r1, n1 = -(-rows // 32), -(-n // 16)
    padded = np.zeros((r1 * 32, n1 * 16), dtype=matrix.dtype)
    padded[:rows, :n] = matrix
    # (R1, 32, N1, 16) -> (R1, N1, 16, 32): fractal (r1, n1), column, row.
    return padded.reshape(r1, 32, n1, 16).transpose(0, 2, 3, 1).reshape(-1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for dim in ("m", "k", "n"):
        parser.add_argument("--" + dim, type=int, required=True)
    parser.add_argument("--seed", type=int, default=3232)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.k % 4 != 0:
        parser.error("--k must be a multiple of 4")
    rng = np.random.default_rng(args.seed)
    a = rng.integers(-128, 128, (args.m, args.k)).astype(np.int8)
    b = sparse_b(rng, args.k, args.n)
    values, indices = densify(b)
    flat = zn(indices)
    packed = (flat[0::4] | flat[1::4] << 2 | flat[2::4] << 4 | flat[3::4] << 6)
    c = a.astype(np.int64) @ b.astype(np.int64)
    os.makedirs(args.out, exist_ok=True)
    a.tofile(os.path.join(args.out, "a.bin"))
    zn(values).tofile(os.path.join(args.out, "bd.bin"))
    packed.astype(np.uint8).tofile(os.path.join(args.out, "idx.bin"))
    c.astype(np.int32).tofile(os.path.join(args.out, "c.bin"))


if __name__ == "__main__":
    main()
