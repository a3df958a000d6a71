"""normgrad.torch: layer_norm and LayerNorm against torch.nn.functional.layer_norm
differentiated by autograd in float64, within the bounds of docs/numerics.md
("PyTorch oracle tolerances", the engine's depths).

Extending: add shapes to SHAPES; the reference is always float64 autograd on
the inputs widened exactly.
"""

import numpy as np
import pytest
import torch

import normgrad.torch as ngt
from conftest import (DTYPES, assert_within, backward_bounds, forward_bounds,
                      layer_norm_reference, make, widen)

SHAPES = [(2, 3, 64), (300, 100)]
EPS = 1e-5


def torch_float64_gradients(x, weight, bias, dy, eps):
    xt = torch.from_numpy(widen(x)).requires_grad_()
    wt = torch.from_numpy(widen(weight)).requires_grad_()
    bt = torch.from_numpy(widen(bias)).requires_grad_()
    y = torch.nn.functional.layer_norm(xt, (x.shape[-1],), wt, bt, eps)
    y.backward(torch.from_numpy(widen(dy)))
    return y.detach().numpy(), xt.grad.numpy(), wt.grad.numpy(), bt.grad.numpy()


def as_torch(a, dtype):
    return torch.from_numpy(widen(a)).to(getattr(torch, dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_gradients_match_float64_autograd(rng, shape, dtype):
    h = shape[-1]
    x, dy = make(rng, shape, dtype), make(rng, shape, dtype)
    weight, bias = make(rng, (h,), dtype, 0.5, 1.5), make(rng, (h,), dtype)
    xt = as_torch(x, dtype).requires_grad_()
    wt = as_torch(weight, dtype).requires_grad_()
    bt = as_torch(bias, dtype).requires_grad_()
    y = ngt.layer_norm(xt, (h,), wt, bt, EPS)
    assert y.dtype == xt.dtype and y.shape == xt.shape
    y.backward(as_torch(dy, dtype))

    eps = float(np.float32(EPS))
    y_ref, dx_ref, dw_ref, db_ref = torch_float64_gradients(x, weight, bias, dy, eps)
    rows = (widen(x).reshape(-1, h), widen(dy).reshape(-1, h))
    ref_rows = layer_norm_reference(rows[0], widen(weight), widen(bias), rows[1], eps)
    np.testing.assert_allclose(ref_rows[3], dx_ref.reshape(-1, h), rtol=1e-9, atol=1e-12)
    _, _, b_y = forward_bounds(rows[0], widen(weight), widen(bias), eps, y_ref.reshape(-1, h),
                               dtype)
    b_dx, b_dw, b_db = backward_bounds(rows[0], rows[1], widen(weight), eps,
                                       dx_ref.reshape(-1, h), dw_ref, db_ref, dtype, "blocked")
    assert_within("y", y.reshape(-1, h), y_ref.reshape(-1, h), b_y)
    assert_within("dx", xt.grad.reshape(-1, h), dx_ref.reshape(-1, h), b_dx)
    assert_within("dweight", wt.grad, dw_ref, b_dw)
    assert_within("dbias", bt.grad, db_ref, b_db)
    assert xt.grad.dtype == wt.grad.dtype == xt.dtype


def test_module_is_a_torch_layer_norm(rng):
    x = torch.from_numpy(make(rng, (4, 10, 32), "float32")).requires_grad_()
    ours, theirs = ngt.LayerNorm(32), torch.nn.LayerNorm(32)
    assert isinstance(ours, torch.nn.LayerNorm)
    ours.load_state_dict(theirs.state_dict())
    a, b = ours(x), theirs(x)
    torch.testing.assert_close(a, b)
    a.sum().backward()
    assert ours.weight.grad.shape == (32,) and ours.bias.grad.shape == (32,)


def test_without_weight_and_bias_and_with_two_normalized_axes(rng):
    x = torch.from_numpy(make(rng, (5, 4, 8), "float32")).requires_grad_()
    y = ngt.layer_norm(x, (4, 8), None, None, EPS)
    torch.testing.assert_close(y, torch.nn.functional.layer_norm(x, (4, 8), eps=EPS))
    y.backward(torch.ones_like(y))
    assert x.grad.shape == x.shape
    with pytest.raises(ValueError, match=r"x has shape \(5, 4, 8\); its last axes must be "
                                         r"normalized_shape \(8, 4\)"):
        ngt.layer_norm(x, (8, 4))


def test_backward_is_deterministic(rng):
    x = torch.from_numpy(make(rng, (2000, 64), "bfloat16").astype(np.float32)).bfloat16()
    grads = []
    for threads in (1, 2):
        torch.set_num_threads(threads)
        w = torch.ones(64, dtype=torch.bfloat16, requires_grad=True)
        xr = x.clone().requires_grad_()
        ngt.layer_norm(xr, (64,), w, None).backward(torch.ones_like(x) * 0.5 + x)
        grads.append((xr.grad.clone(), w.grad.clone()))
    assert torch.equal(grads[0][0], grads[1][0]) and torch.equal(grads[0][1], grads[1][1])


@pytest.mark.skipif(not ngt.USES_CUSTOM_OP,
                    reason=f"torch {torch.__version__} < 2.4: normgrad::layer_norm is an "
                           f"autograd.Function here, not a torch.library custom op, so opcheck "
                           f"cannot run")
def test_custom_op_passes_opcheck(rng):
    x = torch.from_numpy(make(rng, (8, 32), "float32")).requires_grad_()
    w = torch.ones(32, requires_grad=True)
    b = torch.zeros(32, requires_grad=True)
    torch.library.opcheck(torch.ops.normgrad.layer_norm.default, (x, w, b, EPS))
