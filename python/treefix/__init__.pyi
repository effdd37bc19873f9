# Type stubs of the package `treefix` (the compiled module treefix._treefix, re-exported). Kept
# in step with python/src/*.cpp by python/tests/test_stubs.py, which runs mypy's stubtest and
# compares every parameter list with the module's own signatures.
import os
from typing import Any, Dict, Iterable, List, Literal, Optional, Protocol, Sequence, Set, Tuple
from typing import TypedDict, TypeVar, Union, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

__version__: str
__all__ = [
    "CompileWarning",
    "Graph",
    "KDTree",
    "KDTreeNode",
    "Runtime",
    "Tree",
    "accelerations",
    "breadth_first_order",
    "breadth_first_tree",
    "cached_result_bytes",
    "connected_components",
    "default_runtime",
    "devices",
    "generate",
    "host_threads",
    "leaffix",
    "minimum_spanning_tree",
    "nbody",
    "release_cached_results",
    "rooted_spanning_tree",
    "rootfix",
    "set_host_threads",
    "similarity",
    "warmup",
]

_Path = Union[str, "os.PathLike[str]"]
# The value types of the treefix sums: results keep the weights' dtype.
_Value = TypeVar("_Value", np.int32, np.int64, np.float32, np.float64)
_Op = Literal["sum", "xor", "min", "max"]
_Algorithm = Literal["auto", "euler", "levels", "bfs", "sequential"]
_Shape = Literal["star", "path", "caterpillar", "kary", "random", "random-shuffled", "binary",
                 "forest"]
_Connection = Literal["weak", "strong"]
_SpanningMethod = Literal["auto", "euler", "bfs", "pr", "path-reversal"]

# Vertices of a Tree's phylogenetic methods: ids or, on a named tree, names; one (a scalar) or
# several (an array of any shape, a list or a tuple).
_Vertex = Union[int, np.integer[Any], str]
_VertexArray = Union[NDArray[Any], List[Any], Tuple[Any, ...]]
_Vertices = Union[_Vertex, _VertexArray]

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

# SciPy's sparse classes, which the graph functions and KDTree.sparse_distance_matrix return.
# SciPy has no type hints of its own (and the stubs check without it): Any, named for the reader.
_csr_matrix = Any  # scipy.sparse.csr_matrix
_coo_matrix = Any  # scipy.sparse.coo_matrix
_dok_matrix = Any  # scipy.sparse.dok_matrix
_coo_array = Any  # scipy.sparse.coo_array
_dok_array = Any  # scipy.sparse.dok_array

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

class CompileWarning(UserWarning):
    """Said once, when this process first compiles kernel programs (warmup() compiles them ahead).

    Silenced by warnings.simplefilter("ignore", treefix.CompileWarning).
    """

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

def warmup(device: Optional[str] = None, threads: int = 0) -> Tuple[int, float]:
    """Compiles every kernel program into the disk cache ahead: (programs, seconds).

    device: as Runtime(device); threads: compilations at a time (0: the host threads).
    ValueError when the disk cache is off (TREEFIX_CACHE=off).
    """

def cached_result_bytes() -> int:
    """Bytes of host memory kept from freed large results (4 MiB or more) for reuse."""

def release_cached_results() -> None:
    """Frees the host memory cached_result_bytes() counts."""

# --- trees ----------------------------------------------------------------------------------

class Tree(metaclass=_pybind11_type):
    """A rooted forest on the device, validated once, its Euler tour kept for later calls.

    Tree(parents, *, lengths=None, names=None, runtime=None): parents is a 1-D int32 or int64
    array, -1 for a root (several roots make a forest); lengths (n branch lengths) and names (n
    strings, None or '' where unnamed) label it as a Newick tree is. ValueError names the vertex
    of a parent out of range or a cycle.
    """

    def __init__(self, parents: ArrayLike, *, lengths: Optional[ArrayLike] = None,
                 names: Optional[Sequence[Optional[str]]] = None,
                 runtime: Optional[Runtime] = None) -> None: ...
    @staticmethod
    def from_newick(path: _Path, *, runtime: Optional[Runtime] = None) -> Tree:
        """A tree from a Newick file, vertices numbered in pre-order of the text (root 0).

        Several ';'-ended trees make a forest. ValueError with the byte offset and line for
        malformed text.
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
        """The Runtime the tree lives on (RuntimeError when there is no OpenCL device)."""
    @property
    def parents(self) -> NDArray[np.int32]:
        """A copy of the parent array (int32, -1 at roots)."""
    @property
    def names(self) -> Optional[Tuple[str, ...]]:
        """Node names of a named tree ('' where unnamed), else None."""
    @property
    def lengths(self) -> Optional[NDArray[np.float64]]:
        """A copy of the branch lengths (float64, 0 where none is written), else None."""
    def depths(self) -> NDArray[np.int32]:
        """Depth of every vertex (roots 0), int32, shape (n,)."""
    def subtree_sizes(self) -> NDArray[np.int32]:
        """Vertices in the subtree of every vertex (itself included), int32, shape (n,)."""
    def preorder(self) -> NDArray[np.int32]:
        """The vertices in depth-first pre-order, int32, shape (n,)."""
    def postorder(self) -> NDArray[np.int32]:
        """The vertices in depth-first post-order (children before their parent), int32."""
    def levelorder(self) -> NDArray[np.int32]:
        """The vertices breadth-first (roots, then depth 1, 2, ...; pre-order within), int32."""
    def children(self) -> Tuple[NDArray[np.int32], NDArray[np.int32]]:
        """The child lists in CSR form: (offsets (n + 1,), ids), int32."""
    def tips(self) -> NDArray[np.int32]:
        """The vertices without children, in increasing id, int32."""
    def preorder_intervals(self) -> Tuple[NDArray[np.int32], NDArray[np.int32]]:
        """(begin, end), int32 (n,): the subtree of v is preorder()[begin[v]:end[v]]."""
    @overload
    def lca(self, u: _Vertex, v: _Vertex) -> int: ...
    @overload
    def lca(self, u: _VertexArray, v: _Vertices) -> NDArray[np.int32]: ...
    @overload
    def lca(self, u: _Vertex, v: _VertexArray) -> NDArray[np.int32]:
        """The lowest common ancestor of u[i] and v[i] (ids or names), int32; -1 across trees.

        Arrays of one shape, or one vertex for either; two single vertices give an int.
        """
    def mrca(self, vertices: _Vertices) -> int:
        """The most recent common ancestor of a set of vertices (ids or names); -1 across trees."""
    @overload
    def distance(self, u: _Vertex, v: _Vertex, *,
                 weights: Optional[ArrayLike] = None) -> float: ...
    @overload
    def distance(self, u: _VertexArray, v: _Vertices, *,
                 weights: Optional[ArrayLike] = None) -> NDArray[np.float64]: ...
    @overload
    def distance(self, u: _Vertex, v: _VertexArray, *,
                 weights: Optional[ArrayLike] = None) -> NDArray[np.float64]:
        """The patristic distance between u[i] and v[i] (as lca), float64; inf across trees.

        weights: n branch lengths; None: the tree's lengths, or edge counts without them.
        """
    def cophenetic(self, tips: Optional[_Vertices] = None, *,
                   weights: Optional[ArrayLike] = None) -> NDArray[np.float64]:
        """The (k, k) patristic distances between the listed vertices (None: tips()), float64."""
    def root_distances(self, *, weights: Optional[ArrayLike] = None) -> NDArray[np.float64]:
        """Each vertex's distance from its root (a root's own length included), float64 (n,)."""
    def heights(self, *, weights: Optional[ArrayLike] = None) -> NDArray[np.float64]:
        """Each vertex's longest path down to a vertex of its subtree (0 at a tip), float64."""
    @overload
    def prune(self, keep: _Vertices, *, return_origin: Literal[False] = False) -> Tree: ...
    @overload
    def prune(self, keep: _Vertices, *,
              return_origin: Literal[True]) -> Tuple[Tree, NDArray[np.int32]]: ...
    @overload
    def prune(self, keep: _Vertices, *,
              return_origin: bool = False) -> Union[Tree, Tuple[Tree, NDArray[np.int32]]]:
        """A new Tree induced by the kept vertices (ids or names) and their branching ancestors.

        Numbered in its pre-order; return_origin=True also returns each new vertex's old id.
        """
    @overload
    def reroot(self, vertex: _Vertex, *, edge: bool = False, distance: Optional[float] = None,
               suppress_unifurcations: bool = True,
               return_origin: Literal[False] = False) -> Tree: ...
    @overload
    def reroot(self, vertex: _Vertex, *, edge: bool = False, distance: Optional[float] = None,
               suppress_unifurcations: bool = True,
               return_origin: Literal[True]) -> Tuple[Tree, NDArray[np.int32]]: ...
    @overload
    def reroot(self, vertex: _Vertex, *, edge: bool = False, distance: Optional[float] = None,
               suppress_unifurcations: bool = True, return_origin: bool = False
               ) -> Union[Tree, Tuple[Tree, NDArray[np.int32]]]:
        """A new Tree rooted at `vertex` (an id or a name), or on its branch (edge, distance).

        return_origin=True also returns each new vertex's old id (-1 for a new root).
        """
    @overload
    def ladderize(self, ascending: bool = True, *,
                  return_origin: Literal[False] = False) -> Tree: ...
    @overload
    def ladderize(self, ascending: bool = True, *,
                  return_origin: Literal[True]) -> Tuple[Tree, NDArray[np.int32]]: ...
    @overload
    def ladderize(self, ascending: bool = True, *, return_origin: bool = False
                  ) -> Union[Tree, Tuple[Tree, NDArray[np.int32]]]:
        """A new Tree, children ordered by subtree size (smallest first when ascending)."""
    @overload
    def write_newick(self, path: None = None) -> str: ...
    @overload
    def write_newick(self, path: _Path) -> None: ...
    @overload
    def write_newick(self, path: Optional[_Path] = None) -> Optional[str]:
        """The tree as Newick text, one tree a line: returned, or written to `path` (None)."""
    def unifrac(self, counts: ArrayLike, tips: Optional[_Vertices] = None, *,
                weights: Optional[ArrayLike] = None, weighted: bool = False,
                normalized: bool = False, square: bool = False) -> NDArray[np.float64]:
        """UniFrac distances between the samples (rows) of counts (samples, len(tips)), float64.

        The condensed matrix (scipy's pdist order), or (samples, samples) with square=True.
        """
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

def generate(shape: _Shape, n: int, *, seed: Optional[int] = None, spine: int = 0, k: int = 2,
             trees: int = 1) -> NDArray[np.int32]:
    """A parent array (int32, -1 at roots) of one of the library's tree shapes.

    ValueError for an unknown shape; seed: the random shapes' seed (None: n).
    """

# --- graphs ---------------------------------------------------------------------------------

class Graph(metaclass=_pybind11_type):
    """A graph kept on the device, for repeated calls.

    Graph(csgraph, directed=True, *, runtime=None): csgraph is what scipy.sparse.csgraph takes
    (a scipy.sparse matrix or array, a masked array, a dense array or nested list), square.
    directed=False takes every edge both ways. ValueError for a matrix that is not square.
    """

    def __init__(self, csgraph: _CSGraph, directed: bool = True, *,
                 runtime: Optional[Runtime] = None) -> None: ...
    @property
    def n(self) -> int:
        """Number of vertices."""
    @property
    def arcs(self) -> int:
        """Arcs kept (both directions of an undirected edge count)."""
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
    def breadth_first_tree(self, i_start: int) -> _csr_matrix:
        """As treefix.breadth_first_tree, on this graph."""
    @overload
    def connected_components(
        self, connection: _Connection = "weak",
        return_labels: Literal[True] = True) -> Tuple[int, NDArray[np.int32]]: ...
    @overload
    def connected_components(self, connection: _Connection,
                             return_labels: Literal[False]) -> int: ...
    @overload
    def connected_components(self, connection: _Connection = "weak", *,
                             return_labels: Literal[False]) -> int: ...
    @overload
    def connected_components(
        self, connection: _Connection = "weak", return_labels: bool = True
    ) -> Union[int, Tuple[int, NDArray[np.int32]]]:
        """As treefix.connected_components, on this graph (strong: of a directed Graph)."""
    def minimum_spanning_tree(self) -> _csr_matrix:
        """As treefix.minimum_spanning_tree, of this graph's matrix."""
    def rooted_spanning_tree(self, root: int = 0,
                             method: _SpanningMethod = "auto") -> NDArray[np.int32]:
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

def breadth_first_tree(csgraph: _CSGraph, i_start: int, directed: bool = True, *,
                       runtime: Optional[Runtime] = None) -> _csr_matrix:
    """As scipy.sparse.csgraph.breadth_first_tree: an (n, n) float64 csr_matrix of the arcs.

    Entry (p, v) for every reached v with parent p, carrying the arc's weight as SciPy does.
    """

@overload
def connected_components(
    csgraph: _CSGraph, directed: bool = True, connection: _Connection = "weak",
    return_labels: Literal[True] = True, *,
    runtime: Optional[Runtime] = None) -> Tuple[int, NDArray[np.int32]]: ...
@overload
def connected_components(csgraph: _CSGraph, directed: bool, connection: _Connection,
                         return_labels: Literal[False], *,
                         runtime: Optional[Runtime] = None) -> int: ...
@overload
def connected_components(csgraph: _CSGraph, directed: bool = True,
                         connection: _Connection = "weak", *,
                         return_labels: Literal[False],
                         runtime: Optional[Runtime] = None) -> int: ...
@overload
def connected_components(
    csgraph: _CSGraph, directed: bool = True, connection: _Connection = "weak",
    return_labels: bool = True, *, runtime: Optional[Runtime] = None
) -> Union[int, Tuple[int, NDArray[np.int32]]]:
    """As scipy.sparse.csgraph.connected_components: (n_components, labels int32 (n,)).

    connection="weak" (or directed=False): weak components; "strong" with directed=True:
    strongly connected components. Numbered in the order of their smallest vertex.
    """

def minimum_spanning_tree(csgraph: _CSGraph, overwrite: bool = False, *,
                          runtime: Optional[Runtime] = None) -> _csr_matrix:
    """As scipy.sparse.csgraph.minimum_spanning_tree: an (n, n) float64 csr_matrix.

    The minimum spanning forest of the undirected graph of the stored entries, each chosen entry
    where it is stored. overwrite is accepted and ignored (the input is never modified).
    """

def rooted_spanning_tree(csgraph: _CSGraph, root: int = 0, method: _SpanningMethod = "auto", *,
                         runtime: Optional[Runtime] = None) -> NDArray[np.int32]:
    """A spanning tree of every component as a parent array, int32 (n,), -1 at each root.

    ValueError when root is not a vertex or method is unknown.
    """

# --- points ---------------------------------------------------------------------------------

# count_neighbors' weights: one array (other is this tree) or (self's, other's), either None.
_PairWeights = Union[ArrayLike, Tuple[Optional[ArrayLike], Optional[ArrayLike]]]
# count_neighbors' r: one radius, or several (a 1-D array).
_Radius = Union[float, np.floating[Any], np.integer[Any]]
_Radii = Union[Sequence[float], NDArray[Any]]
# k of KDTree.query: a number of neighbours (ranks 1..k), or the ranks wanted.
_Neighbours = Union[int, np.integer[Any], Sequence[int], NDArray[np.integer[Any]]]

class KDTreeNode(metaclass=_pybind11_type):
    """A node of a KDTree's structure (KDTree.tree), as scipy.spatial.cKDTreeNode."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """pybind11's: no constructor is defined (TypeError); nodes come from KDTree.tree."""
    @property
    def level(self) -> int: ...
    @property
    def split_dim(self) -> int:
        """The coordinate split on (-1 at a leaf)."""
    @property
    def split(self) -> float: ...
    @property
    def children(self) -> int:
        """Number of points below."""
    @property
    def start_idx(self) -> int: ...
    @property
    def end_idx(self) -> int: ...
    @property
    def lesser(self) -> Optional[KDTreeNode]: ...
    @property
    def greater(self) -> Optional[KDTreeNode]: ...
    @property
    def indices(self) -> NDArray[np.intp]:
        """The points below (KDTree.indices[start_idx:end_idx])."""
    @property
    def data_points(self) -> NDArray[np.float64]: ...

class KDTree(metaclass=_pybind11_type):
    """scipy.spatial.cKDTree on the device: built there and kept, queried in float64.

    KDTree(data, leafsize=16, compact_nodes=True, copy_data=False, balanced_tree=True,
    boxsize=None, *, runtime=None): data is (n, m), 1 <= m <= 16, any real dtype, finite;
    boxsize: a periodic box (a scalar or one size per coordinate). compact_nodes and
    balanced_tree are accepted and change nothing.
    """

    def __init__(self, data: ArrayLike, leafsize: int = 16, compact_nodes: bool = True,
                 copy_data: bool = False, balanced_tree: bool = True,
                 boxsize: Optional[ArrayLike] = None, *,
                 runtime: Optional[Runtime] = None) -> None: ...
    @property
    def data(self) -> NDArray[np.float64]:
        """The points, (n, m) float64 (read-only)."""
    @property
    def leafsize(self) -> int: ...
    @property
    def n(self) -> int:
        """Number of points."""
    @property
    def m(self) -> int:
        """Coordinates per point."""
    @property
    def size(self) -> int:
        """Number of nodes."""
    @property
    def maxes(self) -> NDArray[np.float64]: ...
    @property
    def mins(self) -> NDArray[np.float64]: ...
    @property
    def boxsize(self) -> Optional[NDArray[np.float64]]:
        """The periodic box, (m,) float64, or None."""
    @property
    def indices(self) -> NDArray[np.intp]:
        """The points in the tree's order (indices into data)."""
    @property
    def tree(self) -> KDTreeNode:
        """The root of the structure."""
    @overload
    def query(  # type: ignore[misc]  # k = 1 (the default) drops the last axis
        self, x: ArrayLike, k: Literal[1] = 1, eps: float = 0.0, p: float = 2.0,
        distance_upper_bound: float = ...,  # inf
        workers: Optional[int] = 1
    ) -> Tuple[Union[float, NDArray[np.float64]], Union[int, NDArray[np.intp]]]: ...
    @overload
    def query(self, x: ArrayLike, k: _Neighbours, eps: float = 0.0, p: float = 2.0,
              distance_upper_bound: float = ...,  # inf
              workers: Optional[int] = 1) -> Tuple[NDArray[np.float64], NDArray[np.intp]]: ...
    @overload
    def query(
        self, x: ArrayLike, k: _Neighbours = 1, eps: float = 0.0, p: float = 2.0,
        distance_upper_bound: float = ...,  # inf
        workers: Optional[int] = 1
    ) -> Tuple[Union[float, NDArray[np.float64]], Union[int, NDArray[np.intp]]]:
        """The k nearest points of each query point, as cKDTree.query: (d float64, i intp).

        x (..., m); k a number of neighbours or a list of ranks; d and i (..., len(k)), the last
        axis dropped for k = 1 (Python float and int for one point). Missing neighbours: inf, n.
        """
    @overload
    def query_ball_point(self, x: ArrayLike, r: ArrayLike, p: float = 2.0, eps: float = 0.0,
                         workers: Optional[int] = 1, return_sorted: Optional[bool] = None,
                         return_length: Literal[False] = False
                         ) -> Union[List[int], NDArray[np.object_]]: ...
    @overload
    def query_ball_point(self, x: ArrayLike, r: ArrayLike, p: float, eps: float,
                         workers: Optional[int], return_sorted: Optional[bool],
                         return_length: Literal[True]) -> Union[np.intp, NDArray[np.intp]]: ...
    @overload
    def query_ball_point(self, x: ArrayLike, r: ArrayLike, p: float = 2.0, eps: float = 0.0,
                         workers: Optional[int] = 1, return_sorted: Optional[bool] = None, *,
                         return_length: Literal[True]) -> Union[np.intp, NDArray[np.intp]]: ...
    @overload
    def query_ball_point(
        self, x: ArrayLike, r: ArrayLike, p: float = 2.0, eps: float = 0.0,
        workers: Optional[int] = 1, return_sorted: Optional[bool] = None,
        return_length: bool = False
    ) -> Union[List[int], NDArray[np.object_], np.intp, NDArray[np.intp]]:
        """The indices of the points within distance r of each query point, as cKDTree.

        A list for one point, else an object array of lists shaped like x without its last
        axis; return_length=True: the counts (intp) instead.
        """
    def query_ball_tree(self, other: KDTree, r: float, p: float = 2.0,
                        eps: float = 0.0) -> List[List[int]]:
        """For each point of this tree, the sorted indices of other's points within r."""
    @overload
    def query_pairs(self, r: float, p: float = 2.0, eps: float = 0.0,
                    output_type: Literal["set"] = "set") -> Set[Tuple[int, int]]: ...
    @overload
    def query_pairs(self, r: float, p: float, eps: float,
                    output_type: Literal["ndarray"]) -> NDArray[np.intp]: ...
    @overload
    def query_pairs(self, r: float, p: float = 2.0, eps: float = 0.0, *,
                    output_type: Literal["ndarray"]) -> NDArray[np.intp]: ...
    @overload
    def query_pairs(self, r: float, p: float = 2.0, eps: float = 0.0,
                    output_type: Literal["set", "ndarray"] = "set"
                    ) -> Union[Set[Tuple[int, int]], NDArray[np.intp]]:
        """The pairs (i, j), i < j, within distance r: a set, or an (pairs, 2) intp array."""
    @overload
    def count_neighbors(self, other: KDTree, r: _Radius, p: float = 2.0, weights: None = None,
                        cumulative: bool = True) -> int: ...
    @overload
    def count_neighbors(self, other: KDTree, r: _Radius, p: float, weights: _PairWeights,
                        cumulative: bool = True) -> np.float64: ...
    @overload
    def count_neighbors(self, other: KDTree, r: _Radius, p: float = 2.0, *,
                        weights: _PairWeights, cumulative: bool = True) -> np.float64: ...
    @overload
    def count_neighbors(self, other: KDTree, r: _Radii, p: float, weights: _PairWeights,
                        cumulative: bool = True) -> NDArray[np.float64]: ...
    @overload
    def count_neighbors(self, other: KDTree, r: _Radii, p: float = 2.0, *,
                        weights: _PairWeights, cumulative: bool = True) -> NDArray[np.float64]:
        ...
    @overload
    def count_neighbors(self, other: KDTree, r: _Radii, p: float = 2.0, weights: None = None,
                        cumulative: bool = True) -> NDArray[np.intp]:
        """The pairs (x1 of this tree, x2 of other) within r, for a radius or 1-D radii.

        Integers without weights (int for one radius), float64 with; cumulative=False counts
        per bin (r[i-1], r[i]].
        """
    @overload
    def sparse_distance_matrix(
        self, other: KDTree, max_distance: float, p: float = 2.0,
        output_type: Literal["dok_matrix"] = "dok_matrix") -> _dok_matrix: ...
    @overload
    def sparse_distance_matrix(self, other: KDTree, max_distance: float, p: float,
                               output_type: Literal["coo_matrix"]) -> _coo_matrix: ...
    @overload
    def sparse_distance_matrix(self, other: KDTree, max_distance: float, p: float = 2.0, *,
                               output_type: Literal["coo_matrix"]) -> _coo_matrix: ...
    @overload
    def sparse_distance_matrix(self, other: KDTree, max_distance: float, p: float,
                               output_type: Literal["dok_array"]) -> _dok_array: ...
    @overload
    def sparse_distance_matrix(self, other: KDTree, max_distance: float, p: float = 2.0, *,
                               output_type: Literal["dok_array"]) -> _dok_array: ...
    @overload
    def sparse_distance_matrix(self, other: KDTree, max_distance: float, p: float,
                               output_type: Literal["coo_array"]) -> _coo_array: ...
    @overload
    def sparse_distance_matrix(self, other: KDTree, max_distance: float, p: float = 2.0, *,
                               output_type: Literal["coo_array"]) -> _coo_array: ...
    @overload
    def sparse_distance_matrix(self, other: KDTree, max_distance: float, p: float,
                               output_type: Literal["dict"]) -> Dict[Tuple[int, int], float]: ...
    @overload
    def sparse_distance_matrix(self, other: KDTree, max_distance: float, p: float = 2.0, *,
                               output_type: Literal["dict"]) -> Dict[Tuple[int, int], float]: ...
    @overload
    def sparse_distance_matrix(self, other: KDTree, max_distance: float, p: float,
                               output_type: Literal["ndarray"]) -> NDArray[np.void]: ...
    @overload
    def sparse_distance_matrix(self, other: KDTree, max_distance: float, p: float = 2.0, *,
                               output_type: Literal["ndarray"]) -> NDArray[np.void]: ...
    @overload
    def sparse_distance_matrix(
        self, other: KDTree, max_distance: float, p: float = 2.0,
        output_type: Literal["dok_matrix", "coo_matrix", "dok_array", "coo_array", "dict",
                             "ndarray"] = "dok_matrix"
    ) -> Union[_dok_matrix, _coo_matrix, _dok_array, _coo_array, Dict[Tuple[int, int], float],
               NDArray[np.void]]:
        """The distances of the pairs (i of this tree, j of other) within max_distance.

        As cKDTree: a dok or coo matrix or array, a dict {(i, j): d}, or ('ndarray') records
        (i intp, j intp, v float64); entries in (i, j) order.
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
