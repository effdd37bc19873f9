// treefix.Graph's device side (graph_object.hpp).
#include "graph_object.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "result_blocks.hpp"
#include "treefix/graph/bfs.hpp"
#include "treefix/graph/bfs_tree.hpp"
#include "treefix/graph/connectivity.hpp"
#include "treefix/graph/spanning_forest.hpp"
#include "treefix/graph/strong_components.hpp"
#include "treefix/graph/vertex_results.hpp"

namespace treefix::python {
namespace {

// SciPy's mark for "no predecessor" (unreached vertices and the source).
constexpr std::int32_t kNoPredecessor = -9999;

template <class T>
py::array_t<T> numpy_copy(const std::vector<T>& values) {
  return py::array_t<T>(static_cast<py::ssize_t>(values.size()), values.data());
}

}  // namespace

py::object csr_matrix(std::size_t n, const std::vector<std::int64_t>& row_offset,
                      const std::vector<vertex_t>& column, const std::vector<double>& value) {
  static const py::object& make =
      *new py::object(py::module_::import("scipy.sparse").attr("csr_matrix"));
  std::vector<std::int32_t> indptr(row_offset.begin(), row_offset.end());  // entries < n here
  if (indptr.empty()) indptr.push_back(0);
  return make(py::make_tuple(numpy_copy(value), numpy_copy(column), numpy_copy(indptr)),
              py::arg("shape") = py::make_tuple(n, n));
}

namespace {

// SciPy's result: the forest's entries where they are stored, float64, stored zeros dropped
// (csr eliminate_zeros: zero-weight edges join trees but are not listed). Entries come in CSR
// order, except from a csc matrix (A^T's order).
py::object forest_matrix(std::size_t n, const SpanningForest& forest) {
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < forest.row.size(); ++i)
    if (forest.value[i] != 0) kept.push_back(i);
  auto before = [&](std::size_t a, std::size_t b) {
    return forest.row[a] != forest.row[b] ? forest.row[a] < forest.row[b]
                                          : forest.column[a] < forest.column[b];
  };
  if (!std::is_sorted(kept.begin(), kept.end(), before))
    std::sort(kept.begin(), kept.end(), before);
  std::vector<std::int64_t> row_offset(n + 1, 0);
  std::vector<vertex_t> column;
  std::vector<double> value;
  for (std::size_t i : kept) {
    ++row_offset[forest.row[i] + 1];
    column.push_back(forest.column[i]);
    value.push_back(forest.value[i]);
  }
  for (std::size_t v = 0; v < n; ++v) row_offset[v + 1] += row_offset[v];
  return csr_matrix(n, row_offset, column, value);
}

}  // namespace

Graph::Graph(RuntimeHandle box, MatrixInput input, bool directed, bool with_values)
    : box_(std::move(box)), input_(std::move(input)), directed_(directed) {
  if (with_values) require_values();
  on_device(*box_, [&](Runtime& runtime) {
    MatrixUpload options;
    options.values = with_values;
    // Undirected: a csc matrix's A^T as it lies has the same undirected graph.
    options.transpose_ok = !directed;
    DeviceMatrix matrix = upload_matrix(runtime, input_.matrix, options);
    graph_ = pattern_graph(runtime, matrix);
    if (!directed) graph_ = undirected_graph(runtime, graph_);
    if (with_values) weighted_ = std::move(matrix);
  });
}

void Graph::check_vertex(std::int64_t v, const char* what) const {
  if (v < 0 || static_cast<std::uint64_t>(v) >= n())
    throw InputError(std::string(what) + " = " + std::to_string(v) +
                     " is not a vertex (there are " + std::to_string(n()) + ")");
}

const DeviceGraph& Graph::view(Runtime& runtime, bool directed) {
  if (directed || graph_.undirected()) return graph_;
  if (!undirected_) undirected_ = undirected_graph(runtime, graph_);
  return *undirected_;
}

const DeviceMatrix& Graph::weighted(Runtime& runtime) {
  if (!weighted_) {
    MatrixUpload options;
    options.values = true;
    options.transpose_ok = true;  // both users of the weights read A^T as well
    weighted_ = upload_matrix(runtime, input_.matrix, options);
  }
  return *weighted_;
}

py::object Graph::breadth_first_order(std::int64_t i_start, bool directed,
                                      bool return_predecessors) {
  check_vertex(i_start, "i_start");
  // The search and the parents' marks, then the result arrays (made with the GIL held, once the
  // order's length is known; large ones reuse freed results' memory), then the reads into them.
  DeviceBfs search = on_device(*box_, [&](Runtime& runtime) {
    DeviceBfs found = bfs(runtime, view(runtime, directed), {static_cast<vertex_t>(i_start)});
    if (return_predecessors) mark_missing_parents(runtime, found.parent, kNoPredecessor);
    return found;
  });
  const ResultArray order = uninitialised_array(py::dtype::of<std::int32_t>(),
                                                {static_cast<py::ssize_t>(search.reached())});
  const ResultArray predecessors = uninitialised_array(
      py::dtype::of<std::int32_t>(), {static_cast<py::ssize_t>(return_predecessors ? n() : 0)});
  auto* reached = static_cast<std::int32_t*>(order.array.request().ptr);
  auto* parent = static_cast<std::int32_t*>(predecessors.array.request().ptr);
  on_device(*box_, [&](Runtime& runtime) {
    if (search.reached()) search.order.read_into(runtime, reached, search.reached());
    if (return_predecessors && n() > 0) search.parent.read_into(runtime, parent, n());
  });
  if (!return_predecessors) return order.array;
  return py::make_tuple(order.array, predecessors.array);
}

py::object Graph::breadth_first_tree(std::int64_t i_start, bool directed) {
  check_vertex(i_start, "i_start");
  require_values();
  WeightedCsr tree = on_device(*box_, [&](Runtime& runtime) {
    DeviceBfs search = bfs(runtime, view(runtime, directed), {static_cast<vertex_t>(i_start)});
    return bfs_tree_matrix(runtime, weighted(runtime), search.parent, directed);
  });
  return csr_matrix(n(), tree.row_offset, tree.column, tree.value);
}

py::object Graph::connected_components(bool directed, const std::string& connection,
                                       bool return_labels) {
  std::string kind = connection;
  std::transform(kind.begin(), kind.end(), kind.begin(), [](unsigned char c) { return std::tolower(c); });
  if (kind != "weak" && kind != "strong")
    throw InputError("connection: expected 'weak' or 'strong', got '" + connection + "'");
  const bool strong = kind == "strong" && directed;  // SciPy: undirected graphs have weak ones
  const ResultArray labels = uninitialised_array(py::dtype::of<std::int32_t>(),
                                                 {static_cast<py::ssize_t>(return_labels ? n() : 0)});
  auto* label = static_cast<std::int32_t*>(labels.array.request().ptr);
  const std::size_t count = on_device(*box_, [&](Runtime& runtime) -> std::size_t {
    DeviceArray<vertex_t> minimum;
    if (strong) {
      minimum = strong_components(runtime, view(runtime, true)).label;
    } else {
      minimum = treefix::connected_components(runtime, view(runtime, false)).label;
    }
    const std::size_t found = number_components(runtime, minimum, true);
    if (return_labels && n() > 0) minimum.read_into(runtime, label, n());
    return found;
  });
  if (!return_labels) return py::int_(count);
  return py::make_tuple(count, labels.array);
}

py::object Graph::minimum_spanning_tree() {
  require_values();
  SpanningForest forest = on_device(*box_, [&](Runtime& runtime) {
    const DeviceMatrix& matrix = weighted(runtime);
    if (!ranks_) ranks_ = rank_edges(runtime, matrix);
    return minimum_spanning_forest(runtime, matrix, *ranks_);
  });
  return forest_matrix(n(), forest);
}

py::object minimum_spanning_tree_of(const RuntimeHandle& box, MatrixInput input) {
  load_values(input);
  SpanningForest forest = on_device(*box, [&](Runtime& runtime) {
    MatrixUpload options;
    options.values = true;
    options.transpose_ok = true;
    return minimum_spanning_forest(runtime, upload_matrix(runtime, input.matrix, options));
  });
  return forest_matrix(input.matrix.n, forest);
}

py::array Graph::rooted_spanning_tree(std::int64_t root, const std::string& method) {
  check_vertex(root, "root");
  RstOptions options;
  options.method = parse<RstMethod>(method);
  options.root = static_cast<vertex_t>(root);
  ParentArray parent = on_device(*box_, [&](Runtime& runtime) {
    const DeviceGraph& graph = view(runtime, false);
    if (!host_undirected_) host_undirected_ = std::make_shared<Csr>(download_graph(runtime, graph));
    return rooted_spanning_forest(runtime, *host_undirected_, graph, options);
  });
  return py::array_t<std::int32_t>(static_cast<py::ssize_t>(parent.size()), parent.data());
}

py::tuple Graph::state() const { return py::make_tuple(matrix_state(input_), directed_); }

}  // namespace treefix::python
