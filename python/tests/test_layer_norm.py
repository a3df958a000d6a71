"""normgrad.layer_norm_forward and layer_norm_backward against a float64
layer norm written in conftest.py, within the bounds of docs/numerics.md.

Extending: add shapes to SHAPES; forward_bounds and backward_bounds take any
rows × H.
"""

import numpy as np
import pytest
import torch

import normgrad
from conftest import (DTYPES, assert_within, backward_bounds, forward_bounds,
                      layer_norm_reference, make, widen)

SHAPES = [(1, 16), (33, 100), (300, 64)]
EPS = 1e-5


def inputs(rng, rows, h, dtype):
    return (make(rng, (rows, h), dtype), make(rng, (h,), dtype, 0.5, 1.5),
            make(rng, (h,), dtype), make(rng, (rows, h), dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("rows,h", SHAPES)
def test_forward_within_derived_bound(rng, rows, h, dtype):
    x, gamma, beta, dy = inputs(rng, rows, h, dtype)
    y, mean, rstd = normgrad.layer_norm_forward(x, gamma, beta, EPS)
    assert y.dtype == x.dtype and y.shape == x.shape
    assert mean.dtype == np.float32 and mean.shape == (rows,) and rstd.shape == (rows,)
    eps = float(np.float32(EPS))
    y_ref, mu, r, *_ = layer_norm_reference(widen(x), widen(gamma), widen(beta), widen(dy), eps)
    b_mean, b_rstd, b_y = forward_bounds(widen(x), widen(gamma), widen(beta), eps, y_ref, dtype)
    assert_within("mean", mean, mu, b_mean)
    assert_within("rstd", rstd, r, b_rstd)
    assert_within("y", y, y_ref, b_y)


@pytest.mark.parametrize("order", ["blocked", "sequential"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("rows,h", SHAPES)
def test_backward_within_derived_bound(rng, rows, h, dtype, order):
    x, gamma, beta, dy = inputs(rng, rows, h, dtype)
    _, mean, rstd = normgrad.layer_norm_forward(x, gamma, beta, EPS)
    dx, dgamma, dbeta = normgrad.layer_norm_backward(x, dy, gamma, mean, rstd, order=order)
    assert dx.dtype == x.dtype and dgamma.dtype == x.dtype and dgamma.shape == (h,)
    eps = float(np.float32(EPS))
    *_, dx_ref, dg_ref, db_ref = layer_norm_reference(widen(x), widen(gamma), widen(beta),
                                                      widen(dy), eps)
    b_dx, b_dg, b_db = backward_bounds(widen(x), widen(dy), widen(gamma), eps, dx_ref, dg_ref,
                                       db_ref, dtype, order)
    assert_within("dx", dx, dx_ref, b_dx)
    assert_within("dgamma", dgamma, dg_ref, b_dg)
    assert_within("dbeta", dbeta, db_ref, b_db)


def test_three_axes_and_torch(rng):
    x, gamma, beta, dy = inputs(rng, 6 * 50, 32, "float32")
    x3, dy3 = x.reshape(6, 50, 32), dy.reshape(6, 50, 32)
    y, mean, rstd = normgrad.layer_norm_forward(x3, gamma, beta)
    assert y.shape == (6, 50, 32) and mean.shape == (6, 50)
    ty, tmean, trstd = normgrad.layer_norm_forward(*map(torch.from_numpy, (x3, gamma, beta)))
    assert isinstance(ty, torch.Tensor) and tmean.shape == (6, 50)
    np.testing.assert_array_equal(ty.numpy(), y)
    dx, dg, db = normgrad.layer_norm_backward(x3, dy3, gamma, mean, rstd)
    tdx, tdg, tdb = normgrad.layer_norm_backward(*map(torch.from_numpy, (x3, dy3, gamma)),
                                                 tmean, trstd)
    assert isinstance(tdx, torch.Tensor) and tdx.shape == (6, 50, 32)
    for t, n in zip((tdx, tdg, tdb), (dx, dg, db)):
        np.testing.assert_array_equal(t.numpy(), n)


def test_row_strided_x_gives_outputs_of_its_layout(rng):
    """x's rows 80 elements apart: read in place, y and dx written with the
    same row stride, and the values those of the contiguous copy."""
    base = make(rng, (2, 40, 80), "float32")
    x, dy = base[0, :, :64], base[1, :, :64]
    gamma, beta = make(rng, (64,), "float32", 0.5, 1.5), make(rng, (64,), "float32")
    y, mean, rstd = normgrad.layer_norm_forward(x, gamma, beta)
    assert y.strides == x.strides
    y_c, mean_c, _ = normgrad.layer_norm_forward(np.ascontiguousarray(x), gamma, beta)
    np.testing.assert_array_equal(y, y_c)
    np.testing.assert_array_equal(mean, mean_c)
    dx, dg, _ = normgrad.layer_norm_backward(x, dy, gamma, mean, rstd)
    dx_c, dg_c, _ = normgrad.layer_norm_backward(np.ascontiguousarray(x), np.ascontiguousarray(dy),
                                                 gamma, mean, rstd)
    assert dx.strides == x.strides
    np.testing.assert_array_equal(dx, dx_c)
    np.testing.assert_array_equal(dg, dg_c)


@pytest.mark.parametrize("make_x", [lambda: torch.zeros(0, 16), lambda: torch.zeros(2, 0, 16),
                                    lambda: torch.from_numpy(np.zeros((0, 16), np.float32))])
def test_torch_input_without_rows_gives_empty_outputs(make_x):
    """torch exports an empty tensor's strides as it likes ((1, 1), (1, 0)):
    without rows they do not matter."""
    x = make_x()
    y, mean, rstd = normgrad.layer_norm_forward(x, torch.ones(16), torch.zeros(16))
    assert y.shape == x.shape and mean.shape == x.shape[:-1]
    dx, dgamma, dbeta = normgrad.layer_norm_backward(x, x, torch.ones(16), mean, rstd)
    assert dx.shape == x.shape and torch.equal(dgamma, torch.zeros(16))
    assert torch.equal(dbeta, torch.zeros(16))


def test_errors(rng):
    x, gamma, beta, dy = inputs(rng, 8, 16, "float32")
    with pytest.raises(ValueError, match=r"normgrad.layer_norm_forward: gamma has shape \(8,\).*"
                                         r"contiguous vector of 16 elements"):
        normgrad.layer_norm_forward(x, gamma[:8], beta)
    with pytest.raises(TypeError, match=r"normgrad.layer_norm_forward: beta has type half; it "
                                        r"must be float, the type of x"):
        normgrad.layer_norm_forward(x, gamma, beta.astype(np.float16))
    with pytest.raises(ValueError, match=r"^LayerNormForward: eps -1 is negative; it must be "
                                         r"finite and at least 0$"):
        normgrad.layer_norm_forward(x, gamma, beta, -1.0)
    _, mean, rstd = normgrad.layer_norm_forward(x, gamma, beta)
    with pytest.raises(ValueError, match=r"normgrad.layer_norm_backward: rstd has shape \(4,\)"):
        normgrad.layer_norm_backward(x, dy, gamma, mean, rstd[:4])
    with pytest.raises(TypeError, match=r"normgrad.layer_norm_backward: mean has type float64; "
                                        r"it must be float, as layer_norm_forward returns"):
        normgrad.layer_norm_backward(x, dy, gamma, mean.astype(np.float64), rstd)
