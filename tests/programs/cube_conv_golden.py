#!/usr/bin/env python3
"""cube_conv_golden.py — inputs and the numpy golden for cube_conv_img2col.

A 2-D convolution of one 16-channel H × W feature map with COUT filters of
KH × KW, stride 1, zero padding PAD on every side. Writes, raw
little-endian, into DIR:
  x.bin    the feature map, half, as C1HWC0 with C1 = 1 (H, W, 16);
  w.bin    the filters, half, as the K × COUT matrix whose row
           (ky · KW + kx) · 16 + c holds filter co's tap (ky, kx, c);
  out.bin  (OH · OW) × COUT float64: the convolution computed by numpy in
           float64 straight from the windows (exact for both fills);
  abs.bin  the same with |x| and |w|: the sum of the terms' magnitudes that
           the program's error bound scales.
Values are small integers in [-4, 4] (--fill exact: every product and
partial sum is exact in float) or normal of standard deviation 1 (--fill
random).

Usage: python3 cube_conv_golden.py --h H --w W --cout N --kh KH --kw KW --pad P --fill exact|random [--seed S] --out DIR
"""
import argparse
import os

import numpy as np

CHANNELS = 16


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
    for name in ("h", "w", "cout", "kh", "kw", "pad"):
        parser.add_argument("--" + name, type=int, required=True)
    parser.add_argument("--fill", choices=["exact", "random"], required=True)
    parser.add_argument("--seed", type=int, default=2032)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    x_shape = (CHANNELS, args.h, args.w)
    w_shape = (args.cout, CHANNELS, args.kh, args.kw)
    if args.fill == "exact":
        x = rng.integers(-4, 5, x_shape).astype(np.float16)
        w = rng.integers(-4, 5, w_shape).astype(np.float16)
    else:
        x = rng.normal(0.0, 1.0, x_shape).astype(np.float16)
        w = rng.normal(0.0, 1.0, w_shape).astype(np.float16)
    x64, w64 = x.astype(np.float64), w.astype(np.float64)
    os.makedirs(args.out, exist_ok=True)
    # (C, H, W) -> (H, W, C): C1HWC0 with one channel block.
    x.transpose(1, 2, 0).tofile(os.path.join(args.out, "x.bin"))
    # (COUT, C, KH, KW) -> (KH, KW, C, COUT) -> K x COUT.
    w.transpose(2, 3, 1, 0).reshape(-1, args.cout).tofile(os.path.join(args.out, "w.bin"))
    convolve(x64, w64, args.pad).tofile(os.path.join(args.out, "out.bin"))
    convolve(np.abs(x64), np.abs(w64), args.pad).tofile(os.path.join(args.out, "abs.bin"))


if __name__ == "__main__":
    main()
