"""PyTorch layer norm with normgrad's fused backward on CPU tensors.

    import torch, normgrad.torch
    ln = normgrad.torch.LayerNorm(1024)                   # as torch.nn.LayerNorm
    y = ln(x)                                              # x: float32, float16 or bfloat16
    y = normgrad.torch.layer_norm(x, (1024,), weight, bias, 1e-5)

The forward pass is normgrad's layer_norm_forward, the backward pass its
layer_norm_backward: dx, dweight and dbias in one pass over x and dy, summed
in float (also for float16 and bfloat16) in the blocked order, so the
gradients are the same bits for any thread count. x, weight and bias share
one type. On torch 2.4 and later the pair is registered as the operator
normgrad::layer_norm (torch.library.custom_op, with a fake implementation
and register_autograd), so torch.compile treats it as one opaque operator;
on older torch it is a torch.autograd.Function.
"""

import math

import torch

from . import layer_norm_backward, layer_norm_forward

__all__ = ["layer_norm", "LayerNorm", "USES_CUSTOM_OP"]


def _uses_custom_op():
    major, minor = (int(p) for p in torch.__version__.split(".")[:2])
    return (major, minor) >= (2, 4) and hasattr(torch.library, "custom_op")


#: Whether normgrad::layer_norm is a torch.library custom operator (torch ≥ 2.4).
USES_CUSTOM_OP = _uses_custom_op()


def _rows(x, normalized_shape):
    """x with the normalized axes joined into one of H elements, contiguous."""
    h = math.prod(normalized_shape)
    if tuple(x.shape[x.dim() - len(normalized_shape):]) != tuple(normalized_shape):
        raise ValueError(f"normgrad.torch.layer_norm: x has shape {tuple(x.shape)}; its last "
                         f"axes must be normalized_shape {tuple(normalized_shape)}")
    return x.contiguous().view(-1, h)


def _backward(dy, x, weight, mean, rstd):
    """dx, dweight, dbias of rows × H tensors. Autograd's dy may be any
    layout (sum().backward() gives a stride-0 one): made contiguous."""
    return layer_norm_backward(x, dy.contiguous(), weight, mean, rstd)


if USES_CUSTOM_OP:
    @torch.library.custom_op("normgrad::layer_norm", mutates_args=())
    def _layer_norm_op(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor,
                       eps: float) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        return layer_norm_forward(x, weight, bias, eps)

    @_layer_norm_op.register_fake
    def _(x, weight, bias, eps):
        stats = x.new_empty(x.shape[:-1], dtype=torch.float32)
        return torch.empty_like(x), stats, torch.empty_like(stats)

    def _setup_context(ctx, inputs, output):
        x, weight, _, _ = inputs
        _, mean, rstd = output
        ctx.save_for_backward(x, weight, mean, rstd)

    def _op_backward(ctx, dy, _dmean, _drstd):
        x, weight, mean, rstd = ctx.saved_tensors
        dx, dweight, dbias = _backward(dy, x, weight, mean, rstd)
        return dx, dweight, dbias, None

    _layer_norm_op.register_autograd(_op_backward, setup_context=_setup_context)

    def _apply(x, weight, bias, eps):
        return _layer_norm_op(x, weight, bias, eps)[0]
else:
    class _LayerNormFunction(torch.autograd.Function):
        """y of rows × H tensors; backward: normgrad's fused one."""

        @staticmethod
        def forward(ctx, x, weight, bias, eps):
            y, mean, rstd = layer_norm_forward(x, weight, bias, eps)
            ctx.save_for_backward(x, weight, mean, rstd)
            return y

        @staticmethod
        def backward(ctx, dy):
            x, weight, mean, rstd = ctx.saved_tensors
            dx, dweight, dbias = _backward(dy, x, weight, mean, rstd)
            return dx, dweight, dbias, None

    def _apply(x, weight, bias, eps):
        return _LayerNormFunction.apply(x, weight, bias, eps)


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    """torch.nn.functional.layer_norm with normgrad's forward and fused
    backward (CPU tensors). weight and bias, when given, have
    normalized_shape and x's type; missing ones act as ones and zeros and
    get no gradient."""
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(normalized_shape)
    rows = _rows(x, normalized_shape)
    h = rows.shape[-1]
    w = torch.ones(h, dtype=x.dtype) if weight is None else weight.reshape(h)
    b = torch.zeros(h, dtype=x.dtype) if bias is None else bias.reshape(h)
    return _apply(rows, w, b, float(eps)).view(x.shape)


class LayerNorm(torch.nn.LayerNorm):
    """torch.nn.LayerNorm (same arguments, parameters and state dict) whose
    forward and backward passes are normgrad's."""

    def forward(self, x):
        return layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
