#pragma once
// The Python results of KDTree's pair searches (kdtree_queries.cpp), built from the device's
// lists (treefix::PairLists): sorted on the host threads, then turned into lists of Python ints
// (references to the tree's ints, KDTree::index_objects), sets of pairs, arrays, dicts and
// sparse matrices in cKDTree's formats. Building Python objects needs the GIL and is the floor
// of these calls: everything before it runs without the GIL on `threads` threads.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

#include "treefix/core/runtime.hpp"
#include "treefix/spatial/kd_search.hpp"

namespace treefix::python {

namespace py = pybind11;

// Query q's points are index[offset[q] .. offset[q + 1]), with distance[...] when fetched.
struct HostLists {
  std::vector<std::int64_t> offset;
  std::vector<std::int32_t> index;
  std::vector<double> distance;
  std::size_t queries() const { return offset.empty() ? 0 : offset.size() - 1; }
};

// Copies the device's lists to the host (call without the GIL, under the device's lock).
HostLists fetch_lists(Runtime& runtime, const PairLists<double>& lists);
// Sorts every query's points by index (their distances with them), on `threads` host threads.
// Call without the GIL.
void sort_lists(HostLists& lists, unsigned threads);

// An object array of `shape` whose element q is the list of query q's points.
py::array object_array_of_lists(const HostLists& lists, const std::vector<py::ssize_t>& shape,
                                PyObject* const* ints);
// A list of lists (query_ball_tree).
py::list list_of_lists(const HostLists& lists, PyObject* const* ints);
// cKDTree.query_pairs' results: a set of tuples (i, j), or an (pairs, 2) intp array, rows in
// order, where query i's points j are the pairs (i, j).
py::object pair_set(const HostLists& lists, PyObject* const* ints);
py::array pair_array(const HostLists& lists, unsigned threads);
// cKDTree.sparse_distance_matrix's results for `output_type` ('dok_matrix', 'coo_matrix',
// 'dok_array', 'coo_array', 'dict', 'ndarray'), of shape (rows, columns).
py::object sparse_result(const HostLists& lists, py::ssize_t rows, py::ssize_t columns,
                         const std::string& output_type, PyObject* const* row_ints,
                         PyObject* const* column_ints, unsigned threads);

}  // namespace treefix::python
