#!/usr/bin/env python3
"""gen_golden.py — inputs and float64 goldens for the layernorm_chain program.

Writes, raw little-endian, into DIR:
  input_x.bin, input_dy.bin (ROWS x H), input_gamma.bin, input_beta.bin (H)
    in the chosen dtype: x and dy standard normal, gamma uniform in
    [0.5, 1.5), beta uniform in [-0.5, 0.5);
  golden_{y,mean,variance,pd_x,pd_gamma,pd_beta}.bin, float32: the layer
    norm forward and backward computed in float64 from those inputs (mean
    and population variance per row, eps = 1e-5 as a value of the dtype, as
    the program passes it), rounded once to float32, so that a half output
    is compared before any second rounding.

Usage: python3 gen_golden.py --rows R --h H --dtype float|half [--seed N] --out DIR
"""
import argparse
import os

import numpy as np


def layer_norm_float64(x, dy, gamma, beta, eps):
    """Forward and backward of a layer norm over the last axis, in float64."""
    mean = x.mean(axis=1)
    d = x - mean[:, None]
    variance = (d * d).mean(axis=1)
    rstd = 1.0 / np.sqrt(variance + eps)
    xhat = d * rstd[:, None]
    y = xhat * gamma + beta
    g = dy * gamma
    pd_x = rstd[:, None] * (g - g.mean(axis=1, keepdims=True)
                            - xhat * (g * xhat).mean(axis=1, keepdims=True))
    return {"y": y, "mean": mean, "variance": variance, "pd_x": pd_x,
            "pd_gamma": (dy * xhat).sum(axis=0), "pd_beta": dy.sum(axis=0)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--h", type=int, required=True)
    parser.add_argument("--dtype", choices=["float", "half"], default="float")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    dtype = np.float32 if args.dtype == "float" else np.float16
    rng = np.random.default_rng(args.seed)
    inputs = {
        "x": rng.standard_normal((args.rows, args.h)).astype(dtype),
        "dy": rng.standard_normal((args.rows, args.h)).astype(dtype),
        "gamma": rng.uniform(0.5, 1.5, args.h).astype(dtype),
        "beta": rng.uniform(-0.5, 0.5, args.h).astype(dtype),
    }
    wide = {name: value.astype(np.float64) for name, value in inputs.items()}
    eps = float(dtype(1e-5))
    goldens = layer_norm_float64(wide["x"], wide["dy"], wide["gamma"], wide["beta"], eps)
    os.makedirs(args.out, exist_ok=True)
    for name, value in inputs.items():
        value.tofile(os.path.join(args.out, f"input_{name}.bin"))
    for name, value in goldens.items():
        value.astype(np.float32).tofile(os.path.join(args.out, f"golden_{name}.bin"))
    print(f"wrote {args.out}: {args.rows} x {args.h} {args.dtype}, seed {args.seed}")


if __name__ == "__main__":
    main()
