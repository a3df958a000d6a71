#!/usr/bin/env python3
"""quant_roundtrip_golden.py — inputs and numpy references for quant_roundtrip_blocks.

Writes, raw little-endian, into DIR:
  x.bin        ROWS x COLS half: normal values of standard deviation 2, times
               a per-column spread, with a few saturating values;
  qscale.bin   COLS half: the quantization scale of each column (127 over the
               column's largest magnitude, as an int8 quantizer picks it);
  qoffset.bin  COLS half: the quantization offset of each column (small);
  dscale.bin   COLS half: the dequantization scale (the inverse of qscale);
  doffset.bin  COLS half: -qoffset, the offset AscendAntiQuant adds back;
  fscale.bin   COLS float: the dequantization scale as float (AscendDequant);
  q.bin        ROWS x COLS int8: AscendQuant's result as its page computes it:
               x * qscale rounded to half, + qoffset rounded to half, then to
               int8 rounding half to even and saturating;
  y.bin        ROWS x COLS half: AscendAntiQuant's (q + doffset) rounded to
               half, times dscale rounded to half;
  z.bin        ROWS x COLS float: AscendDequant's float(q) * fscale in float.
numpy's float16 operations compute in float32 and round once to float16, which
is the correctly rounded half result for a sum or product of two halves.

Usage: python3 quant_roundtrip_golden.py --rows R --cols C [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--cols", type=int, required=True)
    parser.add_argument("--seed", type=int, default=2031)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    spread = np.exp2(rng.uniform(-3, 3, args.cols))
    x = (rng.normal(0.0, 2.0, (args.rows, args.cols)) * spread).astype(np.float16)
    x[5, :4] = np.float16(60000.0)  # saturates to 127
    x[9, :4] = np.float16(-60000.0)  # saturates to -128
    amax = np.abs(x.astype(np.float64)[10:]).max(axis=0)
    qscale = (127.0 / amax).astype(np.float16)
    qoffset = rng.uniform(-2, 2, args.cols).astype(np.float16)
    dscale = (1.0 / qscale.astype(np.float64)).astype(np.float16)
    doffset = -qoffset
    fscale = (1.0 / qscale.astype(np.float64)).astype(np.float32)

    with np.errstate(over="ignore"):  # the saturating rows overflow to inf
        t = (x * qscale[None, :]).astype(np.float16)
        t = (t + qoffset[None, :]).astype(np.float16)
    q = np.clip(np.rint(t.astype(np.float64)), -128, 127).astype(np.int8)
    y = (q.astype(np.float16) + doffset[None, :]).astype(np.float16)
    y = (y * dscale[None, :]).astype(np.float16)
    z = (q.astype(np.float32) * fscale[None, :]).astype(np.float32)

    os.makedirs(args.out, exist_ok=True)
    for name, a in (("x", x), ("qscale", qscale), ("qoffset", qoffset),
                    ("dscale", dscale), ("doffset", doffset), ("fscale", fscale),
                    ("q", q), ("y", y), ("z", z)):
        a.tofile(os.path.join(args.out, name + ".bin"))


if __name__ == "__main__":
    main()
