"""normgrad.torch: layer_norm and LayerNorm against torch.nn.functional.layer_norm
differentiated by autograd in float64, within the bounds of docs/numerics.md
("PyTorch oracle tolerances", the engine's depths); rms_norm and RMSNorm
against the composite x·rsqrt(mean(x²) + eps)·weight differentiated by
autograd in float64, within the bounds of conftest.rms_oracle_bounds (those of
"RMS norm forward and fused backward", with the forward pass's rstd error
carried into the gradients).

Extending: add shapes to SHAPES; the reference is always float64 autograd on
the inputs widened exactly.
"""

import numpy as np
import pytest
import torch

import normgrad.torch as ngt
from conftest import (DTYPES, assert_within, backward_bounds, forward_bounds,
                      layer_norm_reference, make, rms_forward_bounds, rms_norm_reference,
                      rms_oracle_bounds, widen)

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
    w = torch.from_numpy(make(rng, (32,), "float32", 0.5, 1.5)).requires_grad_()
    b = torch.zeros(32, requires_grad=True)
    torch.library.opcheck(torch.ops.normgrad.layer_norm.default, (x, w, b, EPS))
    _, mean, rstd = (t.detach() for t in torch.ops.normgrad.layer_norm(x, w, b, EPS))
    dy = torch.from_numpy(make(rng, (8, 32), "float32"))
    torch.library.opcheck(torch.ops.normgrad.layer_norm_backward.default,
                          (x.detach(), dy, w.detach(), mean, rstd))


def rms_composite(x, weight, eps):
    """RMS norm as a torch user writes it without torch.nn.RMSNorm."""
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight


def torch_float64_rms_gradients(x, weight, dy, eps):
    xt = torch.from_numpy(widen(x)).requires_grad_()
    wt = torch.from_numpy(widen(weight)).requires_grad_()
    y = rms_composite(xt, wt, eps)
    y.backward(torch.from_numpy(widen(dy)))
    return y.detach().numpy(), xt.grad.numpy(), wt.grad.numpy()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_rms_gradients_match_float64_autograd(rng, shape, dtype):
    h = shape[-1]
    x, dy = make(rng, shape, dtype), make(rng, shape, dtype)
    weight = make(rng, (h,), dtype, 0.5, 1.5)
    xt = as_torch(x, dtype).requires_grad_()
    wt = as_torch(weight, dtype).requires_grad_()
    y = ngt.rms_norm(xt, (h,), wt, 1e-6)
    assert y.dtype == xt.dtype and y.shape == xt.shape
    y.backward(as_torch(dy, dtype))

    eps = float(np.float32(1e-6))
    y_ref, dx_ref, dw_ref = torch_float64_rms_gradients(x, weight, dy, eps)
    rows = (widen(x).reshape(-1, h), widen(dy).reshape(-1, h))
    ref_rows = rms_norm_reference(rows[0], widen(weight), rows[1], eps)
    np.testing.assert_allclose(ref_rows[2], dx_ref.reshape(-1, h), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ref_rows[3], dw_ref, rtol=1e-9, atol=1e-12)
    _, b_y = rms_forward_bounds(rows[0], widen(weight), eps, y_ref.reshape(-1, h), dtype)
    b_dx, b_dw = rms_oracle_bounds(rows[0], rows[1], widen(weight), eps, dx_ref.reshape(-1, h),
                                   dw_ref, dtype, "blocked")
    assert_within("y", y.reshape(-1, h), y_ref.reshape(-1, h), b_y)
    assert_within("dx", xt.grad.reshape(-1, h), dx_ref.reshape(-1, h), b_dx)
    assert_within("dweight", wt.grad, dw_ref, b_dw)
    assert xt.grad.dtype == wt.grad.dtype == xt.dtype


def test_rms_module_is_shaped_like_torch_rms_norm(rng):
    ours = ngt.RMSNorm(32)
    assert ours.normalized_shape == (32,) and ours.eps is None and ours.elementwise_affine
    assert list(ours.state_dict()) == ["weight"] and torch.equal(ours.weight, torch.ones(32))
    assert repr(ours) == "RMSNorm((32,), eps=None, elementwise_affine=True)"
    x = torch.from_numpy(make(rng, (4, 10, 32), "float32")).requires_grad_()
    with torch.no_grad():
        ours.weight.uniform_(0.5, 1.5)
    y = ours(x)
    torch.testing.assert_close(y, rms_composite(x, ours.weight, ngt.DEFAULT_RMS_EPS))
    y.sum().backward()
    assert ours.weight.grad.shape == (32,) and x.grad.shape == x.shape

    bare = ngt.RMSNorm([4, 8], eps=1e-5, elementwise_affine=False, dtype=torch.bfloat16)
    assert bare.weight is None and list(bare.state_dict()) == []
    xb = x.detach()[:, :, :32].reshape(4, 10, 4, 8).bfloat16()
    assert bare(xb).dtype == torch.bfloat16
    assert torch.equal(bare(xb), ngt.rms_norm(xb, (4, 8), None, 1e-5))


def test_rms_default_eps_is_float32_epsilon_for_every_type(rng):
    assert ngt.DEFAULT_RMS_EPS == torch.finfo(torch.float32).eps == 2.0 ** -23
    for dtype in (torch.float32, torch.float16, torch.bfloat16):
        x = torch.from_numpy(make(rng, (6, 16), "float32")).to(dtype)
        assert torch.equal(ngt.rms_norm(x, 16), ngt.rms_norm(x, 16, eps=2.0 ** -23))


def test_rms_without_weight_and_with_two_normalized_axes(rng):
    x = torch.from_numpy(make(rng, (5, 4, 8), "float32")).requires_grad_()
    y = ngt.rms_norm(x, (4, 8), None, 1e-6)
    flat = x.reshape(5, 32)
    torch.testing.assert_close(y, rms_composite(flat, torch.ones(32), 1e-6).reshape(5, 4, 8))
    y.backward(torch.ones_like(y))
    assert x.grad.shape == x.shape
    with pytest.raises(ValueError, match=r"^normgrad.torch.rms_norm: x has shape \(5, 4, 8\); "
                                         r"its last axes must be normalized_shape \(8, 4\)$"):
        ngt.rms_norm(x, (8, 4))
    with pytest.raises(ValueError, match=r"^RmsNormForward: eps -1 is negative; it must be "
                                         r"finite and at least 0$"):
        ngt.rms_norm(x, (4, 8), None, -1.0)


def test_rms_backward_is_deterministic(rng):
    x = torch.from_numpy(make(rng, (2000, 64), "bfloat16").astype(np.float32)).bfloat16()
    grads = []
    for threads in (1, 2):
        torch.set_num_threads(threads)
        w = torch.ones(64, dtype=torch.bfloat16, requires_grad=True)
        xr = x.clone().requires_grad_()
        ngt.rms_norm(xr, (64,), w).backward(torch.ones_like(x) * 0.5 + x)
        grads.append((xr.grad.clone(), w.grad.clone()))
    assert torch.equal(grads[0][0], grads[1][0]) and torch.equal(grads[0][1], grads[1][1])


@pytest.mark.skipif(not ngt.USES_CUSTOM_OP,
                    reason=f"torch {torch.__version__} < 2.4: normgrad::rms_norm is an "
                           f"autograd.Function here, not a torch.library custom op, so opcheck "
                           f"cannot run")
def test_rms_custom_op_passes_opcheck(rng):
    x = torch.from_numpy(make(rng, (8, 32), "float32")).requires_grad_()
    w = torch.from_numpy(make(rng, (32,), "float32", 0.5, 1.5)).requires_grad_()
    torch.library.opcheck(torch.ops.normgrad.rms_norm.default, (x, w, 1e-6))
    rstd = torch.ops.normgrad.rms_norm(x, w, 1e-6)[1].detach()
    dy = torch.from_numpy(make(rng, (8, 32), "float32"))
    torch.library.opcheck(torch.ops.normgrad.rms_norm_backward.default,
                          (x.detach(), dy, w.detach(), rstd))
