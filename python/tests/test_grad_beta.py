"""normgrad.layer_norm_grad_beta against float64 sums and the sequential
order's literal transcription; array kinds, element types, layouts and errors.

Extending: add shapes to SHAPES (rows around the 256-row block and the tree's
levels) or element types to conftest.DTYPES; every comparison is against a
reference written here.
"""

import subprocess

import ml_dtypes
import numpy as np
import pytest
import torch

import normgrad
from conftest import (DTYPES, NUMPY_TYPES, assert_within, cli, column_depth, gamma_n, make,
                      narrowed, widen)

# rows × H: one row, one block, a block and one, several tree levels.
SHAPES = [(1, 16), (256, 64), (257, 40), (1500, 96)]


def reference(dy, res):
    d, r = widen(dy), widen(res)
    return (d * r).sum(axis=0), d.sum(axis=0), np.abs(d * r).sum(axis=0), np.abs(d).sum(axis=0)


def bounds(dy, res, dtype, order):
    """docs/numerics.md: blocked |err| ≤ γ(256 + ⌈log2 blocks⌉ + 1)·Σ|terms|,
    sequential γ(rows + 1)·Σ|terms| (the +1: the product's rounding; pd_beta
    has exact terms), then half an ulp of a 16-bit output."""
    rows = dy.shape[0]
    n = column_depth(rows, order)
    g_ref, b_ref, g_abs, b_abs = reference(dy, res)
    return (narrowed(gamma_n(n + 1) * g_abs, g_ref, dtype),
            narrowed(gamma_n(n) * b_abs, b_ref, dtype), g_ref, b_ref)


def sequential_transcription(dy, res, dtype):
    """The device order written out: per column acc = fl(acc + fl(dy·res)),
    row after row from 0, in float32; narrowed once to the output type."""
    d = widen(dy).astype(np.float32)
    r = widen(res).astype(np.float32)
    acc_g = np.zeros(d.shape[1], np.float32)
    acc_b = np.zeros(d.shape[1], np.float32)
    for row in range(d.shape[0]):
        acc_g = acc_g + d[row] * r[row]
        acc_b = acc_b + d[row]
    return acc_g.astype(NUMPY_TYPES[dtype]), acc_b.astype(NUMPY_TYPES[dtype])


def assert_same_values(got, want):
    """Equal values: for these finite, non-zero sums, the same bits."""
    np.testing.assert_array_equal(widen(got), widen(want))


@pytest.mark.parametrize("order", ["blocked", "sequential"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("rows,h", SHAPES)
def test_within_derived_bound(rng, rows, h, dtype, order):
    dy, res = make(rng, (rows, h), dtype), make(rng, (rows, h), dtype)
    pd_gamma, pd_beta = normgrad.layer_norm_grad_beta(dy, res, order=order)
    assert type(pd_gamma) is np.ndarray and pd_gamma.dtype == dy.dtype
    assert pd_gamma.shape == (h,) and pd_beta.shape == (h,)
    b_g, b_b, g_ref, b_ref = bounds(dy, res, dtype, order)
    assert_within("pd_gamma", pd_gamma, g_ref, b_g)
    assert_within("pd_beta", pd_beta, b_ref, b_b)


@pytest.mark.parametrize("dtype", DTYPES)
def test_sequential_is_the_device_order_bit_for_bit(rng, dtype):
    dy, res = make(rng, (700, 48), dtype), make(rng, (700, 48), dtype)
    pd_gamma, pd_beta = normgrad.layer_norm_grad_beta(dy, res, order="sequential")
    assert normgrad.last_run()[0].startswith("sequential:")
    want_g, want_b = sequential_transcription(dy, res, dtype)
    assert_same_values(pd_gamma, want_g)
    assert_same_values(pd_beta, want_b)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("order", ["sequential", "blocked"])
def test_same_bits_as_the_command_line(rng, tmp_path, dtype, order):
    """`normgrad run` (the C++ engine behind the CLI) on the same .npy files."""
    dy, res = make(rng, (600, 64), dtype), make(rng, (600, 64), dtype)
    np.save(tmp_path / "dy.npy", dy)
    np.save(tmp_path / "res.npy", res)
    subprocess.run([cli(), "run", "--dy", str(tmp_path / "dy.npy"), "--res",
                    str(tmp_path / "res.npy"), "--order", order, "--out", str(tmp_path / "out")],
                   check=True, capture_output=True)
    pd_gamma, pd_beta = normgrad.layer_norm_grad_beta(dy, res, order=order)
    assert_same_values(pd_gamma, np.load(tmp_path / "out" / "pd_gamma.npy"))
    assert_same_values(pd_beta, np.load(tmp_path / "out" / "pd_beta.npy"))


@pytest.mark.parametrize("order", ["blocked", "sequential"])
def test_three_axes_are_rows(rng, order):
    dy, res = make(rng, (3, 100, 32), "float32"), make(rng, (3, 100, 32), "float32")
    got = normgrad.layer_norm_grad_beta(dy, res, order=order)
    want = normgrad.layer_norm_grad_beta(dy.reshape(300, 32), res.reshape(300, 32), order=order)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_torch_in_torch_out(rng, dtype):
    dy, res = make(rng, (300, 64), dtype), make(rng, (300, 64), dtype)
    tdy = torch.from_numpy(widen(dy)).to(getattr(torch, dtype))
    tres = torch.from_numpy(widen(res)).to(getattr(torch, dtype))
    pd_gamma, pd_beta = normgrad.layer_norm_grad_beta(tdy, tres, order="sequential")
    assert isinstance(pd_gamma, torch.Tensor) and pd_gamma.dtype == tdy.dtype
    want_g, want_b = normgrad.layer_norm_grad_beta(dy, res, order="sequential")
    np.testing.assert_array_equal(widen(pd_gamma), widen(want_g))
    np.testing.assert_array_equal(widen(pd_beta), widen(want_b))


def test_torch_tensor_requiring_grad_is_read(rng):
    dy = torch.from_numpy(make(rng, (10, 16), "float32")).requires_grad_()
    pd_gamma, _ = normgrad.layer_norm_grad_beta(dy, dy.detach())
    assert not pd_gamma.requires_grad
    np.testing.assert_allclose(widen(pd_gamma), (widen(dy) ** 2).sum(0), rtol=1e-6)


def test_uint16_marked_bfloat16(rng):
    dy, res = make(rng, (300, 64), "bfloat16"), make(rng, (300, 64), "bfloat16")
    g_bits, b_bits = normgrad.layer_norm_grad_beta(dy.view(np.uint16), res.view(np.uint16),
                                                   dtype="bfloat16")
    assert g_bits.dtype == np.uint16
    want_g, want_b = normgrad.layer_norm_grad_beta(dy, res)
    np.testing.assert_array_equal(g_bits, want_g.view(np.uint16))
    np.testing.assert_array_equal(b_bits, want_b.view(np.uint16))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_float32_outputs_are_the_unrounded_sums(rng, dtype):
    dy, res = make(rng, (400, 32), dtype), make(rng, (400, 32), dtype)
    g32, b32 = normgrad.layer_norm_grad_beta(dy, res, out_dtype="float32")
    g16, b16 = normgrad.layer_norm_grad_beta(dy, res)
    assert g32.dtype == np.float32
    np.testing.assert_array_equal(g32.astype(NUMPY_TYPES[dtype]), g16)
    np.testing.assert_array_equal(b32.astype(NUMPY_TYPES[dtype]), b16)
    tg, _ = normgrad.layer_norm_grad_beta(torch.from_numpy(widen(dy)).float(),
                                          torch.from_numpy(widen(res)).float(),
                                          out_dtype=torch.float32)
    assert tg.dtype == torch.float32


def test_row_strided_views_are_read_in_place(rng):
    """Rows 96 elements apart, H = 40: the engine reads the views where they
    lie (a copy would be contiguous and could not look like this)."""
    base = make(rng, (2, 500, 96), "float32")
    dy, res = base[0, :, 8:48], base[1, :, 50:90]
    assert dy.strides == (96 * 4, 4)
    got = normgrad.layer_norm_grad_beta(dy, res, order="sequential")
    want = normgrad.layer_norm_grad_beta(np.ascontiguousarray(dy), np.ascontiguousarray(res),
                                         order="sequential")
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    tbase = torch.from_numpy(base)
    tgot = normgrad.layer_norm_grad_beta(tbase[0, :, 8:48], tbase[1, :, 50:90], order="sequential")
    np.testing.assert_array_equal(tgot[0].numpy(), want[0])


def test_non_row_strided_input_is_refused_not_copied(rng):
    a = make(rng, (64, 64), "float32")
    with pytest.raises(ValueError, match=r"dy has shape \(64, 32\) and strides \(64, 2\).*"
                                         r"last axis must be contiguous.*ascontiguousarray"):
        normgrad.layer_norm_grad_beta(a[:, ::2], a[:, ::2])
    with pytest.raises(ValueError, match=r"res .*last axis must be contiguous"):
        normgrad.layer_norm_grad_beta(a[:32], a.T[:32])
    b = make(rng, (4, 8, 16), "float32")
    with pytest.raises(ValueError, match=r"fixed stride"):
        normgrad.layer_norm_grad_beta(b[:, :4], b[:, :4])


def test_errors_carry_the_rule(rng):
    a32 = make(rng, (8, 16), "float32")
    a16 = make(rng, (8, 16), "float16")
    with pytest.raises(TypeError, match=r"normgrad.layer_norm_grad_beta: dy has type int32; "
                                        r"it must be float32, float16 or bfloat16"):
        normgrad.layer_norm_grad_beta(a32.astype(np.int32), a32)
    with pytest.raises(TypeError, match=r"dy is float and res is half; they must have the same"):
        normgrad.layer_norm_grad_beta(a32, a16)
    with pytest.raises(ValueError, match=r"dy and res have 8 × 16 and 4 × 16 elements"):
        normgrad.layer_norm_grad_beta(a32, a32[:4])
    with pytest.raises(ValueError, match=r'order "pairwise" is not known; it must be "blocked" '
                                         r'or "sequential"'):
        normgrad.layer_norm_grad_beta(a32, a32, order="pairwise")
    with pytest.raises(ValueError, match=r"out_dtype 'float64' is not supported"):
        normgrad.layer_norm_grad_beta(a32, a32, out_dtype="float64")
    with pytest.raises(ValueError, match=r"the last axis \(H\) must not be empty"):
        normgrad.layer_norm_grad_beta(a32[:, :0], a32[:, :0])
    with pytest.raises(TypeError, match=r'with dtype="bfloat16" every array must hold'):
        normgrad.layer_norm_grad_beta(a32, a32, dtype="bfloat16")
    with pytest.raises(ValueError, match=r"dtype 'half' is not known"):
        normgrad.layer_norm_grad_beta(a32, a32, dtype="half")


def test_engine_message_is_the_exception_message(rng):
    a = make(rng, (8, 16), "float32")
    with pytest.raises(ValueError) as caught:
        normgrad.layer_norm_grad_beta(a, a, threads=-2)
    assert str(caught.value) == "LayerNormGradBeta: threads -2 is negative; use 0 for the default"


def test_lists_become_float32_numpy(rng):
    pd_gamma, pd_beta = normgrad.layer_norm_grad_beta([[1, 2], [3, 4]], [[1.0, 1.0], [2.0, 2.0]])
    assert isinstance(pd_beta, np.ndarray) and pd_beta.dtype == np.float32
    np.testing.assert_array_equal(pd_gamma, np.float32([7, 10]))


def test_bfloat16_numpy_in_bfloat16_numpy_out(rng):
    dy = make(rng, (20, 16), "bfloat16")
    pd_gamma, _ = normgrad.layer_norm_grad_beta(dy, dy)
    assert pd_gamma.dtype == ml_dtypes.bfloat16
