// cKDTree's argument conventions for KDTree's queries (kdtree_arguments.hpp).
#include "kdtree_arguments.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <string>

#include "arrays.hpp"

namespace treefix::python {
namespace {


// Whether two arrays of `count` doubles hold the same bits (compared on every host core).
bool same_bytes(const void* a, const void* b, std::size_t count) {
  std::atomic<bool> same{true};
  const auto* x = static_cast<const char*>(a);
  const auto* y = static_cast<const char*>(b);
  py::gil_scoped_release release;
  for_slices(count, [&](std::size_t begin, std::size_t end) {
    const std::size_t at = begin * sizeof(double), bytes = (end - begin) * sizeof(double);
    if (same.load(std::memory_order_relaxed) && std::memcmp(x + at, y + at, bytes) != 0)
      same = false;
  });
  return same;
}

}  // namespace

unsigned worker_threads(py::handle workers) {
  if (workers.is_none()) return 1;
  const py::ssize_t n = py::module_::import("operator").attr("index")(workers).cast<py::ssize_t>();
  if (n == -1) {
    py::object count = py::module_::import("os").attr("cpu_count")();
    if (count.is_none()) {
      PyErr_SetString(PyExc_NotImplementedError,
                      "Cannot determine the number of cpus using os.cpu_count(), cannot use -1 "
                      "for the number of workers");
      throw py::error_already_set();
    }
    return count.cast<unsigned>();
  }
  if (n <= 0)
    throw py::value_error("Invalid number of workers " + std::to_string(n) + ", must be -1 or > 0");
  return static_cast<unsigned>(std::min<py::ssize_t>(n, 4096));
}

void check_p(double p) {
  if (!(p >= 1)) throw py::value_error("Only p-norms with 1<=p<=infinity permitted");
}

void check_eps(double eps) {
  if (!(eps >= 0)) throw py::value_error("eps must be non-negative, not " + std::to_string(eps));
}

Queries queries_of(py::handle x, const KDTree& tree) {
  Queries q;
  py::array given = numpy().attr("asarray")(x);
  if (given.dtype().kind() == 'c') throw py::type_error("KDTree does not work with complex data");
  py::array rows = numpy().attr("ascontiguousarray")(given, py::arg("dtype") = "float64");
  if (rows.ndim() == 0 || rows.shape(rows.ndim() - 1) != tree.m()) {
    std::string shape =
        py::str(py::cast(std::vector<py::ssize_t>(rows.shape(), rows.shape() + rows.ndim())))
            .cast<std::string>();
    throw py::value_error("x must consist of vectors of length " + std::to_string(tree.m()) +
                          " but has shape " + shape);
  }
  q.single = rows.ndim() == 1;
  q.shape.assign(rows.shape(), rows.shape() + rows.ndim() - 1);
  q.count = 1;
  for (py::ssize_t s : q.shape) q.count *= static_cast<std::size_t>(s);
  q.rows = rows;
  py::array data = tree.data();
  q.own = tree.n() > 0 && !q.single && q.count == static_cast<std::size_t>(tree.n()) &&
          (rows.data() == data.data() || same_bytes(rows.data(), data.data(), q.count * tree.m()));
  return q;
}

UploadedQueries upload(Runtime& runtime, const Queries& q, int dim) {
  UploadedQueries u;
  if (q.own) return u;
  u.points = DevicePoints64::upload_rows(runtime, static_cast<const double*>(q.rows.data()),
                                         q.count, dim, "'x'");
  u.source.points = &u.points;
  return u;
}

// cKDTree's k: an integer (ranks 1 .. k; `nearest` when 1) or a sequence of ranks.
std::vector<std::int64_t> ranks_of(py::handle k, bool& nearest) {
  if (k.is_none()) throw py::value_error("k must be an integer or a sequence of integers");
  nearest = false;
  std::vector<std::int64_t> ranks;
  if (numpy().attr("isscalar")(k).cast<bool>()) {
    py::object value = py::reinterpret_borrow<py::object>(k);
    double as_double = value.cast<double>();
    if (!(as_double == std::floor(as_double)) || !std::isfinite(as_double))
      throw py::value_error("k must be an integer or a sequence of integers, not " +
                            py::repr(k).cast<std::string>());
    const std::int64_t most = static_cast<std::int64_t>(as_double);
    if (most < 1) throw py::value_error("k must be at least 1, not " + std::to_string(most));
    nearest = most == 1;
    ranks.resize(static_cast<std::size_t>(most));
    for (std::int64_t r = 0; r < most; ++r) ranks[r] = r + 1;
    return ranks;
  }
  py::array values = numpy().attr("asarray")(k);
  if (values.ndim() != 1 || values.size() == 0 ||
      !(values.dtype().kind() == 'i' || values.dtype().kind() == 'u' ||
        values.dtype().kind() == 'f'))
    throw py::value_error("k must be an integer or a sequence of integers");
  py::array_t<double> asked = numpy().attr("asarray")(values, py::arg("dtype") = "float64");
  for (py::ssize_t t = 0; t < asked.size(); ++t) {
    const double r = asked.data()[t];
    if (!(r == std::floor(r)) || !(r >= 1))
      throw py::value_error("k must be integers >= 1, not " +
                            py::repr(py::float_(r)).cast<std::string>());
    ranks.push_back(static_cast<std::int64_t>(r));
  }
  return ranks;
}

std::vector<py::ssize_t> with_last(std::vector<py::ssize_t> shape, py::ssize_t last) {
  shape.push_back(last);
  return shape;
}

// The same periodic box on both trees' data: the searched tree's points must lie in this one's.
void check_other_in_box(const KDTree& self, const KDTree& other, const char* what) {
  if (self.boxsize().is_none() || other.n() == 0) return;
  auto box = self.boxsize().cast<py::array_t<double>>();
  auto lo = other.mins().cast<py::array_t<double>>();
  auto hi = other.maxes().cast<py::array_t<double>>();
  for (py::ssize_t k = 0; k < self.m(); ++k)
    if (box.data()[k] > 0 && (lo.data()[k] < 0 || hi.data()[k] >= box.data()[k]))
      throw py::value_error(std::string(what) +
                            ": the other tree's points lie outside this tree's periodic box");
}

void check_same_dimension(const KDTree& self, const KDTree& other, const char* what) {
  if (self.m() != other.m())
    throw py::value_error(std::string("Trees passed to ") + what +
                          " have different dimensionality");
}

}  // namespace treefix::python
