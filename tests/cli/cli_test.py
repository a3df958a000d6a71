#!/usr/bin/python3
"""tests/cli/cli_test.py — end-to-end tests of the normgrad command line.

Runs the normgrad binary on inputs written with numpy and checks exit codes,
messages and output files. The oracles are written here, not taken from
src/: the sequential order (docs/numerics.md, "The sequential order") is
transcribed with numpy float32 arrays (one rounded multiply, one rounded add
per row), so it must match bit for bit; the blocked order is checked against
float64 sums within the bound of docs/numerics.md.

Usage (ctest does this): /usr/bin/python3 cli_test.py BINARY GROUP
GROUP is example, run, errors, tiling, fuzz, demo, backward, forward,
layer_norm_errors, rmsnorm, rmsnorm_errors, bench, outputs, kill, memory, and one per
normalization API (groupnorm, batchnorm, rmsnorm, normalize, deepnorm, ...).
To add a case, add a method to the group's class; an error case is one row
of ERROR_CASES (LAYER_NORM_ERRORS for backward and forward, RMS_NORM_ERRORS
for the rmsnorm commands).
"""

import hashlib
import json
import math
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import numpy as np

BINARY = None  # set from argv in main
TIMEOUT_S = 120


def run(args, env=None, cwd=None):
    """Runs normgrad with args; returns the CompletedProcess (text output)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([BINARY] + [str(a) for a in args], capture_output=True, text=True,
                          errors="replace", timeout=TIMEOUT_S, env=full_env, cwd=cwd)


def to_bf16_bits(x):
    """float32 → bfloat16 bits, round half to even (no NaNs in our data)."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_to_f32(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def widen(x, dtype):
    """The inputs as float32, as the device widens them (exactly)."""
    return bf16_to_f32(x) if dtype == "bfloat16" else x.astype(np.float32)


def narrow(acc, dtype):
    """The float32 accumulators in the output type, round half to even."""
    if dtype == "float":
        return acc
    if dtype == "half":
        return acc.astype(np.float16)
    return to_bf16_bits(acc)


def sequential_oracle(dy, res, dtype):
    """The device's order: per column, acc = (...((0 + p0) + p1) + ...) in
    float32, with p = fl(dy·res) for gamma and p = dy for beta; then
    narrowed."""
    h = dy.shape[-1]
    dy32 = widen(dy, dtype).reshape(-1, h)
    res32 = widen(res, dtype).reshape(-1, h)
    gamma = np.zeros(h, np.float32)
    beta = np.zeros(h, np.float32)
    for r in range(dy32.shape[0]):
        gamma = gamma + dy32[r] * res32[r]  # float32 ufuncs: separate roundings
        beta = beta + dy32[r]
    return narrow(gamma, dtype), narrow(beta, dtype)


def blocked_bound(dy, res, dtype):
    """Float64 sums and the blocked order's error bound per column
    (docs/numerics.md): 256-row blocks summed from zero (256 additions), a
    pairwise tree of depth d = ceil(log2(ceil(rows / 256))), one rounding of
    each product: k = 256 + d + 1 roundings, |err| <= γ(k) · Σ|terms|,
    γ(k) = k·u / (1 − k·u), u = 2^-24; a 16-bit output adds one rounding of
    u16 = 2^-11 (half) or 2^-8 (bf16) relative, and half's 2^-25 absolute."""
    h = dy.shape[-1]
    dy64 = widen(dy, dtype).reshape(-1, h).astype(np.float64)
    res64 = widen(res, dtype).reshape(-1, h).astype(np.float64)
    rows = dy64.shape[0]
    k = 256 + math.ceil(math.log2(math.ceil(rows / 256))) + 1
    gamma_k = k * 2.0**-24 / (1 - k * 2.0**-24)
    out = []
    for terms in (dy64 * res64, dy64):
        ref = terms.sum(axis=0)
        bound = gamma_k * np.abs(terms).sum(axis=0)
        if dtype != "float":
            u16 = 2.0**-11 if dtype == "half" else 2.0**-8
            bound = bound + u16 * (np.abs(ref) + bound) + 2.0**-25
        out.append((ref, bound))
    return out


def load_output(path, dtype):
    """An output file as float64 (bf16 outputs are '<u2' bits)."""
    a = np.load(path)
    return (bf16_to_f32(a) if dtype == "bfloat16" else a).astype(np.float64)


NPY_TYPE = {"float": np.float32, "half": np.float16, "bfloat16": np.uint16}


def make_inputs(shape, dtype, seed, integers=False):
    """dy and res of `shape`: standard normal, or small integers (exact sums)."""
    rng = np.random.default_rng(seed)
    if integers:
        x = rng.integers(-4, 5, size=(2,) + tuple(shape)).astype(np.float32)
    else:
        x = rng.standard_normal((2,) + tuple(shape)).astype(np.float32)
    if dtype == "bfloat16":
        return to_bf16_bits(x[0]), to_bf16_bits(x[1])
    return x[0].astype(NPY_TYPE[dtype]), x[1].astype(NPY_TYPE[dtype])


class CliTestCase(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="normgrad_cli_test_")
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def save(self, name, array):
        np.save(self.path(name), array)
        return self.path(name)

    def write(self, name, data):
        with open(self.path(name), "wb") as f:
            f.write(data)
        return self.path(name)

    def assert_ok(self, result):
        self.assertEqual(result.returncode, 0, msg=result.stderr + result.stdout)

    def assert_bits_equal(self, got, want):
        self.assertEqual(got.dtype, want.dtype)
        self.assertEqual(got.shape, want.shape)
        self.assertTrue(np.array_equal(got.view(np.uint8), want.view(np.uint8)),
                        msg="first differences: %s" % [
                            (i, got[i], want[i]) for i in np.flatnonzero(got != want)[:5]])


class ExampleTest(CliTestCase):
    # The documented example: dy = resForGamma = 0..63 in [1,8,8]:
    # pdGamma[h] = Σ_r (8r+h)^2, pdBeta[h] = Σ_r (8r+h) = 224 + 8h; e.g.
    # pdGamma[0] = 64·(0+1+4+…+49) = 8960.
    GAMMA = "8960 9416 9888 10376 10880 11400 11936 12488"
    BETA = "224 232 240 248 256 264 272 280"

    def test_prints_and_checks_the_documented_values(self):
        for profile in ("a2", "310p", "950"):
            result = run(["example"], env={"NORMGRAD_PROFILE": profile})
            self.assert_ok(result)
            out = result.stdout
            self.assertIn("float [1, 8, 8]", out)
            self.assertIn("pdGamma  " + self.GAMMA + "\n", out)
            self.assertIn("pdBeta   " + self.BETA + "\n", out)
            # The half variant [1,8,16]: columns 8–15 are zero.
            self.assertIn("half [1, 8, 16]", out)
            self.assertIn("pdGamma  " + self.GAMMA + " 0 0 0 0 0 0 0 0\n", out)
            self.assertIn("pdBeta   " + self.BETA + " 0 0 0 0 0 0 0 0\n", out)
            self.assertEqual(out.count("OK: equal to the documented values"), 2)

    def test_min_scratch_gives_several_chunks(self):
        # Float at min scratch: 2 rows per chunk → 4 chunks; half: 1 row → 8.
        out = run(["example"]).stdout
        self.assertIn("4 chunks of 2 rows\n", out)
        self.assertIn("8 chunks of 1 row\n", out)

    def test_op_names_the_api(self):
        result = run(["example", "--op", "layernorm-grad-beta"])
        self.assert_ok(result)
        self.assertIn("the documented LayerNormGradBeta example", result.stdout)
        result = run(["example", "--op", "nonsense"])
        self.assertEqual(result.returncode, 2)
        self.assertIn("--op", result.stderr)

    def test_bad_profile_is_an_error(self):
        result = run(["example"], env={"NORMGRAD_PROFILE": "nonsense"})
        self.assertEqual(result.returncode, 1)
        self.assertIn("NORMGRAD_PROFILE", result.stderr)


class RunTest(CliTestCase):
    def run_case(self, shape, dtype, order="sequential", extra=(), seed=1, integers=False):
        dy, res = make_inputs(shape, dtype, seed, integers)
        args = ["run", "--dy", self.save("dy.npy", dy), "--res", self.save("res.npy", res),
                "--order", order, "--out", self.path("out")] + list(extra)
        if dtype == "bfloat16":
            args += ["--dtype", "bfloat16"]
        result = run(args)
        self.assert_ok(result)
        gamma = np.load(self.path("out/pd_gamma.npy"))
        beta = np.load(self.path("out/pd_beta.npy"))
        self.assertEqual(gamma.dtype, NPY_TYPE[dtype])
        self.assertEqual(gamma.shape, (shape[-1],))
        return dy, res, gamma, beta, result

    def test_sequential_is_bit_exact_to_the_device_order(self):
        for shape, dtype in [((2, 64, 128), "float"), ((3, 5, 32), "half"),
                             ((1, 300, 16), "bfloat16"), ((257, 8), "float"),
                             ((2, 2, 3, 48), "half"), ((64,), "float"),
                             ((4, 1000, 64), "float"), ((3000, 32), "half")]:
            with self.subTest(shape=shape, dtype=dtype):
                dy, res, gamma, beta, _ = self.run_case(shape, dtype)
                want_gamma, want_beta = sequential_oracle(dy, res, dtype)
                self.assert_bits_equal(gamma, want_gamma)
                self.assert_bits_equal(beta, want_beta)

    def test_sequential_bits_do_not_depend_on_threads(self):
        results = []
        for threads in ("1", "2", "3"):
            _, _, gamma, beta, _ = self.run_case((4, 512, 64), "float",
                                                 extra=["--threads", threads])
            results.append((gamma, beta))
        for gamma, beta in results[1:]:
            self.assert_bits_equal(gamma, results[0][0])
            self.assert_bits_equal(beta, results[0][1])

    def test_blocked_is_within_the_derived_bound(self):
        for shape, dtype in [((4, 700, 64), "float"), ((2, 600, 32), "half"),
                             ((1, 1000, 16), "bfloat16")]:
            with self.subTest(shape=shape, dtype=dtype):
                dy, res, _, _, result = self.run_case(shape, dtype, order="blocked")
                for name, (ref, bound) in zip(("pd_gamma", "pd_beta"),
                                              blocked_bound(dy, res, dtype)):
                    got = load_output(self.path("out/%s.npy" % name), dtype)
                    self.assertTrue(np.all(np.abs(got - ref) <= bound), msg=name)
                self.assertIn("order      blocked", result.stdout)

    def test_blocked_bits_do_not_depend_on_threads(self):
        results = [self.run_case((3, 1000, 64), "float", "blocked", ["--threads", t])[2:4]
                   for t in ("1", "2", "3")]
        for gamma, beta in results[1:]:
            self.assert_bits_equal(gamma, results[0][0])
            self.assert_bits_equal(beta, results[0][1])

    def test_exact_fills_give_the_exact_sums_in_both_orders(self):
        # Integers in [-4, 4]: every partial sum is an integer below 2^24, so
        # both orders give exactly the float64 sums.
        for order in ("sequential", "blocked"):
            dy, res, gamma, beta, _ = self.run_case((2, 700, 32), "float", order, integers=True)
            d = dy.reshape(-1, 32).astype(np.float64)
            r = res.reshape(-1, 32).astype(np.float64)
            self.assertTrue(np.array_equal(gamma, (d * r).sum(axis=0)))
            self.assertTrue(np.array_equal(beta, d.sum(axis=0)))

    def test_prints_what_ran(self):
        _, _, _, _, result = self.run_case((2, 8, 64), "half")
        out = result.stdout
        self.assertIn("shape      [2, 8, 64] (rows 16, H 64)", out)
        self.assertIn("dtype      half", out)
        self.assertIn("order      sequential", out)  # the default
        # ctest forces each kernel ISA in turn with NORMGRAD_IMPL (cli.run:<isa>).
        isa = os.environ.get("NORMGRAD_IMPL", r"\w+")
        self.assertRegex(out, r"impl       sequential:%s, \d+ threads?" % isa)
        self.assertNotIn("\n  time ", out)  # only with --time
        _, _, _, _, result = self.run_case((2, 8, 64), "half", extra=["--time"])
        self.assertRegex(result.stdout, r"time       [0-9.]+ ms \(median of 3 runs\)")
        self.assertRegex(result.stdout, r"bandwidth  [0-9.]+ GB/s")

    def test_bin_inputs_give_bin_outputs(self):
        for dtype, np_type in (("float", np.float32), ("half", np.float16),
                               ("bfloat16", np.uint16)):
            with self.subTest(dtype=dtype):
                dy, res = make_inputs((2, 3, 32), dtype, 5)
                result = run(["run", "--dy", self.write("dy.bin", dy.tobytes()),
                              "--res", self.write("res.bin", res.tobytes()),
                              "--shape", "2,3,32", "--dtype", dtype, "--out", self.dir])
                self.assert_ok(result)
                want_gamma, want_beta = sequential_oracle(dy, res, dtype)
                gamma = np.fromfile(self.path("pd_gamma.bin"), np_type)
                beta = np.fromfile(self.path("pd_beta.bin"), np_type)
                self.assert_bits_equal(gamma, want_gamma)
                self.assert_bits_equal(beta, want_beta)

    def test_out_defaults_to_cwd_and_is_created_and_overwritten(self):
        dy, res = make_inputs((1, 4, 8), "float", 2)
        self.save("dy.npy", dy)
        self.save("res.npy", res)
        self.assert_ok(run(["run", "--dy", "dy.npy", "--res", "res.npy"], cwd=self.dir))
        self.assertTrue(os.path.exists(self.path("pd_gamma.npy")))
        nested = self.path("a/b/c")
        for _ in range(2):  # created, then overwritten
            self.assert_ok(run(["run", "--dy", "dy.npy", "--res", "res.npy", "--out", nested],
                               cwd=self.dir))
        self.assertEqual(sorted(os.listdir(nested)), ["pd_beta.npy", "pd_gamma.npy"])

    def test_shape_and_dtype_that_agree_with_npy_are_accepted(self):
        _, _, gamma, _, _ = self.run_case((2, 3, 16), "half",
                                          extra=["--shape", "2,3,16", "--dtype", "half"])
        self.assertEqual(gamma.shape, (16,))


# Error cases: (name, setup, extra args, expected exit status, words stderr
# must contain). `setup(t)` writes the inputs in the test's directory and
# returns the run arguments before `extra`.
def npy_pair(shape=(2, 4, 8), dtype=np.float32, res_shape=None, res_dtype=None):
    def setup(t):
        a = np.ones(shape, dtype)
        b = np.ones(res_shape or shape, res_dtype or dtype)
        return ["run", "--dy", t.save("dy.npy", a), "--res", t.save("res.npy", b)]
    return setup


def raw_pair(dy_bytes, res_bytes=None, dy_name="dy.npy", res_name="res.npy"):
    def setup(t):
        return ["run", "--dy", t.write(dy_name, dy_bytes),
                "--res", t.write(res_name, dy_bytes if res_bytes is None else res_bytes)]
    return setup


def bin_pair(size=2 * 4 * 8 * 4):
    return raw_pair(bytes(size), dy_name="dy.bin", res_name="res.bin")


def fortran_pair(t):
    a = np.asfortranarray(np.ones((2, 4, 8), np.float32))
    return ["run", "--dy", t.save("dy.npy", a), "--res", t.save("res.npy", a)]


def mixed_pair(t):
    return ["run", "--dy", t.save("dy.npy", np.ones((4, 8), np.float32)),
            "--res", t.write("res.bin", bytes(128))]


def directory_pair(t):
    os.mkdir(t.path("dir.npy"))
    return ["run", "--dy", t.path("dir.npy"), "--res", t.path("dir.npy")]


def missing_pair(t):
    return ["run", "--dy", t.path("nope.npy"), "--res", t.path("nope.npy")]


def ones(shape, descr):
    return np.ones(shape, np.dtype(descr))


def npy_bytes(array):
    import io
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


VALID = npy_bytes(np.ones((2, 4, 8), np.float32))

ERROR_CASES = [
    # Input errors: exit 1, a message naming the problem, no output written.
    ("mixed .npy and .bin", mixed_pair, [], 1, ["mixed inputs", "both be .npy or both be .bin"]),
    ("unknown extension", raw_pair(VALID, dy_name="dy.txt", res_name="res.txt"), [], 1,
     ["unknown file type"]),
    ("shape mismatch", npy_pair(res_shape=(2, 4, 16)), [], 1, ["dy and res differ", "[2, 4, 16]"]),
    ("dtype mismatch", npy_pair(res_dtype=np.float16, shape=(2, 4, 16)), [], 1,
     ["dy and res differ", "'<f2'"]),
    ("Fortran order", fortran_pair, [], 1, ["Fortran"]),
    ("big-endian", npy_pair(dtype=np.dtype(">f4")), [], 1, ["'>f4'", "big-endian"]),
    ("float64", npy_pair(dtype=np.float64), [], 1, ["'<f8'", "not supported"]),
    ("int32", npy_pair(dtype=np.int32), [], 1, ["'<i4'", "not supported"]),
    ("int8", npy_pair(dtype=np.int8), [], 1, ["'|i1'", "not supported"]),
    ("bool", npy_pair(dtype=np.bool_), [], 1, ["'|b1'", "not supported"]),
    ("complex", npy_pair(dtype=np.complex64), [], 1, ["'<c8'", "not supported"]),
    ("uint16 without --dtype bfloat16", npy_pair(dtype=np.uint16, shape=(2, 16)), [], 1,
     ["'<u2'", "--dtype bfloat16"]),
    ("uint16 with --dtype half", npy_pair(dtype=np.uint16, shape=(2, 16)),
     ["--dtype", "half"], 1, ["--dtype bfloat16"]),
    ("--dtype disagrees with .npy", npy_pair(), ["--dtype", "half"], 1,
     ["--dtype half does not agree", "'<f4'"]),
    ("--dtype bfloat16 with float .npy", npy_pair(), ["--dtype", "bfloat16"], 1,
     ["--dtype bfloat16 does not agree"]),
    ("--shape disagrees with .npy", npy_pair(), ["--shape", "2,4,16"], 1,
     ["--shape [2, 4, 16] does not agree", "[2, 4, 8]"]),
    ("H not aligned (float)", npy_pair(shape=(2, 4, 12)), [], 1,
     ["H = 12 is not 32-byte aligned for float", "H·sizeof(T) % 32 == 0", "multiple of 8"]),
    ("H not aligned (half)", npy_pair(shape=(2, 4, 8), dtype=np.float16), [], 1,
     ["H = 8 is not 32-byte aligned for half", "multiple of 16"]),
    ("H not aligned (bin bfloat16)", bin_pair(2 * 4 * 8 * 2),
     ["--shape", "2,4,8", "--dtype", "bfloat16"], 1, ["not 32-byte aligned for bfloat16"]),
    ("zero dimension in .npy", npy_pair(shape=(2, 0, 8)), [], 1, ["zero dimension"]),
    ("zero H in .npy", npy_pair(shape=(0,)), [], 1, ["zero dimension"]),
    ("scalar .npy", npy_pair(shape=()), [], 1, ["scalar"]),
    ("zero dimension in --shape", bin_pair(), ["--shape", "2,0,8", "--dtype", "float"], 1,
     ["dimension 1 of '2,0,8' is 0"]),
    ("dimension over 64 bits", bin_pair(), ["--shape", "1,99999999999999999999,8", "--dtype",
                                            "float"], 1, ["dimension 1", "more than the largest"]),
    ("product over 64 bits", bin_pair(), ["--shape", "4294967296,4294967296,8", "--dtype",
                                          "float"], 1, ["product", "does not fit in 64 bits"]),
    ("bytes over 64 bits", bin_pair(), ["--shape", "1,1152921504606846976,8", "--dtype",
                                        "float"], 1, ["too large"]),
    ("bin without --shape", bin_pair(), ["--dtype", "float"], 1,
     ["--shape B,S,H and --dtype are required"]),
    ("bin without --dtype", bin_pair(), ["--shape", "2,4,8"], 1,
     ["--shape B,S,H and --dtype are required"]),
    ("bin size mismatch", bin_pair(100), ["--shape", "2,4,8", "--dtype", "float"], 1,
     ["has 100 bytes", "needs 256"]),
    ("missing file", missing_pair, [], 1, ["nope.npy", "no such file"]),
    ("directory as input", directory_pair, [], 1, ["not a regular file"]),
    ("empty file", raw_pair(b""), [], 1, ["magic string"]),
    ("bad magic", raw_pair(b"\x93NUMPZ" + VALID[6:]), [], 1, ["magic string"]),
    ("bad version", raw_pair(VALID[:6] + b"\x09\x00" + VALID[8:]), [], 1, ["version 9.0"]),
    ("truncated header", raw_pair(VALID[:50]), [], 1, ["truncated .npy header"]),
    ("bad dictionary", raw_pair(VALID.replace(b"'shape'", b"'shapf'")), [], 1,
     ["malformed .npy header", "'shapf'"]),
    ("truncated data", raw_pair(VALID[:-4]), [], 1, ["truncated file"]),
    ("trailing data", raw_pair(VALID + b"1234"), [], 1, ["the file has 260"]),
    ("--out is a file", npy_pair(), ["--out", "__file__"], 1, ["not a directory"]),
    # Command-line errors: exit 2 (CLI11's messages).
    ("no --dy", lambda t: ["run", "--res", "x.npy"], [], 2, ["--dy is required"]),
    ("bad --order", npy_pair(), ["--order", "fastest"], 2, ["--order"]),
    ("bad --dtype", npy_pair(), ["--dtype", "int8"], 2, ["--dtype"]),
    ("bad --shape form", npy_pair(), ["--shape", "2,4"], 2, ["not of the form B,S,H"]),
    ("negative --shape", npy_pair(), ["--shape", "2,-4,8"], 2, ["not of the form B,S,H"]),
    ("--threads 0", npy_pair(), ["--threads", "0"], 2, ["--threads"]),
    ("--threads word", npy_pair(), ["--threads", "many"], 2, ["--threads"]),
    ("unknown option", npy_pair(), ["--fast"], 2, ["--fast"]),
    ("no subcommand", lambda t: [], [], 2, ["subcommand"]),
    ("unknown subcommand", lambda t: ["frobnicate"], [], 2, ["unknown command 'frobnicate'"]),
]


class ErrorTest(CliTestCase):
    def test_every_error_case(self):
        root = self.dir
        for name, setup, extra, status, words in ERROR_CASES:
            with self.subTest(name):
                self.dir = tempfile.mkdtemp(dir=root)  # a fresh directory per case
                out = self.path("out")
                os.mkdir(out)
                sentinel = os.path.join(out, "pd_gamma.npy")
                with open(sentinel, "w") as f:
                    f.write("old")
                if "__file__" in extra:
                    extra = [self.write("file", b"") if a == "__file__" else a for a in extra]
                args = setup(self) + extra
                if args[:1] == ["run"] and "--out" not in extra:
                    args += ["--out", out]
                result = run(args)
                self.assertEqual(result.returncode, status, msg=result.stderr)
                for word in words:
                    self.assertIn(word, result.stderr)
                # Nothing written: the old output is untouched, no new file.
                self.assertEqual(os.listdir(out), ["pd_gamma.npy"])
                with open(sentinel) as f:
                    self.assertEqual(f.read(), "old")
                for f in os.listdir(self.dir):
                    self.assertFalse(f.startswith(".normgrad-"), msg=f)

    def test_input_errors_name_the_command(self):
        result = npy_pair(shape=(2, 4, 12))(self)
        self.assertTrue(run(result).stderr.startswith("normgrad run: "))

    def test_unreadable_file(self):
        # A directory where a file should be cannot be read, even by root
        # (CI runs as root, so a chmod 0 file would be readable there).
        path = os.path.join(self.dir, "dy.npy")
        os.mkdir(path)
        result = run(["run", "--dy", path, "--res", path, "--out", self.dir])
        self.assertEqual(result.returncode, 1)
        self.assertIn("cannot", result.stderr)

    def test_help_and_version(self):
        for args in (["--help"], ["example", "--help"], ["run", "--help"],
                     ["tiling", "--help"], ["demo", "--help"]):
            result = run(args)
            self.assert_ok(result)
            self.assertIn("Usage", result.stdout)
        self.assertIn("--dy", run(["run", "--help"]).stdout)
        self.assertIn("--time", run(["run", "--help"]).stdout)
        self.assertIn("--json", run(["tiling", "--help"]).stdout)
        result = run(["--version"])
        self.assert_ok(result)
        self.assertRegex(result.stdout, r"^normgrad \d+\.\d+\.\d+")


class TilingTest(CliTestCase):
    FIELDS = ["stackBufferSize", "bLength", "sLength", "hLength", "originalHLength",
              "bshLength", "bsLength", "oneCalSize", "numberOfTmpBuf", "loopRound",
              "inputTailSize", "inputTailPos", "bsTailSize", "bshCurLength", "bsCurLength",
              "gammaTempTensorPos", "betaTempTensorPos", "inputDyTmpTensorPos",
              "resForGammaTmpTensorPos", "reserved"]

    def tiling(self, *args):
        result = run(["tiling", "--json"] + list(args))
        self.assert_ok(result)
        data = json.loads(result.stdout)
        self.assertEqual(sorted(data), ["maxValue", "minValue", "tiling"])
        self.assertEqual(list(data["tiling"]), self.FIELDS)
        return data

    def test_float_min(self):
        # [1,8,8] float: min = 8·H = 64 bytes, max = 8·B·S·H = 512. At min:
        # sb = 64/4 = 16 floats ≥ 2H; one = 16 = 2 rows; bsh = 64 → 4 chunks.
        data = self.tiling("--shape", "1,8,8", "--dtype", "float")
        self.assertEqual((data["minValue"], data["maxValue"]), (64, 512))
        self.assertEqual(list(data["tiling"].values()),
                         [16, 1, 8, 8, 8, 64, 8, 16, 1, 4, 0, 64, 0, 16, 2, 0, 0, 0, 0, 0])

    def test_half_min(self):
        # [1,8,16] half: min = 16·H = 256, max = 16·B·S·H = 2048. At min:
        # sb = 64 floats; one = (64 − 2·16)/2 = 16 = 1 row; 128/16 = 8 chunks;
        # positions: gamma 0, beta H = 16, dy 2H = 32, res 2H + one = 48.
        data = self.tiling("--shape", "1,8,16", "--dtype", "half", "--tmp", "min")
        self.assertEqual((data["minValue"], data["maxValue"]), (256, 2048))
        self.assertEqual(list(data["tiling"].values()),
                         [64, 1, 8, 16, 16, 128, 8, 16, 2, 8, 0, 128, 0, 16, 1, 0, 16, 32, 48, 0])

    def test_float_max_is_one_chunk(self):
        # [2,3,8] float, max = 8·48 = 384 bytes: sb = 96 ≥ bsh = 48 → one chunk.
        data = self.tiling("--shape", "2,3,8,8", "--dtype", "float", "--tmp", "max")
        self.assertEqual(list(data["tiling"].values()),
                         [96, 2, 3, 8, 8, 48, 6, 48, 1, 1, 0, 48, 0, 48, 6, 0, 0, 0, 0, 0])

    def test_bytes_between_with_a_tail(self):
        # [1,5,8] float, 96 bytes: sb = 24, one = 24 (3 rows); bsh = 40 →
        # 1 chunk + a tail of 16 (2 rows) at 24.
        data = self.tiling("--shape", "1,5,8", "--dtype", "float", "--tmp", "96")
        self.assertEqual(list(data["tiling"].values()),
                         [24, 1, 5, 8, 8, 40, 5, 24, 1, 1, 16, 24, 2, 24, 3, 0, 0, 0, 0, 0])

    def test_text_output_names_every_field(self):
        result = run(["tiling", "--shape", "1,5,8", "--dtype", "float", "--tmp", "96"])
        self.assert_ok(result)
        for field in self.FIELDS:
            self.assertRegex(result.stdout, r"\n  %s +\d+\n" % field)
        self.assertIn("scratch: min 64 bytes, max 320 bytes; tiling for 96 bytes", result.stdout)
        self.assertIn("chunks: 1 of 3 rows (24 elements) + a tail of 2 rows (16 elements)",
                      result.stdout)
        self.assertIn("profile: a2", result.stdout)

    def test_profiles(self):
        out = run(["tiling", "--shape", "1,8,8", "--dtype", "float", "--profile", "950"]).stdout
        self.assertIn("no scratch", out)
        # max for [64,64,64] half = 16·262144 bytes: more than any UB.
        out = run(["tiling", "--shape", "64,64,64", "--dtype", "half", "--tmp", "max",
                   "--profile", "310p"]).stdout
        self.assertIn("do not fit in this profile's unified buffer", out)

    def test_errors(self):
        cases = [
            # (args, status, words in stderr)
            (["--shape", "1,8,8", "--dtype", "float", "--tmp", "32"], 1,
             ["GetLayerNormGradBetaNDTilingInfo", "no tiling for shape [1, 8, 8, 8]"]),
            (["--shape", "1,8,16,8", "--dtype", "half"], 1, ["originalH"]),
            (["--shape", "65536,65536,8", "--dtype", "float"], 1, ["no scratch sizes"]),
            (["--shape", "1,0,8", "--dtype", "float"], 1, ["is 0"]),
            (["--shape", "1,4294967296,8", "--dtype", "float"], 1, ["more than the largest"]),
            (["--shape", "1,8,8", "--dtype", "float", "--tmp", "4294967296"], 1,
             ["--tmp is 4294967296"]),
            (["--shape", "1,8", "--dtype", "float"], 2, ["B,S,H[,Ho]"]),
            (["--shape", "1,8,8,8,8", "--dtype", "float"], 2, ["B,S,H[,Ho]"]),
            (["--op", "layernorm", "--shape", "8", "--dtype", "float"], 2,
             ["'8' is not of the form B,S,H[,Ho] (the shape of --op layernorm)"]),
            (["--shape", "1,x", "--dtype", "float"], 2, ["--shape"]),
            (["--shape", "1,8,8", "--dtype", "bfloat16"], 2, ["--dtype"]),
            (["--shape", "1,8,8", "--dtype", "float", "--tmp", "lots"], 2, ["min, max"]),
            (["--shape", "1,8,8", "--dtype", "float", "--profile", "a3"], 2, ["--profile"]),
            (["--dtype", "float"], 2, ["--shape is required"]),
        ]
        for args, status, words in cases:
            with self.subTest(args=args):
                result = run(["tiling"] + args)
                self.assertEqual(result.returncode, status, msg=result.stderr)
                self.assertEqual(result.stdout, "")
                for word in words:
                    self.assertIn(word, result.stderr)

    # --op layernorm-grad and --op layernorm: the op's own fields
    # (docs/layernormgrad.md and docs/layernorm.md, "Host tiling").
    LNG_FIELDS = ["stackBufferSize", "bLength", "sLength", "hLength", "originalHLength",
                  "oneCalSize", "nohCalSize", "loopNum", "tailSize", "nohTailSize",
                  "tmpTensorBSHPos", "tmpTensorBSHSize", "pdVarTensorPos", "pdVarTensorSize",
                  "pdMeanTensorPos", "pdMeanTensorSize", "x1TensorPos", "x1TensorSize",
                  "x2TensorPos", "x2TensorSize", "x3TensorPos", "x3TensorSize", "tmpTensorPos",
                  "tmpTensorSize", "tmpTensor1Pos", "tmpTensor1Size", "tmpTensor2Pos",
                  "tmpTensor2Size", "lastDimValueBack", "lastDimValueBackMulTwo"]
    LN_FIELDS = ["bLength", "sLength", "hLength", "originalHLength", "inputXSize",
                 "meanVarSize", "numberOfTmpBuf", "meanTmpTensorPos", "meanTmpTensorSize",
                 "varianceTmpTensorPos", "varianceTmpTensorSize", "tmpBufSize", "oneTmpSize",
                 "firstTmpStartPos", "secondTmpStartPos", "thirdTmpStartPos", "loopRound",
                 "inputRoundSize", "inputTailSize", "inputTailPos", "meanVarRoundSize",
                 "meanVarTailSize", "meanVarTailPos", "bshCurLength", "bsCurLength",
                 "lastDimValueBack"]

    def op_tiling(self, op, fields, *args):
        result = run(["tiling", "--json", "--op", op] + list(args))
        self.assert_ok(result)
        data = json.loads(result.stdout)
        self.assertEqual(list(data["tiling"]), fields)
        return data

    def test_layernorm_grad_worked_example(self):
        # The worked example: [2,32,16] float, 6144 bytes (its min; max
        # 6·1024·4): 16 rows a chunk, 4 chunks; 1/16 and 1/8 as float bits.
        data = self.op_tiling("layernorm-grad", self.LNG_FIELDS, "--shape", "2,32,16",
                              "--dtype", "float", "--tmp", "6144")
        self.assertEqual((data["minValue"], data["maxValue"]), (6144, 24576))
        self.assertEqual(list(data["tiling"].values()),
                         [6144, 2, 32, 16, 16, 256, 16, 4, 0, 0, 0, 256, 256, 256, 512, 256,
                          768, 256, 1024, 256, 1280, 256, 0, 256, 0, 256, 0, 256,
                          0x3D800000, 0x3E000000])

    def test_layernorm_grad_reuse_half_and_clamp(self):
        # float with reuse: 4 regions, min 4·256·4; x1 = x2 = 0, x3 at 3·256.
        data = self.op_tiling("layernorm-grad", self.LNG_FIELDS, "--shape", "2,32,16",
                              "--dtype", "float", "--reuse")
        self.assertEqual((data["minValue"], data["maxValue"]), (4096, 16384))
        t = data["tiling"]
        self.assertEqual((t["x1TensorPos"], t["x2TensorPos"], t["x3TensorPos"]), (0, 0, 768))
        # half: 9 regions, min 9·256·2 = 4608: 8 rows fit, 16 do not.
        data = self.op_tiling("layernorm-grad", self.LNG_FIELDS, "--shape", "2,32,16",
                              "--dtype", "half")
        self.assertEqual((data["minValue"], data["maxValue"]), (4608, 18432))
        self.assertEqual((data["tiling"]["nohCalSize"], data["tiling"]["tmpTensor2Pos"]),
                         (8, 1024))
        # One row of H = 48 at the max size: clamped to that row.
        data = self.op_tiling("layernorm-grad", self.LNG_FIELDS, "--shape", "1,1,48",
                              "--dtype", "float", "--tmp", "max")
        self.assertEqual((data["minValue"], data["maxValue"]), (1152, 55296))
        self.assertEqual((data["tiling"]["nohCalSize"], data["tiling"]["loopNum"]), (1, 1))

    def test_layernorm_grad_text_and_950(self):
        result = run(["tiling", "--op", "layernorm-grad", "--shape", "1,100,16", "--dtype",
                      "float", "--tmp", "4608"])
        self.assert_ok(result)
        for field in self.LNG_FIELDS:
            self.assertRegex(result.stdout, r"\n  %s +\d+" % field)
        self.assertIn("LayerNormGrad tiling: [B, S, H, originalH] = [1, 100, 16, 16]",
                      result.stdout)
        self.assertIn("chunks: 12 of 8 rows (128 elements) + a tail of 4 rows (64 elements)",
                      result.stdout)
        self.assertIn("0x3D800000, the float 0.0625", result.stdout)
        # Ascend 950: float with reuse needs no scratch; one row a chunk.
        data = self.op_tiling("layernorm-grad", self.LNG_FIELDS, "--shape", "2,32,16",
                              "--dtype", "float", "--reuse", "--profile", "950")
        self.assertEqual((data["minValue"], data["maxValue"]), (0, 0))
        self.assertEqual((data["tiling"]["oneCalSize"], data["tiling"]["loopNum"]), (1, 1024))
        out = run(["tiling", "--op", "layernorm-grad", "--shape", "2,32,16", "--dtype",
                   "half", "--profile", "950"]).stdout
        self.assertIn("scratch: min 128 bytes, max 128 bytes", out)
        self.assertIn("row by row", out)

    def test_layernorm_worked_example(self):
        # docs/layernorm.md, "Worked example": [2,32,16] float, 6144 bytes.
        data = self.op_tiling("layernorm", self.LN_FIELDS, "--shape", "2,32,16",
                              "--dtype", "float", "--tmp", "6144")
        self.assertEqual((data["minValue"], data["maxValue"]), (704, 12800))
        self.assertEqual(list(data["tiling"].values()),
                         [2, 32, 16, 16, 1024, 64, 3, 0, 64, 64, 64, 1536, 512, 0, 512, 1024,
                          2, 512, 0, 1024, 32, 0, 64, 512, 32, 0.0625])

    def test_op_option(self):
        self.assertIn("--op", run(["tiling", "--help"]).stdout)
        # The default is layernorm-grad-beta, unchanged.
        self.assertEqual(run(["tiling", "--json", "--shape", "1,8,8", "--dtype", "float"]).stdout,
                         run(["tiling", "--json", "--shape", "1,8,8", "--dtype", "float",
                              "--op", "layernorm-grad-beta"]).stdout)
        cases = [
            (["--op", "layernormgrad"], 2, ["--op"]),
            (["--op", "layernorm-grad", "--tmp", "383"], 1,
             ["GetLayerNormGradNDTilingInfo", "383/4/6 = 15 floats",
              "no tiling for shape [2, 32, 16, 16]"]),
            (["--op", "layernorm-grad", "--shape", "2,32,16,8"], 1,
             ["GetLayerNormGradMaxMinTmpSize", "originalH", "no scratch sizes"]),
            (["--op", "layernorm", "--tmp", "100"], 1,
             ["GetLayerNormNDTilingInfo", "no tiling for shape"]),
        ]
        for extra, status, words in cases:
            with self.subTest(args=extra):
                args = ["tiling", "--shape", "2,32,16", "--dtype", "float"] + extra
                if "--shape" in extra:
                    args = ["tiling", "--dtype", "float"] + extra
                result = run(args)
                self.assertEqual(result.returncode, status, msg=result.stderr)
                self.assertEqual(result.stdout, "")
                for word in words:
                    self.assertIn(word, result.stderr)


class FuzzTest(CliTestCase):
    """Random bytes as .npy files, and valid files with random bytes changed:
    normgrad must exit 0 or 1 with a message, never crash or hang."""

    def check(self, data):
        path = self.write("f.npy", data)
        result = run(["run", "--dy", path, "--res", path, "--out", self.path("out")])
        self.assertIn(result.returncode, (0, 1), msg=repr(data[:200]) + result.stderr)
        if result.returncode == 1:
            self.assertTrue(result.stderr.startswith("normgrad run: "), msg=result.stderr)
        self.assertNotIn("Sanitizer", result.stderr)
        self.assertNotIn("runtime error", result.stderr)

    def test_random_bytes(self):
        rng = np.random.default_rng(11)
        for i in range(60):
            self.check(rng.integers(0, 256, size=int(rng.integers(0, 400)), dtype=np.uint8)
                       .tobytes())

    def test_mutated_headers(self):
        rng = np.random.default_rng(12)
        valid = bytearray(VALID)
        for i in range(150):
            data = bytearray(valid)
            for _ in range(int(rng.integers(1, 4))):
                data[int(rng.integers(0, 128))] = int(rng.integers(0, 256))
            self.check(bytes(data))


class DemoTest(CliTestCase):
    def test_demo_passes_and_reports(self):
        result = run(["demo"], env={"NORMGRAD_SEED": "7"})
        self.assert_ok(result)
        out = result.stdout
        self.assertIn("[4, 2048, 1024]", out)
        self.assertIn("seed 7", out)
        for dtype in ("float", "half"):
            for order in ("sequential", "blocked"):
                self.assertRegex(out, r"\n%s +%s +%s:\S+ .* pass\n" % (dtype, order, order))
        self.assertIn("OK", out)

    def test_bad_seed(self):
        result = run(["demo"], env={"NORMGRAD_SEED": "seven"})
        self.assertEqual(result.returncode, 1)
        self.assertIn("NORMGRAD_SEED=seven", result.stderr)


# ---------------------------------------------------------------------------
# `normgrad backward` and `normgrad forward`: the engine's layer norm on files.
# Oracles: float64 numpy within the bounds of docs/numerics.md ("Layer norm
# forward and fused backward") for float; for half and bfloat16, the float
# run on the exactly widened inputs, narrowed (round half to even), bit for
# bit — the engine computes in float after widening, so both runs do the
# same float operations.

def gamma_k(k):
    u = 2.0**-24
    return k * u / (1 - k * u)


def sum_roundings(h):
    """k_s: roundings a term meets in a 16-lane row sum and its tree."""
    return math.ceil(h / 16) + 4


def forward_oracle(x, gamma, beta, eps):
    """Float64 mean, variance, y and their error bounds (float inputs)."""
    x64 = x.astype(np.float64)
    h = x.shape[-1]
    mean = x64.mean(axis=-1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=-1, keepdims=True)
    r = 1 / np.sqrt(var + eps)
    g64, b64 = gamma.astype(np.float64), beta.astype(np.float64)
    y = (x64 - mean) * r * g64 + b64
    k = sum_roundings(h)
    e_m = gamma_k(k + 1) * np.abs(x64).mean(axis=-1, keepdims=True)
    e_v = gamma_k(k + 4) * var + 2 * e_m**2
    e_r = r * (e_v / (var + eps) * (1 + gamma_k(3)) + gamma_k(3))
    centered = np.abs(x64 - mean)
    e_x = e_m * (r + e_r) + centered * e_r + gamma_k(2) * (centered + e_m) * (r + e_r)
    e_y = np.abs(g64) * e_x + gamma_k(2) * (centered * r * np.abs(g64) + np.abs(g64) * e_x
                                           + np.abs(b64))
    return (mean[..., 0], e_m[..., 0]), (var[..., 0], e_v[..., 0]), (y, e_y)


def backward_oracle(x, dy, gamma, mean, rstd, order):
    """Float64 dx, pd_gamma, pd_beta and their bounds, given the float mean
    and rstd the engine used (float inputs)."""
    h = x.shape[-1]
    x64 = x.reshape(-1, h).astype(np.float64)
    dy64 = dy.reshape(-1, h).astype(np.float64)
    m = mean.reshape(-1, 1).astype(np.float64)
    r = rstd.reshape(-1, 1).astype(np.float64)
    xh = (x64 - m) * r
    g = dy64 * gamma.astype(np.float64)
    dx = r * (g - g.mean(axis=1, keepdims=True) - xh * (g * xh).mean(axis=1, keepdims=True))
    scale = r * (np.abs(g) + np.abs(g).mean(axis=1, keepdims=True)
                 + np.abs(xh) * np.abs(g * xh).mean(axis=1, keepdims=True))
    rows = x64.shape[0]
    if order == "sequential":
        n = rows
    else:
        blocks = math.ceil(rows / 256)
        n = 256 + (math.ceil(math.log2(blocks)) if blocks > 1 else 0)
    return ((dx.reshape(x.shape), gamma_k(sum_roundings(h) + 8) * scale.reshape(x.shape)),
            ((dy64 * xh).sum(axis=0), gamma_k(n + 3) * np.abs(dy64 * xh).sum(axis=0)),
            (dy64.sum(axis=0), gamma_k(n + 1) * np.abs(dy64).sum(axis=0)))


def float_rstd(variance, eps):
    """rstd as the engine computes it from a float variance: float32 add,
    sqrt and divide, each rounded once."""
    v = np.asarray(variance, np.float32)
    return np.float32(1) / np.sqrt(v + np.float32(eps))


def layer_norm_inputs(shape, dtype, seed):
    """x (mean 3, scale 2), dy, gamma and beta in the input type."""
    rng = np.random.default_rng(seed)
    h = shape[-1]
    arrays = [rng.standard_normal(shape).astype(np.float32) * 2 + 3,
              rng.standard_normal(shape).astype(np.float32),
              rng.standard_normal(h).astype(np.float32),
              rng.standard_normal(h).astype(np.float32)]
    if dtype == "bfloat16":
        return [to_bf16_bits(a) for a in arrays]
    return [a.astype(NPY_TYPE[dtype]) for a in arrays]


class LayerNormCase(CliTestCase):
    def backward(self, x, dy, gamma, dtype, extra=(), out="out"):
        args = ["backward", "--x", self.save("x.npy", x), "--dy", self.save("dy.npy", dy),
                "--gamma", self.save("gamma.npy", gamma), "--out", self.path(out)]
        args += list(extra) + (["--dtype", "bfloat16"] if dtype == "bfloat16" else [])
        result = run(args)
        self.assert_ok(result)
        outputs = [np.load(self.path("%s/%s.npy" % (out, n)))
                   for n in ("dx", "pd_gamma", "pd_beta")]
        for a in outputs:
            self.assertEqual(a.dtype, NPY_TYPE[dtype])
        self.assertEqual(outputs[0].shape, x.shape)
        self.assertEqual(outputs[1].shape, (x.shape[-1],))
        return outputs, result

    def forward(self, x, gamma, beta, dtype, extra=(), out="out"):
        args = ["forward", "--x", self.save("x.npy", x), "--gamma", self.save("gamma.npy", gamma),
                "--beta", self.save("beta.npy", beta), "--out", self.path(out)]
        args += list(extra) + (["--dtype", "bfloat16"] if dtype == "bfloat16" else [])
        result = run(args)
        self.assert_ok(result)
        outputs = [np.load(self.path("%s/%s.npy" % (out, n))) for n in ("y", "mean", "variance")]
        for a in outputs:
            self.assertEqual(a.dtype, NPY_TYPE[dtype])
        self.assertEqual(outputs[0].shape, x.shape)
        self.assertEqual(outputs[1].shape, x.shape[:-1])
        return outputs, result

    def assert_within(self, got, ref_bound, name):
        ref, bound = ref_bound
        err = np.abs(got.astype(np.float64) - ref)
        self.assertTrue(np.all(err <= bound), msg="%s: worst error %g, its bound %g" % (
            name, err.max(), bound.flat[np.argmax(err - bound)]))


LAYER_NORM_SHAPES = [((2, 3, 48), "H = 48"), ((5, 1), "H = 1"), ((1, 4104), "one row, H = 4104"),
          ((2, 300, 40), "two blocks"), ((700, 17), "three blocks, H = 17")]


class BackwardTest(LayerNormCase):
    def test_float_is_within_the_derived_bound(self):
        for shape, what in LAYER_NORM_SHAPES:
            for order in ("blocked", "sequential"):
                with self.subTest(what=what, order=order):
                    x, dy, gamma, beta = layer_norm_inputs(shape, "float", 3)
                    (_, mean, variance), _ = self.forward(x, gamma, beta, "float", out="f")
                    (dx, pd_gamma, pd_beta), result = self.backward(
                        x, dy, gamma, "float", ["--order", order])
                    want = backward_oracle(x, dy, gamma, mean, float_rstd(variance, 1e-5), order)
                    for got, ref_bound, name in zip((dx, pd_gamma, pd_beta), want,
                                                    ("dx", "pd_gamma", "pd_beta")):
                        self.assert_within(got, ref_bound, name)
                    self.assertIn("order      " + order, result.stdout)

    def test_16_bit_inputs_give_the_float_results_narrowed(self):
        for dtype in ("half", "bfloat16"):
            for shape, what in LAYER_NORM_SHAPES:
                with self.subTest(dtype=dtype, what=what):
                    x, dy, gamma, _ = layer_norm_inputs(shape, dtype, 4)
                    got, _ = self.backward(x, dy, gamma, dtype)
                    as_float, _ = self.backward(widen(x, dtype), widen(dy, dtype),
                                                widen(gamma, dtype), "float", out="f")
                    for g, f in zip(got, as_float):
                        self.assert_bits_equal(g, narrow(f, dtype))

    def test_bits_do_not_depend_on_threads_and_dx_not_on_order(self):
        x, dy, gamma, _ = layer_norm_inputs((1500, 256), "float", 5)
        first, _ = self.backward(x, dy, gamma, "float", ["--threads", "1"])
        for threads in ("2", "3"):
            outputs, result = self.backward(x, dy, gamma, "float", ["--threads", threads])
            self.assertRegex(result.stdout, r"impl       blocked:\w+, [23] threads")
            for a, b in zip(outputs, first):
                self.assert_bits_equal(a, b)
        (dx, _, _), _ = self.backward(x, dy, gamma, "float", ["--order", "sequential"])
        self.assert_bits_equal(dx, first[0])

    def test_exact_fills_give_the_exact_results(self):
        # Rows m ± a (a a power of two), eps 0, small integers for dy and
        # gamma, H = 64: mean, variance, rstd, x̂ = ±1 and every sum are exact.
        rng = np.random.default_rng(6)
        rows, h = 600, 64
        m = rng.integers(-4, 5, size=(rows, 1)).astype(np.float32)
        a = np.float32(2.0) ** rng.integers(-1, 2, size=(rows, 1)).astype(np.float32)
        signs = rng.permuted(np.tile(np.repeat([-1.0, 1.0], h // 2), (rows, 1)), axis=1)
        x = (m + a * signs).astype(np.float32)
        dy = rng.integers(-4, 5, size=(rows, h)).astype(np.float32)
        gamma = rng.integers(-4, 5, size=h).astype(np.float32)
        for order in ("blocked", "sequential"):
            (dx, pd_gamma, pd_beta), _ = self.backward(x, dy, gamma, "float",
                                                       ["--eps", "0", "--order", order])
            want = backward_oracle(x, dy, gamma, m, 1 / a, order)
            for got, (ref, _) in zip((dx, pd_gamma, pd_beta), want):
                self.assertTrue(np.array_equal(got.astype(np.float64), ref))

    def test_bin_inputs_give_bin_outputs(self):
        for dtype, np_type in (("float", np.float32), ("half", np.float16),
                               ("bfloat16", np.uint16)):
            with self.subTest(dtype=dtype):
                x, dy, gamma, _ = layer_norm_inputs((2, 3, 24), dtype, 7)
                want, _ = self.backward(x, dy, gamma, dtype, out="npy")
                result = run(["backward", "--x", self.write("x.bin", x.tobytes()),
                              "--dy", self.write("dy.bin", dy.tobytes()),
                              "--gamma", self.write("gamma.bin", gamma.tobytes()),
                              "--shape", "2,3,24", "--dtype", dtype, "--out", self.dir])
                self.assert_ok(result)
                for name, w in zip(("dx", "pd_gamma", "pd_beta"), want):
                    got = np.fromfile(self.path(name + ".bin"), np_type)
                    self.assert_bits_equal(got, w.reshape(-1))

    def test_prints_what_ran(self):
        x, dy, gamma, _ = layer_norm_inputs((2, 8, 64), "half", 8)
        _, result = self.backward(x, dy, gamma, "half", ["--eps", "0.001"])
        out = result.stdout
        self.assertIn("shape      [2, 8, 64] (rows 16, H 64)", out)
        self.assertIn("dtype      half", out)
        self.assertIn("eps        0.001", out)
        self.assertIn("order      blocked", out)  # the default
        isa = os.environ.get("NORMGRAD_IMPL", r"\w+")
        self.assertRegex(out, r"impl       blocked:%s, \d+ threads?" % isa)
        self.assertNotIn("\n  time ", out)  # only with --time
        self.assertIn("dx.npy", out)
        for command in ("backward", "forward"):
            args = [command, "--x", self.path("x.npy"), "--gamma", self.path("gamma.npy"),
                    "--out", self.path("out"), "--time"]
            args += ["--dy", self.path("dy.npy")] if command == "backward" else [
                "--beta", self.path("gamma.npy")]
            result = run(args)
            self.assert_ok(result)
            self.assertRegex(result.stdout, r"time       [0-9.]+ ms \(.*median of 3 runs\)")
            self.assertRegex(result.stdout, r"bandwidth  [0-9.]+ GB/s")


class ForwardTest(LayerNormCase):
    def test_float_is_within_the_derived_bound(self):
        for shape, what in LAYER_NORM_SHAPES:
            for eps in ("1e-05", "0.5"):
                with self.subTest(what=what, eps=eps):
                    x, _, gamma, beta = layer_norm_inputs(shape, "float", 9)
                    (y, mean, variance), result = self.forward(x, gamma, beta, "float",
                                                               ["--eps", eps])
                    want_mean, want_var, want_y = forward_oracle(x, gamma, beta, float(eps))
                    self.assert_within(mean, want_mean, "mean")
                    self.assert_within(variance, want_var, "variance")
                    self.assert_within(y, want_y, "y")
                    self.assertIn("eps        " + ("1e-05" if eps == "1e-05" else "0.5"),
                                  result.stdout)

    def test_16_bit_inputs_give_the_float_results_narrowed(self):
        for dtype in ("half", "bfloat16"):
            for shape, what in LAYER_NORM_SHAPES:
                with self.subTest(dtype=dtype, what=what):
                    x, _, gamma, beta = layer_norm_inputs(shape, dtype, 10)
                    got, _ = self.forward(x, gamma, beta, dtype)
                    as_float, _ = self.forward(widen(x, dtype), widen(gamma, dtype),
                                               widen(beta, dtype), "float", out="f")
                    for g, f in zip(got, as_float):
                        self.assert_bits_equal(g, narrow(f, dtype))

    def test_bits_do_not_depend_on_threads(self):
        x, _, gamma, beta = layer_norm_inputs((3000, 128), "float", 11)
        first, _ = self.forward(x, gamma, beta, "float", ["--threads", "1"])
        for threads in ("2", "3"):
            outputs, result = self.forward(x, gamma, beta, "float", ["--threads", threads])
            self.assertRegex(result.stdout, r"impl       forward:\w+, [23] threads")
            for a, b in zip(outputs, first):
                self.assert_bits_equal(a, b)

    def test_a_vector_gives_scalar_statistics(self):
        x, _, gamma, beta = layer_norm_inputs((40,), "float", 12)
        (y, mean, variance), _ = self.forward(x, gamma, beta, "float")
        self.assertEqual((y.shape, mean.shape, variance.shape), ((40,), (), ()))

    def test_bin_inputs_give_bin_outputs(self):
        x, _, gamma, beta = layer_norm_inputs((2, 3, 8), "half", 13)
        want, _ = self.forward(x, gamma, beta, "half", out="npy")
        result = run(["forward", "--x", self.write("x.bin", x.tobytes()),
                      "--gamma", self.write("gamma.bin", gamma.tobytes()),
                      "--beta", self.write("beta.bin", beta.tobytes()),
                      "--shape", "2,3,8", "--dtype", "half", "--out", self.dir])
        self.assert_ok(result)
        for name, w in zip(("y", "mean", "variance"), want):
            got = np.fromfile(self.path(name + ".bin"), np.float16)
            self.assert_bits_equal(got, w.reshape(-1))


# Error cases of backward and forward: (name, command, files, extra args,
# exit status, words stderr must contain). `files` maps each input option
# to the array (or raw bytes) written for it; unnamed inputs are valid.
def layer_norm_files(command, **given):
    valid = {"x": np.ones((2, 4, 8), np.float32), "dy": np.ones((2, 4, 8), np.float32),
             "gamma": np.ones(8, np.float32), "beta": np.ones(8, np.float32)}
    names = ("x", "dy", "gamma") if command == "backward" else ("x", "gamma", "beta")
    return {name: given.get(name, valid[name]) for name in names}


LAYER_NORM_ERRORS = [
    ("x and dy differ", "backward", {"dy": np.ones((2, 4, 16), np.float32)}, [], 1,
     ["x and dy differ", "[2, 4, 16]", "dy must be [2, 4, 8]"]),
    ("gamma not [H]", "backward", {"gamma": np.ones((1, 8), np.float32)}, [], 1,
     ["x and gamma differ", "[1, 8]", "gamma must be [8]"]),
    ("beta of another H", "forward", {"beta": np.ones(4, np.float32)}, [], 1,
     ["x and beta differ", "beta must be [8]"]),
    ("dtype mismatch", "backward", {"gamma": np.ones(8, np.float16)}, [], 1,
     ["x and gamma differ", "'<f2'", "'<f4'"]),
    ("float64", "forward", {"x": np.ones((2, 8))}, [], 1, ["'<f8'", "not supported"]),
    ("uint16 without --dtype bfloat16", "backward",
     {k: np.ones(s, np.uint16) for k, s in (("x", (2, 8)), ("dy", (2, 8)), ("gamma", 8))},
     [], 1, ["'<u2'", "--dtype bfloat16"]),
    ("--dtype disagrees", "forward", {}, ["--dtype", "half"], 1,
     ["--dtype half does not agree"]),
    ("--shape disagrees", "backward", {}, ["--shape", "2,4,16"], 1,
     ["--shape [2, 4, 16] does not agree"]),
    ("scalar x", "forward", {"x": np.float32(1)}, [], 1, ["scalar", "x needs a shape"]),
    ("zero dimension", "backward", {"x": np.ones((2, 0, 8), np.float32),
                                    "dy": np.ones((2, 0, 8), np.float32)}, [], 1,
     ["zero dimension"]),
    ("mixed .npy and .bin", "backward", {"gamma": b"\0" * 32}, [], 1,
     ["mixed inputs", "must all be .npy or all be .bin"]),
    ("bin without --shape", "forward", {k: b"\0" * n for k, n in (("x", 256), ("gamma", 32),
                                                                  ("beta", 32))},
     ["--dtype", "float"], 1, ["--shape B,S,H and --dtype are required"]),
    ("bin gamma of the wrong size", "backward",
     {k: b"\0" * n for k, n in (("x", 256), ("dy", 256), ("gamma", 28))},
     ["--shape", "2,4,8", "--dtype", "float"], 1, ["has 28 bytes", "gamma", "needs 32"]),
    ("eps not finite", "backward", {}, ["--eps", "nan"], 1, ["eps nan is not finite"]),
    ("eps too large for float", "forward", {}, ["--eps", "1e39"], 1, ["eps inf is not finite"]),
    ("--out is a file", "forward", {}, ["--out", "__file__"], 1, ["not a directory"]),
    ("negative --eps", "backward", {}, ["--eps", "-1"], 2, ["--eps"]),
    ("bad --order", "backward", {}, ["--order", "fastest"], 2, ["--order"]),
    ("forward has no --order", "forward", {}, ["--order", "blocked"], 2, ["--order"]),
    ("--threads 0", "forward", {}, ["--threads", "0"], 2, ["--threads"]),
    ("no --gamma", "backward", {"gamma": None}, [], 2, ["--gamma is required"]),
    ("no --beta", "forward", {"beta": None}, [], 2, ["--beta is required"]),
]


class LayerNormErrorTest(CliTestCase):
    def test_every_error_case(self):
        root = self.dir
        for name, command, given, extra, status, words in LAYER_NORM_ERRORS:
            with self.subTest(name):
                self.dir = tempfile.mkdtemp(dir=root)  # a fresh directory per case
                out = self.path("out")
                os.mkdir(out)
                sentinel = os.path.join(out, "dx.npy")
                with open(sentinel, "w") as f:
                    f.write("old")
                args = [command]
                for option, value in layer_norm_files(command, **given).items():
                    if value is None:
                        continue
                    if isinstance(value, bytes):
                        path = self.write(option + ".bin", value)
                    else:
                        path = self.save(option + ".npy", value)
                    args += ["--" + option, path]
                extra = [self.write("file", b"") if a == "__file__" else a for a in extra]
                if "--out" not in extra:
                    args += ["--out", out]
                result = run(args + extra)
                self.assertEqual(result.returncode, status, msg=result.stderr)
                for word in words:
                    self.assertIn(word, result.stderr)
                if status == 1:
                    self.assertTrue(result.stderr.startswith("normgrad %s: " % command),
                                    msg=result.stderr)
                self.assertEqual(os.listdir(out), ["dx.npy"])
                with open(sentinel) as f:
                    self.assertEqual(f.read(), "old")

    def test_help(self):
        for command, options in (("backward", ["--x", "--dy", "--gamma", "--order", "--eps",
                                               "--time"]),
                                 ("forward", ["--x", "--gamma", "--beta", "--eps", "--time"])):
            result = run([command, "--help"])
            self.assert_ok(result)
            for option in options:
                self.assertIn(option, result.stdout)


# ---------------------------------------------------------------------------
# `normgrad rmsnorm-forward` and `normgrad rmsnorm-backward`: the engine's RMS
# norm on files. Oracles: float64 numpy within the bounds of docs/numerics.md
# ("RMS norm forward and fused backward") for float; for half and bfloat16,
# the float run on the exactly widened inputs, narrowed, bit for bit.

def rms_forward_oracle(x, gamma, eps):
    """Float64 rstd, y and their error bounds (float inputs)."""
    x64 = x.astype(np.float64)
    g64 = gamma.astype(np.float64)
    r = 1 / np.sqrt((x64 * x64).mean(axis=-1, keepdims=True) + eps)
    e_r = r * (gamma_k(sum_roundings(x.shape[-1]) + 2) * (1 + gamma_k(3)) + gamma_k(3))
    y = x64 * r * g64
    e_y = np.abs(x64 * g64) * (e_r + gamma_k(2) * (r + e_r))
    return (r[..., 0], e_r[..., 0]), (y, e_y)


def rms_backward_oracle(x, dy, gamma, rstd, order):
    """Float64 dx, dgamma and their bounds, given the float rstd the engine
    used (float inputs)."""
    h = x.shape[-1]
    x64 = x.reshape(-1, h).astype(np.float64)
    dy64 = dy.reshape(-1, h).astype(np.float64)
    r = rstd.reshape(-1, 1).astype(np.float64)
    g = dy64 * gamma.astype(np.float64)
    dx = r * (g - x64 * r * r * (g * x64).mean(axis=1, keepdims=True))
    scale = r * (np.abs(g) + np.abs(x64 * r) * np.abs(g * x64 * r).mean(axis=1, keepdims=True))
    rows = x64.shape[0]
    if order == "sequential":
        n = rows
    else:
        blocks = math.ceil(rows / 256)
        n = 256 + (math.ceil(math.log2(blocks)) if blocks > 1 else 0)
    terms = dy64 * x64 * r
    return ((dx.reshape(x.shape), gamma_k(sum_roundings(h) + 8) * scale.reshape(x.shape)),
            (terms.sum(axis=0), gamma_k(n + 2) * np.abs(terms).sum(axis=0)))


RMS_NORM_SHAPES = [((2, 3, 48), "H = 48"), ((5, 1), "H = 1"), ((3, 7), "H = 7"),
                   ((4, 33), "H = 33"), ((1, 4104), "one row, H = 4104"),
                   ((2, 300, 40), "two blocks"), ((700, 1031), "three blocks, H = 1031")]


class RmsNormTest(LayerNormCase):
    def rms_forward(self, x, gamma, dtype, extra=(), out="out"):
        args = ["rmsnorm-forward", "--x", self.save("x.npy", x),
                "--gamma", self.save("gamma.npy", gamma), "--out", self.path(out)]
        args += list(extra) + (["--dtype", "bfloat16"] if dtype == "bfloat16" else [])
        result = run(args)
        self.assert_ok(result)
        outputs = [np.load(self.path("%s/%s.npy" % (out, n))) for n in ("y", "rstd")]
        for a in outputs:
            self.assertEqual(a.dtype, NPY_TYPE[dtype])
        self.assertEqual(outputs[0].shape, x.shape)
        self.assertEqual(outputs[1].shape, x.shape[:-1])
        return outputs, result

    def rms_backward(self, x, dy, gamma, dtype, extra=(), out="out"):
        args = ["rmsnorm-backward", "--x", self.save("x.npy", x), "--dy", self.save("dy.npy", dy),
                "--gamma", self.save("gamma.npy", gamma), "--out", self.path(out)]
        args += list(extra) + (["--dtype", "bfloat16"] if dtype == "bfloat16" else [])
        result = run(args)
        self.assert_ok(result)
        outputs = [np.load(self.path("%s/%s.npy" % (out, n))) for n in ("dx", "dgamma")]
        for a in outputs:
            self.assertEqual(a.dtype, NPY_TYPE[dtype])
        self.assertEqual(outputs[0].shape, x.shape)
        self.assertEqual(outputs[1].shape, (x.shape[-1],))
        return outputs, result

    def test_forward_float_is_within_the_derived_bound(self):
        for shape, what in RMS_NORM_SHAPES:
            for eps in ("1e-06", "0.5"):
                with self.subTest(what=what, eps=eps):
                    x, _, gamma, _ = layer_norm_inputs(shape, "float", 21)
                    (y, rstd), result = self.rms_forward(x, gamma, "float", ["--eps", eps])
                    want_rstd, want_y = rms_forward_oracle(x, gamma, float(eps))
                    self.assert_within(rstd, want_rstd, "rstd")
                    self.assert_within(y, want_y, "y")
                    self.assertIn("eps        " + eps, result.stdout)

    def test_backward_float_is_within_the_derived_bound(self):
        for shape, what in RMS_NORM_SHAPES:
            for order in ("blocked", "sequential"):
                with self.subTest(what=what, order=order):
                    x, dy, gamma, _ = layer_norm_inputs(shape, "float", 22)
                    (_, rstd), _ = self.rms_forward(x, gamma, "float", out="f")
                    (dx, dgamma), result = self.rms_backward(x, dy, gamma, "float",
                                                             ["--order", order])
                    want = rms_backward_oracle(x, dy, gamma, rstd, order)
                    for got, ref_bound, name in zip((dx, dgamma), want, ("dx", "dgamma")):
                        self.assert_within(got, ref_bound, name)
                    self.assertIn("order      " + order, result.stdout)

    def test_16_bit_inputs_give_the_float_results_narrowed(self):
        for dtype in ("half", "bfloat16"):
            for shape, what in RMS_NORM_SHAPES:
                with self.subTest(dtype=dtype, what=what):
                    x, dy, gamma, _ = layer_norm_inputs(shape, dtype, 23)
                    got, _ = self.rms_forward(x, gamma, dtype)
                    as_float, _ = self.rms_forward(widen(x, dtype), widen(gamma, dtype), "float",
                                                   out="f")
                    got += self.rms_backward(x, dy, gamma, dtype)[0]
                    as_float += self.rms_backward(widen(x, dtype), widen(dy, dtype),
                                                  widen(gamma, dtype), "float", out="f")[0]
                    for g, f in zip(got, as_float):
                        self.assert_bits_equal(g, narrow(f, dtype))

    def test_bits_do_not_depend_on_threads_and_dx_not_on_order(self):
        x, dy, gamma, _ = layer_norm_inputs((2000, 256), "float", 24)
        first_f, _ = self.rms_forward(x, gamma, "float", ["--threads", "1"], out="f")
        first, _ = self.rms_backward(x, dy, gamma, "float", ["--threads", "1"])
        for threads in ("2", "3", "4"):
            outputs, result = self.rms_forward(x, gamma, "float", ["--threads", threads], out="f")
            self.assertRegex(result.stdout, r"impl       forward:\w+, [234] threads")
            for a, b in zip(outputs, first_f):
                self.assert_bits_equal(a, b)
            outputs, result = self.rms_backward(x, dy, gamma, "float", ["--threads", threads])
            self.assertRegex(result.stdout, r"impl       blocked:\w+, [234] threads")
            for a, b in zip(outputs, first):
                self.assert_bits_equal(a, b)
        (dx, _), _ = self.rms_backward(x, dy, gamma, "float", ["--order", "sequential"])
        self.assert_bits_equal(dx, first[0])

    def test_exact_fills_give_the_exact_results(self):
        # Rows of ±a (a a power of two), eps 0, small integers for dy and
        # gamma, H = 64: the mean square a², rstd 1/a, x·rstd = ±1 and every
        # sum are exact.
        rng = np.random.default_rng(25)
        rows, h = 600, 64
        a = np.float32(2.0) ** rng.integers(-1, 2, size=(rows, 1)).astype(np.float32)
        x = (a * rng.choice([-1.0, 1.0], size=(rows, h))).astype(np.float32)
        dy = rng.integers(-4, 5, size=(rows, h)).astype(np.float32)
        gamma = rng.integers(-4, 5, size=h).astype(np.float32)
        (y, rstd), _ = self.rms_forward(x, gamma, "float", ["--eps", "0"], out="f")
        self.assertTrue(np.array_equal(rstd.astype(np.float64), 1 / a[:, 0]))
        self.assertTrue(np.array_equal(y.astype(np.float64), rms_forward_oracle(x, gamma, 0)[1][0]))
        for order in ("blocked", "sequential"):
            (dx, dgamma), _ = self.rms_backward(x, dy, gamma, "float",
                                                ["--eps", "0", "--order", order])
            want = rms_backward_oracle(x, dy, gamma, 1 / a, order)
            for got, (ref, _) in zip((dx, dgamma), want):
                self.assertTrue(np.array_equal(got.astype(np.float64), ref))

    def test_bin_inputs_give_bin_outputs(self):
        for dtype, np_type in (("float", np.float32), ("half", np.float16),
                               ("bfloat16", np.uint16)):
            with self.subTest(dtype=dtype):
                x, dy, gamma, _ = layer_norm_inputs((2, 3, 24), dtype, 26)
                want, _ = self.rms_backward(x, dy, gamma, dtype, out="npy")
                want += self.rms_forward(x, gamma, dtype, out="npy")[0]
                args = ["--x", self.write("x.bin", x.tobytes()),
                        "--gamma", self.write("gamma.bin", gamma.tobytes()),
                        "--shape", "2,3,24", "--dtype", dtype, "--out", self.dir]
                self.assert_ok(run(["rmsnorm-backward", "--dy", self.write("dy.bin", dy.tobytes())]
                                   + args))
                self.assert_ok(run(["rmsnorm-forward"] + args))
                for name, w in zip(("dx", "dgamma", "y", "rstd"), want):
                    got = np.fromfile(self.path(name + ".bin"), np_type)
                    self.assert_bits_equal(got, w.reshape(-1))

    def test_prints_what_ran(self):
        x, dy, gamma, _ = layer_norm_inputs((2, 8, 64), "half", 27)
        _, result = self.rms_backward(x, dy, gamma, "half", ["--eps", "0.001"])
        out = result.stdout
        self.assertIn("normgrad rmsnorm-backward: ", out)
        self.assertIn("shape      [2, 8, 64] (rows 16, H 64)", out)
        self.assertIn("dtype      half", out)
        self.assertIn("eps        0.001", out)
        self.assertIn("order      blocked", out)  # the default
        isa = os.environ.get("NORMGRAD_IMPL", r"\w+")
        self.assertRegex(out, r"impl       blocked:%s, \d+ threads?" % isa)
        self.assertNotIn("\n  time ", out)  # only with --time
        self.assertIn("dx.npy", out)
        self.assertIn("dgamma.npy", out)
        _, result = self.rms_forward(x, gamma, "half")
        self.assertIn("eps        1e-06", result.stdout)  # the default
        self.assertRegex(result.stdout, r"impl       forward:%s, \d+ threads?" % isa)
        self.assertIn("rstd.npy", result.stdout)
        for command in ("rmsnorm-backward", "rmsnorm-forward"):
            args = [command, "--x", self.path("x.npy"), "--gamma", self.path("gamma.npy"),
                    "--out", self.path("out"), "--time"]
            args += ["--dy", self.path("dy.npy")] if command == "rmsnorm-backward" else []
            result = run(args)
            self.assert_ok(result)
            self.assertRegex(result.stdout, r"time       [0-9.]+ ms \(.*median of 3 runs\)")
            self.assertRegex(result.stdout, r"bandwidth  [0-9.]+ GB/s")


# Error cases of rmsnorm-forward and rmsnorm-backward, as LAYER_NORM_ERRORS.
def rms_norm_files(command, **given):
    valid = {"x": np.ones((2, 4, 8), np.float32), "dy": np.ones((2, 4, 8), np.float32),
             "gamma": np.ones(8, np.float32)}
    names = ("x", "dy", "gamma") if command == "rmsnorm-backward" else ("x", "gamma")
    return {name: given.get(name, valid[name]) for name in names}


RMS_NORM_ERRORS = [
    ("x and dy differ", "rmsnorm-backward", {"dy": np.ones((2, 4, 16), np.float32)}, [], 1,
     ["normgrad rmsnorm-backward: ", "x and dy differ", "[2, 4, 16]", "dy must be [2, 4, 8]"]),
    ("gamma not [H]", "rmsnorm-forward", {"gamma": np.ones((1, 8), np.float32)}, [], 1,
     ["normgrad rmsnorm-forward: ", "x and gamma differ", "[1, 8]", "gamma must be [8]"]),
    ("dtype mismatch", "rmsnorm-backward", {"gamma": np.ones(8, np.float16)}, [], 1,
     ["x and gamma differ", "'<f2'", "'<f4'"]),
    ("float64", "rmsnorm-forward", {"x": np.ones((2, 8))}, [], 1, ["'<f8'", "not supported"]),
    ("--shape disagrees", "rmsnorm-backward", {}, ["--shape", "2,4,16"], 1,
     ["--shape [2, 4, 16] does not agree"]),
    ("bin without --shape", "rmsnorm-forward", {k: b"\0" * n for k, n in (("x", 256),
                                                                          ("gamma", 32))},
     ["--dtype", "float"], 1, ["--shape B,S,H and --dtype are required"]),
    ("eps not finite", "rmsnorm-backward", {}, ["--eps", "nan"], 1,
     ["normgrad rmsnorm-backward: RmsNormForward: eps nan is not finite; it must be finite "
      "and at least 0"]),
    ("eps too large for float", "rmsnorm-forward", {}, ["--eps", "1e39"], 1,
     ["normgrad rmsnorm-forward: RmsNormForward: eps inf is not finite; it must be finite "
      "and at least 0"]),
    ("--out is a file", "rmsnorm-forward", {}, ["--out", "__file__"], 1, ["not a directory"]),
    ("negative --eps", "rmsnorm-backward", {}, ["--eps", "-1"], 2, ["--eps"]),
    ("bad --order", "rmsnorm-backward", {}, ["--order", "fastest"], 2, ["--order"]),
    ("forward has no --order", "rmsnorm-forward", {}, ["--order", "blocked"], 2, ["--order"]),
    ("--threads 0", "rmsnorm-forward", {}, ["--threads", "0"], 2, ["--threads"]),
    ("no --dy", "rmsnorm-backward", {"dy": None}, [], 2, ["--dy is required"]),
    ("no --gamma", "rmsnorm-forward", {"gamma": None}, [], 2, ["--gamma is required"]),
]


class RmsNormErrorTest(CliTestCase):
    def test_every_error_case(self):
        root = self.dir
        for name, command, given, extra, status, words in RMS_NORM_ERRORS:
            with self.subTest(name):
                self.dir = tempfile.mkdtemp(dir=root)  # a fresh directory per case
                out = self.path("out")
                os.mkdir(out)
                sentinel = os.path.join(out, "dx.npy")
                with open(sentinel, "w") as f:
                    f.write("old")
                args = [command]
                for option, value in rms_norm_files(command, **given).items():
                    if value is None:
                        continue
                    if isinstance(value, bytes):
                        path = self.write(option + ".bin", value)
                    else:
                        path = self.save(option + ".npy", value)
                    args += ["--" + option, path]
                extra = [self.write("file", b"") if a == "__file__" else a for a in extra]
                if "--out" not in extra:
                    args += ["--out", out]
                result = run(args + extra)
                self.assertEqual(result.returncode, status, msg=result.stderr)
                for word in words:
                    self.assertIn(word, result.stderr)
                if status == 1:
                    self.assertTrue(result.stderr.startswith("normgrad %s: " % command),
                                    msg=result.stderr)
                self.assertEqual(os.listdir(out), ["dx.npy"])
                with open(sentinel) as f:
                    self.assertEqual(f.read(), "old")

    def test_help_and_unknown_command_list(self):
        for command, options in (("rmsnorm-backward", ["--x", "--dy", "--gamma", "--order",
                                                       "--eps", "--time", "mean square"]),
                                 ("rmsnorm-forward", ["--x", "--gamma", "--eps", "--time",
                                                      "mean square"])):
            result = run([command, "--help"])
            self.assert_ok(result)
            for option in options:
                self.assertIn(option, result.stdout)
        result = run(["rmsnorm"])
        self.assertEqual(result.returncode, 2)
        self.assertIn("rmsnorm-forward, rmsnorm-backward", result.stderr)


# ---------------------------------------------------------------------------
# Output sets: a command's outputs replace the old ones all together or not
# at all, never through a link; interrupted writes are cleaned up by the
# next command writing into the folder (tools/normgrad/outputs.h).

OUTPUT_NAMES = {"run": ("pd_gamma", "pd_beta"), "backward": ("dx", "pd_gamma", "pd_beta"),
                "forward": ("y", "mean", "variance")}


def folder_state(folder):
    """Every entry of `folder`: name -> its bytes, 'dir' or 'link -> target'."""
    state = {}
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        if os.path.islink(path):
            state[name] = "link -> " + os.readlink(path)
        elif os.path.isdir(path):
            state[name] = "dir"
        else:
            with open(path, "rb") as f:
                state[name] = f.read()
    return state


class OutputSetTest(CliTestCase):
    def command(self, command, seed, out="out"):
        """The arguments of `command` on small inputs of `seed` (seeds give
        different outputs), writing to `out`."""
        rng = np.random.default_rng(seed)
        a, b = (rng.standard_normal((4, 3, 32)).astype(np.float32) for _ in range(2))
        v, w = (rng.standard_normal(32).astype(np.float32) for _ in range(2))
        tag = str(seed)
        inputs = {"run": [("--dy", a), ("--res", b)],
                  "backward": [("--x", a), ("--dy", b), ("--gamma", v)],
                  "forward": [("--x", a), ("--gamma", v), ("--beta", w)]}[command]
        args = [command, "--out", self.path(out)]
        for option, array in inputs:
            args += [option, self.save(option[2:] + tag + ".npy", array)]
        return args

    def test_a_directory_in_place_of_any_output_changes_nothing(self):
        for command, names in OUTPUT_NAMES.items():
            for blocked in names:
                with self.subTest(command=command, directory=blocked):
                    out = "out_%s_%s" % (command, blocked)
                    self.assert_ok(run(self.command(command, 1, out)))
                    folder = self.path(out)
                    os.remove(os.path.join(folder, blocked + ".npy"))
                    os.mkdir(os.path.join(folder, blocked + ".npy"))
                    before = folder_state(folder)
                    result = run(self.command(command, 2, out))
                    self.assertEqual(result.returncode, 1, msg=result.stderr)
                    self.assertEqual(folder_state(folder), before)
                    self.assertIn(blocked + ".npy: it is a directory", result.stderr)

    def test_a_link_as_an_output_is_refused_and_not_followed(self):
        victim = self.write("victim", b"not yours")
        for command, names in OUTPUT_NAMES.items():
            for linked in names:
                with self.subTest(command=command, link=linked):
                    out = "out_%s_%s" % (command, linked)
                    self.assert_ok(run(self.command(command, 1, out)))
                    folder = self.path(out)
                    os.remove(os.path.join(folder, linked + ".npy"))
                    os.symlink(victim, os.path.join(folder, linked + ".npy"))
                    before = folder_state(folder)
                    result = run(self.command(command, 2, out))
                    with open(victim, "rb") as f:
                        self.assertEqual(f.read(), b"not yours")
                    self.assertEqual(folder_state(folder), before)
                    self.assertEqual(result.returncode, 1, msg=result.stderr)
                    self.assertIn(linked + ".npy: it is a symbolic link", result.stderr)

    def test_links_at_predictable_temporary_names_are_not_followed(self):
        # Links at `<output>.tmp.<pid>` for the next few thousand process ids:
        # a writer that opens a predictable name would write into the victim.
        victim = self.write("victim", b"not yours")
        folder = self.path("out")
        os.mkdir(folder)
        first = os.getpid()
        for command, names in OUTPUT_NAMES.items():
            for name in names:
                for pid in range(first, first + 3000):
                    link = os.path.join(folder, "%s.npy.tmp.%d" % (name, pid))
                    if not os.path.lexists(link):
                        os.symlink(victim, link)
        for command in OUTPUT_NAMES:
            with self.subTest(command=command):
                self.assert_ok(run(self.command(command, 1)))
                with open(victim, "rb") as f:
                    self.assertEqual(f.read(), b"not yours")
                for name in OUTPUT_NAMES[command]:
                    path = os.path.join(folder, name + ".npy")
                    self.assertFalse(os.path.islink(path))
                    np.load(path)

    def test_sigint_and_sigterm_remove_the_temporaries(self):
        # Big enough that writing dx takes a while; the signal comes as soon
        # as the first new file appears in the folder.
        print("seed 21")
        rng = np.random.default_rng(21)
        x, dy = (self.save(n, rng.standard_normal((2048, 8192)).astype(np.float32))
                 for n in ("x.npy", "dy.npy"))
        g = self.save("g.npy", rng.standard_normal(8192).astype(np.float32))
        folder = self.path("out")
        args = [BINARY, "backward", "--x", x, "--gamma", g, "--out", folder]
        subprocess.run(args + ["--dy", x], check=True, capture_output=True, timeout=TIMEOUT_S)
        old = folder_state(folder)
        caught_writing = 0
        for sig in (signal.SIGINT, signal.SIGTERM) * 3:
            with self.subTest(signal=sig):
                process = subprocess.Popen(args + ["--dy", dy], stdout=subprocess.DEVNULL)
                while process.poll() is None and set(os.listdir(folder)) == set(old):
                    time.sleep(0.0005)
                process.send_signal(sig)
                process.wait(timeout=TIMEOUT_S)
                after = folder_state(folder)
                self.assertEqual(sorted(after), sorted(old))  # no temporaries left
                if after == old:  # interrupted before the set was complete
                    self.assertEqual(process.returncode, -sig)
                    caught_writing += 1
                else:  # the new set was complete; all its files are new
                    self.assertIn(process.returncode, (0, -sig))
                    self.assertTrue(all(after[n] != old[n] for n in old))
                    subprocess.run(args + ["--dy", x], check=True, capture_output=True,
                                   timeout=TIMEOUT_S)
        self.assertGreater(caught_writing, 0)


class KillTest(CliTestCase):
    """SIGKILL at random moments while `forward` writes a 128 MiB y: the
    folder never holds a mix of old and new outputs without the journal that
    marks it incomplete, and the next run finishes or undoes the set."""

    KILLS = 30
    SEED = 2026

    def test_sigkill_never_leaves_a_mixed_set_that_looks_complete(self):
        print("seed", self.SEED)
        rng = np.random.default_rng(self.SEED)
        xs = [self.save(n, rng.standard_normal((4096, 8192)).astype(np.float32))
              for n in ("a.npy", "b.npy")]
        g = self.save("g.npy", rng.standard_normal(8192).astype(np.float32))
        folder = self.path("out")
        names = ["y.npy", "mean.npy", "variance.npy"]
        journal = os.path.join(folder, ".normgrad-journal")

        def args(i):  # two input sets: every output differs between them
            return [BINARY, "forward", "--x", xs[i % 2], "--gamma", g, "--beta", g,
                    "--out", folder]

        def outputs(whole=False):
            # A file is replaced by a rename, whole, so its first and last
            # MiB tell which run wrote it; the last check reads all of it.
            digests = []
            for name in names:
                with open(os.path.join(folder, name), "rb") as f:
                    data = f.read() if whole else f.read(1 << 20)
                    if not whole and f.seek(0, os.SEEK_END) > 2 << 20:
                        f.seek(-(1 << 20), os.SEEK_END)
                        data += f.read()
                digests.append(hashlib.sha1(data).digest())
            return tuple(digests)

        def start(i):  # runs with inputs i; returns when the writing has begun
            there = set(os.listdir(folder))  # outputs, and leftovers of a kill
            process = subprocess.Popen(args(i), stdout=subprocess.DEVNULL)
            while process.poll() is None and set(os.listdir(folder)) <= there:
                time.sleep(0.0005)
            return process

        # The two complete sets, and how long the writing lasts.
        os.mkdir(folder)
        sets, whole_sets, writing = [], [], []
        for i in range(2):
            process = start(i)
            begun = time.monotonic()
            self.assertEqual(process.wait(timeout=TIMEOUT_S), 0)
            writing.append(time.monotonic() - begun)
            sets.append(outputs())
            whole_sets.append(outputs(whole=True))
        self.assertNotEqual(sets[0], sets[1])
        longest = max(writing)

        journals = 0
        for i in range(self.KILLS):
            process = start(i)
            if i % 4 == 3:  # at the commit, as soon as the journal is there
                while process.poll() is None and not os.path.exists(journal):
                    time.sleep(0.0001)
            else:
                time.sleep(rng.uniform(0, longest))
            process.kill()
            process.wait(timeout=TIMEOUT_S)
            if os.path.exists(journal):
                journals += 1  # marked incomplete: the next run finishes it
                continue
            self.assertIn(outputs(), sets, msg="kill %d left a mixed set" % i)
        print("%d kills, %d left a journal" % (self.KILLS, journals))

        # The next run cleans up and writes its own set.
        subprocess.run(args(0), check=True, stdout=subprocess.DEVNULL, timeout=TIMEOUT_S)
        self.assertEqual(sorted(os.listdir(folder)), sorted(names))
        self.assertEqual(outputs(whole=True), whole_sets[0])


class MemoryTest(CliTestCase):
    """Out of memory under an address-space limit: exit 1 and a message that
    names what could not be allocated and its size, never an abort. (Not
    registered in sanitizer builds, whose shadow memory needs far more
    address space.)"""

    def test_every_command_reports_running_out_of_memory(self):
        rng = np.random.default_rng(3)
        print("seed 3")
        x = self.save("x.npy", rng.standard_normal((4096, 4096)).astype(np.float32))
        g = self.save("g.npy", rng.standard_normal(4096).astype(np.float32))
        cases = [(["backward", "--x", x, "--dy", x, "--gamma", g], 200000),
                 (["forward", "--x", x, "--gamma", g, "--beta", g], 120000),
                 (["run", "--dy", x, "--res", x], 120000)]
        for args, kib in cases:
            with self.subTest(command=args[0], limit_kib=kib):
                def limit(kib=kib):
                    resource.setrlimit(resource.RLIMIT_AS, (kib * 1024, kib * 1024))
                result = subprocess.run([BINARY] + args + ["--out", self.path("out")],
                                        capture_output=True, text=True, timeout=TIMEOUT_S,
                                        preexec_fn=limit)
                self.assertEqual(result.returncode, 1, msg=result.stderr)
                self.assertRegex(result.stderr, r"^normgrad %s: not enough memory (for|to "
                                 r"read) .*\b67108864 bytes" % args[0])
                self.assertNotIn("terminate", result.stderr)
                self.assertFalse(os.path.exists(self.path("out")))


# ---------------------------------------------------------------------------
# `normgrad bench`: the comparison table, its JSON and plot, on small shapes.

BENCH_SHAPES = "# rows x cols and dtype\n64x64 float\n300x512 half\n\n128x256 bfloat16\n"


class BenchTest(CliTestCase):
    # The JSON of `bench --quick --json` per shape file, for the tests that
    # only read its rows: one run serves them all (a run of BENCH_SHAPES
    # takes half a minute, minutes under the sanitizers).
    json_runs = {}

    def bench(self, *args, shapes=BENCH_SHAPES, env=None):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "shapes.txt")
            with open(path, "w") as f:
                f.write(shapes)
            return run(["bench", "--quick", "--shapes", path] + list(args), env=env)

    def bench_json(self, shapes=BENCH_SHAPES):
        if shapes not in BenchTest.json_runs:
            result = self.bench("--json", shapes=shapes)
            self.assert_ok(result)
            BenchTest.json_runs[shapes] = json.loads(result.stdout)
        return BenchTest.json_runs[shapes]

    def test_json_rows_are_complete_and_consistent(self):
        data = self.bench_json()
        self.assertIn("baseline_gbs", data)
        rows = data["results"]
        shapes = {(64, 64, "float"), (300, 512, "half"), (128, 256, "bfloat16")}
        self.assertEqual({(r["rows"], r["cols"], r["dtype"]) for r in rows}, shapes)
        for rows_, cols, dtype in shapes:
            for threads in (1, 2):
                for op in ("grad_beta", "backward"):
                    group = [r for r in rows if (r["rows"], r["cols"], r["dtype"], r["threads"],
                                                 r["op"]) == (rows_, cols, dtype, threads, op)]
                    impls = [r["impl"] for r in group]
                    self.assertEqual(impls[0], "baseline")
                    for peer in ("pytorch", "onednn", "loop"):
                        self.assertIn(peer, impls)
                    normgrad = [r for r in group if r["impl"].startswith("normgrad:")]
                    # --quick: the dispatched instruction set, both orders for
                    # grad_beta, the blocked order for backward.
                    self.assertEqual(len(normgrad), 2 if op == "grad_beta" else 1, msg=impls)
                    self.assertEqual(op == "grad_beta", "normgrad-ascendc" in impls)
                    base = group[0]["gbs"]
                    for r in group:
                        if r["seconds"] is None:
                            self.assertTrue(r["note"], msg=r)
                            continue
                        self.assertGreater(r["seconds"], 0)
                        self.assertAlmostEqual(r["ratio_to_baseline"], r["gbs"] / base,
                                               delta=1e-3 * r["ratio_to_baseline"])
                    for r in normgrad:
                        self.assertIsNotNone(r["seconds"], msg=r)
                        # Float sums of at most 300 terms (≤ 300·2^-24 of Σ|terms|, and
                        # Σ|terms| ≤ about 3·max|sum| for these normal inputs is not
                        # guaranteed, so allow 1e-4), plus one rounding to the output
                        # type: 2^-11 half, 2^-8 bfloat16, relative to the largest
                        # value.
                        bound = {"float": 1e-4, "half": 2**-11 + 1e-4, "bfloat16": 2**-8 + 1e-4}
                        self.assertLessEqual(r["error"], bound[dtype], msg=r)
        # The emulated Ascend C path takes float and half, not bfloat16.
        ascendc = [r for r in rows if r["impl"] == "normgrad-ascendc" and r["op"] == "grad_beta"]
        for r in ascendc:
            if r["dtype"] == "bfloat16":
                self.assertIsNone(r["seconds"])
                self.assertIn("half or float", r["note"])
            elif r["dtype"] == "float":
                self.assertLessEqual(r["error"], 1e-4, msg=r)
            else:
                # Half: every tile's sum is rounded to half (2^-11 of it) before the
                # float block sums, so the error is up to 2^-11·Σ_r|dy·res| per
                # column; for 300 standard normal rows Σ|dy·res| ≈ 300·0.64 ≈ 190
                # while max|Σ dy·res| ≈ 3·√300 ≈ 50: about 4·2^-11 ≈ 2e-3 normwise.
                self.assertLessEqual(r["error"], 4e-3, msg=r)

    def test_rms_norm_rows(self):
        rows = [r for r in self.bench_json()["results"] if r["op"] in ("rms_fwd", "rms_bwd")]
        for shape in ((64, 64, "float"), (300, 512, "half"), (128, 256, "bfloat16")):
            for threads in (1, 2):
                for op in ("rms_fwd", "rms_bwd"):
                    group = [r for r in rows if (r["rows"], r["cols"], r["dtype"], r["threads"],
                                                 r["op"]) == shape + (threads, op)]
                    impls = [r["impl"] for r in group]
                    # --quick: the dispatched instruction set; PyTorch's
                    # composite as the peer (the others say why not).
                    self.assertEqual(impls[0], "baseline")
                    self.assertEqual(len([i for i in impls if i.startswith("normgrad:")]), 1)
                    self.assertTrue(impls[1].startswith(
                        "normgrad:forward:" if op == "rms_fwd" else "normgrad:blocked:"))
                    for peer in ("pytorch", "onednn", "loop"):
                        self.assertIn(peer, impls)
                    for r in group:
                        if r["impl"] in ("onednn", "loop"):
                            self.assertIsNone(r["seconds"], msg=r)
                            self.assertTrue(r["note"], msg=r)
                    torch = [r for r in group if r["impl"] == "pytorch"][0]
                    if torch.get("note", "").startswith("not built"):
                        # A build without libtorch-dev: the row says so.
                        self.assertIsNone(torch["seconds"], msg=torch)
                    else:
                        # PyTorch 1.13 has no half pow/mean on the CPU.
                        self.assertEqual(torch["seconds"] is None, shape[2] == "half",
                                         msg=torch)
                    ours = group[1]
                    self.assertGreater(ours["seconds"], 0, msg=ours)
                    # Normwise, float: far below 1e-4 (docs/numerics.md's
                    # bounds are ~(H/16 + 10)·2^-24 of the terms); 16-bit:
                    # plus one rounding to the output type.
                    bound = {"float": 1e-4, "half": 2**-11 + 1e-4, "bfloat16": 2**-8 + 1e-4}
                    self.assertLessEqual(ours["error"], bound[shape[2]], msg=ours)

    def test_vector_unit_rows(self):
        rows = [r for r in self.bench_json()["results"] if r["op"] in ("vec_add", "row_sum")]
        # Half and float only (Add and ReduceSum take those); every group is
        # the baseline, the kernel on emulated cores and the plain loop.
        self.assertEqual({(r["rows"], r["cols"], r["dtype"]) for r in rows},
                         {(64, 64, "float"), (300, 512, "half")})
        for shape in ((64, 64, "float"), (300, 512, "half")):
            for threads in (1, 2):
                for op in ("vec_add", "row_sum"):
                    group = [r for r in rows if (r["rows"], r["cols"], r["dtype"], r["threads"],
                                                 r["op"]) == shape + (threads, op)]
                    self.assertEqual([r["impl"] for r in group],
                                     ["baseline", "normgrad-ascendc", "loop"])
                    for r in group[1:]:
                        self.assertGreater(r["seconds"], 0, msg=r)
                        self.assertGreater(r["ratio_to_best_peer"], 0, msg=r)
                        # vec_add rounds one sum per element: half an ulp
                        # of the output type. row_sum: at most 10 roundings
                        # on a path (a tree of depth 7, 4 repeats, half),
                        # each ≤ u·Σ|x|, and Σ|x| / max|Σ x| is about 6
                        # for 512 standard normal values: 10·6·u, u = 2^-11
                        # for half, 2^-24 for float.
                        u = 2**-11 if shape[2] == "half" else 2**-24
                        bound = u if op == "vec_add" else 60 * u
                        self.assertLessEqual(r["error"], bound, msg=r)

    def test_table_names_every_column_and_the_baseline(self):
        result = self.bench(shapes="64x64 float\n")
        self.assert_ok(result)
        out = result.stdout
        for word in ("GB/s", "x base", "x peer", "error", "baseline", "normgrad:sequential:",
                     "normgrad:blocked:", "normgrad-ascendc", "loop"):
            self.assertIn(word, out)
        self.assertIn("normgrad bench: [", result.stderr)  # the progress line

    def test_plot_writes_a_png(self):
        with tempfile.TemporaryDirectory() as d:
            png = os.path.join(d, "bench.png")
            result = self.bench("--plot", png, shapes="64x64 float\n128x256 half\n")
            self.assert_ok(result)
            with open(png, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_bad_shape_files(self):
        for text, message in (("64x64\n", "line 1: '64x64' is not 'ROWSxCOLS dtype'"),
                              ("64x64 float\n0x8 half\n", "line 2: '0x8' is not ROWSxCOLS"),
                              ("64by64 float\n", "line 1: '64by64' is not ROWSxCOLS"),
                              ("64x64 double\n", "dtype 'double' is not float, half or bfloat16"),
                              ("65536x8192 float\n", "'65536x8192' has more than 2^28 elements"),
                              ("# nothing\n", "no shapes in the file")):
            result = self.bench(shapes=text)
            self.assertEqual(result.returncode, 1, msg=text)
            self.assertIn("normgrad bench: --shapes ", result.stderr)
            self.assertIn(message, result.stderr)
        result = run(["bench", "--shapes", "/nonexistent/shapes.txt"])
        self.assertEqual(result.returncode, 1)
        self.assertIn("cannot be read", result.stderr)
        self.assertEqual(run(["bench", "--frobnicate"]).returncode, 2)

    def bench_with_others_cpu(self, share, *args):
        """A quick bench of one small shape with other processes' share of
        the CPU time set to `share`."""
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "shapes.txt")
            with open(path, "w") as f:
                f.write("64x64 float\n")
            return run(["bench", "--quick", "--shapes", path] + list(args),
                       env={"NORMGRAD_BENCH_OTHERS_CPU": str(share)})

    def assert_noise_fields(self, data):
        check = data["noise_check"]
        self.assertIsInstance(check["cores"], int)
        self.assertGreaterEqual(check["cores"], 1)
        for key in ("others_cpu_max", "baseline_start_gbs", "baseline_end_gbs"):
            self.assertIsInstance(check[key], (int, float), msg=key)
        for r in data["results"]:
            self.assertIsInstance(r["noisy"], bool, msg=r)
            if r["noisy"]:
                self.assertIsInstance(r["noisy_reason"], str, msg=r)
                self.assertTrue(r["noisy_reason"], msg=r)
            else:
                self.assertNotIn("noisy_reason", r, msg=r)
            if r["seconds"] is None:
                self.assertFalse(r["noisy"], msg=r)  # a row not run has no figures to doubt

    def test_other_processes_taking_cpu_time_mark_every_row_noisy(self):
        result = self.bench_with_others_cpu(0.5, "--json")
        self.assert_ok(result)
        data = json.loads(result.stdout)
        self.assert_noise_fields(data)
        self.assertEqual(data["noise_check"]["others_cpu_max"], 0.5)
        measured = [r for r in data["results"] if r["seconds"] is not None]
        self.assertTrue(measured)
        for r in measured:
            self.assertTrue(r["noisy"], msg=r)
            self.assertIn("other processes took 50% of the CPU time > 10%", r["noisy_reason"])

    def test_no_other_processes_is_no_reason(self):
        # The other rules may still fire on a busy machine; this one never does.
        result = self.bench_with_others_cpu(0, "--json")
        self.assert_ok(result)
        data = json.loads(result.stdout)
        self.assert_noise_fields(data)
        self.assertEqual(data["noise_check"]["others_cpu_max"], 0)
        for r in data["results"]:
            self.assertNotIn("other processes", r.get("noisy_reason", ""), msg=r)

    def test_table_marks_noisy_rows_and_progress_has_times(self):
        result = self.bench_with_others_cpu(1)
        self.assert_ok(result)
        rows = [line for line in result.stdout.splitlines() if line.startswith("grad_beta ")]
        self.assertTrue(rows)
        for line in rows:
            if "- (" not in line:  # a row not run says why instead
                self.assertIn("noisy: other processes took 100% of the CPU time", line)
        self.assertIn("NOISY: ", result.stdout)
        self.assertIn("check baseline", result.stdout)
        # Progress on stderr: elapsed time, and an estimate once a group is done.
        self.assertRegex(result.stderr, r"\[1/\d+\] .*; \d+ s elapsed")
        self.assertRegex(result.stderr, r"\[2/\d+\] .*; \d+ s elapsed, about \d+ s left")
        self.assertNotIn("elapsed", result.stdout)

    def test_rows_whose_inputs_fit_the_cache_are_in_cache(self):
        # A 40000-byte cache: 64x64 float (2 x 16 KiB of inputs) fits, 128x256
        # half (2 x 64 KiB) does not.
        shapes = "64x64 float\n128x256 half\n"
        env = {"NORMGRAD_BENCH_CACHE_BYTES": "40000"}
        result = self.bench("--json", shapes=shapes, env=env)
        self.assert_ok(result)
        data = json.loads(result.stdout)
        self.assertEqual(data["last_level_cache_bytes"], 40000)
        rows = data["results"]
        self.assertTrue(rows)
        for r in rows:
            self.assertIs(r["in_cache"], (r["rows"], r["cols"]) == (64, 64), msg=r)
        # Every group of an in-cache shape, its baseline included, is in-cache.
        self.assertTrue([r for r in rows if r["impl"] == "baseline" and r["in_cache"]])
        table = self.bench(shapes=shapes, env=env)
        self.assert_ok(table)
        self.assertIn("in-cache: both inputs fit the last-level cache (39 KiB)", table.stdout)
        lines = [line for line in table.stdout.splitlines() if line.startswith("grad_beta ")]
        self.assertTrue(lines)
        for line in lines:
            self.assertIn(" in-cache " if " 64x64 " in line else " memory ", line)

    def test_the_cache_size_comes_from_the_machine(self):
        data = self.bench_json("64x64 float\n")
        cache = data["last_level_cache_bytes"]
        if cache is None:  # a machine that lists no cache: nothing is in-cache
            self.assertFalse(any(r["in_cache"] for r in data["results"]))
        else:
            self.assertIsInstance(cache, int)
            self.assertGreaterEqual(cache, 2 * 64 * 64 * 4)
            self.assertTrue(all(r["in_cache"] for r in data["results"]))

    def test_in_cache_baselines_are_not_the_machine_read_bandwidth(self):
        # 2048x2048 float (the smallest size counted for baseline_gbs), in
        # the cache under a cache size of 1 GiB: no memory baseline is left.
        shapes = "2048x2048 float\n"
        result = self.bench("--json", shapes=shapes,
                            env={"NORMGRAD_BENCH_CACHE_BYTES": str(1 << 30)})
        self.assert_ok(result)
        data = json.loads(result.stdout)
        self.assertTrue(all(r["in_cache"] for r in data["results"]))
        self.assertIsNone(data["baseline_gbs"])

    def test_a_cache_size_that_is_not_a_number_is_an_error(self):
        for value in ("big", "0", "-5", "32M"):
            result = self.bench("--json", shapes="64x64 float\n",
                                env={"NORMGRAD_BENCH_CACHE_BYTES": value})
            self.assertEqual(result.returncode, 1, msg=value)
            self.assertIn("normgrad bench: NORMGRAD_BENCH_CACHE_BYTES=%s: not a whole number of "
                          "at least 1" % value, result.stderr)
            self.assertEqual(result.stdout, "")

    def test_an_others_share_that_is_not_a_fraction_is_an_error(self):
        for value in ("busy", "-1", "2x", "1.5"):
            result = self.bench_with_others_cpu(value, "--json")
            self.assertEqual(result.returncode, 1, msg=value)
            self.assertIn("normgrad bench: NORMGRAD_BENCH_OTHERS_CPU=%s: not a number from 0 "
                          "to 1" % value, result.stderr)
            self.assertEqual(result.stdout, "")


class GroupNormCliTest(CliTestCase):
    """`normgrad example --op groupnorm` and `normgrad tiling --op groupnorm`
    (docs/groupnorm.md: the worked example and the host tiling's rules)."""

    FIELDS = ["n", "c", "hw", "g", "d", "hwAlignSize", "dhwAlignSize", "inputXSize",
              "meanVarSize", "numberOfTmpBuf", "meanTmpTensorPos", "meanTmpTensorSize",
              "varianceTmpTensorPos", "varianceTmpTensorSize", "tmpBufSize", "oneTmpSize",
              "firstTmpStartPos", "secondTmpStartPos", "thirdTmpStartPos", "loopRound",
              "inputRoundSize", "inputTailSize", "inputTailPos", "meanVarRoundSize",
              "meanVarTailSize", "meanVarTailPos", "bshCurLength", "bsCurLength", "factor",
              "smallShape"]

    def test_example_prints_and_checks_the_documented_values(self):
        for profile in ("a2", "950"):
            result = run(["example", "--op", "groupnorm"], env={"NORMGRAD_PROFILE": profile})
            self.assert_ok(result)
            out = result.stdout
            self.assertIn("the documented GroupNorm example", out)
            self.assertIn("float [2, 8, 4, 2], groupNum 4", out)
            self.assertIn("8 chunks of 1 group\n", out)
            # Every group holds 16 consecutive integers: mean 16k + 7.5, variance
            # (16^2 - 1) / 12 = 21.25.
            self.assertIn("mean       7.5 23.5 39.5 55.5 71.5 87.5 103.5 119.5\n", out)
            self.assertIn("variance   21.25" + " 21.25" * 7 + "\n", out)
            # Channel 7 (gamma = beta = 7) of the first group row: 7 + 7·(x − 55.5)/√21.25.
            self.assertIn(" 7.7592564 ", out)
            self.assertIn("OK: equal to the documented values", out)

    def test_example_on_310p_is_an_error(self):
        result = run(["example", "--op", "groupnorm"], env={"NORMGRAD_PROFILE": "310p"})
        self.assertEqual(result.returncode, 1)
        self.assertIn("the profile 310p (Atlas inference series) has no GroupNorm", result.stderr)

    def test_tiling_page_example(self):
        # [2,16,8,8] half, groupNum 4 at max: one chunk of all 8 groups of 256.
        result = run(["tiling", "--json", "--op", "groupnorm", "--shape", "2,16,8,8", "--dtype",
                      "half", "--group-num", "4", "--tmp", "max"])
        self.assert_ok(result)
        data = json.loads(result.stdout)
        self.assertEqual((data["minValue"], data["maxValue"]), (3136, 24640))
        self.assertEqual(list(data["tiling"]), self.FIELDS)
        self.assertEqual(list(data["tiling"].values()),
                         [2, 16, 64, 4, 4, 64, 256, 2048, 8, 3, 0, 8, 8, 8, 6160, 2048, 16,
                          2064, 4112, 1, 2048, 0, 2048, 8, 0, 8, 2048, 8, 0.00390625, 1])

    def test_tiling_text_with_a_tail(self):
        # [3,10,7,3] float with reuse, groupNum 5, 1400 bytes: 4 groups of 42 a chunk,
        # 630 = 3·168 + 126.
        result = run(["tiling", "--op", "groupnorm", "--shape", "3,10,7,3", "--dtype", "float",
                      "--group-num", "5", "--reuse", "--tmp", "1400"])
        self.assert_ok(result)
        self.assertIn("GroupNorm tiling: [N, C, H, W] = [3, 10, 7, 3], float", result.stdout)
        self.assertIn("scratch: min 384 bytes, max 5056 bytes", result.stdout)
        self.assertIn("chunks: 3 of 4 rows (168 elements) + a tail of 3 rows (126 elements)",
                      result.stdout)
        out = run(["tiling", "--op", "groupnorm", "--shape", "3,10,7,3", "--dtype", "float",
                   "--group-num", "5", "--profile", "310p"]).stdout
        self.assertIn("this profile has no GroupNorm", out)

    def test_tiling_bad_input(self):
        cases = [
            (["--shape", "2,16,8,8", "--dtype", "float"], 1,
             ["GetGroupNormMaxMinTmpSize: groupNum 0 does not divide C = 16", "no scratch sizes"]),
            (["--shape", "2,16,8,8", "--dtype", "float", "--group-num", "3"], 1,
             ["groupNum 3 does not divide C = 16"]),
            (["--shape", "2,16,8,8", "--dtype", "float", "--group-num", "4", "--tmp", "100"], 1,
             ["GetGroupNormNDTilingInfo: stackBufferSize 100 bytes is too small",
              "no tiling for shape [2, 16, 8, 8]"]),
            (["--shape", "2,16,8", "--dtype", "float", "--group-num", "4"], 2,
             ["'2,16,8' is not of the form N,C,H,W (the shape of --op groupnorm)"]),
        ]
        for args, status, words in cases:
            with self.subTest(args=args):
                result = run(["tiling", "--op", "groupnorm"] + args)
                self.assertEqual(result.returncode, status, msg=result.stderr)
                self.assertEqual(result.stdout, "")
                for word in words:
                    self.assertIn(word, result.stderr)


class BatchNormCliTest(CliTestCase):
    """`normgrad example --op batchnorm` and `normgrad tiling --op batchnorm`
    (docs/batchnorm.md: the worked example and the host tiling's rules)."""

    FIELDS = ["originalBLength", "meanVarSize", "meanTmpTensorPos", "varianceTmpTensorPos",
              "tmpBufSize", "oneTmpSize", "firstTmpStartPos", "secondTmpStartPos",
              "thirdTmpStartPos", "loopRound", "inputTailSize", "inputTailPos",
              "meanVarTailSize", "meanVarTailPos", "bshCurLength", "shCurLength",
              "firstDimValueBack", "castHalfRepStride", "shCurLengthBlockNum",
              "castHalfOutRepStride"]

    def test_example_prints_and_checks_the_documented_values(self):
        for profile in ("a2", "310p", "950"):
            result = run(["example", "--op", "batchnorm"], env={"NORMGRAD_PROFILE": profile})
            self.assert_ok(result)
            out = result.stdout
            self.assertIn("the documented BatchNorm example", out)
            self.assertIn("float [8, 4, 2], x = 0..63, gamma = beta = 0..7, epsilon 0.01", out)
            # Feature j of row b is 8b + j: mean 28 + j, variance 64·5.25 = 336;
            # row 1: 1·(−20)/√336.01 + 1.
            self.assertIn("mean       28 29 30 31 32 33 34 35\n", out)
            self.assertIn("variance   336" + " 336" * 7 + "\n", out)
            self.assertIn("-0.091073155" + " -0.091073155" * 7 + "\n", out)
            self.assertIn("OK: equal to the documented values", out)

    def test_tiling_page_example(self):
        # [16,16,16] half with originB 15 at min: 47 floats a column, 16 columns.
        result = run(["tiling", "--json", "--op", "batchnorm", "--shape", "16,16,16,15",
                      "--dtype", "half"])
        self.assert_ok(result)
        data = json.loads(result.stdout)
        self.assertEqual((data["minValue"], data["maxValue"]), (3008, 48128))
        self.assertEqual(list(data["tiling"]), self.FIELDS)
        values = list(data["tiling"].values())
        self.assertEqual(values[:16], [15, 256, 0, 16, 752, 240, 32, 272, 512, 16, 0, 256, 0,
                                       256, 240, 16])
        self.assertAlmostEqual(values[16], 1 / 15, places=7)
        self.assertEqual(values[17:], [2, 1, 1])

    def test_tiling_text_tail_and_basic_block(self):
        result = run(["tiling", "--op", "batchnorm", "--shape", "5,3,40", "--dtype", "float",
                      "--tmp", "2880"])
        self.assert_ok(result)
        self.assertIn("BatchNorm tiling: [B, S, H, originB] = [5, 3, 40, 5], float",
                      result.stdout)
        self.assertIn("chunks: 2 of 48 columns (240 elements) + a tail of 24 columns "
                      "(120 elements)", result.stdout)
        data = json.loads(run(["tiling", "--json", "--op", "batchnorm", "--shape", "8,4,16",
                               "--dtype", "float", "--basic-block"]).stdout)
        self.assertEqual((data["minValue"], data["maxValue"]), (6144, 6144))
        self.assertEqual(data["tiling"]["shCurLength"], 64)

    def test_tiling_bad_input(self):
        cases = [
            (["--shape", "8,3,3", "--dtype", "float"], 1,
             ["GetBatchNormMaxMinTmpSize: srcShape [8, 3, 3] has S*H = 9",
              "no scratch sizes"]),
            (["--shape", "8,4,16,7", "--dtype", "float", "--basic-block"], 1,
             ["isBasicBlock needs originB a multiple of 8"]),
            (["--shape", "8,4,2,9", "--dtype", "float"], 1,
             ["originB = 9 above B = 8"]),
            (["--shape", "8,4,2", "--dtype", "float", "--tmp", "100"], 1,
             ["GetBatchNormNDTilingInfo: stackBufferByteSize 100 bytes is too small",
              "no tiling for shape"]),
            (["--shape", "8,4", "--dtype", "float"], 2,
             ["'8,4' is not of the form B,S,H[,originB] (the shape of --op batchnorm)"]),
        ]
        for args, status, words in cases:
            with self.subTest(args=args):
                result = run(["tiling", "--op", "batchnorm"] + args)
                self.assertEqual(result.returncode, status, msg=result.stderr)
class RmsNormCliTest(CliTestCase):
    """`normgrad example --op rmsnorm` and `normgrad tiling --op rmsnorm`."""

    FIELDS = ["bLength", "sLength", "hLength", "originalHLength", "reciprocalOfHLength",
              "mainBshLength", "mainBsLength", "mainBsLengthAlign", "loopRound",
              "inputTailPos", "tailBshLength", "tailBsLength"]

    def tiling(self, *args):
        result = run(["tiling", "--json", "--op", "rmsnorm"] + list(args))
        self.assert_ok(result)
        data = json.loads(result.stdout)
        self.assertEqual(list(data["tiling"]), self.FIELDS)
        return data

    def test_example_prints_and_checks_the_documented_values(self):
        for profile in ("a2", "310p", "950"):
            result = run(["example", "--op", "rmsnorm"], env={"NORMGRAD_PROFILE": profile})
            self.assert_ok(result)
            self.assertIn("the documented RmsNorm example", result.stdout)
            self.assertIn("float [1, 1, 16]", result.stdout)
            # dstLocal[1] = 1/sqrt(77.5 + 1e-5), dstLocal[15] = 225 of that.
            self.assertRegex(result.stdout, r"dstLocal 0 0\.1135923\d* ")
            self.assertRegex(result.stdout, r" 25\.55828\d*\n")
            self.assertIn("OK: within 16u of the documented values", result.stdout)

    def test_tiling_page_shape(self):
        # [2,16,64] float: min 4·(64+8) = 288 (one row), max 4·(2048+32).
        data = self.tiling("--shape", "2,16,64", "--dtype", "float")
        self.assertEqual((data["minValue"], data["maxValue"]), (288, 8320))
        self.assertEqual(list(data["tiling"].values()),
                         [2, 16, 64, 64, 0.015625, 64, 1, 8, 32, 2048, 0, 0])
        # isBasicBlock: min 8 rows, 4·(8·64+8) = 2080; 3136 bytes hold 12 rows,
        # cut to 8.
        data = self.tiling("--shape", "2,16,64", "--dtype", "float", "--basic-block",
                           "--tmp", "3136")
        self.assertEqual((data["minValue"], data["maxValue"]), (2080, 8320))
        self.assertEqual((data["tiling"]["mainBsLength"], data["tiling"]["loopRound"]), (8, 4))

    def test_tiling_padded_half_text(self):
        # half, H 45 padded to 48: 800 bytes = 200 floats hold 2 rows (2·2·48 + 8).
        result = run(["tiling", "--op", "rmsnorm", "--shape", "2,3,48,45", "--dtype", "half",
                      "--tmp", "800"])
        self.assert_ok(result)
        self.assertIn("RmsNorm tiling: [B, S, H, originalH] = [2, 3, 48, 45], half", result.stdout)
        self.assertIn("chunks: 3 of 2 rows (96 elements)\n", result.stdout)
        self.assertRegex(result.stdout, r"\n  reciprocalOfHLength +0\.0222222")

    def test_tiling_bad_input(self):
        cases = [
            (["--shape", "2,3,48,30", "--dtype", "half"],
             ["GetRmsNormTilingInfo", "originalH = 30", "multiple of 16",
              "no tiling for shape"]),
            (["--shape", "3,4,64", "--dtype", "float", "--basic-block"],
             ["GetRmsNormMaxMinTmpSize", "B*S = 12", "multiple of 8", "no scratch sizes"]),
            (["--shape", "1,1,12", "--dtype", "float"],
             ["GetRmsNormMaxMinTmpSize", "H must be 32-byte aligned"]),
            (["--shape", "2,16,64", "--dtype", "float", "--tmp", "287"],
             ["stackBufferByteSize 287 bytes is less than the minimum 288"]),
        ]
        for extra, words in cases:
            with self.subTest(args=extra):
                result = run(["tiling", "--op", "rmsnorm"] + extra)
                self.assertEqual(result.returncode, 1, msg=result.stderr)
                self.assertEqual(result.stdout, "")
                for word in words:
                    self.assertIn(word, result.stderr)


class DeepNormCliTest(CliTestCase):
    """`normgrad example --op deepnorm` and `normgrad tiling --op deepnorm`."""
    FIELDS = ["bLength", "sLength", "hLength", "originalHLength", "inputXSize", "meanVarSize",
              "numberOfTmpBuf", "meanTmpTensorPos", "meanTmpTensorSize", "varianceTmpTensorPos",
              "varianceTmpTensorSize", "tmpBufSize", "oneTmpSize", "firstTmpStartPos",
              "secondTmpStartPos", "thirdTmpStartPos", "loopRound", "inputRoundSize",
              "inputTailSize", "inputTailPos", "meanVarRoundSize", "meanVarTailSize",
              "meanVarTailPos", "bshCurLength", "bsCurLength", "lastDimValueBack"]

    def test_example_prints_and_checks_the_documented_values(self):
        for profile in ("a2", "310p", "950"):
            result = run(["example", "--op", "deepnorm"], env={"NORMGRAD_PROFILE": profile})
            self.assert_ok(result)
            out = result.stdout
            self.assertIn("the documented DeepNorm example", out)
            self.assertIn("float [4, 2, 8]", out)
            self.assertIn("alpha -5.5, epsilon 65504", out)
            self.assertIn("dstLocal  0 1.0439204 2.05270457 3.02635217 3.96486378 4.86823893 "
                          "5.73647738 6.56958008\n", out)
            self.assertIn("meanLocal -15.75 -51.75 -87.75 -123.75 -159.75 -195.75 -231.75 "
                          "-267.75\n", out)
            self.assertIn("rstdLocal" + " 106.3125" * 8 + "\n", out)
            self.assertIn("OK: equal to the documented values", out)

    def tiling(self, *args):
        result = run(["tiling", "--json", "--op", "deepnorm"] + list(args))
        self.assert_ok(result)
        data = json.loads(result.stdout)
        self.assertEqual(list(data["tiling"]), self.FIELDS)
        return data

    def test_documented_tiling_example(self):
        # The tiling page's [2, 16, 64] half at the minimum: 3·256 + 2·128 =
        # 1024 bytes = 256 floats; 64 of them half's means and variances;
        # three chunk buffers of one row; 32 chunks.
        for extra in ([], ["--basic-block"]):
            data = self.tiling("--shape", "2,16,64", "--dtype", "half", *extra)
            self.assertEqual((data["minValue"], data["maxValue"]), (1024, 24832))
            self.assertEqual(list(data["tiling"].values()),
                             [2, 16, 64, 64, 2048, 32, 3, 0, 32, 32, 32, 256, 64, 64, 128, 192,
                              32, 64, 0, 2048, 1, 0, 32, 64, 1, 0.015625])

    def test_padded_rows_and_reuse(self):
        # [1, 7, 16] float with 13 data columns, 600 bytes: 150 / 3 → 48 =
        # 3 rows a chunk, a tail of one row; 1/13 as a float.
        data = self.tiling("--shape", "1,7,16,13", "--dtype", "float", "--tmp", "600")
        self.assertEqual((data["minValue"], data["maxValue"]), (192, 1344))
        self.assertEqual(list(data["tiling"].values())[:7], [1, 7, 16, 13, 112, 7, 3])
        self.assertEqual(data["tiling"]["inputTailSize"], 16)
        self.assertEqual(data["tiling"]["lastDimValueBack"], 0.0769230798)
        data = self.tiling("--shape", "1,7,16", "--dtype", "float", "--reuse")
        self.assertEqual((data["minValue"], data["maxValue"]), (128, 896))
        self.assertEqual(data["tiling"]["numberOfTmpBuf"], 2)

    def test_bad_input(self):
        cases = [
            (["--shape", "1,7,16", "--basic-block"],
             ["GetDeepNormMaxMinTmpSize", "is not a basic block", "no scratch sizes"]),
            (["--shape", "1,2,2048"], ["H must be at most 2040"]),
            (["--shape", "1,7,16,17", "--tmp", "4096"],
             ["GetDeepNormTilingInfo", "originH = 17: originH must be in [1, H]",
              "no tiling for shape"]),
            (["--shape", "1,7,16", "--tmp", "100"],
             ["GetDeepNormTilingInfo", "stackBufferSize 100 bytes (25 floats) is too small"]),
        ]
        for extra, words in cases:
            with self.subTest(args=extra):
                result = run(["tiling", "--op", "deepnorm", "--dtype", "float"] + extra)
                self.assertEqual(result.returncode, 1, msg=result.stderr)
                self.assertEqual(result.stdout, "")
                for word in words:
                    self.assertIn(word, result.stderr)


class NormalizeCliTest(CliTestCase):
    """`normgrad example --op normalize` and `normgrad tiling --op normalize`."""

    def test_example_prints_and_checks_the_documented_values(self):
        for profile in ("a2", "310p", "950"):
            result = run(["example", "--op", "normalize"], env={"NORMGRAD_PROFILE": profile})
            self.assert_ok(result)
            self.assertIn("the documented Normalize example", result.stdout)
            # Row 0: mean 0, variance 0, rstd = 1/sqrt(0.001); y = x*rstd + 1.
            self.assertIn("  y[0] 1 32.6227722 64.2455444", result.stdout)
            self.assertIn("  rstd 31.6227741 0.999500394", result.stdout)
            self.assertIn("OK: equal to the documented values", result.stdout)

    def test_tiling_sizes_and_para(self):
        # [8, 8] float: min 4·(8 + 8) = 64, max 4·(64 + 8) = 288.
        result = run(["tiling", "--json", "--op", "normalize", "--shape", "8,8",
                      "--dtype", "float"])
        self.assert_ok(result)
        data = json.loads(result.stdout)
        self.assertEqual((data["minValue"], data["maxValue"]), (64, 288))
        self.assertEqual(data["tiling"], {"aLength": 8, "rLength": 8, "rLengthWithPadding": 8})
        # half R = 13: padded to 16; roundup(13, 8) = 16 floats a row.
        result = run(["tiling", "--op", "normalize", "--shape", "8,13", "--dtype", "half",
                      "--gamma-dtype", "float"])
        self.assert_ok(result)
        self.assertIn("scratch: min 96 bytes, max 544 bytes", result.stdout)
        self.assertRegex(result.stdout, r"\n  rLengthWithPadding +16\n")
        self.assertIn("Normalize has no tiling struct", result.stdout)

    def test_tiling_bad_input(self):
        cases = [
            (["--shape", "8,8", "--dtype", "float", "--gamma-dtype", "half"],
             ["GetNormalizeMaxMinTmpSize", "typeSizeU 2 is less than typeSizeT 4",
              "no scratch sizes"]),
            (["--shape", "8,8,8", "--dtype", "float"], ["A,R"]),
        ]
        for extra, words in cases:
            with self.subTest(args=extra):
                result = run(["tiling", "--op", "normalize"] + extra)
                self.assertIn(result.returncode, (1, 2), msg=result.stderr)
                self.assertEqual(result.stdout, "")
                for word in words:
                    self.assertIn(word, result.stderr)
class LayerNormSeparateCliTest(CliTestCase):
    """`normgrad example --op layernorm-separate` and `normgrad tiling --op layernorm-separate`
    (LayerNorm's [A, R] form)."""

    def test_example(self):
        for profile in ("a2", "310p", "950"):
            result = run(["example", "--op", "layernorm-separate"],
                         env={"NORMGRAD_PROFILE": profile})
            self.assert_ok(result)
            self.assertIn("float [8, 8]: LayerNorm<float, float, false, LNCFG_NORM>", result.stdout)
            self.assertIn("mean     3.5 11.5 19.5 27.5 35.5 43.5 51.5 59.5\n", result.stdout)
            self.assertIn("OK: the documented means", result.stdout)

    def test_documented_tiling_example(self):
        # The tiling page's [2, 64] half: min 2·roundup32(4·64) = 512, max 1024;
        # at the minimum two buffers of one row, two chunks.
        result = run(["tiling", "--json", "--op", "layernorm-separate", "--shape", "2,64",
                      "--dtype", "half"])
        self.assert_ok(result)
        data = json.loads(result.stdout)
        self.assertEqual((data["minValue"], data["maxValue"]), (512, 1024))
        self.assertEqual(list(data["tiling"].values()),
                         [2, 64, 0, 64, 0.015625, 1, 128, 2, 2, 0, 0, 128, 64, 0, 64, 128, 2, 64,
                          0, 128, 1, 0, 2, 64, 1, 0.015625])
        self.assertEqual(list(data["tiling"])[:6],
                         ["aLength", "rLength", "halfAddRepeatTimes", "rHeadLength", "k2Rec",
                          "k2RRec"])

    def test_bad_input(self):
        result = run(["tiling", "--op", "layernorm-separate", "--shape", "2,60", "--dtype", "half"])
        self.assertEqual(result.returncode, 1)
        self.assertIn("R * typeSize 2 must be a multiple of 32 bytes", result.stderr)
        result = run(["tiling", "--op", "layernorm-separate", "--shape", "2,64,1", "--dtype",
                      "half"])
        self.assertEqual(result.returncode, 2)
        self.assertIn("is not of the form A,R", result.stderr)
class WelfordCliTest(CliTestCase):
    """`normgrad example` and `normgrad tiling` for --op welford-update."""

    # The documented example: x = 1, mean0 = M0 = j, nRec = 1/8, 35 of 64
    # computed: mean = j + (1 - j)/8, M = j + (1 - j)(1 - mean); the rest copied.
    def test_example_prints_and_checks_the_documented_values(self):
        for profile in ("a2", "310p", "950"):
            result = run(["example", "--op", "welford-update"], env={"NORMGRAD_PROFILE": profile})
            self.assert_ok(result)
            self.assertIn("the documented WelfordUpdate example", result.stdout)
            self.assertIn("0.125 1 1.875 2.75", result.stdout)
            self.assertIn("872.875 929 986.875 35 36", result.stdout)
            self.assertIn("OK: equal to the documented values", result.stdout)

    def tiling(self, *args):
        result = run(["tiling", "--json", "--op", "welford-update"] + list(args))
        self.assert_ok(result)
        data = json.loads(result.stdout)
        self.assertEqual(list(data["tiling"]), ["rnLength", "abLength", "abComputeLength", "nRec"])
        return data

    def test_tiling_sizes(self):
        # float [1, 1000]: 1 float per element: max 4000, min 4·64 = 256.
        data = self.tiling("--shape", "1000", "--dtype", "float")
        self.assertEqual((data["minValue"], data["maxValue"]), (256, 4000))
        self.assertEqual(data["tiling"], {"rnLength": 1, "abLength": 1000,
                                          "abComputeLength": 1000, "nRec": 1})
        # half [1, 32]: 2 floats per element: 256 and 256; --inplace changes nothing.
        data = self.tiling("--shape", "1,32", "--dtype", "half", "--inplace")
        self.assertEqual((data["minValue"], data["maxValue"]), (256, 256))
        # float with isReuseSource: no scratch, except on 310p (4·64 and 4·128).
        data = self.tiling("--shape", "128", "--dtype", "float", "--reuse")
        self.assertEqual((data["minValue"], data["maxValue"]), (0, 0))
        data = self.tiling("--shape", "128", "--dtype", "float", "--reuse", "--profile", "310p")
        self.assertEqual((data["minValue"], data["maxValue"]), (256, 512))

    def test_tiling_text_and_errors(self):
        result = run(["tiling", "--op", "welford-update", "--shape", "64", "--dtype", "half"])
        self.assert_ok(result)
        self.assertIn("WelfordUpdate tiling: [rnLength, abLength] = [1, 64]", result.stdout)
        self.assertIn("scratch: min 512 bytes, max 512 bytes", result.stdout)
        self.assertIn("WelfordUpdate has no tiling struct", result.stdout)
        result = run(["tiling", "--op", "welford-update", "--shape", "1,12", "--dtype", "float"])
        self.assertEqual(result.returncode, 1)
        self.assertIn("GetWelfordUpdateMaxMinTmpSize: srcShape [1, 12] has abLength = 12: it must "
                      "be a multiple of 32 / typeSizeT = 8", result.stderr)
        result = run(["tiling", "--op", "welford-update", "--shape", "64", "--dtype", "float",
                      "--tmp", "100"])
        self.assertEqual(result.returncode, 1)
        self.assertIn("WelfordUpdate: a scratch of 100 bytes is less than the minimum 256",
                      result.stderr)
        result = run(["tiling", "--op", "welford-update", "--shape", "1,2,64", "--dtype", "float"])
        self.assertEqual(result.returncode, 2)
        self.assertIn("is not of the form [rnLength,]abLength", result.stderr)

    # WelfordFinalize's example: inputMean = inputVariance = 0..31, counts 4, rRec = 1/4096:
    # mean = 4·496/4096 = 0.484375, var = 40268.03125/4096 = 9.831062 at 7 digits.
    def test_finalize_example(self):
        for profile in ("a2", "310p", "950"):
            result = run(["example", "--op", "welford-finalize"],
                         env={"NORMGRAD_PROFILE": profile})
            self.assert_ok(result)
            self.assertIn("outputMean: 0.484375\n", result.stdout)
            self.assertIn("(9.831062 at the documentation's 7 digits)", result.stdout)
            self.assertIn("OK: equal to the documented values", result.stdout)

    def test_finalize_tiling(self):
        # 4·abLength and 4·min(abLength, 64).
        result = run(["tiling", "--json", "--op", "welford-finalize", "--shape", "1000",
                      "--dtype", "float"])
        self.assert_ok(result)
        self.assertEqual(json.loads(result.stdout),
                         {"minValue": 256, "maxValue": 4000, "tiling": {"abLength": 1000}})
        result = run(["tiling", "--op", "welford-finalize", "--shape", "1000", "--dtype", "half"])
        self.assertEqual(result.returncode, 1)
        self.assertIn("GetWelfordFinalizeMaxMinTmpSize: typeSize 2 is not supported", result.stderr)
        result = run(["tiling", "--op", "welford-finalize", "--shape", "1,64", "--dtype", "float"])
        self.assertEqual(result.returncode, 2)


GROUPS = {"example": ExampleTest, "run": RunTest, "errors": ErrorTest, "tiling": TilingTest,
          "fuzz": FuzzTest, "demo": DemoTest, "backward": BackwardTest, "forward": ForwardTest,
          "layer_norm_errors": LayerNormErrorTest, "rmsnorm": RmsNormTest,
          "rmsnorm_errors": RmsNormErrorTest, "bench": BenchTest,
          "outputs": OutputSetTest, "kill": KillTest, "memory": MemoryTest}
GROUPS["groupnorm"] = GroupNormCliTest
GROUPS["batchnorm"] = BatchNormCliTest
GROUPS["rmsnorm_api"] = RmsNormCliTest
GROUPS["normalize"] = NormalizeCliTest
GROUPS["deepnorm"] = DeepNormCliTest
GROUPS["layernorm_separate"] = LayerNormSeparateCliTest
GROUPS["welford"] = WelfordCliTest

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[2] not in GROUPS:
        sys.exit("usage: cli_test.py BINARY {%s}" % "|".join(GROUPS))
    BINARY = os.path.abspath(sys.argv[1])
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(GROUPS[sys.argv[2]])
    sys.exit(0 if unittest.TextTestRunner(verbosity=2).run(suite).wasSuccessful() else 1)
