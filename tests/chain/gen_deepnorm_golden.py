#!/usr/bin/env python3
"""gen_deepnorm_golden.py — inputs and numpy float64 goldens for deepnorm_chain.

Writes, raw little-endian, into DIR:
  input_x.bin, input_gx.bin (ROWS x H), input_gamma.bin, input_beta.bin (H)
    in the chosen dtype: x and gx standard normal in the first OH columns of
    every row and 0 in the padding columns OH..H-1 (the caller's zero
    padding), gamma uniform in [0.5, 1.5), beta uniform in [-0.5, 0.5);
  golden_y.bin (ROWS x H), golden_mean.bin, golden_variance.bin (ROWS),
    float32: DeepNorm computed in float64 from those inputs —
    z = alpha*x + gx, mean and population variance of z over the OH data
    columns, y = (z - mean) / sqrt(variance + eps) * gamma + beta in every
    column — with alpha = 0.75 and eps = 1e-5 as values of the dtype (as the
    program passes them), rounded once to float32.

Usage: python3 gen_deepnorm_golden.py --rows R --h H --oh OH --dtype float|half
                                     [--seed N] --out DIR
"""
import argparse
import os

import numpy as np

ALPHA = 0.75
EPS = 1e-5


def deep_norm_float64(x, gx, gamma, beta, alpha, eps, oh):
    z = alpha * x + gx
    mean = z[:, :oh].mean(axis=1)
    d = z - mean[:, None]
    variance = (d[:, :oh] ** 2).mean(axis=1)
    y = d / np.sqrt(variance + eps)[:, None] * gamma + beta
    return {"y": y, "mean": mean, "variance": variance}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--h", type=int, required=True)
    parser.add_argument("--oh", type=int, required=True)
    parser.add_argument("--dtype", choices=["float", "half"], default="float")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    dtype = np.float32 if args.dtype == "float" else np.float16
    rng = np.random.default_rng(args.seed)
    data = np.zeros((args.rows, args.h))
    inputs = {}
    for name in ("x", "gx"):
        values = data.copy()
        values[:, :args.oh] = rng.standard_normal((args.rows, args.oh))
        inputs[name] = values.astype(dtype)
    inputs["gamma"] = rng.uniform(0.5, 1.5, args.h).astype(dtype)
    inputs["beta"] = rng.uniform(-0.5, 0.5, args.h).astype(dtype)
    wide = {name: value.astype(np.float64) for name, value in inputs.items()}
    goldens = deep_norm_float64(wide["x"], wide["gx"], wide["gamma"], wide["beta"],
                                float(dtype(ALPHA)), float(dtype(EPS)), args.oh)
    os.makedirs(args.out, exist_ok=True)
    for name, value in inputs.items():
        value.tofile(os.path.join(args.out, f"input_{name}.bin"))
    for name, value in goldens.items():
        value.astype(np.float32).tofile(os.path.join(args.out, f"golden_{name}.bin"))


if __name__ == "__main__":
    main()
