// NumPy conversions shared by the bindings (arrays.hpp).
#include "arrays.hpp"

#include <cmath>
#include <limits>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/core/parallel.hpp"

namespace treefix::python {

py::array contiguous(py::handle obj, const py::dtype& dtype) {
  // Never released: a static py::object would be released after the interpreter has ended.
  static const py::object& ascontiguousarray =
      *new py::object(py::module_::import("numpy").attr("ascontiguousarray"));
  return ascontiguousarray(obj, dtype);
}

py::array numeric_array(py::handle obj, const std::string& what) {
  // Never released: a static py::object would be released after the interpreter has ended.
  static const py::object& asarray = *new py::object(py::module_::import("numpy").attr("asarray"));
  py::array array = asarray(obj);
  const char kind = array.dtype().kind();
  if (kind != 'b' && kind != 'i' && kind != 'u' && kind != 'f')
    throw py::type_error(what + ": expected numbers, got an array of dtype " +
                         dtype_text(array.dtype()));
  return array;
}

ValueType weight_type(const py::array& array, const std::string& what) {
  const py::dtype dtype = array.dtype();
  const char kind = dtype.kind();
  if (kind == 'f') return dtype.itemsize() <= 4 ? ValueType::float32 : ValueType::float64;
  if (kind == 'u' && dtype.itemsize() == 8)
    throw py::type_error(what + ": uint64 values do not all fit int64; convert them first");
  if (kind == 'i' && dtype.itemsize() == 4) return ValueType::int32;
  if (kind == 'b' || kind == 'i' || kind == 'u') return ValueType::int64;
  throw py::type_error(what + ": expected int32, int64, float32 or float64 values, got dtype " +
                       dtype_text(dtype));
}

py::dtype dtype_of(ValueType type) {
  return visit_value_type(type, [](auto zero) { return py::dtype::of<decltype(zero)>(); });
}

std::vector<std::int32_t> int32_vector(py::handle obj, const std::string& what) {
  py::array array = numeric_array(obj, what);
  const char kind = array.dtype().kind();
  if (kind != 'i' && kind != 'u')
    throw py::type_error(what + ": expected integers (int32 or int64), got dtype " +
                         dtype_text(array.dtype()));
  if (array.ndim() != 1)
    throw py::value_error(what + ": expected a 1-D array, got " + shape_text(array));
  const std::size_t n = static_cast<std::size_t>(array.shape(0));
  // A 2^24-vertex tree is 64 MiB: its pages mapped ahead and the values copied on every host
  // core (a fresh vector filled on one thread costs more than building the tree on the device).
  std::vector<std::int32_t> values;
  values.reserve(n);
  prefault_for_writing(values.data(), n * sizeof(std::int32_t));
  values.resize(n);
  if (kind == 'i' && array.dtype().itemsize() == 4) {
    auto in = contiguous_as<std::int32_t>(array);
    const std::int32_t* data = in.data();
    py::gil_scoped_release release;
    parallel_memcpy(values.data(), data, n * sizeof(std::int32_t));
    return values;
  }
  if (kind == 'u' && array.dtype().itemsize() == 8) {  // uint64 above 2^63 would wrap in int64
    auto in = contiguous_as<std::uint64_t>(array);
    const std::uint64_t* data = in.data();
    for (std::size_t i = 0; i < n; ++i)
      if (data[i] > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
        throw InputError(what + ": element " + std::to_string(i) + " (" +
                         std::to_string(data[i]) + ") is outside the 32-bit vertex ids");
  }
  auto in = contiguous_as<std::int64_t>(array);  // every other integer kind converts exactly
  const std::int64_t* data = in.data();
  FirstFlagged bad(n);
  {
    py::gil_scoped_release release;
    for_slices(n, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        const std::int64_t x = data[i];
        if (x < std::numeric_limits<std::int32_t>::min() ||
            x > std::numeric_limits<std::int32_t>::max())
          bad.flag(i);
        values[i] = static_cast<std::int32_t>(x);
      }
    });
  }
  if (const std::size_t i = bad.first(); i < n)
    throw InputError(what + ": element " + std::to_string(i) + " (" + std::to_string(data[i]) +
                     ") is outside the 32-bit vertex ids");
  return values;
}

py::array_t<float> point_rows(py::handle obj, const std::string& what, int max_dim) {
  py::array array = numeric_array(obj, what);
  if (array.ndim() != 2)
    throw py::value_error(what + ": expected a 2-D array of shape (n, d), got " +
                          shape_text(array));
  const py::ssize_t dim = array.shape(1);
  if (dim < 1 || dim > max_dim)
    throw py::value_error(what + ": " + std::to_string(dim) + " coordinates per point; 1 to " +
                          std::to_string(max_dim) + " are supported");
  return contiguous_as<float>(array);
}

PointColumns columns_of(const py::array_t<float>& rows, const std::string& what) {
  PointColumns points;
  points.n = static_cast<std::size_t>(rows.shape(0));
  points.dim = static_cast<int>(rows.shape(1));
  points.coord.resize(points.n * points.dim);
  const float* data = rows.data();
  const std::size_t n = points.n, dim = static_cast<std::size_t>(points.dim);
  float* coord = points.coord.data();
  py::gil_scoped_release release;
  // Rows (x, y, z) to columns: the device reads each coordinate as one array. The first
  // non-finite value in row order is the one reported, whichever slice finds it.
  FirstFlagged bad(n * dim);
  for_slices(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      for (std::size_t k = 0; k < dim; ++k) {
        const float value = data[i * dim + k];
        if (!std::isfinite(value)) bad.flag(i * dim + k);
        coord[k * n + i] = value;
      }
  });
  if (const std::size_t e = bad.first(); e < n * dim)  // (unwinding takes the GIL back)
    throw InputError(what + ": element [" + std::to_string(e / dim) + ", " +
                     std::to_string(e % dim) + "] is not a finite float");
  return points;
}

PointColumns point_columns(py::handle obj, const std::string& what, int max_dim) {
  return columns_of(point_rows(obj, what, max_dim), what);
}

void for_slices(std::size_t n, const std::function<void(std::size_t, std::size_t)>& body) {
  const Ranges slices(n, 4 * std::max(1u, host_threads()), std::size_t{1} << 16);
  if (slices.count == 1) return body(0, n);
  parallel_for(slices.count, [&](std::size_t s) { body(slices.begin(s), slices.end(s)); });
}

std::string path_text(py::handle path) {
  // Never released: a static py::object would be released after the interpreter has ended.
  static const py::object& fspath = *new py::object(py::module_::import("os").attr("fspath"));
  return fspath(path).cast<std::string>();
}

std::string dtype_text(const py::dtype& dtype) {
  return py::str(static_cast<const py::handle&>(dtype)).cast<std::string>();
}

std::string shape_text(const py::array& array) {
  std::string text = "shape (";
  for (py::ssize_t d = 0; d < array.ndim(); ++d)
    text += (d ? ", " : "") + std::to_string(array.shape(d));
  return text + (array.ndim() == 1 ? ",)" : ")");
}

const py::module_& numpy() {
  // Never released: a static py::object would be released after the interpreter has ended.
  static const py::module_& module = *new py::module_(py::module_::import("numpy"));
  return module;
}

}  // namespace treefix::python
