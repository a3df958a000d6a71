"""PyTorch layer norm and RMS norm with normgrad's fused backward on CPU tensors.

    import torch, normgrad.torch
    ln = normgrad.torch.LayerNorm(1024)                   # as torch.nn.LayerNorm
    y = ln(x)                                              # x: float32, float16 or bfloat16
    y = normgrad.torch.layer_norm(x, (1024,), weight, bias, 1e-5)
    rms = normgrad.torch.RMSNorm(1024)                     # as torch.nn.RMSNorm (torch ≥ 2.4)
    y = normgrad.torch.rms_norm(x, (1024,), weight, 1e-6)

The forward passes are normgrad's layer_norm_forward and rms_norm_forward,
the backward passes its layer_norm_backward and rms_norm_backward: dx and
the parameter gradients in one pass over x and dy, summed in float (also for
float16 and bfloat16) in the blocked order, so the gradients are the same
bits for any thread count. x and the parameters share one type. On torch 2.4
and later each pass is registered as an operator, normgrad::layer_norm and
normgrad::rms_norm with normgrad::layer_norm_backward and
normgrad::rms_norm_backward as their gradients (torch.library.custom_op, each
with a fake implementation; register_autograd), so torch.compile treats each
pass as one opaque operator; on older torch each pair is a
torch.autograd.Function.
"""

import math

import torch

from . import layer_norm_backward, layer_norm_forward, rms_norm_backward, rms_norm_forward

__all__ = ["layer_norm", "LayerNorm", "rms_norm", "RMSNorm", "USES_CUSTOM_OP"]


def _uses_custom_op():
    major, minor = (int(p) for p in torch.__version__.split(".")[:2])
    return (major, minor) >= (2, 4) and hasattr(torch.library, "custom_op")


#: Whether normgrad::layer_norm, normgrad::rms_norm and their backward passes
#: are torch.library custom operators (torch ≥ 2.4).
USES_CUSTOM_OP = _uses_custom_op()


def _shape(normalized_shape):
    """normalized_shape as a tuple (an int is one axis)."""
    if isinstance(normalized_shape, int):
        return (normalized_shape,)
    return tuple(normalized_shape)


def _rows(api, x, normalized_shape):
    """x contiguous with the normalized axes joined into its last axis (H
    elements), as normgrad's functions read it: x itself when it is
    contiguous and normalized over its last axis alone, so autograd records
    no view."""
    n = len(normalized_shape)
    if tuple(x.shape[x.dim() - n:]) != normalized_shape:
        raise ValueError(f"{api}: x has shape {tuple(x.shape)}; its last axes must be "
                         f"normalized_shape {normalized_shape}")
    x = x.contiguous()
    if n == 1:
        return x
    return x.view(tuple(x.shape[:x.dim() - n]) + (math.prod(normalized_shape),))


def _vector(parameter, h):
    """A weight or bias as a vector of H elements: itself when it is one
    (no view for autograd to record)."""
    return parameter if parameter.shape == (h,) else parameter.reshape(h)


# Both norms run as an operator of the inputs (x, weight, other parameters...,
# eps) whose forward function returns (y, statistics...) and whose backward
# function takes (x, dy, weight, statistics...) and returns the gradients of
# x, weight and the other parameters; eps gets none. The operator returns y.

def _gradients(backward, dy, saved):
    """The gradients of the operator's inputs. Autograd's dy may be any layout
    (sum().backward() gives a stride-0 one): made contiguous."""
    x, weight, *statistics = saved
    return (*backward(x, dy.contiguous(), weight, *statistics), None)


def _with_autograd(op, backward_op):
    """A torch.library custom operator with the custom operator `backward_op`
    registered as its gradient, as a function returning y. The backward pass
    is an operator too, so that a traced graph (torch.compile, AOT autograd)
    holds it as one opaque node instead of tracing into normgrad, which
    reads real memory."""
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], inputs[1], *output[1:])

    def op_backward(ctx, dy, *_statistics_grads):
        return _gradients(backward_op, dy, ctx.saved_tensors)

    op.register_autograd(op_backward, setup_context=setup_context)
    return lambda *inputs: op(*inputs)[0]


def _function(forward, backward):
    """A torch.autograd.Function of forward and backward, as a function
    returning y."""
    class Function(torch.autograd.Function):
        @staticmethod
        def forward(ctx, *inputs):
            y, *statistics = forward(*inputs)
            ctx.save_for_backward(inputs[0], inputs[1], *statistics)
            return y

        @staticmethod
        def backward(ctx, dy):
            return _gradients(backward, dy, ctx.saved_tensors)

    return Function.apply


if USES_CUSTOM_OP:
    Tensor = torch.Tensor  # the annotations custom_op reads the schema from

    @torch.library.custom_op("normgrad::layer_norm", mutates_args=())
    def _layer_norm_op(x: Tensor, weight: Tensor, bias: Tensor,
                       eps: float) -> tuple[Tensor, Tensor, Tensor]:
        return layer_norm_forward(x, weight, bias, eps)

    @_layer_norm_op.register_fake
    def _(x, weight, bias, eps):
        stats = x.new_empty(x.shape[:-1], dtype=torch.float32)
        return torch.empty_like(x), stats, torch.empty_like(stats)

    @torch.library.custom_op("normgrad::layer_norm_backward", mutates_args=())
    def _layer_norm_backward_op(x: Tensor, dy: Tensor, weight: Tensor, mean: Tensor,
                                rstd: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        return layer_norm_backward(x, dy, weight, mean, rstd)

    @_layer_norm_backward_op.register_fake
    def _(x, dy, weight, mean, rstd):
        return torch.empty_like(x), torch.empty_like(weight), torch.empty_like(weight)

    @torch.library.custom_op("normgrad::rms_norm", mutates_args=())
    def _rms_norm_op(x: Tensor, weight: Tensor, eps: float) -> tuple[Tensor, Tensor]:
        return rms_norm_forward(x, weight, eps)

    @_rms_norm_op.register_fake
    def _(x, weight, eps):
        return torch.empty_like(x), x.new_empty(x.shape[:-1], dtype=torch.float32)

    @torch.library.custom_op("normgrad::rms_norm_backward", mutates_args=())
    def _rms_norm_backward_op(x: Tensor, dy: Tensor, weight: Tensor,
                              rstd: Tensor) -> tuple[Tensor, Tensor]:
        return rms_norm_backward(x, dy, weight, rstd)

    @_rms_norm_backward_op.register_fake
    def _(x, dy, weight, rstd):
        return torch.empty_like(x), torch.empty_like(weight)

    _apply_layer_norm = _with_autograd(_layer_norm_op, _layer_norm_backward_op)
    _apply_rms_norm = _with_autograd(_rms_norm_op, _rms_norm_backward_op)
else:
    _apply_layer_norm = _function(layer_norm_forward, layer_norm_backward)
    _apply_rms_norm = _function(rms_norm_forward, rms_norm_backward)


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    """torch.nn.functional.layer_norm with normgrad's forward and fused
    backward (CPU tensors). weight and bias, when given, have
    normalized_shape and x's type; missing ones act as ones and zeros and
    get no gradient."""
    rows = _rows("normgrad.torch.layer_norm", x, _shape(normalized_shape))
    h = rows.shape[-1]
    w = torch.ones(h, dtype=x.dtype) if weight is None else _vector(weight, h)
    b = torch.zeros(h, dtype=x.dtype) if bias is None else _vector(bias, h)
    y = _apply_layer_norm(rows, w, b, float(eps))
    return y if y.dim() == x.dim() else y.view(x.shape)


#: The eps of rms_norm and RMSNorm when none is given: float32's machine
#: epsilon, for every input type, as torch's rms_norm takes the epsilon of
#: the type it computes in (float for float32, float16 and bfloat16).
DEFAULT_RMS_EPS = torch.finfo(torch.float32).eps


def rms_norm(x, normalized_shape, weight=None, eps=None):
    """torch.nn.functional.rms_norm (torch ≥ 2.4) with normgrad's forward and
    fused backward (CPU tensors): y = x / √(mean(x²) + eps) · weight over the
    normalized axes. weight, when given, has normalized_shape and x's type; a
    missing one acts as ones and gets no gradient. eps=None is
    DEFAULT_RMS_EPS."""
    rows = _rows("normgrad.torch.rms_norm", x, _shape(normalized_shape))
    h = rows.shape[-1]
    w = torch.ones(h, dtype=x.dtype) if weight is None else _vector(weight, h)
    eps = DEFAULT_RMS_EPS if eps is None else float(eps)
    y = _apply_rms_norm(rows, w, eps)
    return y if y.dim() == x.dim() else y.view(x.shape)


class LayerNorm(torch.nn.LayerNorm):
    """torch.nn.LayerNorm (same arguments, parameters and state dict) whose
    forward and backward passes are normgrad's."""

    def forward(self, x):
        return layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)


class RMSNorm(torch.nn.Module):
    """torch.nn.RMSNorm of torch ≥ 2.4 (same arguments, attributes, parameter
    and state dict; usable on any torch) whose forward and backward passes
    are normgrad's. eps=None is DEFAULT_RMS_EPS; elementwise_affine=False
    has no weight."""

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None,
                 dtype=None):
        super().__init__()
        self.normalized_shape = _shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = torch.nn.Parameter(
                torch.empty(self.normalized_shape, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.weight is not None:
            torch.nn.init.ones_(self.weight)

    def forward(self, x):
        return rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")
