"""normgrad.distributed over MPI (mpi4py): the same result as
normgrad.distributed.layer_norm_grad_beta, the processes being the ranks of an
MPI communicator in rank order.

    from normgrad.distributed import mpi
    pd_gamma, pd_beta = mpi.layer_norm_grad_beta(dy, res)   # MPI.COMM_WORLD

Run under mpirun (mpirun -n 4 python3 script.py; as root, Open MPI also
wants --allow-run-as-root, and --oversubscribe for more processes than
cores). The module imports mpi4py, and with it MPI, only when called.
"""

import numpy as np

from . import run_collective

__all__ = ["layer_norm_grad_beta"]


def layer_norm_grad_beta(dy, res, comm=None, *, out_dtype=None, threads=None, dtype=None):
    """pd_gamma and pd_beta over the rows of all ranks of the mpi4py
    communicator `comm` (None: MPI.COMM_WORLD), this rank's rows being dy and
    res: on every rank the bits of the single-process blocked order, with
    the rule of the split and the errors of normgrad.distributed."""
    return run_collective(_MpiExchange(comm), "normgrad.distributed.mpi.layer_norm_grad_beta",
                          dy, res, out_dtype, threads, dtype)


class _MpiExchange:
    """All-gathers over an MPI communicator, in its rank order."""

    def __init__(self, comm):
        from mpi4py import MPI
        self._mpi = MPI
        self._comm = MPI.COMM_WORLD if comm is None else comm
        self.rank = self._comm.Get_rank()
        self.size = self._comm.Get_size()

    def allgather_ints(self, values):
        out = np.empty((self.size, values.size), dtype=values.dtype)
        self._comm.Allgather(values, out)
        return out

    def allgather_bytes(self, mine, sizes):
        # Every size is a multiple of 4, so each rank's partials stay
        # float-aligned in the one receive buffer.
        offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(int)
        out = np.empty(sum(sizes), dtype=np.uint8)
        self._comm.Allgatherv(mine, [out, list(sizes), list(offsets), self._mpi.BYTE])
        return [out[o:o + n] for o, n in zip(offsets, sizes)]
