"""normgrad.distributed: pd_gamma and pd_beta of rows split across processes,
with the bits of one process over all the rows.

    import torch.distributed as dist, normgrad.distributed
    dist.init_process_group("gloo")                    # torchrun sets the rest
    pd_gamma, pd_beta = normgrad.distributed.layer_norm_grad_beta(dy, res)

    from normgrad.distributed import mpi                 # the same over MPI
    pd_gamma, pd_beta = mpi.layer_norm_grad_beta(dy, res)   # MPI.COMM_WORLD

Each process passes its own rows of dy and res (rows × H, or B × S × H);
the processes' rows, in rank order, are the rows of the whole matrix. Every
process gets the same pd_gamma and pd_beta, bit for bit those of
normgrad.layer_norm_grad_beta(all_dy, all_res, order="blocked") — for any
number of processes and any split, unlike an all-reduce of per-process sums,
whose bits change with the split.

The rule of the split: each process's rows must start at a multiple of 256
rows, the block of the blocked order (docs/numerics.md). So every process but
the last must hold a multiple of 256 rows (a process with no rows may sit
anywhere). A split that breaks it, or processes whose rows differ in H or
type, raise the same error on every process; a process whose own inputs are
rejected raises its error and the others a ValueError naming it. Nobody is
left waiting in a collective.

How: the processes first all-gather a small header (type, H, rows); each then
sums its rows into the blocked order's partial sums (partial_sums: the tree's
subtrees inside its rows, O(H · log2 rows) floats), the partials are
all-gathered, and every process combines them (combine) in the order the
single call would. Any transport can carry partial_sums' bytes: they are a
documented layout (include/normgrad/grad_beta_partials.h).
"""

import numpy as np

from .. import _arrays, _normgrad

__all__ = ["layer_norm_grad_beta", "partial_sums", "combine", "BLOCK_ROWS"]

#: Rows per block of the blocked order: every process's rows start at a multiple.
BLOCK_ROWS = _normgrad.BLOCKED_ORDER_ROWS

_MAGIC = b"NGBP"
_TYPE_NAMES = ("float32", "float16", "bfloat16")  # by the partials' dtype code
# The header each process all-gathers before any partial sums, as int64s.
_HEADER_FIELDS = ("magic", "version", "block_rows", "accepted", "dtype", "cols", "rows")


def partial_sums(dy, res, row_begin, *, threads=None, dtype=None):
    """The blocked order's partial sums of these rows of dy and res, which
    are rows [row_begin, row_begin + rows) of the whole matrix (row_begin a
    multiple of BLOCK_ROWS unless there are no rows), as a 1-D uint8 numpy
    array in the layout of include/normgrad/grad_beta_partials.h. threads
    and dtype as in normgrad.layer_norm_grad_beta."""
    (dy, res), marked, _ = _normgrad.prepare("normgrad.distributed.partial_sums", ["dy", "res"],
                                             (dy, res), dtype, None)
    rows, cols, _ = _normgrad.partials_layout(dy, res, marked)
    out = np.empty(_normgrad.partials_bytes(row_begin, rows, cols), dtype=np.uint8)
    _normgrad.partials(dy, res, row_begin, out, marked, threads)
    return out


def combine(partials, like, *, out_dtype=None, dtype=None):
    """(pd_gamma, pd_beta) from the partial_sums of consecutive row ranges
    that cover the whole matrix, in row order: the bits of
    normgrad.layer_norm_grad_beta over all the rows. The results are arrays
    of `like`'s kind and type (e.g. this process's dy), or float32 with
    out_dtype="float32"; dtype="bfloat16" marks a uint16 `like`."""
    api = "normgrad.distributed.combine"
    (like,), marked, out_type = _normgrad.prepare(api, ["like"], (like,), dtype, out_dtype)
    partials = list(partials)
    first = np.asarray(_detached(partials[0])) if partials else np.empty(0, np.uint8)
    cols = int(first[16:24].view(np.uint64)[0]) if first.size >= 48 else 0
    pd_gamma = _arrays.empty(like, (cols,), out_type)
    pd_beta = _arrays.empty(like, (cols,), out_type)
    _normgrad.combine(partials, pd_gamma, pd_beta, marked)
    return pd_gamma, pd_beta


def _detached(a):
    """A torch tensor detached from autograd (numpy can then read it), any
    other array as it is."""
    return a.detach() if _arrays.is_torch(a) else a


def layer_norm_grad_beta(dy, res, group=None, *, out_dtype=None, threads=None, dtype=None):
    """pd_gamma and pd_beta over the rows of all processes of the
    torch.distributed process group `group` (None: the default group), this
    process's rows being dy and res; every process gets the same result,
    the bits of the single-process blocked order (the module's docstring
    has the rule of the split). The group's backend must handle CPU tensors
    (gloo, mpi). Returns arrays of dy's kind and type (or float32 with
    out_dtype="float32"); threads and dtype as in
    normgrad.layer_norm_grad_beta."""
    return run_collective(_TorchExchange(group), "normgrad.distributed.layer_norm_grad_beta",
                          dy, res, out_dtype, threads, dtype)


class _TorchExchange:
    """All-gathers over a torch.distributed group, in its rank order."""

    def __init__(self, group):
        import torch
        import torch.distributed as dist
        self._torch, self._dist, self._group = torch, dist, group
        self.rank = dist.get_rank(group)
        self.size = dist.get_world_size(group)

    def allgather_ints(self, values):
        mine = self._torch.from_numpy(values)
        out = [self._torch.empty_like(mine) for _ in range(self.size)]
        self._dist.all_gather(out, mine, group=self._group)
        return np.stack([o.numpy() for o in out])

    def allgather_bytes(self, mine, sizes):
        # all_gather moves tensors of one size: each is padded to the largest.
        padded = self._torch.zeros(max(sizes), dtype=self._torch.uint8)
        padded[:mine.size] = self._torch.from_numpy(mine)
        out = [self._torch.empty_like(padded) for _ in range(self.size)]
        self._dist.all_gather(out, padded, group=self._group)
        return [o.numpy()[:n] for o, n in zip(out, sizes)]


def _check_headers(api, headers, rank):
    """Raises, identically on every process, what keeps the processes' rows
    from being the rows of one matrix split at block boundaries."""
    h = {name: headers[:, i] for i, name in enumerate(_HEADER_FIELDS)}
    refused = [k for k in range(len(headers)) if not h["accepted"][k]]
    if refused:
        raise ValueError(f"{api}: the inputs of rank(s) {refused} were rejected (their own "
                         f"error says why), so rank {rank} cannot sum with them")
    for k in range(1, len(headers)):
        if (h["magic"][k], h["version"][k], h["block_rows"][k]) != \
                (h["magic"][0], h["version"][0], h["block_rows"][0]):
            raise ValueError(f"{api}: rank {k} runs a normgrad with partials version "
                             f"{h['version'][k]} and {h['block_rows'][k]}-row blocks, rank 0 "
                             f"version {h['version'][0]} and {h['block_rows'][0]}-row blocks; "
                             f"every rank must run the same normgrad")
        if h["dtype"][k] != h["dtype"][0]:
            raise TypeError(f"{api}: rank {k} has {_TYPE_NAMES[h['dtype'][k]]} rows and rank "
                            f"0 {_TYPE_NAMES[h['dtype'][0]]} rows; every rank must hold rows "
                            f"of one matrix (same type and H)")
        if h["cols"][k] != h["cols"][0]:
            raise ValueError(f"{api}: rank {k} has H = {h['cols'][k]} and rank 0 H = "
                             f"{h['cols'][0]}; every rank must hold rows of one matrix (same "
                             f"type and H)")
    rows = [int(r) for r in h["rows"]]
    begin = 0
    for k, n in enumerate(rows):
        if n > 0 and begin % BLOCK_ROWS != 0:
            raise ValueError(f"{api}: rank {k}'s rows start at row {begin}, not a multiple of "
                             f"{BLOCK_ROWS} (rows by rank: {rows}); each rank's rows must "
                             f"start at a block boundary of the blocked order, so every rank "
                             f"but the last with rows must hold a multiple of {BLOCK_ROWS} rows")
        begin += n
    return rows


def run_collective(exchange, api, dy, res, out_dtype, threads, dtype):
    """layer_norm_grad_beta over any all-gather transport: `exchange` has
    rank, size, allgather_ints(int64 array) → (size, n) array and
    allgather_bytes(uint8 array, sizes by rank) → arrays by rank."""
    local_error, rows, cols, code = None, 0, 0, 0
    try:
        (dy, res), marked, _ = _normgrad.prepare(api, ["dy", "res"], (dy, res), dtype,
                                                 out_dtype)
        rows, cols, code = _normgrad.partials_layout(dy, res, marked)
    except Exception as e:  # every rank must still take part in the exchange
        local_error = e
    header = np.array([int.from_bytes(_MAGIC, "little"), _normgrad.PARTIALS_VERSION, BLOCK_ROWS,
                       local_error is None, code, cols, rows], dtype=np.int64)
    headers = exchange.allgather_ints(header)
    if local_error is not None:
        raise local_error
    all_rows = _check_headers(api, headers, exchange.rank)

    begins = np.concatenate([[0], np.cumsum(all_rows)[:-1]]).astype(int)
    sizes = [_normgrad.partials_bytes(int(b), n, cols) for b, n in zip(begins, all_rows)]
    try:
        mine = partial_sums(dy, res, int(begins[exchange.rank]), threads=threads, dtype=dtype)
    except Exception as e:  # out of memory: send zeros, which the others see as a failure
        local_error, mine = e, np.zeros(sizes[exchange.rank], dtype=np.uint8)
    gathered = exchange.allgather_bytes(mine, sizes)
    if local_error is not None:
        raise local_error
    failed = [k for k, p in enumerate(gathered) if bytes(p[:4]) != _MAGIC]
    if failed:
        raise RuntimeError(f"{api}: rank(s) {failed} could not compute their partial sums "
                           f"(their own error says why)")
    return combine(gathered, dy, out_dtype=out_dtype, dtype=dtype)
