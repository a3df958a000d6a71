"""normgrad.distributed: rows split across 1, 2, 3 and 4 processes, unevenly,
give on every process the bits of normgrad.layer_norm_grad_beta over all the
rows (order blocked) — over torch.distributed (gloo on loopback, processes
from torch.multiprocessing.spawn) and over MPI (mpi4py under mpirun); and a
mismatched H or type, or a split inside a block, is an error on every
process, not a hang. distributed_worker.py is what the processes run; the
comparison is made here, in one process.

Also in one process: partial_sums and combine directly, over every split of
a small matrix at block boundaries, and their errors.

To extend: add splits or error cases in distributed_worker.py.
"""

import json
import pathlib
import shutil
import socket
import subprocess
import sys

import numpy as np
import pytest

import distributed_worker as worker
import normgrad
import normgrad.distributed as nd

WORKER = pathlib.Path(worker.__file__)
# A safety net against a hang, far above the few seconds a run takes: a
# process that waits for ever fails the test instead of stopping the suite.
HANG_SECONDS = 600


def single_process(dtype, split):
    rows = sum(split)
    dy, res = worker.matrix(dtype, rows, worker.SEED), worker.matrix(dtype, rows, worker.SEED + 1)
    return normgrad.layer_norm_grad_beta(dy, res, order="blocked")


def check_run(outdir, world):
    for rank in range(world):
        got = np.load(outdir / f"rank{rank}.npz")
        for name, dtype, split, _ in worker.cases(world):
            pd_gamma, pd_beta = single_process(dtype, split)
            assert got[name + "_gamma"].tobytes() == pd_gamma.tobytes(), (rank, name)
            assert got[name + "_beta"].tobytes() == pd_beta.tobytes(), (rank, name)
        after, _ = single_process("float32", worker.SPLITS[world][0])
        assert got["after_errors_gamma"].tobytes() == after.tobytes(), rank
        errors = json.loads(str(got["errors"]))
        if world < 2:
            assert errors == {}
            continue
        assert errors["h_mismatch"][0] == "ValueError", (rank, errors)
        assert "rank 1 has H = 66 and rank 0 H = 67" in errors["h_mismatch"][1]
        assert errors["dtype_mismatch"][0] == "TypeError", (rank, errors)
        assert (f"rank {world - 1} has float16 rows and rank 0 float32 rows"
                in errors["dtype_mismatch"][1])
        assert errors["unaligned"][0] == "ValueError", (rank, errors)
        assert "rank 1's rows start at row 300, not a multiple of 256" in errors["unaligned"][1]
        if rank == 0:
            assert errors["rejected"] == ["ValueError", errors["rejected"][1]]
            assert "dy and res have 256 × 67 and 10 × 67" in errors["rejected"][1]
        else:
            assert errors["rejected"][0] == "ValueError", (rank, errors)
            assert "the inputs of rank(s) [0] were rejected" in errors["rejected"][1]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("world", [1, 2, 3, 4])
def test_torch_distributed_gives_single_process_bits(world, tmp_path):
    pytest.importorskip("torch.distributed")
    run = subprocess.run([sys.executable, str(WORKER), "torch", str(world), str(free_port()),
                          str(tmp_path)], capture_output=True, text=True, timeout=HANG_SECONDS)
    assert run.returncode == 0, run.stdout + run.stderr
    check_run(tmp_path, world)


def mpirun():
    """The mpirun command line, or a reason why MPI cannot run here."""
    path = shutil.which("mpirun")
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return None, "mpi4py is not installed (Debian: python3-mpi4py, `make deps`)"
    if path is None:
        return None, "mpirun is not installed (Debian: openmpi-bin, `make deps`)"
    # Open MPI refuses to run as root without --allow-run-as-root, and more
    # processes than cores without --oversubscribe.
    return [path, "--allow-run-as-root", "--oversubscribe"], None


@pytest.mark.parametrize("world", [1, 2, 3, 4])
def test_mpi_gives_single_process_bits(world, tmp_path):
    command, why_not = mpirun()
    if command is None:
        pytest.skip(why_not)
    run = subprocess.run(command + ["-n", str(world), sys.executable, str(WORKER), "mpi",
                                    str(tmp_path)],
                         capture_output=True, text=True, timeout=HANG_SECONDS)
    assert run.returncode == 0, run.stdout + run.stderr
    check_run(tmp_path, world)


def test_all_reduce_of_per_process_sums_misses_the_bits():
    """The data tells orders apart: adding each process's own sums, as an
    all-reduce does, gives other bits than one process for some split."""
    missed = 0
    for world, splits in worker.SPLITS.items():
        for split in splits:
            dy = worker.matrix("float32", sum(split), worker.SEED)
            res = worker.matrix("float32", sum(split), worker.SEED + 1)
            total = np.zeros(worker.COLS, np.float32)
            begin = 0
            for n in split:
                total += normgrad.layer_norm_grad_beta(dy[begin:begin + n], res[begin:begin + n])[0]
                begin += n
            missed += total.tobytes() != normgrad.layer_norm_grad_beta(dy, res)[0].tobytes()
    assert missed > 0


@pytest.mark.parametrize("dtype", list(worker.TYPES))
def test_partial_sums_and_combine_over_every_split(dtype):
    rows = 5 * 256 + 77
    dy, res = worker.matrix(dtype, rows, worker.SEED), worker.matrix(dtype, rows, worker.SEED + 1)
    single = normgrad.layer_norm_grad_beta(dy, res)
    single_f32 = normgrad.layer_norm_grad_beta(dy, res, out_dtype="float32")
    for mask in range(2 ** 5):  # a cut after block b when bit b is set
        cuts = [0] + [256 * (b + 1) for b in range(5) if mask >> b & 1] + [rows]
        partials = [nd.partial_sums(dy[a:b], res[a:b], a) for a, b in zip(cuts, cuts[1:])]
        got = nd.combine(partials, dy)
        assert got[0].dtype == dy.dtype
        assert got[0].tobytes() == single[0].tobytes() and got[1].tobytes() == single[1].tobytes()
        got = nd.combine(partials, dy, out_dtype="float32")
        assert got[0].tobytes() == single_f32[0].tobytes()
        assert got[1].tobytes() == single_f32[1].tobytes()


def test_partial_sums_and_combine_errors():
    dy = worker.matrix("float32", 600, worker.SEED)
    with pytest.raises(ValueError, match="row_begin 300 is not a multiple of the blocked "
                                         "order's block of 256 rows"):
        nd.partial_sums(dy[300:], dy[300:], 300)
    first, second = nd.partial_sums(dy[:256], dy[:256], 0), nd.partial_sums(dy[512:], dy[512:], 512)
    with pytest.raises(ValueError, match="partials\\[1\\] starts at row 512 but partials\\[0\\] "
                                         "ends at row 256: a gap"):
        nd.combine([first, second], dy)
    with pytest.raises(TypeError, match="pd_gamma is half; it must be float32 or the inputs' "
                                        "type, float"):
        nd.combine([nd.partial_sums(dy, dy, 0)], dy.astype(np.float16))
    with pytest.raises(TypeError, match="partials\\[0\\] is not a contiguous 1-D uint8 array"):
        nd.combine([np.zeros(12, np.float32)], dy)
