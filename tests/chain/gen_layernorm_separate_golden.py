#!/usr/bin/env python3
"""gen_layernorm_separate_golden.py — inputs and PyTorch float64 goldens for
layernorm_separate_chain (LayerNorm's [A, R] form).

Writes, raw little-endian, into DIR:
  input_x.bin (ROWS x RP, the dtype; rows zero-padded after R data columns),
  input_gamma.bin, input_beta.bin (RP, float32: U = float);
  golden_y.bin (ROWS x R), golden_mean.bin, golden_rstd.bin (ROWS), float32:
    torch.native_layer_norm over the R data columns in float64, eps = 1e-5,
    rounded once to float32.

Usage: python3 gen_layernorm_separate_golden.py --rows A --r R --rp RP
                                                --dtype float|half [--seed N] --out DIR
"""
import argparse
import os

import numpy as np
import torch

EPS = 1e-5


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--r", type=int, required=True)
    parser.add_argument("--rp", type=int, required=True)
    parser.add_argument("--dtype", choices=["float", "half"], default="float")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    dtype = np.float32 if args.dtype == "float" else np.float16
    rng = np.random.default_rng(args.seed)
    x = np.zeros((args.rows, args.rp), dtype=dtype)
    x[:, :args.r] = (rng.standard_normal((args.rows, args.r)) +
                     rng.uniform(-2, 2, (args.rows, 1))).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, args.rp).astype(np.float32)
    beta = rng.uniform(-0.5, 0.5, args.rp).astype(np.float32)
    data = torch.from_numpy(x[:, :args.r].astype(np.float64))
    y, mean, rstd = torch.native_layer_norm(
        data, [args.r], torch.from_numpy(gamma[:args.r].astype(np.float64)),
        torch.from_numpy(beta[:args.r].astype(np.float64)), EPS)
    os.makedirs(args.out, exist_ok=True)
    x.tofile(os.path.join(args.out, "input_x.bin"))
    gamma.tofile(os.path.join(args.out, "input_gamma.bin"))
    beta.tofile(os.path.join(args.out, "input_beta.bin"))
    for name, value in (("y", y), ("mean", mean), ("rstd", rstd)):
        value.numpy().astype(np.float32).reshape(-1).tofile(
            os.path.join(args.out, f"golden_{name}.bin"))


if __name__ == "__main__":
    main()
