#!/usr/bin/env python3
"""torch_oracle.py — PyTorch autograd as an independent oracle for normgrad's layer-norm backward.

The reference is torch.nn.functional.layer_norm differentiated by autograd in
float64 (population variance, as the Ascend C API; eps as the program under
test uses it), on the very inputs the program reads (widened exactly). It
checks:
  a) `normgrad backward` (the engine): dx, pd_gamma, pd_beta for float, half
     and bfloat16 inputs, blocked and sequential orders;
  b) the Ascend C chain program tests/chain/layernorm_chain.asc (LayerNorm →
     LayerNormGrad → LayerNormGradBeta in one kernel): pd_x, pd_gamma, pd_beta
     for float and half, shared and framework scratch;
  c) that `normgrad backward` refuses mismatched shapes with a message naming
     the argument and a non-zero exit status, writing nothing.
Shapes include H not a power of two, rows = 1 and 65536 rows; every tensor
stays under 64 MiB. Each element must lie within its derived bound (docs/
numerics.md, "PyTorch oracle tolerances"); the script prints, per case and
output, the largest error/bound ratio and the normwise relative error
max|err| / max|ref|.

Without torch: exit status 77 (ctest's skip; `make deps` installs Debian's
python3-torch), or 1 when the environment has CI=true.

Usage: torch_oracle.py --normgrad PATH --chain PATH [--quick]
  --quick   a smaller shape set (sanitizer builds)
Add a case by adding a line to BACKWARD_CASES or CHAIN_CASES.
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

SKIP = 77
U = 2.0 ** -24  # float32 unit roundoff

# (rows, H, dtypes, order) for `normgrad backward`; quick: the --quick set.
BACKWARD_CASES = [
    (1, 48, ("float", "half", "bfloat16"), "blocked"),
    (333, 48, ("float", "half", "bfloat16"), "sequential"),
    (1, 4104, ("float", "half"), "blocked"),
    (64, 4104, ("float", "half", "bfloat16"), "blocked"),
    (65536, 96, ("float", "half", "bfloat16"), "blocked"),
    (65536, 96, ("float",), "sequential"),
]
BACKWARD_QUICK = [
    (1, 48, ("float", "half", "bfloat16"), "blocked"),
    (64, 4104, ("float", "half"), "blocked"),
    (65536, 16, ("float", "half"), "blocked"),
]
# (rows, H, dtype, blocks, scratch) for the chain program. H * sizeof(dtype)
# must be a multiple of 32 bytes, and one row must fit the unified buffer
# with the APIs' scratch (H = 4104 does not: tests/chain/CMakeLists.txt).
CHAIN_CASES = [
    (1, 48, "float", 2, "shared"),
    (1, 48, "half", 2, "framework"),
    (333, 48, "float", 4, "framework"),
    (333, 48, "half", 4, "shared"),
    (16, 2000, "float", 3, "shared"),
    (16, 2000, "half", 3, "framework"),
    (65536, 48, "float", 8, "shared"),
    (65536, 48, "half", 8, "framework"),
]
CHAIN_QUICK = [
    (1, 48, "half", 2, "framework"),
    (333, 48, "float", 4, "shared"),
    (16, 2000, "half", 3, "shared"),
]

NUMPY_TYPES = {"float": np.float32, "half": np.float16}
# Unit roundoff of each output type, and the absolute rounding error of its
# subnormal range.
UNIT = {"float": 0.0, "half": 2.0 ** -11, "bfloat16": 2.0 ** -8}
SUBNORMAL = {"float": 0.0, "half": 2.0 ** -25, "bfloat16": 2.0 ** -134}


def gamma_n(k):
    """γ(k) = k·u / (1 − k·u): the bound on k float roundings in a row."""
    return k * U / (1.0 - k * U)


class Model:
    """What a computation's error bound depends on (numerics.md)."""

    def __init__(self, d_row, d_col, u_stats=0.0, u_res=0.0, u_partial=0.0, u_out=0.0,
                 sub_out=0.0, u_sums=0.0, sub_sums=0.0):
        self.d_row = d_row          # additions a term meets in a row sum
        self.d_col = d_col          # additions a term meets in a column sum
        self.u_stats = u_stats      # storage of mean and variance between the passes
        self.u_res = u_res          # storage of resForGamma
        self.u_partial = u_partial  # narrowing of the partial column sums
        self.u_out = u_out          # narrowing of dx
        self.sub_out = sub_out
        self.u_sums = u_sums        # narrowing of pd_gamma and pd_beta
        self.sub_sums = sub_sums


def engine_model(rows, h, dtype, order):
    """`normgrad backward`: row sums over 16 lanes and a 4-level tree; column
    sums blocked (256 rows, then a pairwise tree) or sequential."""
    d_row = math.ceil(h / 16) + 4
    if order == "blocked":
        d_col = 256 + math.ceil(math.log2(max(1, math.ceil(rows / 256))))
    else:
        d_col = rows
    return Model(d_row, d_col, u_out=UNIT[dtype], sub_out=SUBNORMAL[dtype],
                 u_sums=UNIT[dtype], sub_sums=SUBNORMAL[dtype])


def chain_model(rows, h, dtype, blocks):
    """The chain program: LayerNorm's row sums fold into 64 lanes and end in a
    6-level tree; LayerNormGrad's repeat 64-lane trees; a block adds each
    tile's rows sequentially and the tile sums into its float sums (at most
    ⌈rows/blocks⌉ additions), the host adds the blocks."""
    levels, n = 0, h
    while True:
        levels += 1
        n = math.ceil(n / 64)
        if n <= 1:
            break
    d_row = max(math.ceil(h / 64) + 5, 6 * levels)
    d_col = math.ceil(rows / blocks) + blocks
    u = UNIT[dtype]
    return Model(d_row, d_col, u_stats=u, u_res=u, u_partial=u, u_out=u,
                 sub_out=SUBNORMAL[dtype])


def bounds(x, dy, gamma, eps, dx_ref, pd_gamma_ref, pd_beta_ref, m):
    """Per-element bounds on |dx − ref|, |pd_gamma − ref|, |pd_beta − ref|
    (first order in the unit roundoffs, times 1.01 for the rest)."""
    mu = x.mean(axis=1, keepdims=True)
    d = x - mu
    v = (d * d).mean(axis=1, keepdims=True)
    r = 1.0 / np.sqrt(v + eps)
    xhat = d * r
    g = dy * gamma
    a = np.abs(x).mean(axis=1, keepdims=True)
    # The statistics: mean, variance, rstd and rstd³.
    e_mean = gamma_n(m.d_row + 3) * a
    e_mean = e_mean + m.u_stats * (np.abs(mu) + e_mean)
    e_var = e_mean ** 2 + gamma_n(m.d_row + 5) * (v + e_mean ** 2)
    e_var = e_var + m.u_stats * (v + e_var)
    e_t = (e_var + U * (v + eps + e_var)) / (v + eps)
    if e_t.max() > 0.01:
        raise ValueError(f"the variance bound {e_t.max():.3g} exceeds 0.01: the first-order "
                         "bounds do not apply")
    e_rstd = 0.51 * e_t + gamma_n(3)
    e_rstd3 = 1.6 * e_t + gamma_n(9)
    e_mu = r * e_mean
    # dx.
    ga = gamma_n(m.d_row + 9)
    mean_g = np.abs(g).mean(axis=1, keepdims=True)
    mean_gx = np.abs(g * xhat).mean(axis=1, keepdims=True)
    axh = np.abs(xhat)
    b_dx = 1.01 * r * ((e_rstd + ga) * (np.abs(g) + mean_g) + (e_rstd3 + ga) * axh * mean_gx
                       + ga * mean_gx + e_mu * (mean_gx + axh * mean_g))
    b_dx = b_dx + m.u_out * (np.abs(dx_ref) + b_dx) + m.sub_out
    # pd_gamma and pd_beta: resForGamma's error, then the column sums.
    e_res = 1.01 * (axh * (e_rstd + gamma_n(2) + m.u_res) + e_mu)
    b_pg = ((np.abs(dy) * e_res).sum(axis=0)
            + (gamma_n(m.d_col + 1) + m.u_partial) * np.abs(dy * xhat).sum(axis=0))
    b_pb = (gamma_n(m.d_col) + m.u_partial) * np.abs(dy).sum(axis=0)
    b_pg = b_pg + m.u_sums * (np.abs(pd_gamma_ref) + b_pg) + m.sub_sums
    b_pb = b_pb + m.u_sums * (np.abs(pd_beta_ref) + b_pb) + m.sub_sums
    return b_dx, b_pg, b_pb


def torch_reference(torch, x, dy, gamma, eps):
    """dx, pd_gamma, pd_beta of layer_norm over the last axis, float64 autograd."""
    xt = torch.from_numpy(x).requires_grad_()
    gt = torch.from_numpy(gamma).requires_grad_()
    bt = torch.zeros(gamma.shape, dtype=torch.float64, requires_grad=True)
    y = torch.nn.functional.layer_norm(xt, (x.shape[1],), gt, bt, eps)
    y.backward(torch.from_numpy(dy))
    return xt.grad.numpy(), gt.grad.numpy(), bt.grad.numpy()


def to_bf16_bits(values):
    """float32 → bfloat16 bits, round half to even."""
    bits = values.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def widen(array, dtype):
    if dtype == "bfloat16":
        return (array.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return array.astype(np.float64)


def make_inputs(rng, rows, h, dtype):
    """x, dy standard normal, gamma in [0.5, 1.5), in the dtype (bf16 as bits)."""
    values = [rng.standard_normal((rows, h), dtype=np.float32),
              rng.standard_normal((rows, h), dtype=np.float32),
              rng.uniform(0.5, 1.5, h).astype(np.float32)]
    if dtype == "bfloat16":
        return [to_bf16_bits(v) for v in values]
    return [v.astype(NUMPY_TYPES[dtype]) for v in values]


def check(name, outputs, refs, bound_list):
    """Prints each output's worst error/bound ratio and normwise error; True if all ≤ 1."""
    ok = True
    parts = []
    for label, out, ref, bound in zip(("dx", "pd_gamma", "pd_beta"), outputs, refs, bound_list):
        err = np.abs(out - ref)
        ratio = float(np.max(err / bound)) if np.all(np.isfinite(out)) else math.inf
        norm = float(err.max() / max(np.abs(ref).max(), np.finfo(np.float64).tiny))
        parts.append(f"{label} {ratio:.3f} ({norm:.2g})")
        if not ratio <= 1.0:
            ok = False
            worst = np.unravel_index(np.argmax(err / bound), err.shape)
            print(f"  {name}: {label}{list(worst)} = {out[worst]!r}, reference {ref[worst]!r}, "
                  f"bound {bound[worst]:.3g}")
    print(f"{'ok  ' if ok else 'FAIL'} {name}: err/bound (normwise err) " + ", ".join(parts))
    return ok


def run(command):
    return subprocess.run(command, capture_output=True, text=True, check=False)


def backward_case(torch, normgrad, work, rng, rows, h, dtype, order):
    x, dy, gamma = make_inputs(rng, rows, h, dtype)
    for name, value in (("x", x), ("dy", dy), ("gamma", gamma)):
        np.save(os.path.join(work, name + ".npy"), value)
    out_dir = os.path.join(work, "out")
    command = [normgrad, "backward", "--x", os.path.join(work, "x.npy"),
               "--dy", os.path.join(work, "dy.npy"), "--gamma", os.path.join(work, "gamma.npy"),
               "--order", order, "--out", out_dir]
    if dtype == "bfloat16":
        command += ["--dtype", "bfloat16"]
    result = run(command)
    name = f"backward {dtype} {rows}x{h} {order}"
    if result.returncode != 0:
        print(f"FAIL {name}: exit status {result.returncode}\n{result.stderr}")
        return False
    outputs = [widen(np.load(os.path.join(out_dir, f + ".npy")), dtype)
               for f in ("dx", "pd_gamma", "pd_beta")]
    wx, wdy, wgamma = (widen(v, dtype) for v in (x, dy, gamma))
    eps = float(np.float32(1e-5))  # normgrad backward's default, a float
    refs = torch_reference(torch, wx, wdy, wgamma, eps)
    model = engine_model(rows, h, dtype, order)
    return check(name, outputs, refs, bounds(wx, wdy, wgamma, eps, *refs, model))


def chain_case(torch, chain, work, rng, rows, h, dtype, blocks, scratch):
    np_type = NUMPY_TYPES[dtype]
    x, dy, gamma = make_inputs(rng, rows, h, dtype)
    beta = rng.uniform(-0.5, 0.5, h).astype(np_type)
    for name, value in (("x", x), ("dy", dy), ("gamma", gamma), ("beta", beta)):
        value.tofile(os.path.join(work, f"input_{name}.bin"))
    result = run([chain, work, str(rows), str(h), dtype, str(blocks), scratch, "dump"])
    name = f"chain {dtype} {rows}x{h} {blocks} blocks {scratch}"
    if result.returncode != 0:
        print(f"FAIL {name}: exit status {result.returncode}\n{result.stdout}{result.stderr}")
        return False
    pd_x = np.fromfile(os.path.join(work, "output_pd_x.bin"), np_type).reshape(rows, h)
    outputs = [pd_x.astype(np.float64)] + [
        np.fromfile(os.path.join(work, f"output_{f}.bin"), np.float32).astype(np.float64)
        for f in ("pd_gamma", "pd_beta")]
    wx, wdy, wgamma = (v.astype(np.float64) for v in (x, dy, gamma))
    eps = float(np_type(1e-5))  # the program passes epsilon as a value of T
    refs = torch_reference(torch, wx, wdy, wgamma, eps)
    model = chain_model(rows, h, dtype, blocks)
    return check(name, outputs, refs, bounds(wx, wdy, wgamma, eps, *refs, model))


def bad_input_cases(normgrad, work):
    """Mismatched shapes: exit status 1, a message naming the argument, no output."""
    ok = True
    x = np.ones((4, 48), np.float32)
    cases = [("dy", np.ones((4, 40), np.float32), np.ones(48, np.float32)),
             ("gamma", np.ones((4, 48), np.float32), np.ones(40, np.float32))]
    for wrong, dy, gamma in cases:
        for name, value in (("x", x), ("dy", dy), ("gamma", gamma)):
            np.save(os.path.join(work, name + ".npy"), value)
        out_dir = os.path.join(work, "refused-" + wrong)
        result = run([normgrad, "backward", "--x", os.path.join(work, "x.npy"),
                      "--dy", os.path.join(work, "dy.npy"),
                      "--gamma", os.path.join(work, "gamma.npy"), "--out", out_dir])
        message = result.stderr.strip()
        good = (result.returncode == 1 and f"{wrong} must be" in message and "40" in message
                and "48" in message and not os.path.exists(out_dir))
        print(f"{'ok  ' if good else 'FAIL'} backward refuses a {wrong} of the wrong shape: "
              f"exit status {result.returncode}: {message}")
        ok = ok and good
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--normgrad", required=True, help="the normgrad command line")
    parser.add_argument("--chain", required=True, help="the layernorm_chain program")
    parser.add_argument("--quick", action="store_true", help="the smaller shape set")
    args = parser.parse_args()
    try:
        import torch
    except ImportError as error:
        message = (f"torch_oracle.py: PyTorch is not available ({error}); `make deps` installs "
                   "Debian's python3-torch")
        if os.environ.get("CI") == "true":
            print(message + ", which CI must have (CI=true).", file=sys.stderr)
            return 1
        print(message + ". Skipped.")
        return SKIP
    torch.set_num_threads(2)
    seed = int(os.environ.get("NORMGRAD_SEED", "2024"))
    rng = np.random.default_rng(seed)
    print(f"torch {torch.__version__}, numpy {np.__version__}, seed {seed} (NORMGRAD_SEED)")
    ok = True
    with tempfile.TemporaryDirectory(prefix="torch_oracle.") as work:
        for rows, h, dtypes, order in (BACKWARD_QUICK if args.quick else BACKWARD_CASES):
            for dtype in dtypes:
                ok &= backward_case(torch, args.normgrad, work, rng, rows, h, dtype, order)
        for case in (CHAIN_QUICK if args.quick else CHAIN_CASES):
            ok &= chain_case(torch, args.chain, work, rng, *case)
        ok &= bad_input_cases(args.normgrad, work)
    print("oracle: every result is within its bound" if ok else "oracle: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
