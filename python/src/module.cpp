// The Python module `treefix`: the library's trees, graphs, points and forests on NumPy and SciPy
// arrays, with the device (context, compiled programs, uploaded data) kept between calls.
#include <pybind11/pybind11.h>

#include <new>

#include "runtime.hpp"
#include "treefix/core/error.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_treefix, m) {  // treefix._treefix, re-exported by python/treefix/__init__.py
  m.doc() = R"doc(
libtreefix-cl on NumPy and SciPy arrays: treefix sums (rootfix, leaffix) on trees, BFS,
connected components and rooted spanning trees on graphs (scipy.sparse.csgraph conventions),
kd-tree queries and Barnes-Hut gravity on points (scipy.spatial.cKDTree conventions), and tree
similarity on RuleML forests, on an OpenCL device (GPU or CPU).

Errors: bad input raises ValueError (the message says what and where), a request beyond the
device's memory MemoryError (with the numbers), a missing or failing device RuntimeError.)doc";

  // The library's three kinds of failure, as Python users expect them.
  py::register_exception_translator([](std::exception_ptr failure) {
    try {
      if (failure) std::rethrow_exception(failure);
    } catch (const treefix::InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const treefix::CapacityError& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const treefix::Error& e) {  // DeviceError, and no device matching a spec
      PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (const cl::Error& e) {
      PyErr_SetString(PyExc_RuntimeError, (std::string("OpenCL: ") + e.what() + " failed (" +
                                           treefix::opencl_error_name(e.err()) + ")")
                                              .c_str());
    }
  });

  treefix::python::bind_runtime(m);
  treefix::python::bind_trees(m);
  treefix::python::bind_graphs(m);
  treefix::python::bind_points(m);
  treefix::python::bind_forests(m);
}
