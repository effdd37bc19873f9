// Graphs with scipy.sparse.csgraph's names, arguments, defaults and return conventions:
// breadth_first_order, breadth_first_tree, connected_components (weak and strong),
// minimum_spanning_tree, and rooted spanning trees; treefix.Graph keeps a graph on the device for
// repeated calls (graph_object.hpp). Inputs are read as SciPy reads them (graph_inputs.hpp).
#include <pybind11/stl.h>

#include <cctype>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "graph_inputs.hpp"
#include "graph_object.hpp"
#include "runtime.hpp"

namespace treefix::python {
namespace {

// A treefix.Graph passed where a csgraph is expected is used as it is (directed= still decides
// how it is searched); anything else becomes a Graph for this call, directed as the call needs.
// `vertex`, when named, is checked before anything is uploaded.
std::shared_ptr<Graph> graph_of(py::handle csgraph, bool directed, bool with_values,
                                const std::optional<RuntimeHandle>& runtime,
                                const char* vertex_name = nullptr, std::int64_t vertex = 0) {
  if (py::isinstance<Graph>(csgraph)) {
    auto graph = csgraph.cast<std::shared_ptr<Graph>>();
    if (vertex_name) graph->check_vertex(vertex, vertex_name);
    return graph;
  }
  MatrixInput input = matrix_input(csgraph);
  if (vertex_name && (vertex < 0 || static_cast<std::uint64_t>(vertex) >= input.matrix.n))
    throw InputError(std::string(vertex_name) + " = " + std::to_string(vertex) +
                     " is not a vertex (there are " + std::to_string(input.matrix.n) + ")");
  if (with_values) load_values(input);
  return std::make_shared<Graph>(runtime_or_default(runtime), std::move(input), directed,
                                 with_values);
}

bool is_strong(bool directed, std::string connection) {
  for (char& c : connection) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return directed && connection == "strong";
}

constexpr const char* kGraphDoc = R"doc(
A graph kept on the device, for repeated calls.

Graph(csgraph, directed=True, *, runtime=None): csgraph is what scipy.sparse.csgraph takes: any
scipy.sparse matrix or array (every stored entry is an edge, explicit zeros included), a masked
array (every unmasked entry), or a dense array, np.matrix or nested list (entries that are 0,
+-inf or NaN are not edges), square. directed=True keeps the arcs as stored (self loops dropped,
repeats merged); directed=False takes every edge both ways. The index arrays go to the device
where they lie (int32 or int64); rows are sorted, merged and symmetrised there, only when they
need to be. The Graph keeps a reference to the input's arrays (no copy): the weights are read
from them when a call first needs them (minimum_spanning_tree, breadth_first_tree), and pickling
stores them (a Graph is uploaded again when unpickled, on the default runtime).)doc";

}  // namespace

void bind_graphs(py::module_& m) {
  py::class_<Graph, std::shared_ptr<Graph>>(m, "Graph", kGraphDoc)
      .def(py::init([](py::handle csgraph, bool directed,
                       const std::optional<RuntimeHandle>& runtime) {
             return std::make_shared<Graph>(runtime_or_default(runtime), matrix_input(csgraph),
                                            directed);
           }),
           py::arg("csgraph"), py::arg("directed") = true, py::kw_only(), runtime_arg())
      .def_property_readonly("n", &Graph::n, "Number of vertices.")
      .def_property_readonly("arcs", &Graph::arcs,
                             "Arcs kept (both directions of an undirected edge count).")
      .def_property_readonly("directed", &Graph::directed)
      .def_property_readonly("runtime", &Graph::runtime)
      .def(
          "breadth_first_order",
          [](Graph& g, std::int64_t i_start, bool return_predecessors) {
            return g.breadth_first_order(i_start, g.directed(), return_predecessors);
          },
          py::arg("i_start"), py::arg("return_predecessors") = true,
          "treefix.breadth_first_order on this graph, searched as it was made.")
      .def(
          "breadth_first_tree",
          [](Graph& g, std::int64_t i_start) { return g.breadth_first_tree(i_start, g.directed()); },
          py::arg("i_start"), "treefix.breadth_first_tree on this graph, searched as it was made.")
      .def(
          "connected_components",
          [](Graph& g, const std::string& connection, bool return_labels) {
            return g.connected_components(g.directed(), connection, return_labels);
          },
          py::arg("connection") = "weak", py::arg("return_labels") = true,
          "treefix.connected_components on this graph (connection='strong': strongly connected "
          "components of a directed Graph).")
      .def("minimum_spanning_tree", &Graph::minimum_spanning_tree,
           "treefix.minimum_spanning_tree of this graph's matrix (its edges' order is kept on "
           "the device after the first call).")
      .def("rooted_spanning_tree", &Graph::rooted_spanning_tree, py::arg("root") = 0,
           py::arg("method") = "auto", "See treefix.rooted_spanning_tree.")
      .def(py::pickle([](const Graph& g) { return g.state(); },
                      [](const py::tuple& state) {
                        if (state.size() != 2)
                          throw InputError("treefix.Graph: not a pickled Graph's state");
                        return std::make_shared<Graph>(
                            runtime_or_default({}), matrix_from_state(state[0].cast<py::tuple>()),
                            state[1].cast<bool>());
                      }))
      .def("__repr__", [](const Graph& g) {
        return "treefix.Graph(n=" + std::to_string(g.n()) + ", arcs=" + std::to_string(g.arcs()) +
               (g.directed() ? ", directed=True)" : ", directed=False)");
      });

  m.def(
      "breadth_first_order",
      [](py::handle csgraph, std::int64_t i_start, bool directed, bool return_predecessors,
         const std::optional<RuntimeHandle>& runtime) {
        return graph_of(csgraph, directed, false, runtime, "i_start", i_start)
            ->breadth_first_order(i_start, directed, return_predecessors);
      },
      py::arg("csgraph"), py::arg("i_start"), py::arg("directed") = true,
      py::arg("return_predecessors") = true, py::kw_only(), runtime_arg(), R"doc(
As scipy.sparse.csgraph.breadth_first_order: the vertices reached from i_start in breadth-first
order (int32), and with return_predecessors each vertex's predecessor in the search tree (int32,
-9999 for the source and unreached vertices). The levels come in the same order as SciPy's; inside
a level the order, and so which of several parents one level up is a vertex's predecessor, may
differ. directed=False follows edges both ways. csgraph may be a treefix.Graph. An i_start
outside 0..n-1 raises ValueError.)doc");

  m.def(
      "breadth_first_tree",
      [](py::handle csgraph, std::int64_t i_start, bool directed,
         const std::optional<RuntimeHandle>& runtime) {
        return graph_of(csgraph, directed, true, runtime, "i_start", i_start)
            ->breadth_first_tree(i_start, directed);
      },
      py::arg("csgraph"), py::arg("i_start"), py::arg("directed") = true, py::kw_only(),
      runtime_arg(), R"doc(
As scipy.sparse.csgraph.breadth_first_tree: the tree of a breadth-first search from i_start as an
(N, N) scipy.sparse.csr_matrix of float64, entry (p, v) for every reached v with parent p, carrying
the arc's weight as SciPy does (directed: the values stored at (p, v), repeats summed; undirected:
the smaller nonzero of those at (p, v) and (v, p), inf when both are zero). Which parent a vertex
gets among several one level up may differ from SciPy's.)doc");

  m.def(
      "connected_components",
      [](py::handle csgraph, bool directed, const std::string& connection, bool return_labels,
         const std::optional<RuntimeHandle>& runtime) {
        return graph_of(csgraph, is_strong(directed, connection), false, runtime)
            ->connected_components(directed, connection, return_labels);
      },
      py::arg("csgraph"), py::arg("directed") = true, py::arg("connection") = "weak",
      py::arg("return_labels") = true, py::kw_only(), runtime_arg(), R"doc(
As scipy.sparse.csgraph.connected_components: (n_components, labels), labels int32.
connection='weak' (or directed=False): components of the graph with every edge taken both ways;
connection='strong' with directed=True: strongly connected components (both ways reachable), on
the device. Components are numbered 0, 1, ... in the order of their smallest vertex (SciPy numbers
weak components so; its strong components' numbers differ, the partition is the same).)doc");

  m.def(
      "minimum_spanning_tree",
      [](py::handle csgraph, bool /*overwrite*/, const std::optional<RuntimeHandle>& runtime) {
        if (py::isinstance<Graph>(csgraph))
          return csgraph.cast<std::shared_ptr<Graph>>()->minimum_spanning_tree();
        return minimum_spanning_tree_of(runtime_or_default(runtime), matrix_input(csgraph));
      },
      py::arg("csgraph"), py::arg("overwrite") = false, py::kw_only(), runtime_arg(), R"doc(
As scipy.sparse.csgraph.minimum_spanning_tree: the minimum spanning forest of the undirected graph
whose edges are the matrix's stored entries (parallel entries: the lighter wins), as an (N, N)
scipy.sparse.csr_matrix of float64 holding each chosen entry where it is stored; zero-weight edges
join trees but are not listed (as SciPy's). Computed on the device (Borůvka's rounds) in the
weights' own type (int32, int64, float32, float64). Ties are broken by a total order (weight, the
smaller end, the larger end, the entry in the upper triangle first), so the forest is unique: the
one SciPy returns when weights are distinct, and also with ties for matrices stored in canonical
form with each edge both ways or once. overwrite is accepted and ignored: the input is never
modified.)doc");

  m.def(
      "rooted_spanning_tree",
      [](py::handle csgraph, std::int64_t root, const std::string& method,
         const std::optional<RuntimeHandle>& runtime) {
        return graph_of(csgraph, false, false, runtime, "root", root)
            ->rooted_spanning_tree(root, method);
      },
      py::arg("csgraph"), py::arg("root") = 0, py::arg("method") = "auto", py::kw_only(),
      runtime_arg(), R"doc(
A spanning tree of every component of the undirected graph, as a parent array (int32, -1 at each
component's root): root's component is rooted at root, every other at its smallest vertex.
method: "euler" (connectivity, then Euler-tour rooting: steps grow with log n), "bfs" (BFS trees:
steps grow with the diameter), "pr" (path reversal) or "auto" (BFS while its levels stay within a
budget set by the device and log n, else euler). Which spanning tree comes
out may differ between methods and runs; each is a valid one.)doc");
}

}  // namespace treefix::python
