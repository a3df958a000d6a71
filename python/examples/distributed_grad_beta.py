"""pd_gamma and pd_beta of rows split across processes, with the bits of one
process over all the rows: normgrad.distributed over torch.distributed or MPI.

    torchrun --nproc-per-node 4 python/examples/distributed_grad_beta.py
    mpirun -n 4 python3 python/examples/distributed_grad_beta.py

with the Python that has normgrad. From this repository, after `make python`
(which installs it into build/venv), with Debian's torch 1.13 and Open MPI:

    torchrun --nproc_per_node 4 -r 1 -t 1 --no_python \
        build/venv/bin/python python/examples/distributed_grad_beta.py
    mpirun --allow-run-as-root --oversubscribe -n 4 \
        build/venv/bin/python python/examples/distributed_grad_beta.py

torch 1.13's torchrun spells the option --nproc_per_node; --no_python runs
the venv's Python instead of torchrun's own; -r 1 -t 1 (stdout to a log file,
and teed) avoids its failure to read the default "no redirection" under
Python 3.11. Open MPI refuses to run as root without --allow-run-as-root,
and more processes than cores without --oversubscribe.

Every process holds its own rows of dy and res: here rank r has 256·(r + 1)
rows, the last rank 100 more, which ends inside a block. Every rank but the
last must hold a multiple of 256 rows (normgrad.distributed.BLOCK_ROWS).
Rank 0 checks the result against one process over all the rows, and shows
that adding each process's own sums (an all-reduce) gives other bits.
"""

import os

import numpy as np

import normgrad
import normgrad.distributed

H = 1024


def rows_of(rank, world):
    return 256 * (rank + 1) + (100 if rank == world - 1 else 0)


def whole_matrices(world):
    """The matrices all processes' rows make up (every rank builds them here
    only to take its rows and, on rank 0, to check the result)."""
    rows = sum(rows_of(r, world) for r in range(world))
    rng = np.random.default_rng(0)
    dy = rng.standard_normal((rows, H), dtype=np.float32)
    res = rng.standard_normal((rows, H), dtype=np.float32)
    return dy, res


def main():
    if "OMPI_COMM_WORLD_RANK" in os.environ or "PMI_RANK" in os.environ:  # mpirun
        from mpi4py import MPI
        from normgrad.distributed import mpi
        rank, world = MPI.COMM_WORLD.Get_rank(), MPI.COMM_WORLD.Get_size()
        grad_beta, transport = mpi.layer_norm_grad_beta, "MPI"
    else:  # torchrun sets RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT
        import torch.distributed as dist
        os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")  # loopback: one machine
        dist.init_process_group("gloo")
        rank, world = dist.get_rank(), dist.get_world_size()
        grad_beta, transport = normgrad.distributed.layer_norm_grad_beta, "torch.distributed"

    dy, res = whole_matrices(world)
    begin = sum(rows_of(r, world) for r in range(rank))
    mine = slice(begin, begin + rows_of(rank, world))
    pd_gamma, pd_beta = grad_beta(dy[mine], res[mine])

    if rank == 0:
        one_gamma, one_beta = normgrad.layer_norm_grad_beta(dy, res, order="blocked")
        same = pd_gamma.tobytes() == one_gamma.tobytes() and pd_beta.tobytes() == one_beta.tobytes()
        summed = np.zeros(H, np.float32)
        for r in range(world):
            b = sum(rows_of(k, world) for k in range(r))
            summed += normgrad.layer_norm_grad_beta(dy[b:b + rows_of(r, world)],
                                                    res[b:b + rows_of(r, world)])[0]
        differ = int(np.count_nonzero(summed != one_gamma))
        print(f"{transport}: {world} processes, {dy.shape[0]} rows × {H}")
        print(f"  pd_gamma[:3] = {pd_gamma[:3]}")
        print(f"  bit-identical to one process over all rows: {same}")
        print(f"  an all-reduce of per-process sums differs in {differ} of {H} columns")
        if not same:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
