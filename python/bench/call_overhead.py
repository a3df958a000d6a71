"""What a call from Python costs over the same engine call from C++.

For each function the package exposes (layer_norm_grad_beta,
layer_norm_forward, layer_norm_backward, rms_norm_forward,
rms_norm_backward), on numpy arrays and on torch
tensors, for a tiny shape (64 × 64, where the call's own work dominates) and
a large one (8192 × 1024, where the engine's does), this times the Python
call and the same engine call made from C++ by normgrad_call_times
(call_times.cc beside this file, built with the benchmarks), in alternating
rounds so that both see the same load on a shared machine. Both are timed
alike: batches of calls (each batch at least --batch-us long), the time of
one call per batch as a sample. A call that runs on the calling thread
(the tiny shape, which the engine keeps on one thread, and every shape when
the thread count is 1) is timed in that thread's CPU time, which leaves out
the time other processes take on a shared machine; a large shape on
several threads, in elapsed time.
Printed per case: the median per-call time of each side with the range of
its samples, and the Python call's overhead, median minus median, in
microseconds and as a share of the C++ call.

The Python calls use the package's defaults (threads=None: this script
imports torch, so torch.get_num_threads()); the C++ calls get that thread
count. C++ reuses its output buffers, as a program calling the engine in a
loop does (--cpp-outputs reuse), or takes new ones from operator new each
call (fresh). The Python functions return new arrays (--python-outputs new),
so their time includes allocating them and the first touch of their pages,
or write into out= arrays allocated once (out), as C++ reusing its buffers.

Two processes' medians differ by the machine's run-to-run spread as well
(on a shared machine, ±10% for a large shape: more than what Python adds).
--same-call measures instead, on each Python call, the call's elapsed time
and the engine's own inside it (the native module times its engine call
when normgrad._normgrad.time_engine(True)): their difference is what the
call adds, on the very same call, whatever the engine's time did. Printed
per case: the engine's median time, and the median and 10th–90th
percentiles of the difference over single calls, less the cost of timing an
empty call the same way; every case with new outputs and with out=.

--parts times, instead, what a 64 × 64 call from Python spends around the
engine, one step at a time: handing an array to the native module (a numpy
array, a torch tensor as it is, and for comparison as a DLPack capsule:
exporting it, then importing it), and allocating an output of each kind.

--autograd times a 64 × 64 forward and backward pass through autograd
(x, weight and bias requiring grad, y.backward(dy)): normgrad.torch's
layer_norm next to torch.nn.functional.layer_norm, in alternating rounds,
and normgrad.torch.rms_norm (torch 1.13 has no rms_norm to compare with).

    cmake --build build --target normgrad_call_times
    build/venv/bin/python python/bench/call_overhead.py      # make python builds the venv
    build/venv/bin/python python/bench/call_overhead.py --python-outputs out --cpp-outputs reuse
    build/venv/bin/python python/bench/call_overhead.py --same-call
    build/venv/bin/python python/bench/call_overhead.py --parts
    build/venv/bin/python python/bench/call_overhead.py --autograd

Not a test: the figures depend on the machine and its load (see uptime).
"""

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

import numpy as np
import torch

import normgrad

REPO = pathlib.Path(__file__).resolve().parents[2]
# (rows, H, whether the engine keeps it on one thread) by name.
SHAPES = {"small": (64, 64, True), "large": (8192, 1024, False)}
CLOCKS = {"thread": time.thread_time_ns, "wall": time.perf_counter_ns}
APIS = ("grad_beta", "forward", "backward", "rms_forward", "rms_backward")
KINDS = ("numpy", "torch")


def filled(shape, seed):
    """float32 inputs holding what normgrad_call_times fills its own with:
    small multiples of 1/64 (call_times.cc, Filled)."""
    i = np.arange(np.prod(shape), dtype=np.int64)
    return ((((i * 7 + seed) % 251) - 125).astype(np.float32) / 64).reshape(shape)


def python_call(api, kind, rows, cols, outputs):
    """The Python call of `api` on inputs like the C++ side's, returning new
    arrays (outputs "new") or writing into arrays allocated once ("out")."""
    x, dy = filled((rows, cols), 0), filled((rows, cols), 3)
    gamma, beta = filled((cols,), 5), filled((cols,), 9)
    _, mean, rstd = normgrad.layer_norm_forward(x, gamma, beta)
    arrays = [x, dy, gamma, beta, mean, rstd]
    if kind == "torch":
        # Copies in torch's own allocations (64-byte aligned, as a torch
        # program's tensors are), not views of numpy's memory: the engine's
        # large forward is faster when x and y lie at the same offset in a
        # 64-byte line, and torch allocates the outputs.
        arrays = [torch.from_numpy(a).clone() for a in arrays]
    x, dy, gamma, beta, mean, rstd = arrays
    if api == "grad_beta":
        out = normgrad.layer_norm_grad_beta(dy, x)
        if outputs == "out":
            return lambda: normgrad.layer_norm_grad_beta(dy, x, out=out)
        return lambda: normgrad.layer_norm_grad_beta(dy, x)
    if api == "forward":
        out = normgrad.layer_norm_forward(x, gamma, beta)
        if outputs == "out":
            return lambda: normgrad.layer_norm_forward(x, gamma, beta, out=out)
        return lambda: normgrad.layer_norm_forward(x, gamma, beta)
    if api == "backward":
        out = normgrad.layer_norm_backward(x, dy, gamma, mean, rstd)
        if outputs == "out":
            return lambda: normgrad.layer_norm_backward(x, dy, gamma, mean, rstd, out=out)
        return lambda: normgrad.layer_norm_backward(x, dy, gamma, mean, rstd)
    if api == "rms_forward":
        out = normgrad.rms_norm_forward(x, gamma)
        if outputs == "out":
            return lambda: normgrad.rms_norm_forward(x, gamma, out=out)
        return lambda: normgrad.rms_norm_forward(x, gamma)
    # Any float32 per-row values serve as rstd: the layer norm's.
    out = normgrad.rms_norm_backward(x, dy, gamma, rstd)
    if outputs == "out":
        return lambda: normgrad.rms_norm_backward(x, dy, gamma, rstd, out=out)
    return lambda: normgrad.rms_norm_backward(x, dy, gamma, rstd)


def python_samples(call, samples, batch_us, clock):
    """Per-call times (µs) of `samples` batches, timed as call_times.cc
    times its batches."""
    now = CLOCKS[clock]
    one = min(_ns(call, now) for _ in range(5)) / 1e3
    batch = max(1, int(batch_us / one))
    out = []
    for _ in range(samples):
        start = now()
        for _ in range(batch):
            call()
        out.append((now() - start) / 1e3 / batch)
    return out


def _ns(call, now):
    start = now()
    call()
    return max(1, now() - start)


def cpp_samples(driver, api, rows, cols, threads, samples, batch_us, clock, outputs):
    run = subprocess.run([str(driver), api, "float32", str(rows), str(cols), str(threads),
                          "blocked", str(samples), str(batch_us), clock, outputs],
                         check=True, capture_output=True, text=True)
    return json.loads(run.stdout)["us"]


def same_call(call, calls):
    """(engine µs, added µs) of `calls` single calls, each call's added time
    being its elapsed time less its engine's, both on the same call."""
    from normgrad import _normgrad

    now, engine_ns = time.perf_counter_ns, _normgrad.last_engine_ns
    engine, added = [], []
    _normgrad.time_engine(True)
    try:
        for _ in range(calls):
            start = now()
            call()
            elapsed = now() - start
            e = engine_ns()
            engine.append(e / 1e3)
            added.append((elapsed - e) / 1e3)
    finally:
        _normgrad.time_engine(False)
    return engine, added


def timing_cost(calls):
    """Median µs of timing an empty call as same_call times a call."""
    now = time.perf_counter_ns
    call = lambda: None  # noqa: E731 (called as the measured lambdas are)
    out = []
    for _ in range(calls):
        start = now()
        call()
        out.append((now() - start) / 1e3)
    return statistics.median(out)


def percentiles(us):
    q = statistics.quantiles(us, n=10)
    return f"{statistics.median(us):8.2f} [{q[0]:.2f}–{q[-1]:.2f}]"


def print_same_call(shapes, calls):
    print(f"{'case':40} {'engine µs median':>18} {'added µs median [p10–p90]':>28} "
          f"{'of engine':>10}")
    for shape in shapes:
        rows, cols, _ = SHAPES[shape]
        n = calls if shape == "small" else max(20, calls // 100)
        for api in APIS:
            for kind in KINDS:
                for outputs in ("new", "out"):
                    call = python_call(api, kind, rows, cols, outputs)
                    for _ in range(min(n, 100)):  # warm: caches, pages, branch history
                        call()
                    cost = timing_cost(n)
                    engine, added = same_call(call, n)
                    added = [a - cost for a in added]
                    e = statistics.median(engine)
                    print(f"{f'{api} {kind} {outputs} {rows}x{cols}':40} {e:18.2f} "
                          f"{percentiles(added):>28} "
                          f"{100 * statistics.median(added) / e:9.2f}%", flush=True)


def parts(samples, batch_us):
    """Per-step times (µs, thread CPU time) of what a 64 × 64 call does
    around the engine, as (step, samples) rows."""
    from normgrad import _normgrad  # the native module: its layout() imports one array

    a = filled((64, 64), 0)
    t = torch.from_numpy(a)
    to_dlpack = torch.utils.dlpack.to_dlpack
    api = "call_overhead.py"
    steps = [
        ("numpy array: import (layout)", lambda: _normgrad.layout(a, api, "a", False)),
        ("torch tensor: read (layout)", lambda: _normgrad.layout(t, api, "a", False)),
        ("torch tensor: to_dlpack", lambda: to_dlpack(t)),
        ("torch tensor: to_dlpack + import", lambda: _normgrad.layout(to_dlpack(t), api, "a",
                                                                      False)),
        ("numpy.empty 64x64 float32", lambda: np.empty((64, 64), dtype=np.float32)),
        ("torch.empty_like 64x64 float32", lambda: torch.empty_like(t)),
        ("torch.empty 64 float32", lambda: torch.empty((64,), dtype=torch.float32)),
    ]
    return [(name, python_samples(step, samples, batch_us, "thread")) for name, step in steps]


def autograd(samples, batch_us):
    """Per-call times (µs, thread CPU time) of a 64 × 64 forward and
    backward pass through autograd, as (case, samples) rows, the cases
    alternating within each round."""
    import torch.nn.functional as F

    import normgrad.torch as ngt

    x = torch.from_numpy(filled((64, 64), 0)).requires_grad_()
    weight = torch.from_numpy(filled((64,), 5)).requires_grad_()
    bias = torch.from_numpy(filled((64,), 9)).requires_grad_()
    dy = torch.from_numpy(filled((64, 64), 3))
    cases = {
        "normgrad.torch.layer_norm": lambda: ngt.layer_norm(x, (64,), weight, bias,
                                                            1e-5).backward(dy),
        "torch.nn.functional.layer_norm": lambda: F.layer_norm(x, (64,), weight, bias,
                                                               1e-5).backward(dy),
        "normgrad.torch.rms_norm": lambda: ngt.rms_norm(x, (64,), weight).backward(dy),
    }
    times = {name: [] for name in cases}
    for _ in range(samples):
        for name, call in cases.items():
            times[name] += python_samples(call, 1, batch_us, "thread")
    return list(times.items())


def spread(us):
    return f"{statistics.median(us):9.2f} [{min(us):.2f}–{max(us):.2f}]"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--driver", default=REPO / "build" / "bin" / "normgrad_call_times",
                        type=pathlib.Path, help="normgrad_call_times (default: build/bin/)")
    parser.add_argument("--rounds", type=int, default=5, help="alternations of C++ and Python")
    parser.add_argument("--samples", type=int, default=20, help="samples per side and round")
    parser.add_argument("--batch-us", type=int, default=2000, help="shortest timed batch")
    parser.add_argument("--shapes", default="small,large", help="small (64x64), large (8192x1024)")
    parser.add_argument("--cpp-outputs", default="reuse", choices=("reuse", "fresh"),
                        help="C++ output buffers: allocated once, or new each call")
    parser.add_argument("--python-outputs", default="new", choices=("new", "out"),
                        help="Python outputs: new arrays each call, or out= arrays made once")
    parser.add_argument("--same-call", action="store_true",
                        help="time what each Python call adds to its own engine call instead")
    parser.add_argument("--calls", type=int, default=20000,
                        help="--same-call: single calls per small case (a hundredth for large)")
    parser.add_argument("--parts", action="store_true",
                        help="time the steps of a 64x64 call around the engine instead")
    parser.add_argument("--autograd", action="store_true",
                        help="time 64x64 forward and backward passes through autograd instead")
    args = parser.parse_args()
    if args.autograd:
        print(f"load average {' '.join(f'{l:.2f}' for l in os.getloadavg())}; "
              f"µs per forward and backward pass, thread CPU time")
        for name, us in autograd(args.samples, args.batch_us):
            print(f"{name:36} {spread(us):>28}", flush=True)
        return
    if args.parts:
        print(f"load average {' '.join(f'{l:.2f}' for l in os.getloadavg())}; "
              f"µs per step, thread CPU time")
        for name, us in parts(args.samples, args.batch_us):
            print(f"{name:36} {spread(us):>28}", flush=True)
        return
    if args.same_call:
        print(f"normgrad {normgrad.__file__}; threads {torch.get_num_threads()}; "
              f"{os.cpu_count()} CPUs; load average "
              f"{' '.join(f'{l:.2f}' for l in os.getloadavg())}; elapsed time, µs per call")
        print_same_call(args.shapes.split(","), args.calls)
        return
    if not args.driver.is_file():
        sys.exit(f"call_overhead.py: --driver {args.driver} does not exist: build it first "
                 f"(cmake --build build --target normgrad_call_times)")

    threads = torch.get_num_threads()  # what the Python calls use by default
    print(f"normgrad {normgrad.__file__}; threads {threads}; {os.cpu_count()} CPUs; "
          f"load average {' '.join(f'{l:.2f}' for l in os.getloadavg())}; "
          f"C++ outputs: {args.cpp_outputs}; Python outputs: {args.python_outputs}")
    print(f"{'case (clock)':32} {'C++ µs median [range]':>28} {'Python µs median [range]':>28} "
          f"{'overhead':>16}")
    for shape in args.shapes.split(","):
        rows, cols, one_thread = SHAPES[shape]
        clock = "thread" if one_thread or threads == 1 else "wall"
        # Large shapes take milliseconds a call: fewer samples, one call a batch.
        samples = args.samples if shape == "small" else max(3, args.samples // 4)
        for api in APIS:
            for kind in KINDS:
                call = python_call(api, kind, rows, cols, args.python_outputs)
                cpp, py = [], []
                for _ in range(args.rounds):
                    cpp += cpp_samples(args.driver, api, rows, cols, threads, samples,
                                       args.batch_us, clock, args.cpp_outputs)
                    py += python_samples(call, samples, args.batch_us, clock)
                over = statistics.median(py) - statistics.median(cpp)
                print(f"{f'{api} {kind} {rows}x{cols} ({clock})':32} {spread(cpp):>28} "
                      f"{spread(py):>28} {over:8.2f} µs {100 * over / statistics.median(cpp):5.1f}%",
                      flush=True)


if __name__ == "__main__":
    main()
