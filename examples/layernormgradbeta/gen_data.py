#!/usr/bin/env python3
"""gen_data.py — inputs and golden outputs for the LayerNormGradBeta sample.

Writes DIR/input_dy.bin and DIR/input_res.bin (B·S·H values, standard
normal, in the chosen dtype) and DIR/golden_pd_gamma.bin,
DIR/golden_pd_beta.bin (H values: the float64 sums over B·S, rounded to the
dtype), raw little-endian, as Ascend C samples exchange data.

Usage: python3 gen_data.py --shape B,S,H --dtype float|half [--seed N] --out DIR
"""
import argparse
import os

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", required=True, help="B,S,H")
    parser.add_argument("--dtype", choices=["float", "half"], default="float")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    b, s, h = (int(v) for v in args.shape.split(","))
    dtype = np.float32 if args.dtype == "float" else np.float16
    rng = np.random.default_rng(args.seed)
    dy = rng.standard_normal((b * s, h)).astype(dtype)
    res = rng.standard_normal((b * s, h)).astype(dtype)
    wide_dy, wide_res = dy.astype(np.float64), res.astype(np.float64)
    gamma = (wide_dy * wide_res).sum(axis=0).astype(dtype)
    beta = wide_dy.sum(axis=0).astype(dtype)
    os.makedirs(args.out, exist_ok=True)
    for name, array in (("input_dy", dy), ("input_res", res),
                        ("golden_pd_gamma", gamma), ("golden_pd_beta", beta)):
        array.tofile(os.path.join(args.out, name + ".bin"))
    print(f"wrote {args.out}: dy, res [{b}, {s}, {h}] {args.dtype}, seed {args.seed}")


if __name__ == "__main__":
    main()
