"""Shared helpers of the normgrad Python tests: seeded inputs in each element
type, exact widening to float64, the float64 references (layer norm, RMS
norm), and the error bounds of docs/numerics.md.

Extending: a new test module takes `rng` (seeded from NORMGRAD_SEED, printed
in pytest's header) and compares against a float64 reference written here,
never against normgrad itself, with a bound from `bounds` below — derived from
the page, not tuned.
"""

import math
import os
import pathlib

import ml_dtypes
import numpy as np
import pytest

SEED = int(os.environ.get("NORMGRAD_SEED", "2024"))
REPO = pathlib.Path(__file__).resolve().parents[2]

U = 2.0 ** -24  # float's unit roundoff
# Unit roundoff of each output type, and the absolute rounding error in its
# subnormal range (docs/numerics.md, "16-bit outputs").
UNIT = {"float32": 0.0, "float16": 2.0 ** -11, "bfloat16": 2.0 ** -8}
SUBNORMAL = {"float32": 0.0, "float16": 2.0 ** -25, "bfloat16": 2.0 ** -134}
NUMPY_TYPES = {"float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}
DTYPES = list(NUMPY_TYPES)


def pytest_report_header(config):
    return f"normgrad tests: NORMGRAD_SEED={SEED}"


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


def gamma_n(k):
    """γ(k) = k·u / (1 − k·u): k float roundings."""
    return k * U / (1.0 - k * U)


def widen(a):
    """Any float array (numpy or torch) as float64, exactly."""
    if hasattr(a, "detach"):  # torch
        return a.detach().double().numpy()
    return np.asarray(a).astype(np.float64)


def column_depth(rows, order):
    """Additions a term meets in a column sum: 256 in its block plus the
    tree's ⌈log2 blocks⌉ (blocked), or the rows (sequential)."""
    if order == "blocked":
        return 256 + math.ceil(math.log2(max(1, math.ceil(rows / 256))))
    return rows


def narrowed(bound, exact, dtype):
    """A float bound plus the final narrowing to `dtype`."""
    return bound + UNIT[dtype] * (np.abs(exact) + bound) + SUBNORMAL[dtype]


def layer_norm_reference(x, gamma, beta, dy, eps):
    """float64 layer norm over the last axis of rows × H arrays: y, mean,
    rstd, and the backward pass dx, dgamma, dbeta (population variance)."""
    mu = x.mean(axis=1, keepdims=True)
    d = x - mu
    v = (d * d).mean(axis=1, keepdims=True)
    r = 1.0 / np.sqrt(v + eps)
    xhat = d * r
    y = xhat * gamma + beta
    g = dy * gamma
    dx = r * (g - g.mean(axis=1, keepdims=True) - xhat * (g * xhat).mean(axis=1, keepdims=True))
    return y, mu[:, 0], r[:, 0], dx, (dy * xhat).sum(axis=0), dy.sum(axis=0)


def forward_bounds(x, gamma, beta, eps, y_ref, dtype):
    """Bounds on |mean − μ|, |rstd − r| and |y − ref| per element
    (docs/numerics.md, "Layer norm forward and fused backward", error bounds)."""
    h = x.shape[1]
    ks = math.ceil(h / 16) + 4
    mu = x.mean(axis=1, keepdims=True)
    d = x - mu
    v = (d * d).mean(axis=1, keepdims=True)
    r = 1.0 / np.sqrt(v + eps)
    a = np.abs(x).mean(axis=1, keepdims=True)
    e_m = gamma_n(ks + 1) * a
    e_v = gamma_n(ks + 4) * v + 2 * e_m ** 2
    assert (e_v / (v + eps)).max() <= 0.5, "the rstd bound needs E_v / (v + eps) ≤ 1/2"
    e_r = r * (e_v / (v + eps) * (1 + gamma_n(3)) + gamma_n(3))
    e_x = e_m * (r + e_r) + np.abs(d) * e_r + gamma_n(2) * (np.abs(d) + e_m) * (r + e_r)
    xhat = d * r
    b_y = np.abs(gamma) * e_x + gamma_n(2) * (np.abs(xhat * gamma) + np.abs(gamma) * e_x
                                               + np.abs(beta))
    return e_m[:, 0], e_r[:, 0], narrowed(b_y, y_ref, dtype)


def backward_bounds(x, dy, gamma, eps, dx_ref, dgamma_ref, dbeta_ref, dtype, order):
    """Bounds on |dx − ref|, |dgamma − ref|, |dbeta − ref| per element, the
    reference being exact layer-norm gradients computed from x (the forward
    pass's statistics included): docs/numerics.md, "PyTorch oracle
    tolerances", with the engine's depths (row sums ⌈H/16⌉ + 4, column sums
    as column_depth) and only the outputs narrowed."""
    rows, h = x.shape
    d_row = math.ceil(h / 16) + 4
    d_col = column_depth(rows, order)
    mu = x.mean(axis=1, keepdims=True)
    d = x - mu
    v = (d * d).mean(axis=1, keepdims=True)
    r = 1.0 / np.sqrt(v + eps)
    xhat = d * r
    g = dy * gamma
    e_mean = gamma_n(d_row + 3) * np.abs(x).mean(axis=1, keepdims=True)
    e_var = e_mean ** 2 + gamma_n(d_row + 5) * (v + e_mean ** 2)
    e_t = (e_var + U * (v + eps + e_var)) / (v + eps)
    assert e_t.max() <= 0.01, "the first-order bounds need ε_t ≤ 0.01"
    e_rstd = 0.51 * e_t + gamma_n(3)
    e_rstd3 = 1.6 * e_t + gamma_n(9)
    e_mu = r * e_mean
    ga = gamma_n(d_row + 10)
    mean_g = np.abs(g).mean(axis=1, keepdims=True)
    mean_gx = np.abs(g * xhat).mean(axis=1, keepdims=True)
    axh = np.abs(xhat)
    b_dx = 1.01 * r * ((e_rstd + ga) * (np.abs(g) + mean_g) + (e_rstd3 + ga) * axh * mean_gx
                       + ga * mean_gx + e_mu * (mean_gx + axh * mean_g))
    e_res = 1.01 * (axh * (e_rstd + gamma_n(2)) + e_mu)
    b_dg = (np.abs(dy) * e_res).sum(axis=0) + gamma_n(d_col + 1) * np.abs(dy * xhat).sum(axis=0)
    b_db = gamma_n(d_col) * np.abs(dy).sum(axis=0)
    return (narrowed(b_dx, dx_ref, dtype), narrowed(b_dg, dgamma_ref, dtype),
            narrowed(b_db, dbeta_ref, dtype))


def rms_norm_reference(x, gamma, dy, eps, rstd=None):
    """float64 RMS norm over the last axis of rows × H arrays: y and the exact
    r = 1/√(mean(x²) + eps) from x, and the backward pass dx, dgamma
    evaluated with `rstd` (one per row: the forward pass's float32 rstd,
    widened) or, when it is None, with r."""
    r = 1.0 / np.sqrt((x * x).mean(axis=1, keepdims=True) + eps)
    rho = r if rstd is None else np.asarray(rstd, dtype=np.float64).reshape(-1, 1)
    g = dy * gamma
    dx = rho * (g - x * rho ** 2 * (g * x).mean(axis=1, keepdims=True))
    return x * r * gamma, r[:, 0], dx, (dy * x * rho).sum(axis=0)


def _rms_rstd_error(x, eps):
    """(r, E_r / r) per row: the exact r and the relative bound on rstd
    (docs/numerics.md, "RMS norm forward and fused backward", error bounds,
    with k_s = ⌈H/16⌉ + 4)."""
    ks = math.ceil(x.shape[1] / 16) + 4
    assert gamma_n(ks + 2) <= 0.5, "the rstd bound needs γ(k_s + 2) ≤ 1/2"
    r = 1.0 / np.sqrt((x * x).mean(axis=1, keepdims=True) + eps)
    return r, gamma_n(ks + 2) * (1 + gamma_n(3)) + gamma_n(3)


def rms_forward_bounds(x, gamma, eps, y_ref, dtype):
    """Bounds on |rstd − r| per row and |y − x·r·gamma| per element
    (docs/numerics.md, "RMS norm forward and fused backward", error bounds)."""
    r, e = _rms_rstd_error(x, eps)
    e_r = r * e
    b_y = np.abs(x * gamma) * (e_r + gamma_n(2) * (r + e_r))
    return e_r[:, 0], narrowed(b_y, y_ref, dtype)


def rms_backward_bounds(x, dy, gamma, rstd, dx_ref, dgamma_ref, dtype, order):
    """Bounds on |dx − ref| and |dgamma − ref| per element, the reference
    being the exact formulas evaluated with the given rstd, as
    rms_norm_reference(..., rstd) computes them (docs/numerics.md, "RMS norm
    forward and fused backward": dx within γ(k_s + 6)·rstd·(|G| +
    |x·rstd|·Σ|G·x·rstd|/H), dgamma within γ(n + 2)·Σ|dy·x·rstd|, n as
    column_depth), plus the narrowing of 16-bit outputs."""
    rows, h = x.shape
    ks = math.ceil(h / 16) + 4
    rho = np.asarray(rstd, dtype=np.float64).reshape(-1, 1)
    g = np.abs(dy * gamma)
    xr = np.abs(x * rho)
    b_dx = gamma_n(ks + 6) * rho * (g + xr * (g * xr).mean(axis=1, keepdims=True))
    b_dg = gamma_n(column_depth(rows, order) + 2) * (np.abs(dy) * xr).sum(axis=0)
    return narrowed(b_dx, dx_ref, dtype), narrowed(b_dg, dgamma_ref, dtype)


def rms_oracle_bounds(x, dy, gamma, eps, dx_ref, dgamma_ref, dtype, order):
    """Bounds on |dx − ref| and |dgamma − ref| per element, the reference
    being the exact gradients of x·r·gamma (r from x, as float64 autograd
    computes them), when the backward pass is given the forward pass's rstd.
    rms_backward_bounds covers the arithmetic with that rstd; its relative
    error ε = E_r / r moves the exact formulas by at most r·ε·|G| (the
    factor rstd) and r·3.01ε·|x·r|·⟨|G·x·r|⟩ (the factor rstd³, ε ≤ 0.001) in
    dx and ε·Σ|dy·x·r| in dgamma; the factor 1.01 covers the arithmetic
    bound's (1 + ε)³ and the cubic's higher powers of ε."""
    rows, h = x.shape
    ks = math.ceil(h / 16) + 4
    r, e = _rms_rstd_error(x, eps)
    assert e <= 0.001, "the first-order bounds need ε = E_r / r ≤ 0.001"
    ga = gamma_n(ks + 6)
    g = np.abs(dy * gamma)
    xr = np.abs(x * r)
    b_dx = 1.01 * r * ((ga + e) * g + (ga + 3 * e) * xr * (g * xr).mean(axis=1, keepdims=True))
    b_dg = 1.01 * (gamma_n(column_depth(rows, order) + 2) + e) * (np.abs(dy) * xr).sum(axis=0)
    return narrowed(b_dx, dx_ref, dtype), narrowed(b_dg, dgamma_ref, dtype)


def assert_within(name, got, ref, bound):
    """Every element of got within bound of ref; a failure names the first
    few offenders with their indices."""
    err = np.abs(widen(got) - ref)
    bad = np.argwhere(~(err <= bound))
    if bad.size:
        lines = [f"  at {tuple(i)}: got {widen(got)[tuple(i)]!r}, ref {ref[tuple(i)]!r}, "
                 f"|err| {err[tuple(i)]:.3g} > bound {np.broadcast_to(bound, err.shape)[tuple(i)]:.3g}"
                 for i in bad[:5]]
        raise AssertionError(f"{name}: {len(bad)} of {err.size} elements outside the bound\n"
                             + "\n".join(lines))


def make(rng, shape, dtype, low=None, high=None):
    """Standard normal (or uniform in [low, high)) values in a numpy dtype."""
    if low is None:
        values = rng.standard_normal(shape, dtype=np.float32)
    else:
        values = rng.uniform(low, high, shape).astype(np.float32)
    return values.astype(NUMPY_TYPES[dtype])


def cli():
    """The normgrad command line of the C++ build (NORMGRAD_CLI, else
    build/bin/normgrad); `make test` builds it before running pytest."""
    path = pathlib.Path(os.environ.get("NORMGRAD_CLI", REPO / "build" / "bin" / "normgrad"))
    assert path.is_file(), (f"{path} does not exist: build the command line first "
                            f"(cmake --build build --target normgrad) or set NORMGRAD_CLI")
    return str(path)
