"""The processes of test_distributed.py: each takes its rows of one seeded
matrix and calls normgrad.distributed, over torch.distributed (gloo on
loopback, processes from torch.multiprocessing.spawn) or over MPI (processes
from mpirun):

    python3 distributed_worker.py torch WORLD PORT OUTDIR
    mpirun -n WORLD python3 distributed_worker.py mpi OUTDIR

Rank r writes OUTDIR/rank<r>.npz: per case in CASES, its pd_gamma and pd_beta
as raw bits, and per error case the exception it raised (type and message).
The test compares them with one process over all the rows.

To extend: add a split to SPLITS (rows per rank, every rank but the last
with rows a multiple of 256), or an error case to error_cases().
"""

import json
import os
import sys

import ml_dtypes
import numpy as np

COLS = 67
SEED = int(os.environ.get("NORMGRAD_SEED", "2024"))
TYPES = {"float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}
# Rows per rank, uneven, with rows counts that end inside a block, and empty
# ranks at the start and in the middle.
SPLITS = {
    1: [[1537], [300]],
    2: [[256, 1281], [1280, 257]],
    3: [[512, 256, 771], [256, 0, 1033]],
    4: [[256, 768, 512, 301], [0, 512, 256, 769]],
}


def matrix(dtype, rows, seed):
    """Standard normal values rounded to dtype: sums whose bits depend on the
    order of the additions."""
    values = np.random.default_rng(seed).standard_normal((rows, COLS))
    return values.astype(np.float32).astype(TYPES[dtype])


def cases(world):
    """(name, dtype, rows by rank, kind) of the calls that must succeed."""
    out = []
    for i, split in enumerate(SPLITS[world]):
        for dtype in TYPES:
            out.append((f"{dtype}_split{i}", dtype, split, "numpy"))
    out.append(("torch_bfloat16", "bfloat16", SPLITS[world][0], "torch"))
    return out


def inputs(dtype, split, rank, kind):
    rows = sum(split)
    dy, res = matrix(dtype, rows, SEED), matrix(dtype, rows, SEED + 1)
    begin = sum(split[:rank])
    dy, res = dy[begin:begin + split[rank]], res[begin:begin + split[rank]]
    if kind == "torch":
        import torch
        as_torch = {"float32": torch.float32, "float16": torch.float16,
                    "bfloat16": torch.bfloat16}[dtype]
        return (torch.from_numpy(dy.astype(np.float32)).to(as_torch),
                torch.from_numpy(res.astype(np.float32)).to(as_torch))
    return dy, res


def error_cases(world, rank):
    """(name, dy, res) per rank of calls that must fail on every rank."""
    if world < 2:
        return []
    dy, res = matrix("float32", 256, SEED), matrix("float32", 256, SEED + 1)
    wide = matrix("float32", 256, SEED)[:, :COLS - 1]
    last = rank == world - 1
    return [
        ("h_mismatch", wide if rank == 1 else dy, wide if rank == 1 else res),
        ("dtype_mismatch", dy.astype(np.float16) if last else dy,
         res.astype(np.float16) if last else res),
        # 300 rows on rank 0: rank 1's rows would start inside a block.
        ("unaligned", matrix("float32", 300, SEED) if rank == 0 else dy,
         matrix("float32", 300, SEED) if rank == 0 else res),
        # res does not have dy's shape on rank 0: its own error.
        ("rejected", dy, res[:10] if rank == 0 else res),
    ]


def raw_bits(a):
    """The bytes of a numpy array or torch tensor."""
    if not isinstance(a, np.ndarray):  # torch: 16-bit types as int16, which numpy has
        import torch
        a = (a.view(torch.int16) if a.element_size() == 2 else a).numpy()
    return a.view(np.uint8)


def run(layer_norm_grad_beta, world, rank, outdir):
    results, errors = {}, {}
    for name, dtype, split, kind in cases(world):
        dy, res = inputs(dtype, split, rank, kind)
        pd_gamma, pd_beta = layer_norm_grad_beta(dy, res, threads=1)
        results[name + "_gamma"], results[name + "_beta"] = raw_bits(pd_gamma), raw_bits(pd_beta)
    for name, dy, res in error_cases(world, rank):
        try:
            layer_norm_grad_beta(dy, res, threads=1)
            errors[name] = ["none", ""]
        except Exception as e:  # recorded for the test to check
            errors[name] = [type(e).__name__, str(e)]
    # The processes still work together after the errors.
    dy, res = inputs("float32", SPLITS[world][0], rank, "numpy")
    pd_gamma, _ = layer_norm_grad_beta(dy, res, threads=1)
    results["after_errors_gamma"] = raw_bits(pd_gamma)
    np.savez(os.path.join(outdir, f"rank{rank}.npz"), errors=json.dumps(errors), **results)


def torch_process(rank, world, port, outdir):
    import torch.distributed as dist
    import normgrad.distributed
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=world)
    run(normgrad.distributed.layer_norm_grad_beta, world, rank, outdir)
    dist.destroy_process_group()


def main():
    if sys.argv[1] == "torch":
        import torch.multiprocessing
        world, port, outdir = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
        torch.multiprocessing.spawn(torch_process, args=(world, port, outdir), nprocs=world)
    else:
        from mpi4py import MPI
        from normgrad.distributed import mpi
        comm = MPI.COMM_WORLD
        run(mpi.layer_norm_grad_beta, comm.Get_size(), comm.Get_rank(), sys.argv[2])


if __name__ == "__main__":
    main()
