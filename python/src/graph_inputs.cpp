// csgraph inputs as scipy.sparse.csgraph reads them, described for the device (graph_inputs.hpp).
#include "graph_inputs.hpp"

#include <pybind11/numpy.h>

#include <cmath>

#include "arrays.hpp"
#include "treefix/core/error.hpp"

namespace treefix::python {
namespace {

std::string shape_of(py::handle shape) { return py::str(shape).cast<std::string>(); }

void require_square(py::ssize_t rows, py::ssize_t cols, py::handle shape) {
  if (rows != cols)
    throw InputError("csgraph: expected a square matrix (shape (N, N)), got shape " +
                     shape_of(shape));
}

// An index array where it lies when it is C-contiguous int32 or int64, else converted to int64.
HostIndices index_array(py::handle obj, const std::string& what, py::object& keep) {
  py::array array = numeric_array(obj, what);
  const char kind = array.dtype().kind();
  if (kind != 'i' && kind != 'u')
    throw py::type_error(what + ": expected integers, got dtype " + dtype_text(array.dtype()));
  if (array.ndim() != 1)
    throw py::value_error(what + ": expected a 1-D array, got " + shape_text(array));
  const bool narrow = kind == 'i' && array.dtype().itemsize() == 4;
  py::array held = narrow ? py::array(contiguous(array, py::dtype::of<std::int32_t>()))
                          : py::array(contiguous(array, py::dtype::of<std::int64_t>()));
  keep = held;
  return {held.data(), static_cast<std::size_t>(held.shape(0)), !narrow};
}

MatrixInput sparse_input(py::object matrix) {
  const auto shape = matrix.attr("shape").cast<py::tuple>();
  if (shape.size() != 2)
    throw InputError("csgraph: expected a 2-D matrix, got shape " + shape_of(shape));
  require_square(shape[0].cast<py::ssize_t>(), shape[1].cast<py::ssize_t>(), shape);
  std::string format = matrix.attr("format").cast<std::string>();
  if (format != "csr" && format != "csc" && format != "coo") {
    matrix = matrix.attr("tocsr")();  // lil, dok, bsr, dia: SciPy's own conversion, as SciPy
    format = "csr";
  }
  MatrixInput in;
  HostMatrix& m = in.matrix;
  m.n = shape[0].cast<std::size_t>();
  m.what = "csgraph";
  if (format == "coo") {
    m.layout = SparseLayout::coo;
    m.rows = index_array(matrix.attr("row"), "csgraph row indices", in.rows);
    m.indices = index_array(matrix.attr("col"), "csgraph column indices", in.indices);
  } else {
    m.layout = format == "csr" ? SparseLayout::csr : SparseLayout::csc;
    m.offsets = index_array(matrix.attr("indptr"), "csgraph indptr", in.offsets);
    m.indices = index_array(matrix.attr("indices"), "csgraph indices", in.indices);
  }
  in.data = matrix.attr("data");
  return in;
}

// Dense values (float64, row-major) to csr arrays: entry (i, j) is an edge where `edge` says.
template <class Edge>
MatrixInput dense_csr(const double* value, std::size_t n, Edge edge) {
  MatrixInput in;
  py::array_t<std::int64_t> offsets(static_cast<py::ssize_t>(n + 1));
  std::int64_t* offset = offsets.mutable_data();
  {
    py::gil_scoped_release release;
    offset[0] = 0;
    for_slices(n, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        std::int64_t count = 0;
        for (std::size_t j = 0; j < n; ++j) count += edge(i * n + j);
        offset[i + 1] = count;
      }
    });
    for (std::size_t i = 0; i < n; ++i) offset[i + 1] += offset[i];
  }
  const auto entries = static_cast<py::ssize_t>(offset[n]);
  py::array_t<std::int32_t> columns(entries);
  py::array_t<double> values(entries);
  std::int32_t* column = columns.mutable_data();
  double* kept = values.mutable_data();
  {
    py::gil_scoped_release release;
    for_slices(n, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        std::int64_t at = offset[i];
        for (std::size_t j = 0; j < n; ++j)
          if (edge(i * n + j)) {
            column[at] = static_cast<std::int32_t>(j);
            kept[at] = value[i * n + j];
            ++at;
          }
      }
    });
  }
  in.offsets = offsets;
  in.indices = columns;
  HostMatrix& m = in.matrix;
  m.layout = SparseLayout::csr;
  m.n = n;
  m.what = "csgraph";
  m.offsets = {offset, n + 1, true};
  m.indices = {column, static_cast<std::size_t>(entries), false};
  in.data = values;
  return in;
}

MatrixInput dense_input(py::handle csgraph) {
  const bool masked = numpy().attr("ma").attr("isMaskedArray")(csgraph).cast<bool>();
  py::array data = numeric_array(
      masked ? numpy().attr("ma").attr("getdata")(csgraph) : py::reinterpret_borrow<py::object>(csgraph),
      "csgraph");
  if (data.ndim() != 2)
    throw InputError("csgraph: expected a 2-D array, got " + shape_text(data));
  require_square(data.shape(0), data.shape(1), py::make_tuple(data.shape(0), data.shape(1)));
  const std::size_t n = static_cast<std::size_t>(data.shape(0));
  if (n >= static_cast<std::size_t>(INT32_MAX))
    throw CapacityError("csgraph: " + std::to_string(n) + " vertices exceed 2^31 - 1");
  py::array_t<double> values = contiguous_as<double>(data);
  const double* value = values.data();
  if (masked) {
    py::array_t<bool> mask = contiguous_as<bool>(numpy().attr("ma").attr("getmaskarray")(csgraph));
    const bool* hidden = mask.data();
    return dense_csr(value, n, [hidden](std::size_t k) { return !hidden[k]; });
  }
  // numpy.ma.masked_values(graph, 0): |x| <= 1e-8 is "no edge"; so are +-inf and NaN.
  return dense_csr(value, n, [value](std::size_t k) {
    const double x = value[k];
    return std::isfinite(x) && !(std::fabs(x) <= 1e-8);
  });
}

py::object or_none(const py::object& array) { return array ? array : py::none(); }

}  // namespace

MatrixInput matrix_input(py::handle csgraph) {
  static const py::object& issparse =
      *new py::object(py::module_::import("scipy.sparse").attr("issparse"));
  if (issparse(csgraph).cast<bool>())
    return sparse_input(py::reinterpret_borrow<py::object>(csgraph));
  return dense_input(csgraph);
}

void load_values(MatrixInput& in) {
  if (in.values) return;
  if (!in.data) throw InputError("csgraph: the graph has no values (weights)");
  py::array array = numeric_array(in.data, "csgraph values");
  if (array.ndim() != 1 || static_cast<std::size_t>(array.shape(0)) != in.matrix.entries())
    throw InputError("csgraph values: expected " + std::to_string(in.matrix.entries()) +
                     " values, one per stored entry, got " + shape_text(array));
  const ValueType type = weight_type(array, "csgraph values");
  py::array held = contiguous(array, dtype_of(type));
  in.values = held;
  in.matrix.values = held.data();
  in.matrix.value_type = type;
}

py::tuple matrix_state(const MatrixInput& in) {
  const char* layout[] = {"csr", "csc", "coo"};
  return py::make_tuple(layout[static_cast<int>(in.matrix.layout)], in.matrix.n,
                        or_none(in.offsets), or_none(in.indices), or_none(in.rows),
                        or_none(in.data));
}

MatrixInput matrix_from_state(const py::tuple& state) {
  if (state.size() != 6) throw InputError("treefix.Graph: not a pickled Graph's state");
  const std::string layout = state[0].cast<std::string>();
  MatrixInput in;
  HostMatrix& m = in.matrix;
  m.n = state[1].cast<std::size_t>();
  m.what = "csgraph";
  m.layout = layout == "coo" ? SparseLayout::coo
             : layout == "csc" ? SparseLayout::csc
                               : SparseLayout::csr;
  if (!state[2].is_none()) m.offsets = index_array(state[2], "indptr", in.offsets);
  m.indices = index_array(state[3], "indices", in.indices);
  if (!state[4].is_none()) m.rows = index_array(state[4], "row indices", in.rows);
  if (!state[5].is_none()) in.data = state[5];
  return in;
}

}  // namespace treefix::python
