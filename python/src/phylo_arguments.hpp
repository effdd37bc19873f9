#pragma once
// What the phylogenetic methods of treefix.Tree (phylo.cpp) take from their arguments and keep
// with a tree: vertices given as ids or names, weights, counts, result arrays, and the cache of
// the lca index, path lengths, tips and name index that a Tree keeps (tree_view.hpp).
#include <pybind11/numpy.h>

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "result_blocks.hpp"
#include "runtime.hpp"
#include "tree_view.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/phylo/lca.hpp"
#include "treefix/phylo/path_lengths.hpp"

namespace treefix::python {

// What a Tree keeps for these methods, made on first use.
struct PhyloCache {
  std::unique_ptr<LcaIndex> lca;
  std::unique_ptr<DeviceArray<double>> lengths;  // edge counts on the device (no branch lengths)
  std::unique_ptr<PathLengths> paths;            // ... and their path lengths
  std::vector<vertex_t> tips;
  bool have_tips = false;
  std::unordered_map<std::string, vertex_t> by_name;  // -1: a name on several vertices
  bool names_indexed = false;
};

// The view of a Tree (`self`) with its cache made: called first by every method, with the GIL
// held. The cache's members are then filled under the runtime's lock (the indexes, the tips) or
// the GIL (the names).
TreeView view_of(py::handle self);
PhyloCache& cache_of(const TreeView& view);

// Made on first use and kept (on the device thread: the runtime's lock held, no GIL). The default
// lengths are the tree's branch lengths, else edge counts (1 for every vertex but a root,
// made on the device: edge_count_lengths).
const LcaIndex& lca_index(const TreeView& view, Runtime& runtime);
const DeviceArray<double>& default_lengths(const TreeView& view, Runtime& runtime);
const std::vector<vertex_t>& tip_list(const TreeView& view, Runtime& runtime);

// Weights as given by the caller (n float64 values), or none: the defaults.
struct Weights {
  std::optional<py::array_t<double>> given;  // none: the defaults
  bool is_default() const { return !given.has_value(); }
  const double* data() const { return given->data(); }
};
Weights weights_argument(const TreeView& view, py::handle weights);

// The path lengths of the weights: the tree's kept ones for the defaults, else made for the call.
struct Paths {
  const PathLengths* paths = nullptr;
  std::unique_ptr<PathLengths> made;
};
Paths path_lengths(const TreeView& view, Runtime& runtime, const Weights& weights);

// Vertex ids from an int, a name, an array of ints or a sequence (or NumPy array) of names:
// int32 values, with their shape (scalar: one value given as a scalar). Names need a named tree
// and name one vertex each (ValueError otherwise).
struct Vertices {
  std::vector<vertex_t> owned;
  py::array_t<std::int32_t> borrowed;  // an int32 C-contiguous array read where it lies
  const vertex_t* data = nullptr;
  std::size_t count = 0;
  std::vector<py::ssize_t> shape;
  bool scalar = false;
};
Vertices vertices_argument(const TreeView& view, py::object obj, const std::string& what);
std::vector<vertex_t> vertex_list(const TreeView& view, py::handle obj, const std::string& what);
// Two vertex arguments of one shape, or one of them a single vertex (repeated).
std::pair<Vertices, Vertices> vertex_pairs(const TreeView& view, py::handle u, py::handle v);

// counts as int64 (integers, or floats that hold whole numbers), 2-D.
py::array_t<std::int64_t> counts_argument(py::handle counts);

// One value as a Python scalar, or the array.
template <class T>
py::object scalar_or_array(py::array_t<T> values, bool scalar) {
  if (scalar) return py::cast(values.data()[0]);
  return std::move(values);
}

// A result array of T in `shape`, every element to be written by the call: a freed block of the
// same size when one waits (a loop of calls maps no new pages), else fresh memory mapped ahead.
template <class T>
py::array_t<T> result_array(const std::vector<py::ssize_t>& shape) {
  ResultArray made = uninitialised_array(py::dtype::of<T>(), shape);
  py::array_t<T> values = py::reinterpret_steal<py::array_t<T>>(made.array.release());
  if (made.fresh_pages) prefault_for_writing(values.mutable_data(), values.nbytes());
  return values;
}

// f(runtime) on the tree's runtime: without the GIL, under the runtime's lock.
template <class F>
auto on_tree(const TreeView& view, F&& f) {
  return on_device(*view.runtime, [&](Runtime& runtime) { return f(runtime); });
}

}  // namespace treefix::python
