"""libtreefix-cl on NumPy and SciPy arrays, on an OpenCL device (GPU or CPU).

Treefix sums (rootfix, leaffix) on trees (Tree), BFS, connected components and rooted spanning
trees on graphs with scipy.sparse.csgraph's conventions (Graph, breadth_first_order,
connected_components, rooted_spanning_tree), kd-tree queries with scipy.spatial.cKDTree's
conventions and Barnes-Hut gravity on points (KDTree, accelerations, nbody), and tree similarity
on RuleML forests (similarity). The device, its compiled programs and uploaded data are kept
between calls (Runtime; runtime=None everywhere means one default Runtime per process).

Errors: bad input raises ValueError (the message says what and where), a request beyond the
device's memory MemoryError (with the numbers), a missing or failing device RuntimeError.

The tutorial is docs/python.md; treefix.__version__ is the library's version.
"""
from . import _treefix
from ._treefix import *  # noqa: F401,F403  (the compiled module's public names)
from ._version import __version__

__all__ = sorted(name for name in vars(_treefix) if not name.startswith("_"))

# Shown as treefix.Tree, not treefix._treefix.Tree, in help(), reprs and error messages.
for _name in __all__:
    try:
        getattr(_treefix, _name).__module__ = __name__
    except (AttributeError, TypeError):
        pass
del _name
