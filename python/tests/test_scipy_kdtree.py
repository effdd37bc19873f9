"""SciPy's own kd-tree tests, run on treefix.KDTree.

The installed SciPy's test module scipy.spatial.tests.test_kdtree is loaded with its names KDTree and
cKDTree (and cKDTreeNode, the class of a tree's nodes) bound to treefix's, so that every test it
has for the two classes runs on treefix.KDTree. The tests that cannot pass are marked xfail
(strict) with the reason; docs/python.md lists them. Where the installed SciPy ships no tests,
the module is skipped with a message.
"""
import ast
import functools
import os
import sys
import types

import pytest

import treefix

scipy_spatial = pytest.importorskip("scipy.spatial")
SOURCE = os.path.join(os.path.dirname(scipy_spatial.__file__), "tests", "test_kdtree.py")
if not os.path.exists(SOURCE):
    pytest.skip("the installed SciPy has no test module scipy.spatial.tests.test_kdtree (Debian's "
                "python3-scipy ships it)", allow_module_level=True)

# Tests that check what only scipy.spatial.KDTree, SciPy's Python subclass of cKDTree, does
# differently from cKDTree (treefix.KDTree follows cKDTree), or SciPy 1.10 behaviour that
# current SciPy dropped. Keys: test names, "Class::method", or "test[KDTree]" (one parameter of
# the kdtree_type fixture). Tests a SciPy version lacks are left out.
EXPECTED_FAILURES = {
    "Test_vectorization_KDTree::test_single_query":
        "scipy.spatial.KDTree returns a NumPy integer for one point; cKDTree (and treefix) a "
        "Python int",
    "test_kdtree_comparisons":
        "KDTree.node, the node classes of SciPy's Python KDTree, are not provided",
    "test_kdtree_tree_access":
        "KDTree.innernode/leafnode, the node classes of SciPy's Python KDTree, are not provided",
    "test_multithreaded_tree_access":
        "KDTree.innernode/leafnode, the node classes of SciPy's Python KDTree, are not provided",
    "test_kdtree_attributes":
        "SciPy's Python KDTree has leafsize 10 by default (cKDTree and treefix: 16) and keeps "
        "the very data object (current SciPy: a read-only view, as treefix)",
    "test_kdtree_nan":
        "SciPy 1.10 takes NaN in the data; current SciPy, and treefix, refuse non-finite data "
        "with ValueError ('must be finite')",
    "test_kdtree_duplicated_inputs[KDTree]":
        "reads node._node, the cKDTreeNode inside a node of SciPy's Python KDTree",
}


def _load():
    """The test module's source, executed with the names rebound right after its imports (on
    the line of the last import, so that tracebacks name the file's own lines)."""
    with open(SOURCE) as f:
        text = f.read()
    tree = ast.parse(text)
    last_import = max(node.end_lineno for node in tree.body
                      if isinstance(node, (ast.Import, ast.ImportFrom)))
    lines = text.splitlines(keepends=True)
    # The suite names its test classes after the classes' __name__: cKDTree is a subclass by
    # that name that adds nothing.
    rebind = ("; import treefix as _treefix; KDTree = _treefix.KDTree; "
              "cKDTree = type('cKDTree', (_treefix.KDTree,), {}); "
              "cKDTreeNode = _treefix.KDTreeNode")
    lines[last_import - 1] = lines[last_import - 1].rstrip("\n") + rebind + "\n"
    module = types.ModuleType("scipy_test_kdtree_on_treefix")
    module.__file__ = SOURCE
    sys.modules[module.__name__] = module
    exec(compile("".join(lines), SOURCE, "exec"), module.__dict__)
    return module


def _failing_for(test, tree_class, reason):
    """`test` as it is, except that with kdtree_type=tree_class it must fail (then xfails)."""
    @functools.wraps(test)
    def wrapper(*args, **kwargs):
        if kwargs.get("kdtree_type") is not tree_class:
            return test(*args, **kwargs)
        try:
            test(*args, **kwargs)
        except Exception:
            pytest.xfail(reason)
        pytest.fail("expected to fail (%s), but passed" % reason)
    return wrapper


def _mark_expected_failures(namespace):
    failures = dict(EXPECTED_FAILURES)
    nan_test = namespace.get("test_kdtree_nan")
    if nan_test is not None and "must be finite" in nan_test.__code__.co_consts:
        del failures["test_kdtree_nan"]  # SciPy >= 1.11's version of the test: it passes
    for key, reason in failures.items():
        if key.split("::")[0].split("[")[0] not in namespace:
            continue  # not in this SciPy's suite
        mark = pytest.mark.xfail(reason=reason, strict=True)
        if key.endswith("]"):  # one parameter of a test taking the kdtree_type fixture
            name, param = key[:-1].split("[")
            namespace[name] = _failing_for(namespace[name], namespace[param], reason)
        elif "::" in key:
            cls, method = key.split("::")
            target = namespace[cls]
            setattr(target, method, mark(getattr(target, method)))
        else:
            namespace[key] = mark(namespace[key])


_scipy_tests = _load()
globals().update({name: value for name, value in vars(_scipy_tests).items()
                  if not name.startswith("__")})
_mark_expected_failures(globals())
