#!/usr/bin/python3
"""normgrad_bench_plot.py — the bar chart of `normgrad bench --plot FILE.png`.

Usage: normgrad_bench_plot.py RESULTS.json OUT.png

Reads the JSON that `normgrad bench --json` prints and draws one panel per
operation and element type (rows of the figure) and thread count (columns):
a group of bars per shape, one bar per implementation, height = its ratio to
the read baseline of the same rounds, so in-cache and memory-bound shapes
share one scale (the dashed line at 1 is the baseline). An implementation
that cannot run a row is marked "n/a"; rows timed on a busy or unstable
machine ("noisy" in the JSON) are hatched. Shapes whose inputs fit the
last-level cache ("in_cache" in the JSON: timed warm, against a baseline that
runs from the cache, not from memory) stand on a shaded band and are labelled
"in cache" under their shape. One legend for the whole figure,
above the panels. Run by `normgrad bench` with the system interpreter and
Debian's python3-matplotlib.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.patches as mpatches  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

# Bars taller than this many times the baseline are cut at the top of the
# panel and labelled with their value, so one outlier does not flatten the rest.
MAX_AXIS_RATIO = 3.0
OP_ORDER = ["grad_beta", "backward", "rms_fwd", "rms_bwd", "vec_add", "row_sum"]
DTYPE_ORDER = ["float", "half", "bfloat16"]


def rank(value, order):
    """Sort key: the position of `value` in `order`, unknown values last."""
    return (order.index(value) if value in order else len(order), value)


IN_CACHE_SHADE = "#e8eef7"


def draw_panel(ax, rows, impls, colour, top):
    shapes = list(dict.fromkeys((r["rows"], r["cols"]) for r in rows))
    in_cache = {(r["rows"], r["cols"]) for r in rows if r.get("in_cache")}
    for s, shape in enumerate(shapes):
        if shape in in_cache:
            ax.axvspan(s - 0.5, s + 0.5, color=IN_CACHE_SHADE, zorder=0)
    width = 0.8 / max(1, len(impls))
    for k, impl in enumerate(impls):
        for s, shape in enumerate(shapes):
            row = next((r for r in rows
                        if r["impl"] == impl and (r["rows"], r["cols"]) == shape), None)
            if row is None:
                continue
            x = s - 0.4 + width * (k + 0.5)
            ratio = row.get("ratio_to_baseline")
            if ratio is None:
                ax.text(x, 0.02 * top, "n/a", rotation=90, ha="center", va="bottom",
                        fontsize=8, color="dimgray")
                continue
            ax.bar(x, min(ratio, top), width, color=colour[impl],
                   hatch="///" if row.get("noisy") else None, edgecolor="white", linewidth=0.3)
            if ratio > top:
                ax.text(x, top, f"{ratio:.3g}", rotation=90, ha="center", va="top",
                        fontsize=7, color="white")
    ax.axhline(1.0, color="black", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(shapes)))
    ax.set_xticklabels([f"{r}x{c}" + ("\nin cache" if (r, c) in in_cache else "")
                        for r, c in shapes])
    ax.set_xlim(-0.5, len(shapes) - 0.5)
    ax.set_ylim(0, top)
    ax.set_ylabel("x read baseline")
    ax.grid(axis="y", alpha=0.3)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: normgrad_bench_plot.py RESULTS.json OUT.png")
    with open(sys.argv[1]) as f:
        data = json.load(f)
    results = [r for r in data["results"] if r["impl"] != "baseline"]
    if not any(r.get("ratio_to_baseline") is not None for r in results):
        sys.exit("normgrad_bench_plot.py: no measured results")
    panels = sorted({(r["op"], r["dtype"]) for r in results},
                    key=lambda k: (rank(k[0], OP_ORDER), rank(k[1], DTYPE_ORDER)))
    threads = sorted({r["threads"] for r in results})
    # One colour per implementation, the same in every panel.
    names = list(dict.fromkeys(r["impl"] for r in results))
    palette = plt.get_cmap("tab10").colors + plt.get_cmap("Dark2").colors
    colour = {name: palette[k % len(palette)] for k, name in enumerate(names)}
    measured = [r["ratio_to_baseline"] for r in results if r.get("ratio_to_baseline") is not None]
    top = min(max(1.2, 1.1 * max(measured)), MAX_AXIS_RATIO)

    fig, axes = plt.subplots(len(panels), len(threads), squeeze=False, sharey=True,
                             figsize=(7 * len(threads), 2.6 * len(panels) + 1.2))
    for i, (op, dtype) in enumerate(panels):
        for j, t in enumerate(threads):
            rows = [r for r in results if (r["op"], r["dtype"], r["threads"]) == (op, dtype, t)]
            impls = list(dict.fromkeys(r["impl"] for r in rows))
            draw_panel(axes[i, j], rows, impls, colour, top)
            axes[i, j].set_title(f"{op}, {dtype}, {t} thread{'s' if t > 1 else ''}", fontsize=10)
    handles = [mpatches.Patch(color=colour[n], label=n) for n in names]
    handles.append(mpatches.Patch(facecolor="lightgray", hatch="///", edgecolor="white",
                                  label="noisy (busy or unstable machine)"))
    handles.append(mpatches.Patch(color=IN_CACHE_SHADE,
                                  label="in cache (inputs fit the last-level cache, timed warm)"))
    handles.append(plt.Line2D([], [], color="black", linestyle="--", label="read baseline = 1"))
    fig.legend(handles=handles, loc="upper center", ncol=min(5, len(handles)), fontsize=9,
               frameon=False)
    legend_rows = -(-len(handles) // min(5, len(handles)))
    fig.tight_layout(rect=(0, 0, 1, 1 - (0.25 + 0.22 * legend_rows) / fig.get_figheight()))
    fig.savefig(sys.argv[2], dpi=100)


if __name__ == "__main__":
    main()
