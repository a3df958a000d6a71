#!/usr/bin/env python3
"""math_transcendental_golden.py — inputs and float64 goldens for
math_transcendental_blocks.

Writes, raw little-endian, into DIR:
  x.bin       N elements in the chosen dtype, uniform in (0.05, 8) (a domain
              every API here takes), plus 1 and 2 at the start (Lgamma's
              zeros);
  golden.bin  6 × N float64 values, computed by Python's math module on the
              inputs as stored: e^x, ln x, tanh x, sin x, erf x, ln|Γ(x)|
              (not rounded: the program compares within the bound of
              docs/numerics.md, "Math: transcendental").

Usage: python3 math_transcendental_golden.py --n N --dtype float|half [--seed S] --out DIR
"""
import argparse
import math
import os

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--dtype", choices=["float", "half"], default="float")
    parser.add_argument("--seed", type=int, default=2031)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    dtype = np.float32 if args.dtype == "float" else np.float16
    rng = np.random.default_rng(args.seed)
    x = rng.uniform(0.05, 8.0, args.n)
    x[0], x[1] = 1.0, 2.0
    x = x.astype(dtype)
    v = [float(e) for e in x.astype(np.float64)]
    golden = [
        [math.exp(e) for e in v],
        [math.log(e) for e in v],
        [math.tanh(e) for e in v],
        [math.sin(e) for e in v],
        [math.erf(e) for e in v],
        [math.lgamma(e) for e in v],
    ]
    os.makedirs(args.out, exist_ok=True)
    x.tofile(os.path.join(args.out, "x.bin"))
    np.array(golden, dtype=np.float64).tofile(os.path.join(args.out, "golden.bin"))


if __name__ == "__main__":
    main()
