#!/usr/bin/env python3
"""cube_conv_golden.py — inputs and the numpy golden for cube_conv_img2col.

A 2-D convolution of one C-channel H × W feature map (C a multiple of 16)
with COUT filters of KH × KW, stride 1, zero padding PAD on every side.
Writes, raw little-endian, into DIR:
  x.bin    the feature map, half, as C1HWC0 (C / 16, H, W, 16);
  w.bin    the filters, half, as the K × COUT matrix whose row
           ((c1 · KH + ky) · KW + kx) · 16 + c0 holds filter co's tap
           (ky, kx) of channel c1 · 16 + c0 (the img2col column order);
  out.bin  (OH · OW) × COUT float64: the convolution computed by numpy in
           float64 straight from the windows (exact for both fills);
  abs.bin  the same with |x| and |w|: the sum of the terms' magnitudes that
           the program's error bound scales.
Values are small integers in [-4, 4] (--fill exact: every product and
partial sum is exact in float) or normal of standard deviation 1 (--fill
random).

Usage: python3 cube_conv_golden.py --c C --h H --w W --cout N --kh KH --kw KW --pad P --fill exact|random [--seed S] --out DIR
"""
import argparse
import os

import numpy as np

C0 = 16  # half's channels per block


def convolve(x, w, pad):
    """x: (C, H, W), w: (COUT, C, KH, KW) -> (OH * OW, COUT), float64."""
    c, h, wd = x.shape
    cout, _, kh, kw = w.shape
    padded = np.zeros((c, h + 2 * pad, wd + 2 * pad))
    padded[:, pad:pad + h, pad:pad + wd] = x
    oh, ow = h + 2 * pad - kh + 1, wd + 2 * pad - kw + 1
    out = np.zeros((oh, ow, cout))
    for oy in range(oh):
        for ox in range(ow):
            window = padded[:, oy:oy + kh, ox:ox + kw]
            out[oy, ox, :] = np.tensordot(w, window, axes=([1, 2, 3], [0, 1, 2]))
    return out.reshape(oh * ow, cout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("c", "h", "w", "cout", "kh", "kw", "pad"):
        parser.add_argument("--" + name, type=int, required=True)
    parser.add_argument("--fill", choices=["exact", "random"], required=True)
    parser.add_argument("--seed", type=int, default=2032)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    c1 = args.c // C0
    x_shape = (args.c, args.h, args.w)
    w_shape = (args.cout, args.c, args.kh, args.kw)
    if args.fill == "exact":
        x = rng.integers(-4, 5, x_shape).astype(np.float16)
        w = rng.integers(-4, 5, w_shape).astype(np.float16)
    else:
        x = rng.normal(0.0, 1.0, x_shape).astype(np.float16)
        w = rng.normal(0.0, 1.0, w_shape).astype(np.float16)
    x64, w64 = x.astype(np.float64), w.astype(np.float64)
    os.makedirs(args.out, exist_ok=True)
    # (C, H, W) -> (C1, C0, H, W) -> (C1, H, W, C0).
    x.reshape(c1, C0, args.h, args.w).transpose(0, 2, 3, 1).tofile(os.path.join(args.out, "x.bin"))
    # (COUT, C, KH, KW) -> (COUT, C1, C0, KH, KW) -> (C1, KH, KW, C0, COUT) -> K x COUT.
    w.reshape(args.cout, c1, C0, args.kh, args.kw).transpose(1, 3, 4, 2, 0).reshape(
        -1, args.cout).tofile(os.path.join(args.out, "w.bin"))
    convolve(x64, w64, args.pad).tofile(os.path.join(args.out, "out.bin"))
    convolve(np.abs(x64), np.abs(w64), args.pad).tofile(os.path.join(args.out, "abs.bin"))


if __name__ == "__main__":
    main()
