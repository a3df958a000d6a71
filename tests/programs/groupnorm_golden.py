#!/usr/bin/env python3
"""groupnorm_golden.py — inputs and PyTorch goldens for the groupnorm_blocks program.

Writes, raw little-endian, into DIR:
  input_x.bin ([N, C, H, W]), input_gamma.bin, input_beta.bin ([C]) in the
    chosen dtype: x = a per-channel offset in [-2, 2) plus a standard normal,
    gamma uniform in [0.5, 1.5), beta uniform in [-0.5, 0.5);
  golden_y.bin: torch.nn.functional.group_norm on those values in float64
    (eps = 1e-5 as a value of the dtype, as the program passes it);
  golden_mean.bin, golden_variance.bin ([N, G]): each group's mean and
    population variance in float64;
  all goldens rounded once to float32.

Usage: python3 groupnorm_golden.py --shape N,C,H,W --groups G --dtype float|half [--seed S] --out DIR
"""
import argparse
import os

import numpy as np
import torch


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", required=True)
    parser.add_argument("--groups", type=int, required=True)
    parser.add_argument("--dtype", choices=["float", "half"], default="float")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    n, c, h, w = (int(v) for v in args.shape.split(","))
    dtype = np.float32 if args.dtype == "float" else np.float16
    rng = np.random.default_rng(args.seed)
    offsets = rng.uniform(-2.0, 2.0, (n, c, 1, 1))
    x = (offsets + rng.standard_normal((n, c, h, w))).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, c).astype(dtype)
    beta = rng.uniform(-0.5, 0.5, c).astype(dtype)
    eps = float(dtype(1e-5))

    x64 = torch.from_numpy(x.astype(np.float64))
    y = torch.nn.functional.group_norm(
        x64, args.groups, torch.from_numpy(gamma.astype(np.float64)),
        torch.from_numpy(beta.astype(np.float64)), eps)
    grouped = x64.reshape(n, args.groups, -1)
    mean = grouped.mean(dim=2)
    variance = grouped.var(dim=2, unbiased=False)

    os.makedirs(args.out, exist_ok=True)
    for name, value in (("x", x), ("gamma", gamma), ("beta", beta)):
        value.tofile(os.path.join(args.out, f"input_{name}.bin"))
    for name, value in (("y", y), ("mean", mean), ("variance", variance)):
        value.numpy().astype(np.float32).tofile(os.path.join(args.out, f"golden_{name}.bin"))


if __name__ == "__main__":
    main()
