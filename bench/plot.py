#!/usr/bin/env python3
"""Draws the figures of a results directory and writes summary.md with the ratios.

    bench/plot.py RESULTS_DIR [--out DIR]

Reads every CSV in RESULTS_DIR and recognises it by its columns:
  performance rows (treefix-bench paper, bench/cupy_treefix.py): algorithm, compute_ms, ...
  accuracy rows (treefix-bench accuracy): max_rel_error, condition_target, ...
  bandwidth (treefix-bench bandwidth): copy_gbs (device copy bandwidth, read + write bytes)
  level histograms (treefix-bench paper --level-histogram): shape, n, depth, vertices
Other CSVs are ignored. Only rows with status "ok" are drawn.

Writes into --out (default RESULTS_DIR):
  perf_<fix>_<type>_<shape>.png  compute time (left) and compute + transfers (right) vs n, one
                                 line per algorithm, with the Euler-tour bandwidth floor
  accuracy_<type>.png            max relative error vs condition number per setting (as Fig. 10
                                 of Defour & Marin), with the guide u * cond
  levels.png                     vertices per level of every tree in a level histogram (as
                                 Fig. 6 of Defour & Marin), one line per tree, log scale
  summary.md                     speedups of the Euler-tour treefix over every other algorithm
                                 per shape and size, fraction of the bandwidth floor reached,
                                 and the accuracy table (bits lost relative to levels)
"""
import argparse
import collections
import csv
import glob
import math
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ORDER = ["sequential", "cpu-levels", "cpu-euler", "bfs", "levels", "euler", "euler-three", "euler-accurate",
         "cupy", "numpy"]
STYLE = {"sequential": ("tab:gray", "o"), "cpu-levels": ("tab:brown", "v"),
         "cpu-euler": ("tab:olive", "^"), "levels": ("tab:blue", "s"), "euler": ("tab:red", "D"),
         "euler-accurate": ("tab:purple", "P"), "cupy": ("tab:green", "x"), "numpy": ("tab:cyan", "x"),
         "bfs": ("tab:orange", "*"), "euler-three": ("tab:pink", "d")}
VALUE_BYTES = {"float": 4, "double": 8, "int32": 4, "int64": 8}
UNIT_ROUNDOFF = {"float": 2.0 ** -24, "double": 2.0 ** -53}


def floor_bytes(n, fix, value_type):
    """Bytes the Write, Scan and Read kernels must move (positions int32 while 2n fits)."""
    v = VALUE_BYTES.get(value_type, 4)
    p = 4 if 2 * n <= 2 ** 31 - 1 else 8
    write = n * (2 * p + v) + 2 * n * v        # read open, close, w; scatter 2 values
    scan = 2 * n * v * 2                       # read and write the 2n-position tour
    read = n * (p + 2 * v) if fix == "rootfix" else n * (2 * p + 3 * v)  # positions, gathers, result
    return write + scan + read


def load(directory):
    perf, accuracy, bandwidth, levels = [], [], [], []
    for path in sorted(glob.glob(os.path.join(directory, "*.csv"))):
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            fields = set(reader.fieldnames or [])
            rows = list(reader)
        if {"algorithm", "compute_ms", "shape", "n"} <= fields:
            perf += rows
        elif {"max_rel_error", "condition_target", "algorithm"} <= fields:
            accuracy += rows
        elif "copy_gbs" in fields:
            bandwidth += rows
        elif {"shape", "n", "depth", "vertices"} <= fields:
            levels += rows
    return perf, accuracy, bandwidth, levels


def plot_levels(levels, out, summary):
    """Vertices per depth of each tree (the seed's Fig. 6), and its depth and vertices / depth."""
    trees = collections.defaultdict(list)
    for r in levels:
        trees[(r["shape"], int(r["n"]))].append((int(r["depth"]), int(r["vertices"])))
    if not trees:
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    summary += ["## Vertices per level", "", "| tree | n | depth | vertices / depth | widest level |",
                "|---|---|---|---|---|"]
    for (shape, n), rows in sorted(trees.items()):
        rows.sort()
        name = os.path.basename(shape[6:]) if shape.startswith("graph:") else shape
        ax.plot([d for d, _ in rows], [v for _, v in rows], label="%s (n=%d)" % (name, n))
        depth = rows[-1][0]
        widest = max(rows, key=lambda dv: dv[1])
        summary.append("| %s | %d | %d | %.1f | %d at depth %d |"
                       % (name, n, depth, n / max(depth, 1), widest[1], widest[0]))
    summary.append("")
    ax.set_xlabel("depth")
    ax.set_ylabel("vertices")
    ax.set_yscale("log")
    ax.set_xscale("symlog")
    ax.legend(fontsize="small")
    ax.set_title("vertices per level")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "levels.png"), dpi=120)
    plt.close(fig)


def ok(rows):
    return [r for r in rows if r.get("status", "ok") == "ok"]


def sort_algorithms(names):
    return sorted(names, key=lambda a: (ORDER.index(a) if a in ORDER else len(ORDER), a))


def plot_performance(perf, copy_gbs, out, summary):
    groups = collections.defaultdict(list)
    for r in ok(perf):
        groups[(r["fix"], r["type"], r["shape"])].append(r)
    for (fix, vtype, shape), rows in sorted(groups.items()):
        by_alg = collections.defaultdict(dict)
        for r in rows:
            by_alg[r["algorithm"]][int(r["n"])] = r
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
        for alg in sort_algorithms(by_alg):
            color, marker = STYLE.get(alg, ("black", "."))
            ns = sorted(by_alg[alg])
            compute = [float(by_alg[alg][n]["compute_ms"]) for n in ns]
            total = [float(by_alg[alg][n]["compute_ms"]) + float(by_alg[alg][n]["upload_ms"] or 0)
                     + float(by_alg[alg][n]["download_ms"] or 0) for n in ns]
            axes[0].plot(ns, compute, marker=marker, color=color, label=alg)
            axes[1].plot(ns, total, marker=marker, color=color, label=alg)
        all_n = sorted({int(r["n"]) for r in rows})
        if copy_gbs:
            floor = [floor_bytes(n, fix, vtype) / (copy_gbs * 1e9) * 1e3 for n in all_n]
            axes[0].plot(all_n, floor, "k--", linewidth=1, label="bandwidth floor (euler)")
        for ax, title in zip(axes, ["computation", "computation + transfers"]):
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("vertices n")
            ax.set_title("%s %s (%s), %s" % (fix, shape, vtype, title))
            ax.grid(True, which="both", alpha=0.3)
        axes[0].set_ylabel("time (ms, median)")
        axes[0].legend(fontsize=8)
        fig.suptitle(" / ".join(sorted({r["device"] for r in rows})), fontsize=9)
        fig.tight_layout()
        name = "perf_%s_%s_%s.png" % (fix, vtype, shape.replace(":", "_").replace("/", "_"))
        fig.savefig(os.path.join(out, name), dpi=120)
        plt.close(fig)
        summary.append(speedup_table(fix, vtype, shape, by_alg, copy_gbs))


def speedup_table(fix, vtype, shape, by_alg, copy_gbs):
    lines = ["### %s on %s (%s)" % (fix, shape, vtype), ""]
    if "euler" not in by_alg:
        return "\n".join(lines + ["(no euler rows)", ""])
    others = [a for a in sort_algorithms(by_alg) if a != "euler"]
    header = ["n", "euler compute ms"] + ["%s / euler" % a for a in others] + \
             ["euler total ms"] + ["%s total / euler total" % a for a in others if a in ("cupy", "numpy")]
    if copy_gbs:
        header.append("floor ms")
        header.append("floor / euler")
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    for n in sorted(by_alg["euler"]):
        e = by_alg["euler"][n]
        ec = float(e["compute_ms"])
        et = ec + float(e["upload_ms"] or 0) + float(e["download_ms"] or 0)
        cells = [str(n), "%.4g" % ec]
        for a in others:
            r = by_alg[a].get(n)
            cells.append("%.3g" % (float(r["compute_ms"]) / ec) if r and ec > 0 else "")
        cells.append("%.4g" % et)
        for a in others:
            if a in ("cupy", "numpy"):
                r = by_alg[a].get(n)
                t = float(r["compute_ms"]) + float(r["upload_ms"] or 0) + float(r["download_ms"] or 0) if r else None
                cells.append("%.3g" % (t / et) if t and et > 0 else "")
        if copy_gbs:
            floor = floor_bytes(n, fix, vtype) / (copy_gbs * 1e9) * 1e3
            cells += ["%.4g" % floor, "%.3g%%" % (100 * floor / ec) if ec > 0 else ""]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines + [""])


def plot_accuracy(accuracy, out, summary):
    by_type = collections.defaultdict(list)
    for r in ok(accuracy):
        by_type[r["type"]].append(r)
    for vtype, rows in sorted(by_type.items()):
        settings = sorted({(r["fix"], r["shape"]) for r in rows})
        cols = 2 if len(settings) > 1 else 1
        nrows = math.ceil(len(settings) / cols)
        fig, axes = plt.subplots(nrows, cols, figsize=(6 * cols, 4.2 * nrows), squeeze=False)
        for k, (fix, shape) in enumerate(settings):
            ax = axes[k // cols][k % cols]
            mine = [r for r in rows if r["fix"] == fix and r["shape"] == shape]
            conds = sorted({float(r["condition_target"]) for r in mine})
            for alg in sort_algorithms({r["algorithm"] for r in mine}):
                pts = sorted((float(r["condition_target"]), float(r["max_rel_error"]))
                             for r in mine if r["algorithm"] == alg)
                color, marker = STYLE.get(alg, ("black", "."))
                ax.plot([c for c, _ in pts], [max(e, 1e-18) for _, e in pts], marker=marker,
                        color=color, label=alg)
            u = UNIT_ROUNDOFF.get(vtype)
            if u and conds:
                ax.plot(conds, [u * c for c in conds], "k:", linewidth=1, label="u * cond")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("condition number of the sum")
            ax.set_ylabel("max relative error")
            ax.set_title("%s, %s (%s terms, %s trials)" % (fix, shape, mine[0]["terms"], mine[0]["trials"]))
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=8)
        for k in range(len(settings), nrows * cols):
            axes[k // cols][k % cols].axis("off")
        fig.suptitle("%s treefix accuracy on %s" % (vtype, rows[0]["device"]), fontsize=9)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "accuracy_%s.png" % vtype), dpi=120)
        plt.close(fig)
        summary.append(accuracy_table(vtype, rows, settings))


def accuracy_table(vtype, rows, settings):
    algs = sort_algorithms({r["algorithm"] for r in rows})
    base = "levels" if "levels" in algs else "sequential"  # the paper compares with levels
    lines = ["### accuracy, %s: max relative error; bits = log2(error / %s error)" % (vtype, base), ""]
    header = ["setting", "cond"] + algs + ["%s bits vs %s" % (a, base) for a in algs if a != base]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    for fix, shape in settings:
        table = collections.defaultdict(dict)
        for r in rows:
            if r["fix"] == fix and r["shape"] == shape:
                table[float(r["condition_target"])][r["algorithm"]] = float(r["max_rel_error"])
        for cond in sorted(table):
            errs = table[cond]
            cells = ["%s:%s" % (fix, shape), "%.0e" % cond] + ["%.3g" % errs[a] if a in errs else "" for a in algs]
            for a in algs:
                if a == base:
                    continue
                if a in errs and errs.get(base, 0) > 0 and errs[a] > 0:
                    cells.append("%+.1f" % math.log2(errs[a] / errs[base]))
                else:
                    cells.append("")
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines + [""])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", help="directory of CSVs")
    parser.add_argument("--out", help="where PNGs and summary.md go (default: the results directory)")
    args = parser.parse_args()
    if not os.path.isdir(args.results):
        sys.exit("plot.py: %s is not a directory" % args.results)
    out = args.out or args.results
    os.makedirs(out, exist_ok=True)
    perf, accuracy, bandwidth, levels = load(args.results)
    if not (perf or accuracy or levels):
        sys.exit("plot.py: no performance or accuracy CSV in %s" % args.results)
    copy_gbs = float(bandwidth[0]["copy_gbs"]) if bandwidth else None
    summary = ["# Summary of %s" % os.path.abspath(args.results), ""]
    if copy_gbs:
        summary += ["Device copy bandwidth: %.1f GB/s (read + write bytes). Bandwidth floor of the "
                    "Euler-tour treefix: bytes that Write, Scan and Read must move / that bandwidth "
                    "(rootfix 48n bytes for float with int32 positions, leaffix 56n)." % copy_gbs, ""]
    plot_performance(perf, copy_gbs, out, summary)
    plot_accuracy(accuracy, out, summary)
    plot_levels(levels, out, summary)
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("\n".join(summary))
    print("plot.py: wrote %s" % ", ".join(sorted(p for p in os.listdir(out)
                                                 if p.endswith(".png") or p == "summary.md")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
