"""Ascend C host tiling for test scripts: the tiling a LayerNormGradBeta
kernel reads, computed by the same host tiling functions C++ programs and
`normgrad tiling` call (GetLayerNormGradBetaMaxMinTmpSize and
GetLayerNormGradBetaNDTilingInfo), so a gen_data.py script can write it
next to its golden data:

    t = normgrad.tiling.layer_norm_grad_beta((2, 16, 64), "float16")
    t["oneCalSize"], t["loopRound"]           # the documented field names
    open("tiling.bin", "wb").write(t["bytes"])  # the 80-byte struct
"""

import numpy as np

from . import _normgrad

__all__ = ["layer_norm_grad_beta", "layer_norm_grad_beta_tmp_size"]

_API = "normgrad.tiling.layer_norm_grad_beta"


def _type_size(api, dtype):
    """typeSize: 2 for half, 4 for float (the types LayerNormGradBeta has)."""
    names = {"half": 2, "float16": 2, "float": 4, "float32": 4}
    name = dtype if isinstance(dtype, str) else str(dtype).replace("torch.", "")
    if name not in names:
        try:
            name = np.dtype(dtype).name
        except TypeError:
            pass
    if name not in names:
        raise TypeError(f"{api}: dtype {dtype!r} is not supported; LayerNormGradBeta's tiling "
                        f"is for half (float16) or float (float32)")
    return names[name]


def _dims(api, shape):
    """[B, S, H, originalH] from (B, S, H) or (B, S, H, originalH)."""
    dims = [int(d) for d in shape]
    if len(dims) == 3:
        dims.append(dims[2])  # originalH defaults to H
    if len(dims) != 4:
        raise ValueError(f"{api}: shape {tuple(shape)} has {len(dims)} dimensions; it must be "
                         f"(B, S, H) or (B, S, H, originalH)")
    return dims


def layer_norm_grad_beta_tmp_size(shape, dtype, reuse=False):
    """(maxValue, minValue): the scratch range in bytes
    (GetLayerNormGradBetaMaxMinTmpSize)."""
    api = "normgrad.tiling.layer_norm_grad_beta_tmp_size"
    return _normgrad.grad_beta_tmp_size(_dims(api, shape), _type_size(api, dtype), bool(reuse))


def layer_norm_grad_beta(shape, dtype, reuse=False, tmp="min"):
    """The tiling (GetLayerNormGradBetaNDTilingInfo) for shape (B, S, H) or
    (B, S, H, originalH), dtype half or float, isReuseSource `reuse` and a
    scratch size `tmp`: "min", "max" (the size query's bounds) or a number of
    bytes. Returns a dict of the struct's 20 fields by their documented names
    (stackBufferSize, bLength, ..., reserved) and "bytes", the struct's 80
    bytes as a kernel reads them. Bad input raises ValueError with the tiling
    function's message."""
    dims = _dims(_API, shape)
    type_size = _type_size(_API, dtype)
    if tmp in ("min", "max"):
        max_value, min_value = _normgrad.grad_beta_tmp_size(dims, type_size, bool(reuse))
        tmp = min_value if tmp == "min" else max_value
    elif isinstance(tmp, str) or int(tmp) != tmp or not 0 <= tmp <= 0xFFFFFFFF:
        raise ValueError(f'{_API}: tmp {tmp!r} is not "min", "max" or a byte count in '
                         f"[0, 4294967295]")
    return _normgrad.grad_beta_tiling(dims, int(tmp), type_size, bool(reuse))
