"""What one call does on its way to the engine: the work a call adds to the
engine's own, checked by counting it (python/bench/call_overhead.py times
it). A C-contiguous input takes one native call, and torch tensors reach the
native module as they are, read through their attributes (no DLPack export,
no detached copy): every type and layout reads as the same numpy array does,
and tensors that are not dense CPU tensors are refused by name.

Extending: a new public function gets a case in CALLS; a new per-call step
gets a counter here rather than a timing.
"""

import subprocess
import sys

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


# The same calls with out=.
OUT_CALLS = {
    "layer_norm_grad_beta": lambda x, dy, gamma, beta, mean, rstd, out:
        normgrad.layer_norm_grad_beta(dy, x, out=out),
    "layer_norm_forward": lambda x, dy, gamma, beta, mean, rstd, out:
        normgrad.layer_norm_forward(x, gamma, beta, out=out),
    "layer_norm_backward": lambda x, dy, gamma, beta, mean, rstd, out:
        normgrad.layer_norm_backward(x, dy, gamma, mean, rstd, out=out),
    "rms_norm_forward": lambda x, dy, gamma, beta, mean, rstd, out:
        normgrad.rms_norm_forward(x, gamma, out=out),
    "rms_norm_backward": lambda x, dy, gamma, beta, mean, rstd, out:
        normgrad.rms_norm_backward(x, dy, gamma, rstd, out=out),
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


@pytest.mark.parametrize("name", list(CALLS))
def test_new_torch_outputs_are_separate_allocations(name):
    """Each new output is a tensor of its own (no view of a shared buffer), so
    it can be resized or freed alone; none requires grad."""
    results = CALLS[name](*_inputs("torch"))
    storages = {r.storage().data_ptr() for r in results}
    assert len(storages) == len(results)
    for r in results:
        assert r._base is None and not r.requires_grad and r.is_contiguous()
        r.resize_(2 * r.numel())  # its own storage, which torch may grow


@pytest.mark.parametrize("kind", ["numpy", "torch"])
@pytest.mark.parametrize("name", list(CALLS))
def test_arrays_of_no_numeric_type_are_refused_by_name(name, kind):
    """numpy arrays nanobind cannot import (object, string) are named with
    their type, as an input and as an out= entry."""
    arrays = _inputs(kind)
    api = "normgrad." + name
    words = np.array([["a"] * 16] * 32)
    with pytest.raises(TypeError, match=rf"^{api}: \w+ has type str32; it must be float32, "
                                        r"float16 or bfloat16"):
        CALLS[name](words, *arrays[1:])
    out = CALLS[name](*_inputs("numpy"))
    objects = out[0].astype(object)
    with pytest.raises(TypeError, match=rf"^{api}: out\[0\] \(\w+\) has type object;"):
        OUT_CALLS[name](*_inputs("numpy"), out=(objects,) + tuple(out[1:]))


def test_tensor_subclasses_are_read_through_their_own_attributes():
    """torch.Tensor and torch.nn.Parameter are read through torch's own
    descriptors; a subclass may override an attribute, and its own is used."""
    class Counted(torch.Tensor):
        reads = 0

        def data_ptr(self):
            Counted.reads += 1
            return super().data_ptr()
    x = torch.ones(4, 8).as_subclass(Counted)
    pd_gamma, pd_beta = normgrad.layer_norm_grad_beta(x, x)
    assert Counted.reads == 2
    assert pd_gamma.tolist() == [4.0] * 8 and pd_beta.tolist() == [4.0] * 8
    p = torch.nn.Parameter(torch.ones(4, 8))
    assert normgrad.layer_norm_grad_beta(p, p)[0].tolist() == [4.0] * 8


@pytest.mark.parametrize("kind", ["numpy", "torch"])
def test_statistics_in_x_leading_shape_are_read_in_place(monkeypatch, kind):
    """mean and rstd of a B × S × H x have shape (B, S): read where they lie
    when their elements are in row order, flattened by a copy otherwise."""
    x, dy, gamma, beta, _, _ = _inputs(kind, (2, 16, 8))
    _, mean, rstd = normgrad.layer_norm_forward(x, gamma, beta)
    want = normgrad.layer_norm_backward(x, dy, gamma, mean.reshape(-1), rstd.reshape(-1))
    shuffled = mean.T.contiguous().T if kind == "torch" else mean.T.copy().T  # column order
    reshaped = []
    cls = torch.Tensor if kind == "torch" else None
    if cls is not None:
        original = cls.reshape
        monkeypatch.setattr(cls, "reshape",
                            lambda self, *a: reshaped.append(a) or original(self, *a))
    for m, copies in [(mean, 0), (shuffled, 1)]:
        reshaped.clear()
        got = normgrad.layer_norm_backward(x, dy, gamma, m, rstd)
        if cls is not None:
            assert len(reshaped) == copies
        for g, w in zip(got, want):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


def test_tensors_not_dense_on_the_cpu_are_refused_by_name():
    x, dy, gamma, beta, _, _ = _inputs("torch", (4, 4))
    meta = torch.empty(4, 4, device="meta")
    with pytest.raises(TypeError, match=r"^normgrad\.layer_norm_grad_beta: res is a torch tensor "
                                        r"on device meta; normgrad computes on the CPU: pass "
                                        r"tensor\.cpu\(\)$"):
        normgrad.layer_norm_grad_beta(dy, meta)
    with pytest.raises(TypeError, match=r"^normgrad\.layer_norm_forward: out\[2\] \(rstd\) is a "
                                        r"torch tensor on device meta;"):
        normgrad.layer_norm_forward(x, gamma, beta,
                                    out=(torch.empty(4, 4), torch.empty(4), meta[0]))
    sparse = torch.eye(4).to_sparse()
    with pytest.raises(TypeError, match=r"^normgrad\.layer_norm_forward: x is a torch tensor of "
                                        r"layout torch\.sparse_coo; normgrad reads dense \(strided\) "
                                        r"tensors: pass tensor\.to_dense\(\)$"):
        normgrad.layer_norm_forward(sparse, torch.ones(4), torch.zeros(4))
    # A lazily negated view reads as its negation; its memory holds x itself.
    negated = torch._neg_view(x)
    with pytest.raises(TypeError, match=r"^normgrad\.layer_norm_backward: dy is a torch tensor "
                                        r"with its negative bit set .*; pass "
                                        r"tensor\.resolve_neg\(\)$"):
        normgrad.layer_norm_backward(x, negated, gamma, *normgrad.layer_norm_forward(
            x, gamma, beta)[1:])
    np.testing.assert_array_equal(
        normgrad.layer_norm_grad_beta(negated.resolve_neg(), x)[1].numpy(),
        normgrad.layer_norm_grad_beta(-x.numpy(), x.numpy())[1])


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_torch_tensors_of_each_type_give_the_numpy_bits(dtype):
    """Every type a tensor may have, in a C-contiguous and a row-strided
    layout, against the same values as numpy arrays (bfloat16 as ml_dtypes
    arrays)."""
    import ml_dtypes
    numpy_type = {"float32": np.float32, "float16": np.float16,
                  "bfloat16": ml_dtypes.bfloat16}[dtype]
    rng = np.random.default_rng(7)
    wide = rng.standard_normal((3, 24, 40), dtype=np.float32)
    x_np, dy_np = (a.astype(numpy_type) for a in wide[:2])
    gamma_np = wide[2, 0].astype(numpy_type)

    def tensor(a):
        return torch.from_numpy(a.astype(np.float32)).to(getattr(torch, dtype))
    for cols in (40, 32):  # C-contiguous, then rows 40 elements apart
        x, dy, gamma = x_np[:, :cols], dy_np[:, :cols], gamma_np[:cols].copy()
        xt, dyt, gammat = tensor(x_np)[:, :cols], tensor(dy_np)[:, :cols], tensor(gamma)
        _, mean, rstd = normgrad.layer_norm_forward(x, gamma, gamma)
        meant, rstdt = torch.from_numpy(mean), torch.from_numpy(rstd)
        for want, got in [
                (normgrad.layer_norm_grad_beta(dy, x), normgrad.layer_norm_grad_beta(dyt, xt)),
                (normgrad.layer_norm_forward(x, gamma, gamma),
                 normgrad.layer_norm_forward(xt, gammat, gammat)),
                (normgrad.layer_norm_backward(x, dy, gamma, mean, rstd),
                 normgrad.layer_norm_backward(xt, dyt, gammat, meant, rstdt)),
                (normgrad.rms_norm_backward(x, dy, gamma, rstd),
                 normgrad.rms_norm_backward(xt, dyt, gammat, rstdt))]:
            for w, g in zip(want, got):
                assert isinstance(g, torch.Tensor)
                g = g.float().numpy() if g.dtype == torch.bfloat16 else g.numpy()
                np.testing.assert_array_equal(g, w.astype(g.dtype))


@pytest.mark.parametrize("layout", ["last axis strided", "transposed", "rows interleaved"])
def test_torch_layouts_are_refused_with_the_numpy_message(layout):
    views = {"last axis strided": lambda a: a[:, ::2], "transposed": lambda a: a.T,
             "rows interleaved": lambda a: a.reshape(2, 4, 16)[:, :3]}
    a = np.arange(8 * 16, dtype=np.float32).reshape(8, 16)
    messages = []
    for x in (views[layout](a), views[layout](torch.from_numpy(a))):
        with pytest.raises(ValueError) as e:
            normgrad.layer_norm_grad_beta(x, x)
        messages.append(str(e.value))
    assert messages[0] == messages[1]
    assert "pass a C-contiguous array" in messages[0]


def test_torch_types_the_engine_lacks_are_named():
    for dtype, name in [(torch.float64, "float64"), (torch.int32, "int32"),
                        (torch.bool, "bool"), (torch.complex64, "complex64")]:
        t = torch.zeros(4, 4, dtype=dtype)
        with pytest.raises(TypeError, match=rf"^normgrad\.layer_norm_grad_beta: dy has type "
                                            rf"{name}; it must be float32, float16 or bfloat16"):
            normgrad.layer_norm_grad_beta(t, t)
    q = torch.quantize_per_tensor(torch.ones(4, 4), 0.1, 0, torch.qint8)
    with pytest.raises(TypeError, match=r"^normgrad\.layer_norm_grad_beta: dy has type qint8;"):
        normgrad.layer_norm_grad_beta(q, q)


def test_engine_timing_reports_the_engine_call():
    """time_engine (for call_overhead.py): the engine's own elapsed time of
    the last call, no longer than the whole call."""
    import time
    x = np.ones((256, 512), np.float32)
    _normgrad.time_engine(True)
    try:
        start = time.perf_counter_ns()
        normgrad.layer_norm_grad_beta(x, x)
        whole = time.perf_counter_ns() - start
        engine = _normgrad.last_engine_ns()
    finally:
        _normgrad.time_engine(False)
    assert 0 < engine < whole


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


def test_a_process_that_cannot_import_torch_calls_every_function():
    """Without torch (its import fails) every function takes numpy arrays."""
    script = """if True:
        import sys
        sys.modules["torch"] = None  # import torch raises ImportError
        import numpy as np, normgrad
        x = np.ones((4, 8), np.float32)
        g = np.ones(8, np.float32)
        y, mean, rstd = normgrad.layer_norm_forward(x, g, g)
        normgrad.layer_norm_backward(x, x, g, mean, rstd)
        normgrad.rms_norm_backward(x, x, g, normgrad.rms_norm_forward(x, g)[1])
        print(normgrad.layer_norm_grad_beta(x, x)[1].tolist(), y.tolist()[0])
        """
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    assert out == [f"{[4.0] * 8} {[1.0] * 8}"]


def test_torch_imported_after_normgrad_is_recognized():
    """normgrad looks torch up when a call gets an array, not at import: a
    process that imports torch later still has its tensors read in place
    (one requiring grad, which a DLPack export refuses) and refused by
    name."""
    script = """if True:
        import sys, numpy as np, normgrad
        normgrad.layer_norm_grad_beta(np.ones((4, 8), np.float32), np.ones((4, 8), np.float32))
        assert "torch" not in sys.modules
        import torch
        x = torch.ones(4, 8, requires_grad=True)
        print(normgrad.layer_norm_grad_beta(x, x)[1].tolist())
        try:
            normgrad.layer_norm_grad_beta(x, torch.ones(4, 8, device="meta"))
        except TypeError as e:
            print(e)
        """
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    assert out[0] == str([4.0] * 8)
    assert out[1].startswith("normgrad.layer_norm_grad_beta: res is a torch tensor on device meta")
