#!/usr/bin/env python3
"""The Euler-tour treefix written the way a CuPy user would write it, timed on the trees that
`treefix-bench paper --dump-dir DIR` wrote (same trees, same weights, same tour positions).

    rootfix:  E[open] = w; E[close] = -w; S = cumsum(E); r = S[open]
    leaffix:  E[open] = w; E[close] = 0;  S = cumsum(E); r = S[close] - S[open - 1]

CuPy's cumsum runs CUB's device scan when the "cub" accelerator is on (set here unless
CUPY_ACCELERATORS is already set). Times come from CUDA events: upload (tour positions and
weights, host to device), compute (scatter, cumsum, gather), download (result); medians over
--repeats runs after --warmup runs. Every result is compared with the expected one the C++ side
wrote (exact: the benchmark's weights keep every value an exact small integer).

--numpy runs the same code with NumPy on the CPU (host clock, no transfers): it exists to test
the logic where no GPU is present.

Writes CSV with the columns of the paper suite (algorithm "cupy" or "numpy"), so bench/plot.py
draws it beside the others.

Usage:  bench/cupy_treefix.py DUMP_DIR --csv OUT.csv [--repeats 10] [--warmup 2] [--numpy]
"""
import csv
import os
import statistics
import sys
import time

import peer_common

DTYPES = {"float": "float32", "double": "float64", "int32": "int32", "int64": "int64"}
COLUMNS = ["device", "driver", "date", "host_threads", "shape", "n", "type", "fix", "algorithm",
           "compute_ms", "upload_ms", "download_ms", "prepare_ms", "runs", "status"]


def treefix_euler(xp, open_pos, close_pos, weights, fix):
    """The user's version: three array expressions."""
    n = weights.shape[0]
    tour = xp.empty(2 * n, dtype=weights.dtype)
    tour[open_pos] = weights
    tour[close_pos] = -weights if fix == "rootfix" else 0
    prefix = xp.cumsum(tour)
    if fix == "rootfix":
        return prefix[open_pos]
    before = xp.where(open_pos > 0, prefix[open_pos - 1], 0).astype(weights.dtype)
    return prefix[close_pos] - before


class CupyBackend:
    name = "cupy"

    def __init__(self):
        os.environ.setdefault("CUPY_ACCELERATORS", "cub")
        import cupy  # noqa: deferred so --numpy works without CuPy
        self.cp = cupy
        props = cupy.cuda.runtime.getDeviceProperties(0)
        name = props["name"]
        self.device = name.decode() if isinstance(name, bytes) else str(name)
        self.driver = "CUDA driver %d, CuPy %s, accelerators %s" % (
            cupy.cuda.runtime.driverGetVersion(), cupy.__version__,
            os.environ.get("CUPY_ACCELERATORS", ""))

    def run(self, host_open, host_close, host_w, fix):
        cp = self.cp
        events = [cp.cuda.Event() for _ in range(4)]
        events[0].record()
        open_pos, close_pos, weights = cp.asarray(host_open), cp.asarray(host_close), cp.asarray(host_w)
        events[1].record()
        result = treefix_euler(cp, open_pos, close_pos, weights, fix)
        events[2].record()
        host_result = cp.asnumpy(result)
        events[3].record()
        events[3].synchronize()
        ms = [cp.cuda.get_elapsed_time(events[i], events[i + 1]) for i in range(3)]
        return host_result, ms[1], ms[0], ms[2]  # result, compute, upload, download


class NumpyBackend:
    name = "numpy"

    def __init__(self):
        import numpy
        import platform
        self.np = numpy
        self.device = platform.processor() or platform.machine()
        self.driver = "NumPy %s (host, no transfers)" % numpy.__version__

    def run(self, host_open, host_close, host_w, fix):
        t0 = time.perf_counter()
        result = treefix_euler(self.np, host_open, host_close, host_w, fix)
        return result, (time.perf_counter() - t0) * 1e3, 0.0, 0.0


def main():
    arguments = peer_common.parser(__doc__, "directory written by treefix-bench paper --dump-dir",
                                   repeats=10, warmup=2)
    arguments.add_argument("--numpy", action="store_true", help="NumPy on the CPU (tests the logic)")
    args = peer_common.parse(arguments)
    index_path = os.path.join(args.dump_dir, "index.csv")
    try:
        with open(index_path, newline="") as f:
            entries = list(csv.DictReader(f))
    except OSError as e:
        sys.exit("cupy_treefix.py: cannot read %s: %s" % (index_path, e))
    backend = NumpyBackend() if args.numpy else CupyBackend()
    import numpy as np
    date = peer_common.utc_date()
    print("# device: %s | %s | date: %s" % (backend.device, backend.driver, date))
    rows = []
    for number, entry in enumerate(entries, 1):
        line = "%s n=%s %s" % (entry["shape"], entry["n"], entry["fix"])
        print("\r[%s] %3d%%  %s      " % (backend.name, 100 * number // len(entries), line),
              end="", file=sys.stderr, flush=True)
        n = int(entry["n"])
        if entry["type"] not in DTYPES:
            sys.exit("cupy_treefix.py: %s: unknown type %r" % (index_path, entry["type"]))
        dtype = np.dtype(DTYPES[entry["type"]])

        def load(column, kind):
            path = os.path.join(args.dump_dir, entry[column])
            values = np.fromfile(path, dtype=kind)
            if values.shape[0] != n:
                sys.exit("cupy_treefix.py: %s holds %d values, index.csv says n=%d"
                         % (path, values.shape[0], n))
            return values

        host_open, host_close = load("open_file", np.int32), load("close_file", np.int32)
        host_w, expected = load("weights_file", dtype), load("expected_file", dtype)
        compute, upload, download = [], [], []
        status = "ok"
        for rep in range(args.warmup + args.repeats):
            result, c, u, d = backend.run(host_open, host_close, host_w, entry["fix"])
            if rep == 0 and not np.array_equal(result, expected):
                status = "wrong-result"
                bad = int(np.flatnonzero(result != expected)[0])
                print("\n%s: differs from the expected result at vertex %d (%r, expected %r)"
                      % (line, bad, result[bad], expected[bad]), file=sys.stderr)
            if rep >= args.warmup:
                compute.append(c)
                upload.append(u)
                download.append(d)
        row = {"device": backend.device, "driver": backend.driver, "date": date,
               "host_threads": os.cpu_count(), "shape": entry["shape"], "n": n,
               "type": entry["type"], "fix": entry["fix"], "algorithm": backend.name,
               "compute_ms": statistics.median(compute), "upload_ms": statistics.median(upload),
               "download_ms": statistics.median(download), "prepare_ms": 0,
               "runs": args.repeats, "status": status}
        rows.append(row)
        print("%-12s %10d  %-8s compute %9.3f  upload %9.3f  download %9.3f  %s" % (
            entry["shape"], n, backend.name, row["compute_ms"], row["upload_ms"],
            row["download_ms"], status))
    print("\r[%s] done%s" % (backend.name, " " * 40), file=sys.stderr)
    peer_common.write_csv(args.csv, COLUMNS, rows)
    return 1 if any(r["status"] != "ok" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
