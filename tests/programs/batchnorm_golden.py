#!/usr/bin/env python3
"""batchnorm_golden.py — inputs and PyTorch goldens for the batchnorm_blocks program.

Writes, raw little-endian, into DIR:
  input_x.bin ([B, S*H]) and input_gamma.bin, input_beta.bin ([B]) in the
    chosen dtype: x = a per-feature offset in [-2, 2) plus a standard normal,
    gamma uniform in [0.5, 1.5), beta uniform in [-0.5, 0.5);
  golden_y.bin ([originB, S*H]): the first originB rows normalized per
    feature over those rows by torch.nn.functional.batch_norm (training
    mode, no running statistics) in float64, then scaled by gamma[b] and
    shifted by beta[b] of each row, as Ascend C's BatchNorm defines it;
  golden_mean.bin, golden_variance.bin ([S*H]): the per-feature mean and
    population variance over those rows, in float64;
  all goldens rounded once to float32. eps = 1e-5 as a value of the dtype.

Usage: python3 batchnorm_golden.py --shape B,S,H --origin-b N --dtype float|half [--seed S] --out DIR
"""
import argparse
import os

import numpy as np
import torch


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", required=True)
    parser.add_argument("--origin-b", type=int, required=True)
    parser.add_argument("--dtype", choices=["float", "half"], default="float")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    b, s, h = (int(v) for v in args.shape.split(","))
    dtype = np.float32 if args.dtype == "float" else np.float16
    rng = np.random.default_rng(args.seed)
    x = (rng.uniform(-2.0, 2.0, (1, s * h)) + rng.standard_normal((b, s * h))).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, b).astype(dtype)
    beta = rng.uniform(-0.5, 0.5, b).astype(dtype)
    eps = float(dtype(1e-5))

    rows = torch.from_numpy(x[:args.origin_b].astype(np.float64))
    xhat = torch.nn.functional.batch_norm(rows, None, None, training=True, eps=eps)
    g = torch.from_numpy(gamma[:args.origin_b].astype(np.float64))[:, None]
    bt = torch.from_numpy(beta[:args.origin_b].astype(np.float64))[:, None]
    y = xhat * g + bt
    mean = rows.mean(dim=0)
    variance = rows.var(dim=0, unbiased=False)

    os.makedirs(args.out, exist_ok=True)
    for name, value in (("x", x), ("gamma", gamma), ("beta", beta)):
        value.tofile(os.path.join(args.out, f"input_{name}.bin"))
    for name, value in (("y", y), ("mean", mean), ("variance", variance)):
        value.numpy().astype(np.float32).tofile(os.path.join(args.out, f"golden_{name}.bin"))


if __name__ == "__main__":
    main()
