#!/usr/bin/python3
"""check_ratios.py — checks the x_baseline counter of the Google Benchmark suite.

Usage: check_ratios.py NORMGRAD_BENCH

Runs the suite on two small shapes, one and two threads, three repetitions, and checks that
every run's x_baseline is its GB/s divided by the median GB/s of the
baseline's reported repetitions of the same type, shape and threads — not of
every baseline call, which includes the calls that choose the iteration
count. Exits 1 with each mismatch on stderr.
"""
import json
import subprocess
import sys

FILTER = ("^(baseline|baseline_columns|sequential|blocked|layer_norm_backward)"
          "/float/rows:(64/cols:64|1024/cols:1024)/threads:[12]/")


def key(run_name):
    """("float", "rows:64/cols:64/threads:1") of "<op>/float/rows:64/.../real_time"."""
    parts = run_name.split("/")
    args = [p for p in parts[2:] if p.split(":")[0] in ("rows", "cols", "threads")]
    return parts[1], "/".join(args)


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_ratios.py NORMGRAD_BENCH")
    out = subprocess.run([sys.argv[1], "--benchmark_filter=" + FILTER,
                          "--benchmark_repetitions=3", "--benchmark_min_time=0.01",
                          "--benchmark_format=json"],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    runs = json.loads(out)["benchmarks"]
    baselines = {}
    for r in runs:
        if r["run_name"].startswith("baseline/") and r["run_type"] == "iteration":
            baselines.setdefault(key(r["run_name"]), []).append(r["GB/s"])
    failures = []
    checked = 0
    for r in runs:
        if r["run_name"].startswith("baseline/"):
            continue
        if r["run_type"] == "aggregate" and r["aggregate_name"] not in ("mean", "median"):
            continue
        base = median(baselines[key(r["run_name"])])
        want = r["GB/s"] / base
        got = r.get("x_baseline")
        checked += 1
        if got is None or abs(got - want) > 1e-6 * want:
            failures.append(f"{r['name']}: x_baseline {got}, want GB/s {r['GB/s']:.6g} / "
                            f"the baseline repetitions' median {base:.6g} = {want:.6g}")
    if checked == 0:
        failures.append("no run to check: the filter matched nothing")
    for f in failures:
        print(f, file=sys.stderr)
    print(f"checked {checked} runs, {len(failures)} wrong")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
