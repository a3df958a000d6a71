"""How normgrad lives in a Python process beside PyTorch: one OpenMP runtime,
the thread count taken from torch, the wheel's native code free of a fixed
instruction set.

Extending: checks that need a fresh process run a script in a subprocess.
"""

import platform
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch

import normgrad


def run_python(code):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], check=True,
                          capture_output=True, text=True).stdout


def test_one_openmp_runtime_beside_torch():
    """torch and normgrad imported (in both orders) and both run a threaded
    computation: the process maps exactly one OpenMP library."""
    for first, second in (("torch", "normgrad"), ("normgrad", "torch")):
        out = run_python(f"""
            import re
            import {first}, {second}
            import numpy as np, torch, normgrad
            a = np.ones((4096, 512), np.float32)
            normgrad.layer_norm_grad_beta(a, a, threads=2)
            torch.nn.functional.layer_norm(torch.ones(4096, 512), (512,))
            libs = {{line.split()[-1] for line in open("/proc/self/maps")
                     if re.search(r"/lib(g|i|i5)?omp[^/]*\\.so", line)}}
            print(sorted(libs))
            """)
        libs = eval(out)
        assert len(libs) == 1, f"import {first}, {second}: OpenMP libraries mapped: {libs}"


def test_threads_follow_torch(monkeypatch):
    """A 4 MiB problem (the engine would use several threads) runs on as many
    threads as torch is set to. torch.set_num_threads also sets the shared
    OpenMP runtime's default, so torch.get_num_threads is patched to differ
    from it: normgrad must ask torch, not fall back on OpenMP's default."""
    a = np.ones((4096, 512), np.float32)
    saved = torch.get_num_threads()
    try:
        torch.set_num_threads(1)  # OpenMP's default is now 1 as well
        for n in (2, 1):
            monkeypatch.setattr(torch, "get_num_threads", lambda n=n: n)
            normgrad.layer_norm_grad_beta(a, a)
            assert normgrad.last_run()[1] == n
            normgrad.layer_norm_forward(a, a[0], a[0])
            assert normgrad.last_layer_norm_run()[1] == n
        normgrad.layer_norm_grad_beta(a, a, threads=2)  # an explicit count wins
        assert normgrad.last_run()[1] == 2
    finally:
        monkeypatch.undo()
        torch.set_num_threads(saved)


def test_every_instruction_set_path_gives_the_same_bits():
    """NORMGRAD_IMPL forces an instruction set: the scalar path (which any
    x86-64 CPU runs) and the dispatched one agree, and the module imports and
    runs without instructions beyond the baseline."""
    code = """
        import numpy as np, normgrad
        rng = np.random.default_rng(7)
        a, b = rng.standard_normal((2, 1000, 72), dtype=np.float32)
        g, _ = normgrad.layer_norm_grad_beta(a, b)
        print(normgrad.last_run()[0], g.tobytes().hex())
        """
    dispatched = run_python(code).split()
    scalar = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], check=True,
                            capture_output=True, text=True,
                            env={"NORMGRAD_IMPL": "blocked:scalar",
                                 "PATH": "/usr/bin"}).stdout.split()
    assert scalar[0] == "blocked:scalar"
    assert scalar[1] == dispatched[1]


@pytest.mark.skipif(platform.machine() != "x86_64",
                    reason="the CPU models emulated here are x86-64 ones")
@pytest.mark.parametrize("cpu,isa", [("qemu64", "scalar"), ("Haswell", "avx2")])
def test_runs_on_cpus_without_avx512_or_avx(cpu, isa):
    """The module under qemu-x86_64 emulating an older CPU (make deps
    installs qemu-user): it imports, picks the best kernels that CPU has and
    computes the same bits as on this machine."""
    qemu = shutil.which("qemu-x86_64")
    assert qemu, "qemu-x86_64 is missing: make deps installs it (qemu-user)"
    code = """
        import numpy as np, normgrad
        rng = np.random.default_rng(7)
        a, b = rng.standard_normal((2, 1000, 72), dtype=np.float32)
        g, _ = normgrad.layer_norm_grad_beta(a, b)
        y, _, _ = normgrad.layer_norm_forward(a, b[0], b[1])
        print(normgrad.last_run()[0], normgrad.last_layer_norm_run()[0], g.tobytes().hex(),
              y.tobytes().hex())
        """
    here = run_python(code).split()
    there = subprocess.run([qemu, "-cpu", cpu, sys.executable, "-c", textwrap.dedent(code)],
                           check=True, capture_output=True, text=True).stdout.split()
    assert there[:2] == [f"blocked:{isa}", f"forward:{isa}"]
    assert there[2:] == here[2:]


# (forward call giving the statistics, backward call, outputs of the
# backward pass, the engine's message) per norm.
OUT_OF_MEMORY = {
    "layer_norm": ("_, mean, rstd = normgrad.layer_norm_forward(x, g, g, threads=1)",
                   "normgrad.layer_norm_backward(x, x, g, mean, rstd, threads=1)", 3,
                   "LayerNormBackward: cannot allocate 32 MiB (33554432 bytes) for the float "
                   "partial sums of pd_gamma and pd_beta: out of memory"),
    "rms_norm": ("_, rstd = normgrad.rms_norm_forward(x, g, threads=1)",
                 "normgrad.rms_norm_backward(x, x, g, rstd, threads=1)", 2,
                 "RmsNormBackward: cannot allocate 32 MiB (33554432 bytes) for the float "
                 "partial sums of dgamma: out of memory"),
}


@pytest.mark.parametrize("norm", OUT_OF_MEMORY)
def test_engine_out_of_memory_is_memory_error(norm):
    """Scratch the engine cannot allocate: MemoryError with the engine's
    message. A fresh process limits its address space to what the inputs and
    outputs need plus 8 MiB, less than the 32 MiB of partial sums a 2^22-wide
    row needs."""
    forward, backward, outputs, message = OUT_OF_MEMORY[norm]
    out = run_python(f"""
        import resource, numpy as np, normgrad
        cols = 1 << 22
        x = np.ones((1, cols), np.float32)
        x[0, ::2] = 3
        g = np.ones(cols, np.float32)
        {forward}
        vm = next(int(l.split()[1]) * 1024 for l in open("/proc/self/status")
                  if l.startswith("VmSize"))
        outputs = {outputs} * 4 * cols
        resource.setrlimit(resource.RLIMIT_AS, (vm + outputs + (8 << 20), resource.RLIM_INFINITY))
        try:
            {backward}
            print("no error")
        except MemoryError as e:
            print("MemoryError:", e)
        """)
    assert out.strip() == "MemoryError: " + message
