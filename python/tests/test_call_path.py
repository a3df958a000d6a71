"""What one call does on its way to the engine: the work a call adds to the
engine's own, checked by counting it (python/bench/call_overhead.py times
it). A C-contiguous input takes one native call, and torch tensors reach the
native module without Tensor.__dlpack__'s Python-level wrapper or a detached
copy; inputs DLPack cannot describe are refused as before.

Extending: a new public function gets a case in CALLS; a new per-call step
gets a counter here rather than a timing.
"""

import numpy as np
import pytest
import torch

import normgrad
from normgrad import _normgrad


def _inputs(kind, shape=(32, 16)):
    rng = np.random.default_rng(1)
    x, dy = rng.standard_normal((2,) + shape, dtype=np.float32)
    gamma, beta = rng.standard_normal((2, shape[-1]), dtype=np.float32)
    _, mean, rstd = normgrad.layer_norm_forward(x, gamma, beta)
    arrays = (x, dy, gamma, beta, mean, rstd)
    return tuple(torch.from_numpy(a) for a in arrays) if kind == "torch" else arrays


CALLS = {
    "layer_norm_grad_beta": lambda x, dy, gamma, beta, mean, rstd:
        normgrad.layer_norm_grad_beta(dy, x),
    "layer_norm_forward": lambda x, dy, gamma, beta, mean, rstd:
        normgrad.layer_norm_forward(x, gamma, beta),
    "layer_norm_backward": lambda x, dy, gamma, beta, mean, rstd:
        normgrad.layer_norm_backward(x, dy, gamma, mean, rstd),
    "rms_norm_forward": lambda x, dy, gamma, beta, mean, rstd:
        normgrad.rms_norm_forward(x, gamma),
    # Any float32 per-row values serve as rstd here: the layer norm's.
    "rms_norm_backward": lambda x, dy, gamma, beta, mean, rstd:
        normgrad.rms_norm_backward(x, dy, gamma, rstd),
}


@pytest.mark.parametrize("kind", ["numpy", "torch"])
@pytest.mark.parametrize("name", list(CALLS))
def test_contiguous_inputs_take_one_native_call(monkeypatch, name, kind):
    arrays = _inputs(kind)
    calls = []
    for attr in dir(_normgrad):
        f = getattr(_normgrad, attr)
        if callable(f) and not attr.startswith("_"):
            monkeypatch.setattr(_normgrad, attr,
                                lambda *a, _f=f, _n=attr, **k: calls.append(_n) or _f(*a, **k))
    CALLS[name](*arrays)
    assert len(calls) == 1, f"{name} on {kind} inputs made the native calls {calls}"


@pytest.mark.parametrize("name", list(CALLS))
def test_torch_tensors_are_neither_detached_nor_exported_by_their_method(monkeypatch, name):
    """x requires grad, as in an autograd.Function: still read in place."""
    x, *rest = _inputs("torch")
    x.requires_grad_()
    counts = {"detach": 0, "__dlpack__": 0}
    for method in counts:
        original = getattr(torch.Tensor, method)

        def counted(self, *a, _m=method, _f=original, **k):
            counts[_m] += 1
            return _f(self, *a, **k)
        monkeypatch.setattr(torch.Tensor, method, counted)
    results = CALLS[name](x, *rest)
    monkeypatch.undo()
    assert counts == {"detach": 0, "__dlpack__": 0}
    want = CALLS[name](*(a.numpy() for a in _inputs("torch")))
    for got, w in zip(results, want):
        assert isinstance(got, torch.Tensor) and not got.requires_grad
        np.testing.assert_array_equal(got.numpy(), w)


def test_tensors_dlpack_cannot_describe_are_refused_with_type_error():
    meta = torch.empty(4, 4, device="meta")
    with pytest.raises(TypeError, match=r"incompatible function arguments"):
        normgrad.layer_norm_grad_beta(meta, meta)
    sparse = torch.eye(4).to_sparse()
    with pytest.raises(TypeError, match=r"incompatible function arguments"):
        normgrad.layer_norm_forward(sparse, torch.ones(4), torch.zeros(4))


def test_row_strided_torch_x_gives_outputs_of_its_layout():
    """The layout query a non-contiguous x still takes, for torch tensors."""
    x, dy, gamma, beta, _, _ = _inputs("torch", (40, 80))
    x, dy, gamma, beta = x[:, :64], dy[:, :64], gamma[:64].clone(), beta[:64].clone()
    y, mean, rstd = normgrad.layer_norm_forward(x, gamma, beta)
    assert y.stride() == x.stride()
    y_c, _, _ = normgrad.layer_norm_forward(x.contiguous(), gamma, beta)
    np.testing.assert_array_equal(y.numpy(), y_c.numpy())
    dx, _, _ = normgrad.layer_norm_backward(x, dy, gamma, mean, rstd)
    dx_c, _, _ = normgrad.layer_norm_backward(x.contiguous(), dy.contiguous(), gamma, mean, rstd)
    assert dx.stride() == x.stride()
    np.testing.assert_array_equal(dx.numpy(), dx_c.numpy())
