"""SciPy's own tests of the csgraph functions treefix offers, run on treefix.

The test modules test_traversal, test_connected_components and test_spanning_tree of the
installed SciPy's scipy.sparse.csgraph.tests are loaded with scipy.sparse.csgraph's
breadth_first_order, breadth_first_tree, connected_components and minimum_spanning_tree bound to
treefix's (both `from scipy.sparse.csgraph import f` and `csgraph.f` reach treefix), and each of
their tests runs here. Tests of functions treefix does not offer are listed in NOT_OFFERED and
skipped with the reason (docs/python.md lists them too)."""
import importlib.util
import pathlib
import sys
import types

import pytest
import scipy
import scipy.sparse
import scipy.sparse.csgraph

import treefix

FOLDER = pathlib.Path(scipy.__file__).parent / "sparse" / "csgraph" / "tests"
MODULES = ["test_traversal.py", "test_connected_components.py", "test_spanning_tree.py"]
OFFERED = ["breadth_first_order", "breadth_first_tree", "connected_components",
           "minimum_spanning_tree"]
NOT_OFFERED = {
    "test_graph_depth_first": "depth_first_tree is not offered by treefix",
    "test_graph_depth_first_trivial_graph": "depth_first_tree is not offered by treefix",
}


def shim():
    """scipy.sparse.csgraph with the offered functions replaced by treefix's."""
    module = types.ModuleType("scipy.sparse.csgraph")
    module.__dict__.update(vars(scipy.sparse.csgraph))
    for name in OFFERED:
        setattr(module, name, getattr(treefix, name))
    return module


def load(file_name):
    """A SciPy test module, imported while scipy.sparse.csgraph is the shim."""
    spec = importlib.util.spec_from_file_location("scipy_csgraph_" + file_name[:-3],
                                                  FOLDER / file_name)
    module = importlib.util.module_from_spec(spec)
    real = sys.modules["scipy.sparse.csgraph"]
    replacement = shim()
    sys.modules["scipy.sparse.csgraph"] = replacement
    scipy.sparse.csgraph = replacement
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules["scipy.sparse.csgraph"] = real
        scipy.sparse.csgraph = real
    return module


def scipy_tests():
    if not FOLDER.is_dir():
        return []
    cases = []
    for file_name in MODULES:
        if not (FOLDER / file_name).exists():
            continue
        module = load(file_name)
        for name, test in sorted(vars(module).items()):
            if name.startswith("test_") and callable(test):
                cases.append(pytest.param(test, id=file_name[:-3] + "::" + name))
    return cases


CASES = scipy_tests()


@pytest.mark.skipif(not CASES, reason="SciPy's csgraph tests are not installed here "
                    "(Debian's python3-scipy ships them in %s)" % FOLDER)
@pytest.mark.parametrize("test", CASES or [None])
def test_scipy_csgraph(test):
    if test.__name__ in NOT_OFFERED:
        pytest.skip(NOT_OFFERED[test.__name__])
    test()


@pytest.mark.skipif(not CASES, reason="SciPy's csgraph tests are not installed here")
def test_the_tests_call_treefix():
    traversal = load("test_traversal.py")
    assert traversal.breadth_first_tree is treefix.breadth_first_tree
    components = load("test_connected_components.py")
    assert components.csgraph.connected_components is treefix.connected_components
    assert load("test_spanning_tree.py").minimum_spanning_tree is treefix.minimum_spanning_tree
    assert scipy.sparse.csgraph.connected_components is not treefix.connected_components
