#pragma once
// Large result arrays whose memory is reused once NumPy lets go of them.
//
// Why: a fresh 64 MiB NumPy array is a fresh mmap, and the kernel zeroes its 16,384 pages on the
// first write: on the GPU hosts that is as long as the whole device call of a 2^24 rootfix. A
// loop that computes into new arrays and drops the old ones (`d = tree.rootfix(w)`) gets, from
// the second call on, blocks whose pages are already mapped. Blocks come back when their array is
// garbage collected, are kept up to a bound (`kCachedBytesLimit`), and are handed out only for
// the same size. The arrays are ordinary, writeable, C-contiguous NumPy arrays.
#include <pybind11/numpy.h>

#include <cstddef>
#include <vector>

namespace treefix::python {

namespace py = pybind11;

struct ResultArray {
  py::array array;
  bool fresh_pages = false;  // true: never written, worth mapping ahead of the device's download
};

// An uninitialised C-contiguous array of `dtype` and `shape`, from a reused block when it is
// large; every element must be written before it is returned to Python.
ResultArray uninitialised_array(const py::dtype& dtype, const std::vector<py::ssize_t>& shape);

// Bytes held by freed blocks awaiting reuse (for tests and treefix.cached_result_bytes()).
std::size_t cached_result_bytes();
// Frees every block awaiting reuse.
void release_cached_results();

}  // namespace treefix::python
