"""What the peer scripts (cupy_treefix.py, ckdtree_peer.py) share: the arguments every one takes
(a dump directory that treefix-bench wrote, --csv, --repeats, --warmup), the date of a run as the
suites write it, the commit a run measures, the CSV writer (one header row, then the rows), the
wall-clock timer of the Python peers (kdtree_peers.py, phylo_peers.py), and CuPy's copies over
the host link as a reference beside them (kdtree_phases.py, phylo_surgery_phases.py)."""
import argparse
import csv
import datetime
import os
import statistics
import subprocess
import time


def parser(doc, dump_help, repeats, warmup):
    """An argument parser described by the script's docstring, with the common arguments."""
    result = argparse.ArgumentParser(description=doc.splitlines()[0])
    result.add_argument("dump_dir", help=dump_help)
    result.add_argument("--csv", required=True, help="output CSV")
    result.add_argument("--repeats", type=int, default=repeats)
    result.add_argument("--warmup", type=int, default=warmup)
    return result


def parse(arguments):
    """The parsed arguments; exits with a usage error unless repeats >= 1 and warmup >= 0."""
    args = arguments.parse_args()
    if args.repeats < 1 or args.warmup < 0:
        arguments.error("--repeats must be >= 1 and --warmup >= 0")
    return args


def utc_date():
    """Now, as the suites' CSV rows give it: "YYYY-MM-DD HH:MM UTC"."""
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def checkout_commit():
    """The commit a run measures: $TREEFIX_COMMIT when set, else the checkout's HEAD (short), with
    "+changes" when its tracked files differ from HEAD, else "unknown". A tree copied to another
    machine may carry an older .git than its files: set TREEFIX_COMMIT there, or the marker shows
    that HEAD is not what ran."""
    named = os.environ.get("TREEFIX_COMMIT")
    if named:
        return named
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True, cwd=here).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    changed = subprocess.run(["git", "diff", "--quiet", "HEAD", "--"], capture_output=True,
                             cwd=here).returncode != 0
    return head + "+changes" if changed else head


def write_csv(path, columns, rows):
    """Writes the rows (dicts keyed by column) under a header of the columns."""
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def timed(call, repeats, warmup):
    """Wall milliseconds of call(): the median and the minimum of `repeats` runs after `warmup`
    runs, and the last result. The previous result is freed before each call, as in a loop."""
    times, result = [], None
    for run in range(warmup + repeats):
        result = None
        start = time.perf_counter()
        result = call()
        elapsed = (time.perf_counter() - start) * 1e3
        if run >= warmup:
            times.append(elapsed)
    return statistics.median(times), min(times), result


def host_link_copies():
    """Two timers' bodies over CuPy, when it is installed (else None): up(array) copies a NumPy
    array to the device and waits for the copy, down(arrays) copies device arrays back. Pageable
    host memory, as NumPy's: a reference beside a library's own transfers, not a floor."""
    try:
        import cupy
    except ImportError:
        return None

    def up(array):
        on_device = cupy.asarray(array)
        cupy.cuda.Device().synchronize()  # the copy may return before the device has finished
        return on_device

    return up, lambda arrays: [cupy.asnumpy(a) for a in arrays]
