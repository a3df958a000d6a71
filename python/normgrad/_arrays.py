"""New arrays of the kind a caller gave: numpy in gives numpy out, torch in
gives torch out. The public functions allocate their outputs in the native
module (python/src/call.h); normgrad.distributed allocates its results here.
"""

import sys

import numpy as np


def is_torch(a):
    """Whether `a` is a torch tensor (torch is then imported)."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(a, torch.Tensor)


def empty(like, shape, dtype):
    """An uninitialized array of `like`'s kind (numpy or torch), of `shape`
    and element type `dtype` (that library's type object)."""
    if is_torch(like):
        return sys.modules["torch"].empty(shape, dtype=dtype)
    return np.empty(shape, dtype=dtype)
