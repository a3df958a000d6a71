"""normgrad: deterministic layer-norm and RMS-norm gradients on the CPU, for
numpy arrays and torch tensors.

    import numpy as np, normgrad
    pd_gamma, pd_beta = normgrad.layer_norm_grad_beta(dy, res)      # blocked order
    golden = normgrad.layer_norm_grad_beta(dy, res, order="sequential")  # device bits
    y, mean, rstd = normgrad.layer_norm_forward(x, gamma, beta)
    dx, dgamma, dbeta = normgrad.layer_norm_backward(x, dy, gamma, mean, rstd)
    y, rstd = normgrad.rms_norm_forward(x, gamma)
    dx, dgamma = normgrad.rms_norm_backward(x, dy, gamma, rstd)

Inputs are float32, float16 or bfloat16 (torch.bfloat16, ml_dtypes.bfloat16,
or uint16 bit patterns with dtype="bfloat16"), with H elements along the last
axis; the other axes are the rows (rows × H, or B × S × H). They are read
where they lie: C-contiguous or row-strided arrays (the last axis contiguous,
rows a fixed stride apart). Any other layout raises ValueError: make it
contiguous first. Results come back as the kind of array given (numpy or
torch) in the input type, summed in float; or, given out=(...), written into
the caller's arrays, as numpy's ufuncs do: a tuple with one array per output,
each of the kind, type and shape the call would return, laid out as the call
would lay it out (y and dx with x's row stride, the rest C-contiguous),
writable, sharing no memory with an input or another output. A call checks
all of them before it writes, so a call that raises leaves out untouched;
with out= it returns out. Errors raise ValueError,
TypeError or MemoryError with the engine's message. The GIL is released
while the engine runs; the thread count follows torch.get_num_threads() when
torch is imported (or `threads=`). normgrad.tiling has the Ascend C host
tiling functions; normgrad.torch a LayerNorm and an RMSNorm whose backward
passes are normgrad's.
"""

from . import _normgrad
from . import tiling

__all__ = ["layer_norm_grad_beta", "layer_norm_forward", "layer_norm_backward",
           "rms_norm_forward", "rms_norm_backward", "last_run", "last_layer_norm_run",
           "last_rms_norm_run", "tiling"]


def layer_norm_grad_beta(dy, res, *, order="blocked", out_dtype=None, out=None, threads=None,
                         dtype=None):
    """pd_gamma[c] = Σ_r dy[r, c]·res[r, c] and pd_beta[c] = Σ_r dy[r, c] over
    the rows of dy and res (same shape and type; res is resForGamma, the
    normalized input). order="blocked" (the default) sums 256-row blocks and
    combines them by a fixed tree; order="sequential" adds row after row, the
    Ascend C device's bits (the golden data of a kernel test). out_dtype=None
    returns the inputs' type, "float32" the float sums unrounded. Returns
    (pd_gamma, pd_beta), each of H elements; out=(pd_gamma, pd_beta) writes
    them into two arrays of that type and shape instead.

    In every function here, threads=None runs on torch.get_num_threads()
    threads when torch is imported, else on OpenMP's default (small problems
    use fewer; results never depend on it), and dtype="bfloat16" says that
    uint16 inputs hold bfloat16 bits (outputs are then uint16 bits too)."""
    return _normgrad.grad_beta(dy, res, order, out_dtype, out, threads, dtype)


def layer_norm_forward(x, gamma, beta, eps=1e-5, *, out=None, threads=None, dtype=None):
    """Layer norm over the last axis: y = (x − mean)·rstd·gamma + beta with
    rstd = 1/√(variance + eps) (population variance). Returns (y, mean, rstd):
    y like x (its rows as far apart as x's), mean and rstd float32 of shape
    x.shape[:-1]; out=(y, mean, rstd) writes them into arrays of those types,
    shapes and layouts instead."""
    return _normgrad.forward(x, gamma, beta, eps, out, threads, dtype)


def layer_norm_backward(x, dy, gamma, mean, rstd, *, order="blocked", out=None, threads=None,
                        dtype=None):
    """The fused layer-norm backward pass, given the forward pass's mean and
    rstd (float32, x.shape[:-1]): dx, and the parameter gradients
    dgamma[c] = Σ_r dy·x̂ and dbeta[c] = Σ_r dy summed in `order` (as
    layer_norm_grad_beta). Returns (dx, dgamma, dbeta) in the input type, dx
    like x; out=(dx, dgamma, dbeta) writes them into arrays of those types,
    shapes and layouts instead."""
    return _normgrad.backward(x, dy, gamma, mean, rstd, order, out, threads, dtype)


def rms_norm_forward(x, gamma, eps=1e-6, *, out=None, threads=None, dtype=None):
    """RMS norm over the last axis: y = x·rstd·gamma with
    rstd = 1/√(mean(x²) + eps). Returns (y, rstd): y like x (its rows as far
    apart as x's), rstd float32 of shape x.shape[:-1]; out=(y, rstd) writes
    them into arrays of those types, shapes and layouts instead."""
    return _normgrad.rms_forward(x, gamma, eps, out, threads, dtype)


def rms_norm_backward(x, dy, gamma, rstd, *, order="blocked", out=None, threads=None,
                      dtype=None):
    """The fused RMS-norm backward pass, given the forward pass's rstd
    (float32, x.shape[:-1]): dx = rstd·(g − x·rstd²·mean(g·x)) with
    g = dy·gamma, and dgamma[c] = Σ_r dy·x·rstd summed in `order` (as
    layer_norm_grad_beta). Returns (dx, dgamma) in the input type, dx like
    x; out=(dx, dgamma) writes them into arrays of those types, shapes and
    layouts instead."""
    return _normgrad.rms_backward(x, dy, gamma, rstd, order, out, threads, dtype)


def last_run():
    """(implementation, threads) of this thread's last successful
    layer_norm_grad_beta call, e.g. ("blocked:avx2", 2)."""
    return _normgrad.last_run()


def last_layer_norm_run():
    """(implementation, threads) of this thread's last successful
    layer_norm_forward or layer_norm_backward call."""
    return _normgrad.last_layer_norm_run()


def last_rms_norm_run():
    """(implementation, threads) of this thread's last successful
    rms_norm_forward or rms_norm_backward call."""
    return _normgrad.last_rms_norm_run()
