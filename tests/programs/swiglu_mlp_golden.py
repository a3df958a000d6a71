#!/usr/bin/env python3
"""swiglu_mlp_golden.py — inputs and the numpy golden for swiglu_mlp_blocks.

Writes, raw little-endian, into DIR:
  x.bin       TOKENS × 2·HIDDEN elements in the chosen dtype: the output of
              an MLP's first projection, each row its value half a then its
              gate half b, normal values of standard deviation 3, with the
              gate's edges in row 0: ±100 (e^(-β·b) beyond float's range),
              ±0 and ±20;
  golden.bin  TOKENS × HIDDEN float64 values, a · b / (1 + e^(-β·b)) computed
              in float64 from the dtype's values (SwiGLU's formula, its
              β the float the program passes).

Usage: python3 swiglu_mlp_golden.py --tokens T --hidden H --dtype float|half
                                    --beta B [--seed S] --out DIR
"""
import argparse
import os

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, required=True)
    parser.add_argument("--hidden", type=int, required=True)
    parser.add_argument("--dtype", choices=["float", "half"], default="float")
    parser.add_argument("--beta", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=2031)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    dtype = np.float32 if args.dtype == "float" else np.float16
    rng = np.random.default_rng(args.seed)
    h = args.hidden
    x = rng.normal(0.0, 3.0, (args.tokens, 2 * h))
    x[0, h:h + 6] = [100.0, -100.0, 0.0, -0.0, 20.0, -20.0]
    x = x.astype(dtype)
    a = x[:, :h].astype(np.float64)
    b = x[:, h:].astype(np.float64)
    beta = float(np.float32(args.beta))
    with np.errstate(over="ignore"):
        golden = a * (b / (1.0 + np.exp(-beta * b)))
    os.makedirs(args.out, exist_ok=True)
    x.tofile(os.path.join(args.out, "x.bin"))
    golden.astype(np.float64).tofile(os.path.join(args.out, "golden.bin"))


if __name__ == "__main__":
    main()
