#!/usr/bin/env python3
"""cube950_mx_golden.py — inputs and the numpy golden for cube950_mx.

Writes, raw little-endian, into DIR:
  a.bin   M x K fp8_e4m3fn_t codes (A, row major);
  b.bin   K x N fp8_e5m2_t codes (B) in Zn fractals of 32 rows x 16 columns
          (row-major fractals, each column's 32 codes together), zero-padded;
  sa.bin  A's fp8_e8m0_t scales (one per 32 elements of a row) in the MX
          layout: fractals of 16 rows x 2 scales (32 bytes, row major), K / 64
          of them along K for each 16 rows;
  sb.bin  B's scales, the same layout with N in place of M;
  c.bin   M x N float32: (scaleA (x) A) . (scaleB (x) B), computed in float64
          from the codes decoded here by the formats' definitions.

The codes keep exponents and scales small (values 1 .. 3.75 times 2^-1 ..
2^1, signs random) so that every product and partial sum is exact in float:
the float64 golden is the float32 result bit for bit. K a multiple of 64.

Usage: python3 cube950_mx_golden.py --m M --k K --n N [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def decode(code, e_bits, m_bits, bias):
    """A sign, exponent, mantissa code (normal or subnormal) as a float."""
    sign = -1.0 if code >> (e_bits + m_bits) & 1 else 1.0
    e = code >> m_bits & ((1 << e_bits) - 1)
    m = code & ((1 << m_bits) - 1)
    if e == 0:
        return sign * m / (1 << m_bits) * 2.0 ** (1 - bias)
    return sign * (1 + m / (1 << m_bits)) * 2.0 ** (e - bias)


def codes(rng, shape, e_bits, m_bits, bias):
    """Random codes with exponents 0 or 1 (values 1 .. 4), random signs."""
    e = rng.integers(bias, bias + 2, size=shape)
    m = rng.integers(0, 1 << m_bits, size=shape)
    s = rng.integers(0, 2, size=shape)
    return (s << (e_bits + m_bits) | e << m_bits | m).astype(np.uint8)


def mx_layout(scales, rows, k):
    """rows x (k / 32) e8m0 codes into 16 x 2 fractals, row-major fractals."""
    kb1 = k // 64
    out = np.zeros((rows + 15) // 16 * kb1 * 32, dtype=np.uint8)
    for r in range(rows):
        for kb in range(k // 32):
            out[(r // 16 * kb1 + kb // 2) * 32 + r % 16 * 2 + kb % 2] = scales[r, kb]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--m", type=int, required=True)
    ap.add_argument("--k", type=int, required=True)
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--seed", type=int, default=950)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    m, k, n = args.m, args.k, args.n
    assert k % 64 == 0
    rng = np.random.default_rng(args.seed)
    a = codes(rng, (m, k), 4, 3, 7)  # fp8_e4m3fn_t
    b = codes(rng, (k, n), 5, 2, 15)  # fp8_e5m2_t
    sa = rng.integers(126, 129, size=(m, k // 32)).astype(np.uint8)  # 2^-1..2^1
    sb = rng.integers(126, 129, size=(n, k // 32)).astype(np.uint8)
    av = np.vectorize(lambda c: decode(int(c), 4, 3, 7))(a)
    bv = np.vectorize(lambda c: decode(int(c), 5, 2, 15))(b)
    sav = np.exp2(sa.astype(np.float64) - 127)  # e8m0: 2^(code - 127)
    sbv = np.exp2(sb.astype(np.float64) - 127)
    a_scaled = av * np.repeat(sav, 32, axis=1)
    b_scaled = bv * np.repeat(sbv, 32, axis=1).T
    c = a_scaled @ b_scaled
    assert np.array_equal(c, c.astype(np.float32).astype(np.float64))

    n1 = (n + 15) // 16
    bz = np.zeros(k // 32 * n1 * 512, dtype=np.uint8)
    for kk in range(k):
        for col in range(n):
            bz[(kk // 32 * n1 + col // 16) * 512 + col % 16 * 32 + kk % 32] = b[kk, col]

    os.makedirs(args.out, exist_ok=True)
    a.tofile(os.path.join(args.out, "a.bin"))
    bz.tofile(os.path.join(args.out, "b.bin"))
    mx_layout(sa, m, k).tofile(os.path.join(args.out, "sa.bin"))
    mx_layout(sb, n, k).tofile(os.path.join(args.out, "sb.bin"))
    c.astype(np.float32).tofile(os.path.join(args.out, "c.bin"))


if __name__ == "__main__":
    main()
