#pragma once
// What the graph functions accept as `csgraph`, read as scipy.sparse.csgraph reads it
// (_validation.py, _tools.pyx), and described for the device (treefix/graph/device_matrix.hpp)
// without a host copy:
//   scipy.sparse csr, csc, coo (matrices and arrays): their index arrays and values where they
//     lie, when C-contiguous int32 or int64 (other widths are converted once); every stored
//     entry is an edge, explicit zeros included; other formats go through .tocsr() (SciPy's own
//     conversion, as SciPy does);
//   masked arrays: every unmasked entry is an edge, whatever its value;
//   dense arrays, np.matrix and lists: entries equal to 0 (within 1e-8 for floats, as
//     numpy.ma.masked_values), +-inf and NaN are not edges; the rest are, row by row. These are
//     turned into csr arrays on all host cores (two passes over the n^2 values).
// Values, when a function needs them, are the entries' values in their own type (int32, int64,
// float32, float64; bool and narrower integers as int64, float16 as float32); dense inputs give
// float64, as SciPy converts them.
#include <pybind11/pybind11.h>

#include <string>

#include "treefix/graph/device_matrix.hpp"

namespace treefix::python {

namespace py = pybind11;

struct MatrixInput {
  HostMatrix matrix;  // points into the arrays below, which it keeps alive
  py::object offsets, indices, rows;  // contiguous NumPy index arrays (null when not used)
  py::object data;    // the entries' values as the input holds them (null: a pattern)
  py::object values;  // `data` as weights, once load_values made them (matrix.values points in)
};

// `csgraph` as above. Refuses what is not 2-D and square (ValueError, as SciPy). The values are
// noted, not read.
MatrixInput matrix_input(py::handle csgraph);

// The values as weights (matrix.values set; nothing when done before): TypeError for values
// that are not numbers or do not fit (complex, uint64), ValueError for a graph without values.
void load_values(MatrixInput& input);

// The state pickle keeps of a matrix input: (layout, n, offsets, indices, rows, data), arrays or
// None; and the input again from it.
py::tuple matrix_state(const MatrixInput& input);
MatrixInput matrix_from_state(const py::tuple& state);

}  // namespace treefix::python
