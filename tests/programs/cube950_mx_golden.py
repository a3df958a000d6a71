#!/usr/bin/env python3
"""cube950_mx_golden.py — inputs and the numpy golden for cube950_mx.

Writes, raw little-endian, into DIR:
  a.bin   M x K fp8_e4m3fn_t codes (A, row major); with --fp4, fp4x2_e2m1_t
          codes two a byte (element 2i in the low nibble);
  b.bin   K x N fp8_e5m2_t codes (B; with --fp4 fp4x2_e1m2_t, two a byte) in
          Zn fractals of 32 (fp4: 64) rows x 16 columns (row-major fractals,
          each column's codes together), zero-padded;
  sa.bin  A's fp8_e8m0_t scales (one per 32 elements of a row) in the MX
          layout: fractals of 16 rows x 2 scales (32 bytes, row major), K / 64
          of them along K for each 16 rows;
  sb.bin  B's scales, the same layout with N in place of M;
  c.bin   M x N float32: (scaleA (x) A) . (scaleB (x) B), computed in float64
          from the codes decoded here by the formats' definitions.

The codes keep exponents and scales small (fp8: values 1 .. 3.75; fp4: every
code; times scales 2^-1 .. 2^1, signs random) so that every product and
partial sum is exact in float: the float64 golden is the float32 result bit
for bit. K a multiple of 64.

Usage: python3 cube950_mx_golden.py --m M --k K --n N [--fp4] [--seed S]
       --out DIR
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


def fp4_codes(rng, shape):
    """Any 4-bit code (both 4-bit formats have no special codes)."""
    return rng.integers(0, 16, size=shape).astype(np.uint8)


def pack(codes_by_element, fp4):
    """Element i of a flat code array into bytes (fp4: two a byte)."""
    if not fp4:
        return codes_by_element.astype(np.uint8)
    flat = codes_by_element.astype(np.uint8)
    return (flat[0::2] | flat[1::2] << 4).astype(np.uint8)


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
    ap.add_argument("--fp4", action="store_true")
    ap.add_argument("--seed", type=int, default=950)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    m, k, n = args.m, args.k, args.n
    assert k % 64 == 0
    rng = np.random.default_rng(args.seed)
    if args.fp4:  # fp4x2_e2m1_t (bias 1) x fp4x2_e1m2_t (bias 1)
        a, b = fp4_codes(rng, (m, k)), fp4_codes(rng, (k, n))
        a_fmt, b_fmt = (2, 1, 1), (1, 2, 1)
    else:  # fp8_e4m3fn_t x fp8_e5m2_t
        a, b = codes(rng, (m, k), 4, 3, 7), codes(rng, (k, n), 5, 2, 15)
        a_fmt, b_fmt = (4, 3, 7), (5, 2, 15)
    sa = rng.integers(126, 129, size=(m, k // 32)).astype(np.uint8)  # 2^-1..2^1
    sb = rng.integers(126, 129, size=(n, k // 32)).astype(np.uint8)
    av = np.vectorize(lambda c: decode(int(c), *a_fmt))(a)
    bv = np.vectorize(lambda c: decode(int(c), *b_fmt))(b)
    sav = np.exp2(sa.astype(np.float64) - 127)  # e8m0: 2^(code - 127)
    sbv = np.exp2(sb.astype(np.float64) - 127)
    a_scaled = av * np.repeat(sav, 32, axis=1)
    b_scaled = bv * np.repeat(sbv, 32, axis=1).T
    c = a_scaled @ b_scaled
    assert np.array_equal(c, c.astype(np.float32).astype(np.float64))

    k0 = 64 if args.fp4 else 32  # K of one 512-byte fractal
    n1 = (n + 15) // 16
    bz = np.zeros(k // k0 * n1 * 16 * k0, dtype=np.uint8)
    for kk in range(k):
        for col in range(n):
            bz[(kk // k0 * n1 + col // 16) * 16 * k0 + col % 16 * k0 + kk % k0] = b[kk, col]

    os.makedirs(args.out, exist_ok=True)
    pack(a.reshape(-1), args.fp4).tofile(os.path.join(args.out, "a.bin"))
    pack(bz, args.fp4).tofile(os.path.join(args.out, "b.bin"))
    mx_layout(sa, m, k).tofile(os.path.join(args.out, "sa.bin"))
    mx_layout(sb, n, k).tofile(os.path.join(args.out, "sb.bin"))
    c.astype(np.float32).tofile(os.path.join(args.out, "c.bin"))


if __name__ == "__main__":
    main()
