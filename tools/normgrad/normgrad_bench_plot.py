#!/usr/bin/python3
"""normgrad_bench_plot.py — the bar chart of `normgrad bench --plot FILE.png`.

Usage: normgrad_bench_plot.py RESULTS.json OUT.png

Reads the JSON that `normgrad bench --json` prints and draws, for the most
threads measured, one panel per operation and element type: a group of bars
per shape, one bar per implementation, height = GB/s, with the read
baseline of that shape as a black tick. Run by `normgrad bench` with the
system interpreter and Debian's python3-matplotlib.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: normgrad_bench_plot.py RESULTS.json OUT.png")
    with open(sys.argv[1]) as f:
        data = json.load(f)
    results = [r for r in data["results"] if r["gbs"] is not None]
    if not results:
        sys.exit("normgrad_bench_plot.py: no measured results")
    threads = max(r["threads"] for r in results)
    results = [r for r in results if r["threads"] == threads]
    panels = sorted({(r["op"], r["dtype"]) for r in results},
                    key=lambda k: (k[0] != "grad_beta", ["float", "half", "bfloat16"].index(k[1])))
    # One colour per implementation, the same in every panel.
    names = [i for i in dict.fromkeys(r["impl"] for r in results) if i != "baseline"]
    palette = plt.get_cmap("tab20").colors
    colour = {name: palette[k % len(palette)] for k, name in enumerate(names)}
    fig, axes = plt.subplots(len(panels), 1, figsize=(13, 3.2 * len(panels)), squeeze=False)
    for ax, (op, dtype) in zip(axes[:, 0], panels):
        rows = [r for r in results if r["op"] == op and r["dtype"] == dtype]
        shapes = []
        for r in rows:
            if (r["rows"], r["cols"]) not in shapes:
                shapes.append((r["rows"], r["cols"]))
        impls = [i for i in dict.fromkeys(r["impl"] for r in rows) if i != "baseline"]
        width = 0.8 / max(1, len(impls))
        for k, impl in enumerate(impls):
            xs, ys = [], []
            for s, shape in enumerate(shapes):
                for r in rows:
                    if r["impl"] == impl and (r["rows"], r["cols"]) == shape:
                        xs.append(s - 0.4 + width * (k + 0.5))
                        ys.append(r["gbs"])
            ax.bar(xs, ys, width, label=impl, color=colour[impl])
        for s, shape in enumerate(shapes):
            for r in rows:
                if r["impl"] == "baseline" and (r["rows"], r["cols"]) == shape:
                    ax.hlines(r["gbs"], s - 0.45, s + 0.45, colors="black", linewidth=2)
        ax.set_xticks(range(len(shapes)))
        ax.set_xticklabels([f"{r}x{c}" for r, c in shapes])
        ax.set_ylabel("GB/s")
        ax.set_title(f"{op}, {dtype}, {threads} threads (black: read baseline)")
        ax.legend(fontsize=7, ncol=4, loc="upper left")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
