# Type stubs of the package `treefix` (the compiled module treefix._treefix, re-exported). Kept
# in step with python/src/*.cpp by python/tests/test_stubs.py, which runs mypy's stubtest and
# compares every parameter list with the module's own signatures.
import os
from typing import Any, Iterable, List, Literal, Optional, Protocol, Sequence, Tuple, TypedDict
from typing import TypeVar, Union, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

__version__: str
__all__ = [
    "Graph",
    "KDTree",
    "Runtime",
    "Tree",
    "accelerations",
    "breadth_first_order",
    "cached_result_bytes",
    "connected_components",
    "default_runtime",
    "devices",
    "host_threads",
    "leaffix",
    "nbody",
    "release_cached_results",
    "rooted_spanning_tree",
    "rootfix",
    "set_host_threads",
    "similarity",
]

_Path = Union[str, "os.PathLike[str]"]
# The value types of the treefix sums: results keep the weights' dtype.
_Value = TypeVar("_Value", np.int32, np.int64, np.float32, np.float64)
_Op = Literal["sum", "xor", "min", "max"]
_Algorithm = Literal["auto", "euler", "levels", "sequential"]

class _pybind11_type(type):
    """The metaclass of the compiled module's classes (pybind11's)."""

class _SparseMatrix(Protocol):
    """Any scipy.sparse matrix or array (read through its CSR form)."""

    @property
    def shape(self) -> Tuple[int, ...]: ...
    def tocsr(self) -> Any: ...

# What the graph functions take: a scipy.sparse matrix or array, a dense array (its nonzeros) or
# a Graph already on the device.
_CSGraph = Union[_SparseMatrix, ArrayLike, "Graph"]

class _DeviceInfo(TypedDict):
    spec: str
    platform: str
    name: str
    vendor: str
    driver: str
    version: str
    type: Literal["gpu", "cpu", "accelerator"]
    global_mem_bytes: int
    max_alloc_bytes: int
    compute_units: int
    fp64: bool
    summary: str

# --- the device -----------------------------------------------------------------------------

def devices() -> List[_DeviceInfo]:
    """The OpenCL devices of every platform, as dicts (spec "P:D" is usable as Runtime(spec)).

    An empty list when no OpenCL platform is installed.
    """

class Runtime(metaclass=_pybind11_type):
    """An OpenCL device with its context, queue and compiled programs, kept between calls.

    Runtime(device=None): device is "gpu", "cpu", "P:D" (indices from devices()), or words
    matched against the platform and device names ("nvidia", "pocl"; several, comma-separated,
    must all match). None: $TREEFIX_DEVICE if set, else the first GPU, else any device.
    Raises RuntimeError when no device matches or none exists.
    """

    def __init__(self, device: Optional[str] = None) -> None: ...
    @property
    def device(self) -> _DeviceInfo:
        """The device, as a dict like those of devices()."""
    @property
    def programs_built(self) -> int:
        """Programs compiled (or loaded from the disk cache) so far."""

def default_runtime() -> Runtime:
    """The Runtime that runtime=None stands for (made on first use)."""

def set_host_threads(threads: int) -> None:
    """The number of host threads of the library's host loops; 0: the default.

    The default is $TREEFIX_THREADS, else $OMP_NUM_THREADS, else every core. ValueError above
    the library's limit.
    """

def host_threads() -> int:
    """The number of host threads the host loops use."""

def cached_result_bytes() -> int:
    """Bytes of host memory kept from freed large results (4 MiB or more) for reuse."""

def release_cached_results() -> None:
    """Frees the host memory cached_result_bytes() counts."""

# --- trees ----------------------------------------------------------------------------------

class Tree(metaclass=_pybind11_type):
    """A rooted forest on the device, validated once, its Euler tour kept for later calls.

    Tree(parents, *, runtime=None): parents is a 1-D int32 or int64 array, -1 for a root
    (several roots make a forest). ValueError names the vertex of a parent out of range or a
    cycle.
    """

    def __init__(self, parents: ArrayLike, *, runtime: Optional[Runtime] = None) -> None: ...
    @staticmethod
    def from_newick(path: _Path, *, runtime: Optional[Runtime] = None) -> Tree:
        """A tree from a Newick file, vertices numbered in pre-order of the text (root 0).

        ValueError with the byte offset and line for malformed text.
        """
    @staticmethod
    def from_newick_string(text: str, *, runtime: Optional[Runtime] = None) -> Tree:
        """A tree from Newick text."""
    @property
    def n(self) -> int:
        """Number of vertices."""
    def __len__(self) -> int: ...
    @property
    def runtime(self) -> Runtime:
        """The Runtime the tree lives on."""
    @property
    def parents(self) -> NDArray[np.int32]:
        """The parent array (int32, -1 at roots)."""
    @property
    def names(self) -> Optional[List[str]]:
        """Node names of a Newick tree ('' where unnamed), else None."""
    @property
    def lengths(self) -> Optional[NDArray[np.float64]]:
        """Branch lengths of a Newick tree (float64, 0 where none is written), else None."""
    def depths(self) -> NDArray[np.int32]:
        """Depth of every vertex (roots 0), int32, shape (n,)."""
    def subtree_sizes(self) -> NDArray[np.int32]:
        """Vertices in the subtree of every vertex (itself included), int32, shape (n,)."""
    def preorder(self) -> NDArray[np.int32]:
        """The vertices in depth-first pre-order, int32, shape (n,)."""
    @overload
    def rootfix(self, weights: None = None, *, op: _Op = "sum", exclusive: bool = False,
                algorithm: _Algorithm = "auto",
                out: Optional[NDArray[np.int64]] = None) -> NDArray[np.int64]: ...
    @overload
    def rootfix(self, weights: NDArray[_Value], *, op: _Op = "sum", exclusive: bool = False,
                algorithm: _Algorithm = "auto",
                out: Optional[NDArray[_Value]] = None) -> NDArray[_Value]: ...
    @overload
    def rootfix(self, weights: ArrayLike, *, op: _Op = "sum", exclusive: bool = False,
                algorithm: _Algorithm = "auto",
                out: Optional[NDArray[Any]] = None) -> NDArray[Any]:
        """Each vertex's weight combined with those of all its ancestors.

        weights: (n,) or a batch (k, n), int32, int64, float32 or float64 (other widths are
        converted); None: ones, int64. Returns the weights' shape and dtype (or `out`, filled).
        op: "sum", "xor" (integers), "min" or "max"; exclusive leaves the vertex itself out.
        ValueError for a wrong shape, dtype or option.
        """
    @overload
    def leaffix(self, weights: None = None, *, op: _Op = "sum", exclusive: bool = False,
                algorithm: _Algorithm = "auto",
                out: Optional[NDArray[np.int64]] = None) -> NDArray[np.int64]: ...
    @overload
    def leaffix(self, weights: NDArray[_Value], *, op: _Op = "sum", exclusive: bool = False,
                algorithm: _Algorithm = "auto",
                out: Optional[NDArray[_Value]] = None) -> NDArray[_Value]: ...
    @overload
    def leaffix(self, weights: ArrayLike, *, op: _Op = "sum", exclusive: bool = False,
                algorithm: _Algorithm = "auto",
                out: Optional[NDArray[Any]] = None) -> NDArray[Any]:
        """Each vertex's weight combined with those of all its descendants (as rootfix)."""

@overload
def rootfix(parents: ArrayLike, weights: None = None, *, op: _Op = "sum",
            exclusive: bool = False, algorithm: _Algorithm = "auto",
            runtime: Optional[Runtime] = None) -> NDArray[np.int64]: ...
@overload
def rootfix(parents: ArrayLike, weights: NDArray[_Value], *, op: _Op = "sum",
            exclusive: bool = False, algorithm: _Algorithm = "auto",
            runtime: Optional[Runtime] = None) -> NDArray[_Value]: ...
@overload
def rootfix(parents: ArrayLike, weights: ArrayLike, *, op: _Op = "sum",
            exclusive: bool = False, algorithm: _Algorithm = "auto",
            runtime: Optional[Runtime] = None) -> NDArray[Any]:
    """Tree(parents, runtime=runtime).rootfix(weights, ...) in one call."""
@overload
def leaffix(parents: ArrayLike, weights: None = None, *, op: _Op = "sum",
            exclusive: bool = False, algorithm: _Algorithm = "auto",
            runtime: Optional[Runtime] = None) -> NDArray[np.int64]: ...
@overload
def leaffix(parents: ArrayLike, weights: NDArray[_Value], *, op: _Op = "sum",
            exclusive: bool = False, algorithm: _Algorithm = "auto",
            runtime: Optional[Runtime] = None) -> NDArray[_Value]: ...
@overload
def leaffix(parents: ArrayLike, weights: ArrayLike, *, op: _Op = "sum",
            exclusive: bool = False, algorithm: _Algorithm = "auto",
            runtime: Optional[Runtime] = None) -> NDArray[Any]:
    """Tree(parents, runtime=runtime).leaffix(weights, ...) in one call."""

# --- graphs ---------------------------------------------------------------------------------

class Graph(metaclass=_pybind11_type):
    """A graph kept on the device, for repeated searches.

    Graph(csgraph, directed=True, *, runtime=None): csgraph is any square scipy.sparse matrix
    or array (or a dense array: its nonzeros), used by its sparsity pattern. directed=False
    takes every edge both ways. ValueError for a matrix that is not square.
    """

    def __init__(self, csgraph: _CSGraph, directed: bool = True, *,
                 runtime: Optional[Runtime] = None) -> None: ...
    @property
    def n(self) -> int:
        """Number of vertices."""
    @property
    def arcs(self) -> int:
        """Arcs searched (both directions of an undirected edge count)."""
    @property
    def directed(self) -> bool: ...
    @property
    def runtime(self) -> Runtime: ...
    @overload
    def breadth_first_order(
        self, i_start: int,
        return_predecessors: Literal[True] = True) -> Tuple[NDArray[np.int32], NDArray[np.int32]]:
        ...
    @overload
    def breadth_first_order(self, i_start: int,
                            return_predecessors: Literal[False]) -> NDArray[np.int32]: ...
    @overload
    def breadth_first_order(
        self, i_start: int, return_predecessors: bool = True
    ) -> Union[NDArray[np.int32], Tuple[NDArray[np.int32], NDArray[np.int32]]]:
        """As treefix.breadth_first_order, on this graph."""
    @overload
    def connected_components(
        self, connection: Literal["weak", "strong"] = "weak",
        return_labels: Literal[True] = True) -> Tuple[int, NDArray[np.int32]]: ...
    @overload
    def connected_components(self, connection: Literal["weak", "strong"],
                             return_labels: Literal[False]) -> int: ...
    @overload
    def connected_components(self, connection: Literal["weak", "strong"] = "weak", *,
                             return_labels: Literal[False]) -> int: ...
    @overload
    def connected_components(
        self, connection: Literal["weak", "strong"] = "weak", return_labels: bool = True
    ) -> Union[int, Tuple[int, NDArray[np.int32]]]:
        """As treefix.connected_components, on this graph."""
    def rooted_spanning_tree(self, root: int = 0,
                             method: Literal["auto", "euler", "bfs", "pr"] = "auto"
                             ) -> NDArray[np.int32]:
        """As treefix.rooted_spanning_tree, on this graph."""

@overload
def breadth_first_order(
    csgraph: _CSGraph, i_start: int, directed: bool = True,
    return_predecessors: Literal[True] = True, *,
    runtime: Optional[Runtime] = None) -> Tuple[NDArray[np.int32], NDArray[np.int32]]: ...
@overload
def breadth_first_order(csgraph: _CSGraph, i_start: int, directed: bool,
                        return_predecessors: Literal[False], *,
                        runtime: Optional[Runtime] = None) -> NDArray[np.int32]: ...
@overload
def breadth_first_order(csgraph: _CSGraph, i_start: int, directed: bool = True, *,
                        return_predecessors: Literal[False],
                        runtime: Optional[Runtime] = None) -> NDArray[np.int32]: ...
@overload
def breadth_first_order(
    csgraph: _CSGraph, i_start: int, directed: bool = True, return_predecessors: bool = True,
    *, runtime: Optional[Runtime] = None
) -> Union[NDArray[np.int32], Tuple[NDArray[np.int32], NDArray[np.int32]]]:
    """As scipy.sparse.csgraph.breadth_first_order: (order, predecessors), both int32.

    order: the vertices reached from i_start, shape (reached,); predecessors: shape (n,), -9999
    for the source and unreached vertices. ValueError when i_start is not a vertex.
    """

@overload
def connected_components(
    csgraph: _CSGraph, directed: bool = False,
    connection: Literal["weak", "strong"] = "weak", return_labels: Literal[True] = True, *,
    runtime: Optional[Runtime] = None) -> Tuple[int, NDArray[np.int32]]: ...
@overload
def connected_components(csgraph: _CSGraph, directed: bool,
                         connection: Literal["weak", "strong"],
                         return_labels: Literal[False], *,
                         runtime: Optional[Runtime] = None) -> int: ...
@overload
def connected_components(csgraph: _CSGraph, directed: bool = False,
                         connection: Literal["weak", "strong"] = "weak", *,
                         return_labels: Literal[False],
                         runtime: Optional[Runtime] = None) -> int: ...
@overload
def connected_components(
    csgraph: _CSGraph, directed: bool = False, connection: Literal["weak", "strong"] = "weak",
    return_labels: bool = True, *, runtime: Optional[Runtime] = None
) -> Union[int, Tuple[int, NDArray[np.int32]]]:
    """As scipy.sparse.csgraph.connected_components: (n_components, labels int32 (n,)).

    Components are weak; connection="strong" with directed=True raises ValueError.
    """

def rooted_spanning_tree(csgraph: _CSGraph, root: int = 0,
                         method: Literal["auto", "euler", "bfs", "pr"] = "auto", *,
                         runtime: Optional[Runtime] = None) -> NDArray[np.int32]:
    """A spanning tree of every component as a parent array, int32 (n,), -1 at each root.

    ValueError when root is not a vertex or method is unknown.
    """

# --- points ---------------------------------------------------------------------------------

class KDTree(metaclass=_pybind11_type):
    """A kd-tree built on the device and kept there, queried like scipy.spatial.cKDTree.

    KDTree(data, leaf_size=8, *, runtime=None): data is (n, d), 1 <= d <= 16, n >= 1, any real
    dtype (computed in float32). ValueError for an empty or badly shaped data array.
    """

    def __init__(self, data: ArrayLike, leaf_size: int = 8, *,
                 runtime: Optional[Runtime] = None) -> None: ...
    @property
    def n(self) -> int:
        """Number of points."""
    @property
    def m(self) -> int:
        """Dimensions."""
    def query(self, x: ArrayLike, k: int = 1) -> Tuple[NDArray[np.float32], NDArray[np.int32]]:
        """The k nearest points of each query: (d float32, i int32), nearest first.

        Shaped (m,) for k = 1 and (m, k) otherwise; without the first axis for one query of
        shape (d,). ValueError unless 1 <= k <= min(n, 64).
        """
    def query_ball_point(self, x: ArrayLike, r: float,
                         return_length: bool = True) -> NDArray[np.int64]:
        """The number of points within distance r of each query, int64 (m,).

        Only return_length=True is available (ValueError otherwise).
        """

def accelerations(positions: ArrayLike, masses: ArrayLike, theta: float = 0.5,
                  eps: float = 0.01, leaf_size: int = 8, *,
                  runtime: Optional[Runtime] = None) -> NDArray[np.float32]:
    """Barnes-Hut gravitational accelerations (G = 1): positions (n, 3), masses (n,); (n, 3).

    ValueError for non-finite values, negative masses or mismatched shapes.
    """

def nbody(bodies: ArrayLike, steps: int, dt: float, theta: float = 0.5, eps: float = 0.01,
          leaf_size: int = 8, *, runtime: Optional[Runtime] = None) -> NDArray[np.float32]:
    """Leapfrog steps of Barnes-Hut gravity: bodies (n, 7) (mass x y z vx vy vz) in, (n, 7) out."""

# --- forests --------------------------------------------------------------------------------

@overload
def similarity(reference: _Path, trees: Union[_Path, Iterable[_Path]],
               definition: Literal["weighted", "thesis"] = "weighted", *,
               degradation: float = 0.5, sqrt_adjustment: bool = False, cpu: bool = False,
               return_names: Literal[False] = False,
               runtime: Optional[Runtime] = None) -> NDArray[np.float64]: ...
@overload
def similarity(reference: _Path, trees: Union[_Path, Iterable[_Path]],
               definition: Literal["weighted", "thesis"] = "weighted", *,
               degradation: float = 0.5, sqrt_adjustment: bool = False, cpu: bool = False,
               return_names: Literal[True],
               runtime: Optional[Runtime] = None) -> Tuple[List[str], NDArray[np.float64]]: ...
@overload
def similarity(reference: _Path, trees: Union[_Path, Iterable[_Path]],
               definition: Literal["weighted", "thesis"] = "weighted", *,
               degradation: float = 0.5, sqrt_adjustment: bool = False, cpu: bool = False,
               return_names: bool = False, runtime: Optional[Runtime] = None
               ) -> Union[NDArray[np.float64], Tuple[List[str], NDArray[np.float64]]]:
    """The similarity in [0, 1] of every tree of `trees` to `reference`, float64 (one per tree).

    reference: a RuleML file's path or RuleML text; trees: a directory (its *.xml files in name
    order) or a list of paths. ValueError naming the file, line and element for malformed input.
    """
