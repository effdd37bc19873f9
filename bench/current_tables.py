#!/usr/bin/env python3
"""The current table of every treefix-bench suite, from the results folders.

Usage, from the repository root:
  python3 bench/current_tables.py            # prints the tables (markdown)
  python3 bench/current_tables.py --write    # puts them in bench/README.md between the markers
  python3 bench/current_tables.py --check    # exit 1 when bench/README.md holds other tables

Each suite's table is taken from one CSV of one results folder, named in SUITES below: when a
newer run of a suite lands, its line names the new file. A table keeps the rows and columns
that say most (for example, the largest size of each shape); the folder's README and the CSV
hold the rest.
"""
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")
README = os.path.join(HERE, "README.md")
BEGIN, END = "<!-- current tables: begin (bench/current_tables.py --write) -->", \
    "<!-- current tables: end -->"


def tables_of(path):
    """Every table of a results CSV, each a list of rows (dicts by column): the suites write
    their tables one after the other, a blank line between; '#' lines before a header are
    comments."""
    tables, header = [], None
    with open(path, newline="") as f:
        for line in csv.reader(f):
            if not line:
                header = None
            elif header is None:
                if not line[0].startswith("#"):
                    header = line
                    tables.append([])
            else:
                tables[-1].append(dict(zip(header, line)))
    return tables


def rows_of(path):
    """The rows of the first table of a results CSV."""
    tables = tables_of(path)
    return tables[0] if tables else []


def number(text, digits=3):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return text or "-"
    if value != 0 and (abs(value) < 10 ** -digits or abs(value) >= 1e6):
        return f"{value:.2e}"
    return f"{value:.{digits}f}".rstrip("0").rstrip(".") if "." in f"{value:.{digits}f}" else f"{value}"


def largest(rows, key="n", by=("shape",)):
    """The rows at the largest `key` of each group."""
    top = {}
    for r in rows:
        group = tuple(r.get(b) for b in by)
        top[group] = max(top.get(group, 0), float(r[key]))
    return [r for r in rows if float(r[key]) == top[tuple(r.get(b) for b in by)]]


def pivot(rows, index, columns, value, digits=3):
    heads = []
    for r in rows:
        if r[columns] not in heads:
            heads.append(r[columns])
    table, order = {}, []
    for r in rows:
        key = tuple(r[i] for i in index)
        if key not in table:
            table[key] = {}
            order.append(key)
        table[key][r[columns]] = number(r[value], digits)
    lines = ["| " + " | ".join(list(index) + heads) + " |",
             "|" + "---|" * (len(index) + len(heads))]
    for key in order:
        lines.append("| " + " | ".join(list(key) + [table[key].get(h, "-") for h in heads]) + " |")
    return lines


def plain(rows, columns, digits=3):
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for r in rows:
        lines.append("| " + " | ".join(number(r.get(c, "-"), digits) if c.endswith(
            ("_ms", "GTEPS(wall)", "copy_gbs", "error", "speedup_cpu1", "speedup_cpuN",
             "speedup_vs_cpu", "speedup_vs_cpu1", "Mpairs_per_s")) else r.get(c, "-")
            for c in columns) + " |")
    return lines


# suite: (folder, file, what the table shows, how to make it from the rows)
SUITES = [
    ("paper", "h200-2026-11-28-seeds", "paper-shapes.csv",
     "float rootfix compute ms at the largest size of each shape, per algorithm",
     lambda rows: pivot(largest([r for r in rows if r["status"] == "ok"]), ("shape", "n"),
                        "algorithm", "compute_ms")),
    ("accuracy", "h200-2026-11-28-seeds", "accuracy-ours.csv",
     "max relative error at condition number 10^10, per setting and algorithm",
     lambda rows: pivot([r for r in rows if r["condition_target"] in ("1e+10", "10000000000")],
                        ("fix", "shape"), "algorithm", "max_rel_error")),
    ("bandwidth", "h100-2026-11-23", "bandwidth.csv", "device copy bandwidth (read + write)",
     lambda rows: plain(rows, ["device", "bytes", "copy_gbs"])),
    ("treefix", "h100-2026-11-23", "treefix-rootfix.csv",
     "float rootfix at the largest size: three kernels against the fused form",
     lambda rows: plain(largest(rows), ["shape", "n", "form", "write_ms", "scan_ms", "read_ms",
                                        "compute_ms", "sequential_ms"])),
    ("pipeline", "h100-2026-11-26-host-phases", "pipeline-after-2.csv",
     "the command's path in-process at the largest size, per phase (ms)",
     lambda rows: plain(largest(rows, by=("shape", "format")),
                        ["shape", "n", "format", "algorithm", "read_ms", "upload_ms",
                         "validate_ms", "prepare_ms", "compute_ms", "download_ms", "write_ms",
                         "total_ms"])),
    ("bfs", "h100-2026-11-25-bfs", "bfs.csv",
     "BFS traversal, median of 5 sources (small_frontier 512)",
     lambda rows: plain([r for r in rows if r["small_frontier"] == "512"],
                        ["graph", "bfs", "vertices", "arcs", "levels", "launches", "kernel_ms",
                         "wall_ms", "GTEPS(wall)"])),
    ("rooting", "h100-2026-11-23-graph", "rooting.csv",
     "rooted spanning forests of the generated graphs: kernel and wall ms per method (the real "
     "graphs: the CSV)",
     lambda rows: plain([r for r in rows if r["part"] == "rst" and not r["input"].endswith(
         (".txt", ".mtx", ".graph"))],
                        ["input", "method", "vertices", "edges", "kernel_ms", "wall_ms",
                         "depth"])),
    ("ropes", "h100-2026-11-23", "ropes.csv", "rope-stack traversals on host-built trees",
     lambda rows: plain([r for r in rows if r["sorted"] == "1"],
                        ["app", "n", "variant", "kernel_ms", "cpu_ms", "speedup_vs_cpu",
                         "work_expansion"])),
    ("spatial", "h100-2026-11-23-spatial", "spatial.csv",
     "the radix sort of Morton keys (tile sizes) against Boost.Compute at the largest size",
     lambda rows: plain(largest(rows, by=("key_bits",)),
                        ["sort", "n", "key_bits", "device_ms", "Mpairs_per_s"])),
    ("points", "h100-2026-11-25-points", "points.csv", "vp-tree and kd-tree on point sets",
     lambda rows: plain(rows, ["set", "n", "task", "variant", "threads", "build_ms",
                               "query_ms", "total_ms"])),
    ("forest", "h100-2026-11-25-forest", "forest.csv",
     "similarity of the most trees to one reference: kernel against 1 and N threads",
     lambda rows: plain(largest(rows, key="trees", by=("definition",)),
                        ["definition", "trees", "nodes", "device_ms", "cpu1_ms",
                               "cpuN_ms", "speedup_cpu1", "speedup_cpuN"])),
    ("forest-pipeline", "h100-2026-11-25-forest-device", "forest-pipeline-2.csv",
     "RuleML files to sorted similarities, 100,000 trees",
     lambda rows: plain(rows, ["pipeline", "threads", "parsed_on_device", "parse_ms",
                               "device_ms", "total_ms", "speedup_vs_cpu1"])),
    ("forest-traversal", "h100-2026-11-25-forest", "forest-traversal.csv",
     "the four traversals on binary forests",
     lambda rows: plain(rows, ["forest", "trees", "traversal", "device_ms", "cpu1_ms",
                               "cpuN_ms", "speedup_cpu1", "speedup_cpuN"])),
]


def tables():
    out = []
    for suite, folder, name, what, make in SUITES:
        path = os.path.join(RESULTS, folder, name)
        out.append(f"### `{suite}`\n")
        out.append(f"{what}; [`results/{folder}/{name}`](results/{folder}/{name}), "
                   f"[its README](results/{folder}/README.md).\n")
        out.extend(make(rows_of(path)))
        out.append("")
    return "\n".join(out)


def main():
    text = tables()
    if len(sys.argv) == 1:
        print(text)
        return 0
    readme = open(README).read()
    begin, end = readme.index(BEGIN) + len(BEGIN), readme.index(END)
    wanted = readme[:begin] + "\n" + text + "\n" + readme[end:]
    if sys.argv[1] == "--check":
        if wanted != readme:
            print("bench/README.md: the current tables differ from the results folders' "
                  "(python3 bench/current_tables.py --write)", file=sys.stderr)
            return 1
        return 0
    if sys.argv[1] == "--write":
        open(README, "w").write(wanted)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
