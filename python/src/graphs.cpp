// Graphs with scipy.sparse.csgraph's names, arguments and return conventions: BFS order and
// predecessors, connected components, rooted spanning trees; treefix.Graph keeps a graph on the
// device for repeated calls (treefix/graph/).
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "result_blocks.hpp"
#include "runtime.hpp"
#include "treefix/graph/bfs.hpp"
#include "treefix/graph/connectivity.hpp"
#include "treefix/graph/csr.hpp"
#include "treefix/graph/device_graph.hpp"
#include "treefix/graph/spanning_forest.hpp"

namespace treefix::python {
namespace {

// SciPy's mark for "no predecessor" (unreached vertices and the source).
constexpr std::int32_t kNoPredecessor = -9999;

// The sparsity pattern of any scipy.sparse matrix or array (dense arrays: their nonzeros) as the
// library's CSR: rows sorted, duplicates merged, self loops dropped.
Csr csr_of(py::handle csgraph) {
  py::module_ sparse = py::module_::import("scipy.sparse");
  py::object matrix = py::reinterpret_borrow<py::object>(csgraph);
  if (!sparse.attr("issparse")(matrix).cast<bool>())
    matrix = sparse.attr("csr_matrix")(numeric_array(csgraph, "csgraph"));
  matrix = matrix.attr("tocsr")();
  const auto shape = matrix.attr("shape").cast<std::pair<py::ssize_t, py::ssize_t>>();
  if (shape.first != shape.second)
    throw InputError("csgraph: expected a square matrix, got shape (" +
                     std::to_string(shape.first) + ", " + std::to_string(shape.second) + ")");
  auto offsets = contiguous_as<std::int64_t>(matrix.attr("indptr"));
  std::vector<std::int32_t> columns = int32_vector(matrix.attr("indices"), "csgraph indices");
  Csr graph;
  graph.row_offset.assign(offsets.data(), offsets.data() + offsets.size());
  graph.column = std::move(columns);
  py::gil_scoped_release release;
  check_and_normalize(graph, "csgraph");
  return graph;
}

class Graph {
 public:
  Graph(RuntimeHandle box, Csr graph, bool directed) : box_(std::move(box)), directed_(directed) {
    py::gil_scoped_release release;
    if (directed) {
      // A symmetric pattern searched as directed is the same search; bottom-up steps need to know.
      graph.undirected = has_reverse_arcs(graph);
    } else {
      graph = symmetrized(graph);
    }
    arcs_ = graph.edges();
    std::lock_guard<std::mutex> lock(box_->lock);
    csr_ = std::make_shared<Csr>(std::move(graph));
    device_ = std::make_shared<DeviceGraph>(box_->runtime, *csr_);
    if (csr_->undirected) {
      undirected_csr_ = csr_;
      undirected_device_ = device_;
    }
  }

  std::size_t n() const { return csr_->vertices(); }

  py::object breadth_first_order(std::int64_t i_start, bool return_predecessors) {
    check_vertex(i_start, "i_start");
    // The search, then the result arrays (made with the GIL held, once the order's length is
    // known; large ones reuse freed results' memory), then the reads straight into them.
    DeviceBfs search = on_device(*box_, [&](Runtime& runtime) {
      return bfs(runtime, *device_, {static_cast<vertex_t>(i_start)});
    });
    const ResultArray order = uninitialised_array(py::dtype::of<std::int32_t>(),
                                                  {static_cast<py::ssize_t>(search.reached())});
    const ResultArray predecessors = uninitialised_array(
        py::dtype::of<std::int32_t>(), {static_cast<py::ssize_t>(return_predecessors ? n() : 0)});
    auto* reached = static_cast<std::int32_t*>(order.array.request().ptr);
    auto* parent = static_cast<std::int32_t*>(predecessors.array.request().ptr);
    on_device(*box_, [&](Runtime& runtime) {
      if (search.reached())
        search.order.read_into(runtime, reached, search.reached());
      if (return_predecessors && n() > 0) {
        search.parent.read_into(runtime, parent, n());
        for_slices(n(), [&](std::size_t begin, std::size_t end) {
          for (std::size_t v = begin; v < end; ++v)
            if (parent[v] < 0) parent[v] = kNoPredecessor;
        });
      }
    });
    if (!return_predecessors) return order.array;
    return py::make_tuple(order.array, predecessors.array);
  }

  py::object connected_components(bool directed, const std::string& connection,
                                  bool return_labels) {
    if (connection != "weak" && connection != "strong")
      throw InputError("connection: expected 'weak' or 'strong', got '" + connection + "'");
    if (connection == "strong" && directed)
      throw InputError(
          "connected_components: strongly connected components are not implemented; "
          "connection='weak' (or directed=False) gives the components of the undirected graph");
    const ResultArray labels =
        uninitialised_array(py::dtype::of<std::int32_t>(), {static_cast<py::ssize_t>(n())});
    auto* label = static_cast<std::int32_t*>(labels.array.request().ptr);
    const std::size_t count = on_device(*box_, [&](Runtime& runtime) {
      const DeviceGraph& graph = undirected_device(runtime);
      Components components = treefix::connected_components(runtime, graph);
      if (n() == 0) return components.count;
      components.label.read_into(runtime, label, n());
      // Labels are each component's smallest vertex; SciPy numbers components 0, 1, ... in the
      // order of their smallest vertex, which this gives too.
      std::vector<std::int32_t> number(n());
      std::int32_t next = 0;
      for (std::size_t v = 0; v < n(); ++v)
        if (label[v] == static_cast<std::int32_t>(v)) number[v] = next++;
      for_slices(n(), [&](std::size_t begin, std::size_t end) {
        for (std::size_t v = begin; v < end; ++v) label[v] = number[label[v]];
      });
      return components.count;
    });
    if (!return_labels) return py::int_(count);
    return py::make_tuple(count, labels.array);
  }

  py::array rooted_spanning_tree(std::int64_t root, const std::string& method) {
    check_vertex(root, "root");
    RstOptions options;
    options.method = parse<RstMethod>(method);
    options.root = static_cast<vertex_t>(root);
    ParentArray parent = on_device(*box_, [&](Runtime& runtime) {
      const DeviceGraph& graph = undirected_device(runtime);
      return rooted_spanning_forest(runtime, *undirected_csr_, graph, options);
    });
    return py::array_t<std::int32_t>(static_cast<py::ssize_t>(parent.size()), parent.data());
  }

  std::size_t arcs() const { return arcs_; }
  bool directed() const { return directed_; }
  const RuntimeHandle& runtime() const { return box_; }

 private:
  void check_vertex(std::int64_t v, const char* what) const {
    if (v < 0 || static_cast<std::uint64_t>(v) >= n())
      throw InputError(std::string(what) + " = " + std::to_string(v) +
                       " is not a vertex (there are " + std::to_string(n()) + ")");
  }

  // Both directions of every arc: what components and spanning trees need (made on first use
  // for a directed graph whose pattern is not symmetric). Under the runtime's lock.
  const DeviceGraph& undirected_device(Runtime& runtime) {
    if (!undirected_device_) {
      undirected_csr_ = std::make_shared<Csr>(symmetrized(*csr_));
      undirected_device_ = std::make_shared<DeviceGraph>(runtime, *undirected_csr_);
    }
    return *undirected_device_;
  }

  RuntimeHandle box_;
  bool directed_;
  std::size_t arcs_ = 0;
  std::shared_ptr<Csr> csr_, undirected_csr_;
  std::shared_ptr<DeviceGraph> device_, undirected_device_;
};

// A treefix.Graph passed where a csgraph is expected is used as it is.
std::shared_ptr<Graph> graph_of(py::handle csgraph, bool directed,
                                const std::optional<RuntimeHandle>& runtime) {
  if (py::isinstance<Graph>(csgraph)) return csgraph.cast<std::shared_ptr<Graph>>();
  Csr graph = csr_of(csgraph);
  return std::make_shared<Graph>(runtime_or_default(runtime), std::move(graph), directed);
}

}  // namespace

void bind_graphs(py::module_& m) {
  py::class_<Graph, std::shared_ptr<Graph>>(m, "Graph", R"doc(
A graph kept on the device, for repeated searches.

Graph(csgraph, directed=True, *, runtime=None): csgraph is any scipy.sparse matrix or array (or a
dense array: its nonzeros), square, used by its sparsity pattern (stored entries are edges;
values, duplicates and self loops do not matter). directed=False takes every edge both ways.)doc")
      .def(py::init(
               [](py::handle csgraph, bool directed, const std::optional<RuntimeHandle>& runtime) {
                 Csr graph = csr_of(csgraph);
                 return std::make_shared<Graph>(runtime_or_default(runtime), std::move(graph),
                                                directed);
               }),
           py::arg("csgraph"), py::arg("directed") = true, py::kw_only(), runtime_arg())
      .def_property_readonly("n", &Graph::n, "Number of vertices.")
      .def_property_readonly("arcs", &Graph::arcs,
                             "Arcs searched (both directions of an undirected edge count).")
      .def_property_readonly("directed", &Graph::directed)
      .def_property_readonly("runtime", &Graph::runtime)
      .def("breadth_first_order", &Graph::breadth_first_order, py::arg("i_start"),
           py::arg("return_predecessors") = true,
           "As scipy.sparse.csgraph.breadth_first_order: (order, predecessors), int32; see "
           "treefix.breadth_first_order.")
      .def(
          "connected_components",
          [](Graph& graph, const std::string& connection, bool return_labels) {
            return graph.connected_components(graph.directed(), connection, return_labels);
          },
          py::arg("connection") = "weak", py::arg("return_labels") = true,
          "As scipy.sparse.csgraph.connected_components: (n_components, labels); see "
          "treefix.connected_components.")
      .def("rooted_spanning_tree", &Graph::rooted_spanning_tree, py::arg("root") = 0,
           py::arg("method") = "auto", "See treefix.rooted_spanning_tree.")
      .def("__repr__", [](const Graph& graph) {
        return "treefix.Graph(n=" + std::to_string(graph.n()) +
               ", arcs=" + std::to_string(graph.arcs()) +
               (graph.directed() ? ", directed=True)" : ", directed=False)");
      });

  m.def(
      "breadth_first_order",
      [](py::handle csgraph, std::int64_t i_start, bool directed, bool return_predecessors,
         const std::optional<RuntimeHandle>& runtime) {
        return graph_of(csgraph, directed, runtime)
            ->breadth_first_order(i_start, return_predecessors);
      },
      py::arg("csgraph"), py::arg("i_start"), py::arg("directed") = true,
      py::arg("return_predecessors") = true, py::kw_only(), runtime_arg(), R"doc(
As scipy.sparse.csgraph.breadth_first_order: the vertices reached from i_start in breadth-first
order (int32), and with return_predecessors each vertex's predecessor in the search tree (int32,
-9999 for the source and unreached vertices). The levels come in the same order as SciPy's; inside
a level the order, and so which of several parents one level up is a vertex's predecessor, may
differ. directed=False follows edges both ways. csgraph may be a treefix.Graph.)doc");

  m.def(
      "connected_components",
      [](py::handle csgraph, bool directed, const std::string& connection, bool return_labels,
         const std::optional<RuntimeHandle>& runtime) {
        return graph_of(csgraph, directed, runtime)
            ->connected_components(directed, connection, return_labels);
      },
      py::arg("csgraph"), py::arg("directed") = false, py::arg("connection") = "weak",
      py::arg("return_labels") = true, py::kw_only(), runtime_arg(), R"doc(
As scipy.sparse.csgraph.connected_components: (n_components, labels), labels int32. Components
are weak (edges taken both ways); connection="strong" with directed=True is refused (ValueError).
Components are numbered 0, 1, ... in the order of their smallest vertex (SciPy numbers
undirected components the same way; other numberings are possible in general).)doc");

  m.def(
      "rooted_spanning_tree",
      [](py::handle csgraph, std::int64_t root, const std::string& method,
         const std::optional<RuntimeHandle>& runtime) {
        return graph_of(csgraph, false, runtime)->rooted_spanning_tree(root, method);
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
