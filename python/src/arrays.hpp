#pragma once
// NumPy arrays in and out of the bindings.
//
// In: an array that is C-contiguous, native-endian and of the dtype a function computes in is
// read where it lies (its pointer goes straight to the device transfer); anything else NumPy can
// convert (a list, a strided view, another integer or float width, a byte-swapped array) is
// converted once by numpy.ascontiguousarray; the rest (strings, objects, complex numbers) is
// refused with a TypeError naming the argument.
// Out: results are new NumPy arrays (or the caller's `out` array) that device transfers write
// into directly.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "treefix/core/types.hpp"

namespace treefix::python {

namespace py = pybind11;

// numpy.ascontiguousarray(obj, dtype): no copy when obj already is such an array.
// The numpy module, imported once and kept for the process.
const py::module_& numpy();

py::array contiguous(py::handle obj, const py::dtype& dtype);
// np.asarray(obj), refusing what holds no numbers (TypeError naming `what`).
py::array numeric_array(py::handle obj, const std::string& what);

// The value type of weights: int32, int64, float32 and float64 as they are; other integer and
// boolean arrays as int64, other floating-point widths as float32 (half) or float64 (long
// double). uint64 is refused (it does not convert exactly).
ValueType weight_type(const py::array& array, const std::string& what);
py::dtype dtype_of(ValueType type);

template <class T>
py::array_t<T> contiguous_as(py::handle obj) {
  return py::reinterpret_steal<py::array_t<T>>(contiguous(obj, py::dtype::of<T>()).release());
}

// A 1-D int32 index array (vertex ids) from int32 or int64 values (other integer kinds are
// converted). Values that do not fit int32 raise ValueError through `out_of_range(i, value)`.
std::vector<std::int32_t> int32_vector(py::handle obj, const std::string& what);

// A float32 (n, d) array as the library's structure-of-arrays coordinates (coord[k*n + i]).
// Refuses other ranks, d outside 1..max_dim, and non-finite values (ValueError naming the element).
struct PointColumns {
  std::size_t n = 0;
  int dim = 0;
  std::vector<float> coord;
};
PointColumns point_columns(py::handle obj, const std::string& what, int max_dim);
// The two steps of point_columns: the checked (n, d) float32 rows (no copy when obj is one), and
// their columns (on every host core).
py::array_t<float> point_rows(py::handle obj, const std::string& what, int max_dim);
PointColumns columns_of(const py::array_t<float>& rows, const std::string& what);

// body(begin, end) over slices of [0, n) on every host core (for the O(n) passes on results:
// one call per slice, not per element).
void for_slices(std::size_t n, const std::function<void(std::size_t, std::size_t)>& body);

// The first element, in index order, that a check run on slices in parallel flags: each slice
// calls flag(i) for the elements it refuses; first() is the smallest of them (`none` when no
// element was), whichever slice found it, so that the error names the same element every run.
class FirstFlagged {
 public:
  explicit FirstFlagged(std::size_t none) : first_(none) {}
  void flag(std::size_t i) {
    std::size_t seen = first_.load();
    while (i < seen && !first_.compare_exchange_weak(seen, i)) {
    }
  }
  std::size_t first() const { return first_.load(); }

 private:
  std::atomic<std::size_t> first_;
};

// A path given as str or os.PathLike (os.fspath), as the library's std::string.
std::string path_text(py::handle path);

// "float64", for messages.
std::string dtype_text(const py::dtype& dtype);
// "weights of shape (3, 4)" for messages.
std::string shape_text(const py::array& array);

}  // namespace treefix::python
