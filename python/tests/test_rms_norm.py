"""normgrad.rms_norm_forward and rms_norm_backward against a float64 RMS norm
written in conftest.py, within the bounds of docs/numerics.md ("RMS norm
forward and fused backward"); the same bits as the command line's
rmsnorm-forward and rmsnorm-backward, from numpy and torch and for any thread
count; and every refused argument with its whole message.

Extending: add shapes to SHAPES (rms_forward_bounds and rms_backward_bounds
take any rows × H); a new refusal gets a row in FORWARD_REFUSALS or
BACKWARD_REFUSALS with the exception and its exact message.
"""

import re
import subprocess

import ml_dtypes
import numpy as np
import pytest
import torch

import normgrad
from conftest import (DTYPES, assert_within, cli, make, rms_backward_bounds, rms_forward_bounds,
                      rms_norm_reference, widen)

SHAPES = [(1, 16), (33, 100), (300, 64), (600, 40)]
EPS = 1e-6


def inputs(rng, shape, dtype):
    """x, gamma, dy: gamma near 1 (as a trained one), x and dy standard normal."""
    return (make(rng, shape, dtype), make(rng, shape[-1:], dtype, 0.5, 1.5),
            make(rng, shape, dtype))


def bits(a):
    """The bit patterns of a float array, numpy or torch, as a numpy integer array."""
    if isinstance(a, torch.Tensor):
        a = a.numpy() if a.dtype != torch.bfloat16 else a.view(torch.int16).numpy()
    return a.view(np.uint16 if a.dtype.itemsize == 2 else np.uint32)


def assert_same_bits(got, want):
    assert got.shape == want.shape
    np.testing.assert_array_equal(bits(got), bits(want))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("rows,h", SHAPES)
def test_forward_within_derived_bound(rng, rows, h, dtype):
    x, gamma, dy = inputs(rng, (rows, h), dtype)
    y, rstd = normgrad.rms_norm_forward(x, gamma, EPS)
    assert type(y) is np.ndarray and y.dtype == x.dtype and y.shape == x.shape
    assert rstd.dtype == np.float32 and rstd.shape == (rows,)
    eps = float(np.float32(EPS))
    y_ref, r, _, _ = rms_norm_reference(widen(x), widen(gamma), widen(dy), eps)
    b_rstd, b_y = rms_forward_bounds(widen(x), widen(gamma), eps, y_ref, dtype)
    assert_within("rstd", rstd, r, b_rstd)
    assert_within("y", y, y_ref, b_y)


@pytest.mark.parametrize("order", ["blocked", "sequential"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("rows,h", SHAPES)
def test_backward_within_derived_bound(rng, rows, h, dtype, order):
    x, gamma, dy = inputs(rng, (rows, h), dtype)
    _, rstd = normgrad.rms_norm_forward(x, gamma, EPS)
    dx, dgamma = normgrad.rms_norm_backward(x, dy, gamma, rstd, order=order)
    assert normgrad.last_rms_norm_run()[0].startswith(order + ":")
    assert dx.dtype == x.dtype and dx.shape == x.shape
    assert dgamma.dtype == x.dtype and dgamma.shape == (h,)
    eps = float(np.float32(EPS))
    _, _, dx_ref, dg_ref = rms_norm_reference(widen(x), widen(gamma), widen(dy), eps, rstd)
    b_dx, b_dg = rms_backward_bounds(widen(x), widen(dy), widen(gamma), rstd, dx_ref, dg_ref,
                                     dtype, order)
    assert_within("dx", dx, dx_ref, b_dx)
    assert_within("dgamma", dgamma, dg_ref, b_dg)


def test_default_eps_is_the_engines(rng):
    x, gamma, _ = inputs(rng, (8, 32), "float32")
    for got, want in zip(normgrad.rms_norm_forward(x, gamma),
                         normgrad.rms_norm_forward(x, gamma, 1e-6)):
        assert_same_bits(got, want)


def _cli(tmp_path, command, arrays, dtype, *options):
    """Runs `normgrad command` on .npy files of `arrays` (bfloat16 as '<u2'
    bits with --dtype bfloat16); returns the output folder."""
    args = [cli(), command]
    for name, a in arrays.items():
        np.save(tmp_path / f"{name}.npy", a.view(np.uint16) if dtype == "bfloat16" else a)
        args += [f"--{name}", str(tmp_path / f"{name}.npy")]
    if dtype == "bfloat16":
        args += ["--dtype", "bfloat16"]
    out = tmp_path / command
    subprocess.run(args + list(options) + ["--out", str(out)], check=True, capture_output=True)
    return out


def _loaded(path, dtype):
    a = np.load(path)
    return a.view(ml_dtypes.bfloat16) if dtype == "bfloat16" else a


@pytest.mark.parametrize("kind", ["numpy", "torch"])
@pytest.mark.parametrize("order", ["blocked", "sequential"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_same_bits_as_the_command_line_for_any_thread_count(rng, tmp_path, dtype, order, kind):
    """`normgrad rmsnorm-forward` and `rmsnorm-backward` (the C++ engine
    behind the CLI) on the same [B, S, H] .npy files, 600 rows (three
    256-row blocks); the CLI writes rstd in the input type."""
    x, gamma, dy = inputs(rng, (2, 300, 40), dtype)
    eps = "1e-5"
    fwd = _cli(tmp_path, "rmsnorm-forward", {"x": x, "gamma": gamma}, dtype, "--eps", eps)
    bwd = _cli(tmp_path, "rmsnorm-backward", {"x": x, "dy": dy, "gamma": gamma}, dtype,
               "--eps", eps, "--order", order)
    want = {name: _loaded(folder / f"{name}.npy", dtype)
            for folder, names in ((fwd, ("y", "rstd")), (bwd, ("dx", "dgamma")))
            for name in names}
    if kind == "torch":
        x, gamma, dy = (torch.from_numpy(widen(a)).to(getattr(torch, dtype))
                        for a in (x, gamma, dy))
    for threads in (1, 2, 3, 4):
        y, rstd = normgrad.rms_norm_forward(x, gamma, 1e-5, threads=threads)
        dx, dgamma = normgrad.rms_norm_backward(x, dy, gamma, rstd, order=order, threads=threads)
        assert rstd.shape == (2, 300)
        rstd_in_type = widen(rstd).astype(np.float32).astype(want["rstd"].dtype)
        assert_same_bits(rstd_in_type, want["rstd"])
        for name, got in (("y", y), ("dx", dx), ("dgamma", dgamma)):
            assert_same_bits(got, want[name])


def test_numpy_and_torch_give_the_same_bits(rng):
    x, gamma, dy = inputs(rng, (3, 50, 24), "bfloat16")
    want_y, want_rstd = normgrad.rms_norm_forward(x, gamma)
    want_dx, want_dg = normgrad.rms_norm_backward(x, dy, gamma, want_rstd)
    tx, tgamma, tdy = (torch.from_numpy(widen(a)).bfloat16() for a in (x, gamma, dy))
    y, rstd = normgrad.rms_norm_forward(tx, tgamma)
    dx, dg = normgrad.rms_norm_backward(tx, tdy, tgamma, rstd)
    for got in (y, rstd, dx, dg):
        assert isinstance(got, torch.Tensor) and not got.requires_grad
    assert y.dtype == torch.bfloat16 and rstd.dtype == torch.float32 and rstd.shape == (3, 50)
    for got, want in ((y, want_y), (rstd, want_rstd), (dx, want_dx), (dg, want_dg)):
        assert_same_bits(got, want)


def test_uint16_marked_bfloat16_gives_the_same_bits(rng):
    x, gamma, dy = inputs(rng, (40, 32), "bfloat16")
    y, rstd = normgrad.rms_norm_forward(x, gamma)
    dx, dg = normgrad.rms_norm_backward(x, dy, gamma, rstd)
    x16, gamma16, dy16 = (a.view(np.uint16) for a in (x, gamma, dy))
    y16, rstd16 = normgrad.rms_norm_forward(x16, gamma16, dtype="bfloat16")
    dx16, dg16 = normgrad.rms_norm_backward(x16, dy16, gamma16, rstd16, dtype="bfloat16")
    assert y16.dtype == np.uint16 and dx16.dtype == np.uint16
    np.testing.assert_array_equal(rstd16, rstd)
    for got, want in ((y16, y), (dx16, dx), (dg16, dg)):
        np.testing.assert_array_equal(got, want.view(np.uint16))


@pytest.mark.parametrize("kind", ["numpy", "torch"])
def test_row_strided_x_is_read_in_place_and_gives_outputs_of_its_layout(rng, kind):
    """x's rows 72 elements apart: y and dx written with the same row
    stride, and the values those of the contiguous copy."""
    base = make(rng, (2, 40, 72), "float32")
    gamma = make(rng, (64,), "float32", 0.5, 1.5)
    if kind == "torch":
        base, gamma = torch.from_numpy(base), torch.from_numpy(gamma)
    x, dy = base[0, :, :64], base[1, :, :64]
    contiguous = (np.ascontiguousarray if kind == "numpy" else lambda t: t.contiguous())
    strides = (lambda a: a.strides) if kind == "numpy" else (lambda t: t.stride())
    y, rstd = normgrad.rms_norm_forward(x, gamma)
    y_c, rstd_c = normgrad.rms_norm_forward(contiguous(x), gamma)
    assert strides(y) == strides(x)
    assert_same_bits(y, y_c)
    assert_same_bits(rstd, rstd_c)
    dx, dg = normgrad.rms_norm_backward(x, dy, gamma, rstd)
    dx_c, dg_c = normgrad.rms_norm_backward(contiguous(x), contiguous(dy), gamma, rstd)
    assert strides(dx) == strides(x)
    assert_same_bits(dx, dx_c)
    assert_same_bits(dg, dg_c)


def test_three_axes_are_rows(rng):
    x, gamma, dy = inputs(rng, (3, 100, 32), "float16")
    y, rstd = normgrad.rms_norm_forward(x, gamma)
    dx, dg = normgrad.rms_norm_backward(x, dy, gamma, rstd)
    assert y.shape == dx.shape == (3, 100, 32) and rstd.shape == (3, 100)
    y2, rstd2 = normgrad.rms_norm_forward(x.reshape(300, 32), gamma)
    dx2, dg2 = normgrad.rms_norm_backward(x.reshape(300, 32), dy.reshape(300, 32), gamma, rstd2)
    for got, want in ((y, y2.reshape(3, 100, 32)), (rstd, rstd2.reshape(3, 100)),
                      (dx, dx2.reshape(3, 100, 32)), (dg, dg2)):
        assert_same_bits(got, want)


@pytest.mark.parametrize("kind", ["numpy", "torch"])
def test_zero_rows_give_empty_outputs_and_zero_dgamma(kind):
    x, gamma = np.zeros((0, 16), np.float32), np.ones(16, np.float32)
    if kind == "torch":
        x, gamma = torch.from_numpy(x), torch.from_numpy(gamma)
    y, rstd = normgrad.rms_norm_forward(x, gamma)
    dx, dgamma = normgrad.rms_norm_backward(x, x, gamma, rstd)
    assert y.shape == dx.shape == (0, 16) and rstd.shape == (0,)
    assert (widen(dgamma) == 0).all() and dgamma.shape == (16,)


def _strided_rows(a, row_stride):
    """a view of `a`'s data as 4 rows of 8 elements `row_stride` elements apart."""
    return np.lib.stride_tricks.as_strided(a, (4, 8), (row_stride * a.itemsize, a.itemsize))


F = "normgrad.rms_norm_forward: "
B = "normgrad.rms_norm_backward: "
CONTIGUOUS = "; pass a C-contiguous array (numpy.ascontiguousarray, tensor.contiguous())"
TYPES = ("it must be float32, float16 or bfloat16 (ml_dtypes.bfloat16, torch.bfloat16, or "
         "uint16 bits with dtype=\"bfloat16\")")

# (case, arguments changed from a good 8 × 16 float32 call, exception, message)
FORWARD_REFUSALS = [
    ("x float64", lambda a: dict(x=a["x"].astype(np.float64)), TypeError,
     F + "x has type float64; " + TYPES),
    ("x 0-d", lambda a: dict(x=np.float32(1.0)), ValueError,
     F + "x is a 0-d array; it needs at least one axis (H, rows × H or B × S × H)"),
    ("x without H", lambda a: dict(x=np.zeros((8, 0), np.float32)), ValueError,
     F + "x has shape (8, 0): the last axis (H) must not be empty"),
    ("x last axis strided", lambda a: dict(x=a["wide"][:, ::2]), ValueError,
     F + "x has shape (8, 16) and strides (32, 2) (in elements): the last axis must be "
     "contiguous (stride 1)" + CONTIGUOUS),
    ("x rows overlapping", lambda a: dict(x=_strided_rows(a["x"], 4), gamma=a["gamma"][:8]),
     ValueError, F + "x has shape (4, 8) and strides (4, 1) (in elements): rows must be at "
     "least H = 8 elements apart, in increasing order" + CONTIGUOUS),
    ("x axes of two strides", lambda a: dict(x=a["wide"].reshape(2, 4, 32)[:, :3, :16]),
     ValueError, F + "x has shape (2, 3, 16) and strides (128, 32, 1) (in elements): the axes "
     "before the last must together step through rows one fixed stride apart" + CONTIGUOUS),
    ("gamma short", lambda a: dict(gamma=a["gamma"][:8]), ValueError,
     F + "gamma has shape (8,) and strides (1,); it must be a contiguous vector of 16 elements"),
    ("gamma strided", lambda a: dict(gamma=a["wide"][0, ::2]), ValueError,
     F + "gamma has shape (16,) and strides (2,); it must be a contiguous vector of 16 "
     "elements"),
    ("gamma half", lambda a: dict(gamma=a["gamma"].astype(np.float16)), TypeError,
     F + "gamma has type half; it must be float, the type of x"),
    ("eps negative", lambda a: dict(eps=-1.0), ValueError,
     "RmsNormForward: eps -1 is negative; it must be finite and at least 0"),
    ("eps nan", lambda a: dict(eps=float("nan")), ValueError,
     "RmsNormForward: eps nan is not finite; it must be finite and at least 0"),
    ("dtype unknown", lambda a: dict(dtype="float8"), ValueError,
     F + "dtype 'float8' is not known; the only marking is dtype=\"bfloat16\", for uint16 "
     "arrays that hold bfloat16 bits"),
    ("dtype bfloat16 on float32", lambda a: dict(dtype="bfloat16"), TypeError,
     F + "x has type float32; with dtype=\"bfloat16\" every array must hold the bfloat16 bits "
     "as uint16 (or be bfloat16)"),
]

BACKWARD_REFUSALS = [
    ("dy rows", lambda a: dict(dy=a["dy"][:4]), ValueError,
     B + "x and dy have 8 × 16 and 4 × 16 elements (rows × H); they must have the same shape"),
    ("dy half", lambda a: dict(dy=a["dy"].astype(np.float16)), TypeError,
     B + "x is float and dy is half; they must have the same type"),
    ("dy row stride", lambda a: dict(dy=a["wide"][:, :16]), ValueError,
     B + "x and dy have rows 16 and 32 elements apart; the engine reads both with one row "
     "stride, so it must be the same (pass C-contiguous arrays)"),
    ("dy last axis strided", lambda a: dict(dy=a["wide"][:, ::2]), ValueError,
     B + "dy has shape (8, 16) and strides (32, 2) (in elements): the last axis must be "
     "contiguous (stride 1)" + CONTIGUOUS),
    ("gamma long", lambda a: dict(gamma=a["wide"][0]), ValueError,
     B + "gamma has shape (32,) and strides (1,); it must be a contiguous vector of 16 "
     "elements"),
    ("rstd short", lambda a: dict(rstd=a["rstd"][:4]), ValueError,
     B + "rstd has shape (4,) and strides (1,); it must be a contiguous vector of 8 elements"),
    ("rstd float64", lambda a: dict(rstd=a["rstd"].astype(np.float64)), TypeError,
     B + "rstd has type float64; it must be float, as rms_norm_forward returns rstd (float32)"),
    ("rstd half", lambda a: dict(rstd=a["rstd"].astype(np.float16)), TypeError,
     B + "rstd has type half; it must be float, as rms_norm_forward returns rstd (float32)"),
    ("order unknown", lambda a: dict(order="tree"), ValueError,
     B + "order \"tree\" is not known; it must be \"blocked\" or \"sequential\""),
    ("x int32", lambda a: dict(x=a["x"].astype(np.int32)), TypeError,
     B + "x has type int32; " + TYPES),
]


def _good(rng):
    x, gamma, dy = inputs(rng, (8, 16), "float32")
    _, rstd = normgrad.rms_norm_forward(x, gamma)
    return dict(x=x, gamma=gamma, dy=dy, rstd=rstd, wide=make(rng, (8, 32), "float32"))


def _raises_exactly(error, message):
    return pytest.raises(error, match="^" + re.escape(message) + "$")


@pytest.mark.parametrize("case", [r[0] for r in FORWARD_REFUSALS])
def test_forward_refusal(rng, case):
    _, change, error, message = next(r for r in FORWARD_REFUSALS if r[0] == case)
    a = _good(rng)
    args = dict(x=a["x"], gamma=a["gamma"])
    args.update(change(a))
    with _raises_exactly(error, message):
        normgrad.rms_norm_forward(**args)


@pytest.mark.parametrize("case", [r[0] for r in BACKWARD_REFUSALS])
def test_backward_refusal(rng, case):
    _, change, error, message = next(r for r in BACKWARD_REFUSALS if r[0] == case)
    a = _good(rng)
    args = dict(x=a["x"], dy=a["dy"], gamma=a["gamma"], rstd=a["rstd"])
    args.update(change(a))
    with _raises_exactly(error, message):
        normgrad.rms_norm_backward(**args)


def test_refusals_of_torch_tensors_name_the_same_rules(rng):
    a = {k: torch.from_numpy(v) for k, v in _good(rng).items()}
    with _raises_exactly(TypeError, F + "gamma has type bfloat16; it must be float, the type "
                                        "of x"):
        normgrad.rms_norm_forward(a["x"], a["gamma"].bfloat16())
    with _raises_exactly(ValueError, B + "x and dy have rows 16 and 32 elements apart; the "
                                         "engine reads both with one row stride, so it must "
                                         "be the same (pass C-contiguous arrays)"):
        normgrad.rms_norm_backward(a["x"], a["wide"][:, :16], a["gamma"], a["rstd"])
