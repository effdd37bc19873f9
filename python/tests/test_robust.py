"""What a long-running session meets around the results: Ctrl-C, fork and the other start
methods, memory that comes back, refusals before memory runs out, one answer per input whatever
the history, host-only work without a device, pickling. Each test takes a second or two."""
import multiprocessing
import os
import pickle
import resource
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import treefix
from conftest import REPO, random_tree, rootfix_reference, leaffix_reference

ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))


def python_child(code, **kw):
    """A fresh interpreter running `code`, its standard output piped."""
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


# --- Ctrl-C --------------------------------------------------------------------------------------

INTERRUPTED = """
    import sys, time, numpy as np, treefix
    rt = treefix.Runtime()
    {setup}
    {call}  # once, small: programs built, so that the long call starts at once
    print("started", flush=True)
    start = None
    try:
        {long_call}
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    {call}  # the runtime is still usable
    print("usable", {check}, flush=True)
"""


@pytest.mark.parametrize("kind", ["batch", "nbody"])
def test_ctrl_c_stops_a_long_call_within_a_second_and_the_runtime_goes_on(kind):
    if kind == "batch":  # a long batch of level-by-level rootfixes on a path: a launch a level,
        # 10^5 a row, so that it is long on any device (a GPU runs an Euler-tour batch in ms)
        setup = ("parent = np.r_[-1, np.arange(100000)]; tree = treefix.Tree(parent, runtime=rt)\n"
                 "    w = np.ones((400, len(parent)), dtype=np.float32)\n"
                 "    short = treefix.Tree(parent[:100], runtime=rt)")
        call = "small = short.rootfix(w[:2, :100], algorithm='levels')"
        long_call = "tree.rootfix(w, algorithm='levels')"
        check = "bool(small[1][-1] == 100)"
    else:  # many n-body steps
        setup = ("rng = np.random.default_rng(1)\n"
                 "    bodies = np.c_[np.ones(3000), rng.random((3000, 3)), np.zeros((3000, 3))]\n"
                 "    bodies = bodies.astype(np.float32)")
        call = "small = treefix.nbody(bodies[:50], 2, 1e-4, eps=0.01, runtime=rt)"
        long_call = "treefix.nbody(bodies, 100000, 1e-4, eps=0.01, runtime=rt)"
        check = "small.shape == (50, 7)"
    child = python_child(INTERRUPTED.format(setup=setup, call=call, long_call=long_call,
                                            check=check))
    try:
        assert child.stdout.readline().strip() == "started", child.stderr.read()
        time.sleep(0.5)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        assert child.stdout.readline().strip() == "interrupted", child.stderr.read()
        latency = time.monotonic() - sent
        assert child.stdout.readline().strip() == "usable True", child.stderr.read()
        assert child.wait(timeout=30) == 0
    finally:
        child.kill()
    assert latency < 1.0, latency


# --- processes -----------------------------------------------------------------------------------

def device_call(queue):
    """In a child: a host-only part (parse, validate, the sequential pass), then a device call."""
    tree = treefix.Tree.from_newick_string("((a:1,b:2)c:3,d:4)e;")
    queue.put(("host", tree.rootfix(tree.lengths, algorithm="sequential").tolist()))
    try:
        queue.put(("device", tree.rootfix(tree.lengths, algorithm="euler").tolist()))
    except RuntimeError as e:
        queue.put(("refused", str(e)))


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_children_of_every_start_method_work_or_are_refused_at_once(rt, method):
    tree = treefix.Tree([-1, 0, 0], runtime=rt)
    tree.rootfix(np.ones(3), algorithm="euler")  # this process has used the device
    context = multiprocessing.get_context(method)
    queue = context.Queue()
    child = context.Process(target=device_call, args=(queue,))
    start = time.monotonic()
    child.start()
    child.join(timeout=60)
    assert not child.is_alive(), "the child hangs"
    assert child.exitcode == 0
    assert queue.get(timeout=5) == ("host", [0.0, 3.0, 4.0, 5.0, 4.0])
    outcome, value = queue.get(timeout=5)
    if method == "fork":  # the driver stayed in this process: refused at once, saying why
        assert outcome == "refused" and "fork" in value and "spawn" in value
        assert time.monotonic() - start < 10
    else:
        assert (outcome, value) == ("device", [0.0, 3.0, 4.0, 5.0, 4.0])


# --- memory --------------------------------------------------------------------------------------

def resident_bytes():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_memory_of_results_of_many_sizes_comes_back_on_release(rt):
    parent = np.r_[-1, np.arange(1 << 16)]  # a path: every row's result is its prefix sums
    tree = treefix.Tree(parent, runtime=rt)
    treefix.release_cached_results()
    w = np.ones((64, len(parent)), dtype=np.float32)
    before = resident_bytes()
    rng = np.random.default_rng(3)
    for round_ in range(3):
        kept = []
        for rows in rng.permutation(np.arange(16, 64, 5)):  # 4 to 16 MiB, all sizes different
            result = tree.rootfix(w[:rows])
            assert result[rows - 1, -1] == len(parent)
            kept.append(result)
        del kept, result
        assert 0 < treefix.cached_result_bytes() <= 1 << 30
        treefix.release_cached_results()
        assert treefix.cached_result_bytes() == 0
        after = resident_bytes()
        assert after <= before * 1.1, (round_, before >> 20, after >> 20)


LIMITED = """
    import resource, time, numpy as np, treefix
    tree = treefix.Tree(np.r_[-1, np.arange(999999)])
    w = np.ones((8, 1000000))  # 61 MiB of weights; the result needs as much again
    with open("/proc/self/status") as status:
        size = [int(l.split()[1]) * 1024 for l in status if l.startswith("VmSize")][0]
    resource.setrlimit(resource.RLIMIT_AS, (size + (24 << 20), resource.RLIM_INFINITY))
    start = time.monotonic()
    try:
        tree.rootfix(w)
        print("computed")
    except MemoryError as e:
        print("refused", round(time.monotonic() - start, 3), e)
"""


def test_a_call_beyond_the_memory_limit_is_refused_at_once_with_the_numbers():
    child = python_child(LIMITED)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    word, seconds, message = out.split(" ", 2)
    assert word == "refused", out + err
    assert float(seconds) < 1.0
    assert "MiB of host memory" in message and "available" in message


# --- one answer per input ------------------------------------------------------------------------

def test_non_finite_weights_give_one_answer_whatever_the_history(rt):
    tree = treefix.Tree(np.array([-1, 0, 0, 1, 1, 2, 2, 3, -1, 8]), runtime=rt)
    w = np.array([np.inf] + [1.0] * 9)
    want = np.array([np.inf] * 8 + [1.0, 2.0])
    for dtype in (np.float64, np.float32):
        for algorithm in ("auto", "euler", "levels", "sequential", "auto", "auto"):
            np.testing.assert_array_equal(tree.rootfix(w.astype(dtype), algorithm=algorithm),
                                          want.astype(dtype))
    parent = np.array([-1, 0, 0, 1, 1, 2])
    nan = np.array([1.0, np.nan, 3, 4, 5, 6])
    for algorithm in ("auto", "levels", "sequential"):  # numpy.minimum: NaN propagates
        np.testing.assert_array_equal(treefix.rootfix(parent, nan, op="min", algorithm=algorithm,
                                                      runtime=rt),
                                      rootfix_reference(parent, nan, "min"))
        np.testing.assert_array_equal(treefix.leaffix(parent, nan, op="max", algorithm=algorithm,
                                                      runtime=rt),
                                      leaffix_reference(parent, nan, "max"))


def test_parents_that_do_not_fit_are_refused_not_wrapped(rt):
    for bad in (np.array([2**64 - 1, 0], dtype=np.uint64), np.array([-1, 2**40])):
        with pytest.raises((ValueError, TypeError), match="parents"):
            treefix.Tree(bad, runtime=rt)


def test_properties_are_copies_or_immutable(rt):
    tree = treefix.Tree.from_newick_string("((a:1,b:2)c:3,d:4)e;", runtime=rt)
    tree.parents[1] = -1
    tree.lengths[1] = 100.0
    with pytest.raises(TypeError):
        tree.names[0] = "changed"
    assert tree.parents.tolist() == [-1, 0, 1, 1, 0]
    assert tree.lengths.tolist() == [0.0, 3.0, 1.0, 2.0, 4.0]
    assert tree.names == ("e", "c", "a", "b", "d")


# --- objects that travel -------------------------------------------------------------------------

def test_trees_pickle_and_are_validated_again_on_load(rt):
    rng = np.random.default_rng(5)
    parent = random_tree(500, rng, roots=3)
    w = rng.integers(-9, 9, size=len(parent))
    tree = treefix.Tree(parent, runtime=rt)
    loaded = pickle.loads(pickle.dumps(tree))
    np.testing.assert_array_equal(loaded.rootfix(w), rootfix_reference(parent, w))
    named = treefix.Tree.from_newick_string("((a:1,b\u00e9:2)c:3,d:4)e;", runtime=rt)
    again = pickle.loads(pickle.dumps(named))
    assert again.names == named.names
    np.testing.assert_array_equal(again.lengths, named.lengths)
    state = named.__getstate__()
    with pytest.raises(ValueError, match="cycle"):
        treefix.Tree.__new__(treefix.Tree).__setstate__(((np.array([1, 0]),) + state[1:]))


NO_DEVICE = """
    import os, numpy as np, treefix
    assert treefix.devices() == []
    tree = treefix.Tree.from_newick_string("((a:1,b:2)c:3,d:4)e;")
    print(tree.preorder().tolist(), tree.rootfix(tree.lengths).tolist(),
          tree.leaffix(tree.lengths, algorithm="sequential").tolist())
    try:
        treefix.Tree([-1, 1])
    except ValueError as e:
        print("ValueError", "cycle" in str(e))
    try:
        tree.rootfix(tree.lengths, algorithm="euler")
    except RuntimeError as e:
        print("RuntimeError", "no OpenCL" in str(e))
"""


def test_host_only_work_needs_no_device(tmp_path):
    env = dict(ENV, OCL_ICD_VENDORS=str(tmp_path), OCL_ICD_FILENAMES="")  # no ICD: no platform
    child = subprocess.run([sys.executable, "-c", textwrap.dedent(NO_DEVICE)], env=env,
                           capture_output=True, text=True, timeout=60)
    assert child.returncode == 0, child.stderr
    assert child.stdout.splitlines() == [
        "[0, 1, 2, 3, 4] [0.0, 3.0, 4.0, 5.0, 4.0] [10.0, 6.0, 1.0, 2.0, 4.0]",
        "ValueError True", "RuntimeError True"]


def test_device_words_are_the_command_lines(rt):
    pocl = [d for d in treefix.devices() if "pocl" in (d["version"] + d["platform"]).lower()
            or "portable computing language" in d["platform"].lower()]
    if pocl:
        assert treefix.Runtime("pocl").device["platform"] == pocl[0]["platform"]
    with pytest.raises(RuntimeError, match="no OpenCL device matches"):
        treefix.Runtime("no-such-device-word")
