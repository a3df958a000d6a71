"""The array kinds normgrad accepts and returns: numpy arrays and torch tensors.

Each function hands its inputs to the native module as they lie and allocates
its outputs here, as the kind of array (and element type) it was given, so
numpy in gives numpy out and torch in gives torch out; or it writes into the
caller's out= arrays, of which this module checks what only Python sees
(a tuple of the right length, the inputs' kind of array, writable) and the
native module the rest (type, shape, layout, no overlap with the inputs).
The native module reads every array as it is (python/src/arrays.h): a numpy
array through nanobind (an ml_dtypes.bfloat16 one as its 16-bit patterns), a
torch tensor through its attributes, whatever its autograd state (neither a
DLPack capsule, which costs twice as much, nor a detached tensor); uint16
arrays hold bfloat16 bits when the caller marks them with dtype="bfloat16".

Everything here runs on every call, so each step is the cheapest that says
the same thing: the array types are one cached tuple for isinstance, and a
dtype's kind is read before its name (dtype.name builds a new string).
"""

import sys

import numpy as np

from . import _normgrad

BFLOAT16 = "bfloat16"

_ndarray = np.ndarray


def _torch():
    """The torch module when the process has imported it, else None."""
    return sys.modules.get("torch")


def is_torch(a):
    torch = _torch()
    return torch is not None and isinstance(a, torch.Tensor)


def _is_ml_bfloat16(dtype):
    return dtype.kind == "V" and dtype.itemsize == 2 and dtype.name == BFLOAT16


def marked_bf16(api, arrays, dtype):
    """Whether the call's 16-bit patterns are bfloat16: dtype="bfloat16" or an
    ml_dtypes.bfloat16 array among the inputs."""
    if dtype is not None and dtype != BFLOAT16:
        raise ValueError(f'{api}: dtype {dtype!r} is not known; the only marking is '
                         f'dtype="bfloat16", for uint16 arrays that hold bfloat16 bits')
    if dtype == BFLOAT16:
        return True
    for a in arrays:
        if isinstance(a, _ndarray) and a.dtype.kind == "V" and _is_ml_bfloat16(a.dtype):
            return True
    return False


_array_types = (_ndarray,)


def _known_types():
    """The array types used as they are: numpy.ndarray, and torch.Tensor once
    the process has imported torch."""
    global _array_types
    if len(_array_types) == 1:
        tensor = getattr(_torch(), "Tensor", None)
        if tensor is not None:
            _array_types = (_ndarray, tensor)
    return _array_types


def as_array(a):
    """A torch tensor or numpy array as it is; other sequences (lists of
    numbers, which have no element type) as float32 numpy arrays."""
    if isinstance(a, _known_types()):
        return a
    return np.asarray(a, dtype=np.float32)


def as_arrays(*arrays):
    """as_array of each argument, as a tuple."""
    known = _array_types if len(_array_types) == 2 else _known_types()
    for a in arrays:
        if not isinstance(a, known):
            return tuple(map(as_array, arrays))
    return arrays


def _float32_like(like):
    return _torch().float32 if is_torch(like) else np.float32


def type_name(dtype):
    torch = _torch()
    if torch is not None and isinstance(dtype, torch.dtype):
        return str(dtype).replace("torch.", "")
    return np.dtype(dtype).name


def output_type(api, like, out_dtype):
    """The element type of pd_gamma/pd_beta: `like`'s, or float32 when
    out_dtype says so."""
    if out_dtype is None:
        return like.dtype
    try:
        name = type_name(out_dtype)
    except TypeError:
        name = repr(out_dtype)
    if name == "float32":
        return _float32_like(like)
    if name == type_name(like.dtype):
        return like.dtype
    raise ValueError(f"{api}: out_dtype {out_dtype!r} is not supported; it must be None "
                     f"(the inputs' type, {type_name(like.dtype)}) or float32")


def allocator(like):
    """(empty, float32) of `like`'s kind: numpy.empty or torch.empty, called
    as empty(shape, dtype=...) (an uninitialized array), and that kind's
    float32."""
    if isinstance(like, _ndarray):
        return np.empty, np.float32
    torch = _torch()
    return torch.empty, torch.float32


def empty(like, shape, dtype):
    """An uninitialized array of `like`'s kind."""
    return allocator(like)[0](shape, dtype=dtype)


def empty_rows_like(like, api, marked):
    """An uninitialized array of `like`'s kind, type and shape whose rows lie
    as far apart as `like`'s (the engine reads and writes both with one row
    stride). The native module's layout (which checks `like` as the argument
    x of `api`) gives the row stride when `like` is not C-contiguous: a
    C-contiguous array's rows are H elements apart, as those of a new array
    of its shape (torch.empty_like gives a contiguous tensor its own strides,
    and costs less than torch.empty)."""
    if isinstance(like, _ndarray):
        if like.flags.c_contiguous:
            return np.empty(like.shape, dtype=like.dtype)
    elif like.is_contiguous():
        return _torch().empty_like(like)
    rows, cols, row_stride = _normgrad.layout(like, api, "x", marked)
    if row_stride == cols:
        return empty(like, tuple(like.shape), like.dtype)
    buffer = empty(like, (rows, row_stride), like.dtype)
    rows_view = buffer[:, :cols]
    if is_torch(like):
        return rows_view.view(tuple(like.shape))
    return rows_view.reshape(like.shape)


def given_outputs(api, out, names, like):
    """The caller's out= tuple, checked for what the native module cannot
    see: one array per output (`names`), each of `like`'s kind (numpy or
    torch), and writable (a numpy array's writeable flag; a torch tensor must
    not require grad, since the engine writes it outside autograd)."""
    if type(out) is not tuple:
        raise TypeError(f"{api}: out is {type(out).__name__}; it must be a tuple of "
                        f"{len(names)} arrays ({', '.join(names)})")
    if len(out) != len(names):
        raise ValueError(f"{api}: out has {len(out)} entries; it must have {len(names)}, "
                         f"one per output ({', '.join(names)})")
    if isinstance(like, _ndarray):
        for i, o in enumerate(out):
            if not isinstance(o, _ndarray):
                raise TypeError(f"{api}: out[{i}] ({names[i]}) is {type(o).__name__}; the "
                                f"inputs are numpy arrays, so it must be a numpy array")
            if not o.flags.writeable:
                raise ValueError(f"{api}: out[{i}] ({names[i]}) is read-only; it must be "
                                 f"writable")
        return out
    tensor = _torch().Tensor
    for i, o in enumerate(out):
        if not isinstance(o, tensor):
            raise TypeError(f"{api}: out[{i}] ({names[i]}) is {type(o).__name__}; the inputs "
                            f"are torch tensors, so it must be a torch tensor")
        if o.requires_grad:
            raise ValueError(f"{api}: out[{i}] ({names[i]}) requires grad; normgrad writes "
                             f"outside autograd, so pass out[{i}].detach() (the same memory)")
    return out


def vector(a):
    """A per-row statistics array flattened to one axis (a view when it is
    contiguous)."""
    return a if a.ndim == 1 else a.reshape(-1)
