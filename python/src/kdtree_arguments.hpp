#pragma once
// cKDTree's argument conventions for KDTree's queries (kdtree_queries.cpp): workers, k, query
// points, p and eps, checked and converted as cKDTree does, with its error types and messages.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kdtree.hpp"

namespace treefix::python {

// cKDTree's `workers`: None is 1, -1 every CPU (os.cpu_count(); NotImplementedError when it is
// unknown), otherwise a count >= 1 (ValueError). Here it is the number of host threads of the
// host-side steps (sorting and shaping results).
unsigned worker_threads(py::handle workers);
// ValueError unless 1 <= p <= inf, or eps >= 0.
void check_p(double p);
void check_eps(double eps);

// Query points x of shape (..., m): float64 rows, the shape of the results (x's without the
// last axis), and whether they are the tree's own points (searched without an upload).
struct Queries {
  py::array rows;  // (count, m) float64, C order
  std::vector<py::ssize_t> shape;
  std::size_t count = 0;
  bool single = false, own = false;
};
// TypeError for complex values, ValueError unless the last axis has m values.
Queries queries_of(py::handle x, const KDTree& tree);

// The points on the device, unless they are the tree's own (ValueError for non-finite values).
struct UploadedQueries {
  DevicePoints64 points;
  QuerySource<double> source;
};
UploadedQueries upload(Runtime& runtime, const Queries& q, int dim);

// cKDTree's k: an integer (ranks 1 .. k; `nearest` when 1) or a sequence of ranks (ValueError
// for None, ranks below 1 and non-integers).
std::vector<std::int64_t> ranks_of(py::handle k, bool& nearest);

// `shape` with `last` appended.
std::vector<py::ssize_t> with_last(std::vector<py::ssize_t> shape, py::ssize_t last);

// ValueError unless other's points lie in this tree's periodic box (when it has one), or the
// trees have the same dimension (cKDTree's message).
void check_other_in_box(const KDTree& self, const KDTree& other, const char* what);
void check_same_dimension(const KDTree& self, const KDTree& other, const char* what);

}  // namespace treefix::python
