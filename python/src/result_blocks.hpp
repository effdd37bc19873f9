#pragma once
// Large result arrays on the library's result memory (treefix/core/result_memory.hpp): blocks
// reused once NumPy lets go of them, returned to the operating system by
// treefix.release_cached_results(). The arrays are ordinary, writeable, C-contiguous NumPy arrays.
#include <pybind11/numpy.h>

#include <cstddef>
#include <vector>

namespace treefix::python {

namespace py = pybind11;

struct ResultArray {
  py::array array;
  bool fresh_pages = false;  // true: never written, worth mapping ahead of the device's download
};

// An uninitialised C-contiguous array of `dtype` and `shape`, on a result block when it is large
// (MemoryError with the numbers, before anything is mapped, when the host cannot hold it); every
// element must be written before it is returned to Python.
ResultArray uninitialised_array(const py::dtype& dtype, const std::vector<py::ssize_t>& shape);

}  // namespace treefix::python
