#pragma once
// treefix.Graph: a csgraph's arcs kept on the device for repeated calls, and what every graph
// function runs on (a one-shot call makes a Graph for its call only). It keeps the input's arrays
// (no copy) to take the weights from when a call first needs them (minimum_spanning_tree,
// breadth_first_tree), and to pickle.
//
// directed: the arcs as stored (every stored off-diagonal entry an arc, repeats merged); else
// every edge both ways. A call asking for directed=False searches both ways whatever the Graph
// is (the undirected arcs are made on the device on first use); directed=True follows the arcs as
// kept, so on a Graph made undirected it follows them both ways too.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graph_inputs.hpp"
#include "runtime.hpp"
#include "treefix/graph/csr.hpp"
#include "treefix/graph/device_graph.hpp"
#include "treefix/graph/device_matrix.hpp"
#include "treefix/graph/minimum_spanning_tree.hpp"

namespace treefix::python {

class Graph {
 public:
  // with_values: upload the weights now (a one-shot call that needs them).
  Graph(RuntimeHandle box, MatrixInput input, bool directed, bool with_values = false);

  std::size_t n() const { return input_.matrix.n; }
  std::size_t arcs() const { return graph_.arcs(); }
  bool directed() const { return directed_; }
  const RuntimeHandle& runtime() const { return box_; }

  // scipy.sparse.csgraph's functions on this graph (their docstrings are in graphs.cpp).
  py::object breadth_first_order(std::int64_t i_start, bool directed, bool return_predecessors);
  py::object breadth_first_tree(std::int64_t i_start, bool directed);
  py::object connected_components(bool directed, const std::string& connection,
                                  bool return_labels);
  py::object minimum_spanning_tree();
  py::array rooted_spanning_tree(std::int64_t root, const std::string& method);

  // For pickle: (the input's state, directed).
  py::tuple state() const;

  // InputError unless 0 <= v < n.
  void check_vertex(std::int64_t v, const char* what) const;

 private:
  // The arcs a call searches (under the runtime's lock).
  const DeviceGraph& view(Runtime& runtime, bool directed);
  // The matrix with its weights (uploaded on first use, after require_values with the GIL).
  const DeviceMatrix& weighted(Runtime& runtime);
  void require_values() { load_values(input_); }

  RuntimeHandle box_;
  MatrixInput input_;
  bool directed_;
  DeviceGraph graph_;
  std::optional<DeviceGraph> undirected_;
  std::optional<DeviceMatrix> weighted_;
  std::optional<EdgeRanks> ranks_;
  std::shared_ptr<Csr> host_undirected_;  // rooted spanning trees take the host CSR too
};

// minimum_spanning_tree of a matrix for one call: its weights uploaded, no graph made.
py::object minimum_spanning_tree_of(const RuntimeHandle& box, MatrixInput input);

// A scipy.sparse.csr_matrix (n, n) of float64 values from CSR arrays.
py::object csr_matrix(std::size_t n, const std::vector<std::int64_t>& row_offset,
                      const std::vector<vertex_t>& column, const std::vector<double>& value);

}  // namespace treefix::python
