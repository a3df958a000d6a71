"""out= in layer_norm_grad_beta, layer_norm_forward, layer_norm_backward,
rms_norm_forward and rms_norm_backward:
the results written into the caller's arrays are bit for bit those of the
allocating call, on numpy arrays and torch tensors; every wrong out= is
refused with an exception naming the function, the argument and the rule,
and a refused call (including one the engine refuses) leaves out untouched.

Extending: a new function with outputs gets a Call in CALLS; a new rule on
out gets a row in REFUSALS (what to pass, the exception, its words).
"""

import numpy as np
import pytest
import torch

import normgrad
from conftest import DTYPES, make, widen

ROWS, H = 33, 40
SENTINEL = 7.0  # what out holds before a call; no result here is exactly 7


def to_torch(a):
    """A numpy array (ml_dtypes.bfloat16 included) as a torch tensor of the same values."""
    return torch.from_numpy(widen(a)).to(getattr(torch, a.dtype.name))


class Problem:
    """Inputs of every function in one kind (numpy or torch) and type."""

    def __init__(self, rng, kind, dtype, shape=(ROWS, H)):
        x, dy = make(rng, shape, dtype), make(rng, shape, dtype)
        gamma, beta = make(rng, shape[-1:], dtype, 0.5, 1.5), make(rng, shape[-1:], dtype)
        _, mean, rstd = normgrad.layer_norm_forward(x, gamma, beta)
        _, rms_rstd = normgrad.rms_norm_forward(x, gamma)
        self.arrays = dict(x=x, dy=dy, gamma=gamma, beta=beta, mean=mean, rstd=rstd,
                           rms_rstd=rms_rstd)
        if kind == "torch":
            self.arrays = {k: to_torch(v) for k, v in self.arrays.items()}
        self.__dict__.update(self.arrays)


# Each function's call on a Problem, and the name its messages start with.
CALLS = {
    "grad_beta": (lambda p, **kw: normgrad.layer_norm_grad_beta(p.dy, p.x, **kw),
                  "normgrad.layer_norm_grad_beta"),
    "forward": (lambda p, **kw: normgrad.layer_norm_forward(p.x, p.gamma, p.beta, **kw),
                "normgrad.layer_norm_forward"),
    "backward": (lambda p, **kw: normgrad.layer_norm_backward(p.x, p.dy, p.gamma, p.mean,
                                                              p.rstd, **kw),
                 "normgrad.layer_norm_backward"),
    "rms_forward": (lambda p, **kw: normgrad.rms_norm_forward(p.x, p.gamma, **kw),
                    "normgrad.rms_norm_forward"),
    "rms_backward": (lambda p, **kw: normgrad.rms_norm_backward(p.x, p.dy, p.gamma, p.rms_rstd,
                                                                **kw),
                     "normgrad.rms_norm_backward"),
}


def filled_like(results):
    """New arrays of the results' kinds, types and shapes, holding SENTINEL."""
    out = []
    for r in results:
        if isinstance(r, torch.Tensor):
            out.append(torch.full_like(r, SENTINEL))
        else:
            out.append(np.full_like(r, SENTINEL))
    return tuple(out)


def bits(a):
    """The bit patterns of a float array, numpy or torch, as a numpy integer array."""
    if isinstance(a, torch.Tensor):
        return a.view(torch.int16 if a.element_size() == 2 else torch.int32).numpy()
    return a.view(np.uint16 if a.itemsize == 2 else np.uint32)


def assert_bits_equal(got, want):
    assert type(got) is type(want) and got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(bits(got), bits(want))


def assert_untouched(out):
    for o in out:
        assert (widen(o) == SENTINEL).all(), "a refused call wrote into out"


@pytest.mark.parametrize("kind", ["numpy", "torch"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("api", CALLS)
def test_out_holds_the_allocating_calls_bits(rng, api, dtype, kind):
    call = CALLS[api][0]
    p = Problem(rng, kind, dtype)
    want = call(p)
    out = filled_like(want)
    got = call(p, out=out)
    assert got is out
    for g, w in zip(out, want):
        assert_bits_equal(g, w)


@pytest.mark.parametrize("kind", ["numpy", "torch"])
@pytest.mark.parametrize("api", ["forward", "rms_forward", "rms_backward"])
def test_three_axes_keep_their_shape(rng, api, kind):
    call = CALLS[api][0]
    p = Problem(rng, kind, "float32", shape=(3, 11, H))
    want = call(p)
    out = filled_like(want)
    assert out[0].shape == (3, 11, H) and out[1].shape == ((3, 11) if "forward" in api else (H,))
    call(p, out=out)
    for g, w in zip(out, want):
        assert_bits_equal(g, w)


def test_row_strided_x_writes_a_row_strided_out(rng):
    buffer = make(rng, (ROWS, 2 * H), "float32")
    x, gamma, beta = buffer[:, :H], make(rng, (H,), "float32"), make(rng, (H,), "float32")
    want = normgrad.layer_norm_forward(x, gamma, beta)
    out = (np.full((ROWS, 2 * H), SENTINEL, np.float32)[:, :H],
           np.empty(ROWS, np.float32), np.empty(ROWS, np.float32))
    normgrad.layer_norm_forward(x, gamma, beta, out=out)
    for g, w in zip(out, want):
        np.testing.assert_array_equal(g, w)
    assert (out[0].base[:, H:] == SENTINEL).all()


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_float32_out_with_out_dtype_float32(rng, dtype):
    p = Problem(rng, "numpy", dtype)
    want = normgrad.layer_norm_grad_beta(p.dy, p.x, out_dtype="float32")
    out = filled_like(want)
    normgrad.layer_norm_grad_beta(p.dy, p.x, out_dtype="float32", out=out)
    for g, w in zip(out, want):
        assert_bits_equal(g, w)


def test_uint16_marked_bfloat16_out(rng):
    p = Problem(rng, "numpy", "bfloat16")
    dy, x = p.dy.view(np.uint16), p.x.view(np.uint16)
    want = normgrad.layer_norm_grad_beta(dy, x, dtype="bfloat16")
    out = filled_like(want)
    normgrad.layer_norm_grad_beta(dy, x, dtype="bfloat16", out=out)
    for g, w in zip(out, want):
        assert_bits_equal(g, w)


def _replace(out, i, value):
    return out[:i] + (value,) + out[i + 1:]


def _strided(o):
    """An array of o's kind, type and shape whose last axis is not contiguous."""
    if isinstance(o, torch.Tensor):
        return torch.full(o.shape[:-1] + (2 * o.shape[-1],), SENTINEL, dtype=o.dtype)[..., ::2]
    return np.full(o.shape[:-1] + (2 * o.shape[-1],), SENTINEL, o.dtype)[..., ::2]


def _read_only(o):
    o = o.copy()
    o.flags.writeable = False
    return o


def _other_kind(o):
    return o.numpy() if isinstance(o, torch.Tensor) else torch.from_numpy(o)


def _wider(o):
    """o's kind and shape in a type no output has: float64."""
    if isinstance(o, torch.Tensor):
        return torch.full(o.shape, SENTINEL, dtype=torch.float64)
    return np.full(o.shape, SENTINEL, np.float64)


def _longer(o):
    shape = tuple(o.shape[:-1]) + (o.shape[-1] + 1,)
    if isinstance(o, torch.Tensor):
        return torch.full(shape, SENTINEL, dtype=o.dtype)
    return np.full(shape, SENTINEL, o.dtype)


# An input each function's out[0] is given in place of its own array.
ALIAS = {"grad_beta": lambda p: p.x[0], "forward": lambda p: p.x, "backward": lambda p: p.dy,
         "rms_forward": lambda p: p.x, "rms_backward": lambda p: p.dy}


def _view_of(o, like):
    """The first elements of o (C-contiguous) as an array of like's shape: the
    same memory."""
    n = int(np.prod(like.shape))
    if isinstance(o, torch.Tensor):
        return o.reshape(-1)[:n].view(like.shape)
    return o.reshape(-1)[:n].reshape(like.shape)


# (rule, how a good out is spoiled, exception, the message's words after "function: ")
REFUSALS = [
    ("list", lambda api, p, out: list(out), TypeError, r"out is list; it must be a tuple"),
    ("short", lambda api, p, out: out[:-1], ValueError, r"out has \d entries; it must have"),
    ("other kind", lambda api, p, out: _replace(out, 0, _other_kind(out[0])), TypeError,
     r"out\[0\] \(\w+\) is \w+; the inputs are"),
    ("type", lambda api, p, out: _replace(out, 1, _wider(out[1])), TypeError,
     r"out\[1\] \(\w+\) has type float64"),
    ("shape", lambda api, p, out: _replace(out, 0, _longer(out[0])), ValueError,
     r"out\[0\] \(\w+\) has shape"),
    ("last axis strided", lambda api, p, out: _replace(out, 0, _strided(out[0])), ValueError,
     r"out\[0\] \(\w+\) (has shape .* and strides|is not C-contiguous)"),
    ("alias of an input", lambda api, p, out: _replace(out, 0, ALIAS[api](p)), ValueError,
     r"out\[0\] \(\w+\) shares memory with the input (x|dy|res)"),
    ("alias of another output",
     lambda api, p, out: _replace(out, len(out) - 1, _view_of(out[-2], out[-1])),
     ValueError, r"out\[\d\] \(\w+\) shares memory with out\[\d\]"),
]


@pytest.mark.parametrize("kind", ["numpy", "torch"])
@pytest.mark.parametrize("rule", [r[0] for r in REFUSALS])
@pytest.mark.parametrize("api", CALLS)
def test_wrong_out_is_refused_and_left_untouched(rng, api, rule, kind):
    call, name = CALLS[api]
    _, spoil, error, words = next(r for r in REFUSALS if r[0] == rule)
    p = Problem(rng, kind, "float32")
    good = filled_like(call(p))
    bad = spoil(api, p, good)
    if rule == "alias of an input":
        before = {k: widen(v).copy() for k, v in p.arrays.items()}
    with pytest.raises(error, match=name + ": " + words):
        call(p, out=bad)
    assert_untouched(good)
    if rule == "alias of an input":
        for k, v in p.arrays.items():
            np.testing.assert_array_equal(widen(v), before[k])


@pytest.mark.parametrize("api", CALLS)
def test_read_only_numpy_out_is_refused(rng, api):
    call, name = CALLS[api]
    p = Problem(rng, "numpy", "float32")
    good = filled_like(call(p))
    with pytest.raises(ValueError, match=name + r": out\[1\] \(\w+\) is read-only"):
        call(p, out=_replace(good, 1, _read_only(good[1])))
    assert_untouched(good)


@pytest.mark.parametrize("api", CALLS)
def test_torch_out_requiring_grad_is_refused(rng, api):
    call, name = CALLS[api]
    p = Problem(rng, "torch", "float32")
    good = filled_like(call(p))
    with pytest.raises(ValueError, match=name + r": out\[0\] \(\w+\) requires grad; .*"
                                              r"pass out\[0\]\.detach\(\)"):
        call(p, out=_replace(good, 0, good[0].clone().requires_grad_()))
    assert_untouched(good)


@pytest.mark.parametrize("kind", ["numpy", "torch"])
@pytest.mark.parametrize("api,name", [("forward", "mean"), ("rms_forward", "rstd")])
def test_statistics_out_of_another_shape_or_layout_is_refused(rng, api, name, kind):
    call, function = CALLS[api]
    p = Problem(rng, kind, "float32")
    good = filled_like(call(p))
    column = _strided(good[1].reshape(ROWS, 1))[:, 0]  # ROWS floats, 2 apart
    for stats, words in [(good[1].reshape(ROWS, 1), r"has shape \(33, 1\); it must have x's "
                                                    r"shape without its last axis, \(33,\)"),
                         (column, r"is not C-contiguous")]:
        with pytest.raises(ValueError, match=function + r": out\[1\] \(" + name + r"\) "
                                             + words):
            call(p, out=_replace(good, 1, stats))
    assert_untouched(good)


@pytest.mark.parametrize("api,name", [("forward", "y"), ("backward", "dx"), ("rms_forward", "y"),
                                      ("rms_backward", "dx")])
def test_out_with_rows_apart_other_than_x_is_refused(rng, api, name):
    call, function = CALLS[api]
    p = Problem(rng, "numpy", "float32")
    good = filled_like(call(p))
    rows = np.full((ROWS, H + 8), SENTINEL, np.float32)[:, :H]
    with pytest.raises(ValueError, match=function + r": out\[0\] \(" + name + r"\) has rows "
                                         r"48 elements apart and x 40; .* must be the same"):
        call(p, out=_replace(good, 0, rows))
    assert (rows == SENTINEL).all()
    assert_untouched(good)


def test_grad_beta_out_must_have_the_type_out_dtype_gives(rng):
    p = Problem(rng, "numpy", "float16")
    good = filled_like(normgrad.layer_norm_grad_beta(p.dy, p.x))
    wide = tuple(np.full(H, SENTINEL, np.float32) for _ in range(2))
    with pytest.raises(TypeError, match=r"normgrad.layer_norm_grad_beta: out\[0\] \(pd_gamma\) "
                                        r"has type float32; it must have the type the call "
                                        r"returns, float16 \(out_dtype=None\)"):
        normgrad.layer_norm_grad_beta(p.dy, p.x, out=wide)
    with pytest.raises(TypeError, match=r"out\[0\] \(pd_gamma\) has type float16; .* float32 "
                                        r"\(out_dtype='float32'\)"):
        normgrad.layer_norm_grad_beta(p.dy, p.x, out_dtype="float32", out=good)
    assert_untouched(good)
    assert_untouched(wide)


@pytest.mark.parametrize("kind", ["numpy", "torch"])
def test_call_the_engine_refuses_leaves_out_untouched(rng, kind):
    p = Problem(rng, kind, "float32")
    good = filled_like(normgrad.layer_norm_forward(p.x, p.gamma, p.beta))
    with pytest.raises(ValueError, match=r"eps"):
        normgrad.layer_norm_forward(p.x, p.gamma, p.beta, -1.0, out=good)
    assert_untouched(good)
    good = filled_like(normgrad.layer_norm_backward(p.x, p.dy, p.gamma, p.mean, p.rstd))
    with pytest.raises(ValueError, match=r'order "tree" is not known'):
        normgrad.layer_norm_backward(p.x, p.dy, p.gamma, p.mean, p.rstd, order="tree", out=good)
    assert_untouched(good)
    good = filled_like(normgrad.rms_norm_forward(p.x, p.gamma))
    with pytest.raises(ValueError, match=r"^RmsNormForward: eps -1 is negative"):
        normgrad.rms_norm_forward(p.x, p.gamma, -1.0, out=good)
    assert_untouched(good)
    good = filled_like(normgrad.rms_norm_backward(p.x, p.dy, p.gamma, p.rms_rstd))
    with pytest.raises(ValueError, match=r'order "tree" is not known'):
        normgrad.rms_norm_backward(p.x, p.dy, p.gamma, p.rms_rstd, order="tree", out=good)
    assert_untouched(good)


def test_interleaved_row_strided_out_counts_as_sharing_memory(rng):
    # Judged by extents, as numpy.may_share_memory: y's rows lie between x's.
    buffer = np.full((ROWS, 2 * H), SENTINEL, np.float32)
    x, y = buffer[:, :H], buffer[:, H:]
    x[...] = make(rng, (ROWS, H), "float32")
    gamma, beta = make(rng, (H,), "float32"), make(rng, (H,), "float32")
    out = (y, np.full(ROWS, SENTINEL, np.float32), np.full(ROWS, SENTINEL, np.float32))
    with pytest.raises(ValueError, match=r"out\[0\] \(y\) shares memory with the input x"):
        normgrad.layer_norm_forward(x, gamma, beta, out=out)
    assert_untouched(out)
