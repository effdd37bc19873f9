// The Python module `treefix`: the library's trees, graphs, points and forests on NumPy and SciPy
// arrays, with the device (context, compiled programs, uploaded data) kept between calls.
#include <pybind11/pybind11.h>

#include <new>

#include "runtime.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/interrupt.hpp"

namespace py = pybind11;

namespace {
// The thread Python's signal handlers run on: only there does PyErr_CheckSignals act.
unsigned long main_thread = 0;

// The library's interruption points (treefix/core/interrupt.hpp), every 20 ms of a long call:
// on the main thread, the GIL is taken for a moment and Python's pending signals are handled;
// a handler that raised (Ctrl-C: KeyboardInterrupt) stops the call with its exception.
void check_python_signals() {
  if (PyThread_get_thread_ident() != main_thread) return;
  py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}
// The library's one line when kernels are first compiled (treefix/core/runtime.hpp), as a
// treefix.CompileWarning: shown once by Python's default filter, silenced by
// warnings.simplefilter("ignore", treefix.CompileWarning).
PyObject* compile_warning = nullptr;
void warn_compiling(const std::string& line) {
  py::gil_scoped_acquire gil;
  if (PyErr_WarnEx(compile_warning, line.c_str(), 1) != 0) PyErr_Clear();  // "error": not ours
}
}  // namespace

PYBIND11_MODULE(_treefix, m) {  // treefix._treefix, re-exported by python/treefix/__init__.py
  m.doc() = R"doc(
libtreefix-cl on NumPy and SciPy arrays: treefix sums (rootfix, leaffix) on trees, BFS,
connected components and rooted spanning trees on graphs (scipy.sparse.csgraph conventions),
kd-tree queries and Barnes-Hut gravity on points (scipy.spatial.cKDTree conventions), and tree
similarity on RuleML forests, on an OpenCL device (GPU or CPU).

Errors: bad input raises ValueError (the message says what and where), a request beyond the
device's or the host's memory MemoryError (with the numbers, before anything is allocated), a
missing or failing device RuntimeError. Ctrl-C stops a long call within a fraction of a second
(KeyboardInterrupt); the runtime stays usable.)doc";

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

  main_thread = py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  treefix::set_interrupt_check(&check_python_signals);
  compile_warning = PyErr_NewExceptionWithDoc(
      "treefix.CompileWarning",
      "Said once, when this process first compiles kernel programs.\n\n"
      "A compilation takes seconds on a CPU device; the programs are kept in the disk cache for\n"
      "later processes. treefix.warmup() compiles them all ahead; silence the warning with\n"
      "warnings.simplefilter(\"ignore\", treefix.CompileWarning).",
      PyExc_UserWarning, nullptr);
  m.add_object("CompileWarning", py::handle(compile_warning));
  treefix::set_compile_notice(&warn_compiling);

  treefix::python::bind_runtime(m);
  treefix::python::bind_trees(m);
  treefix::python::bind_graphs(m);
  treefix::python::bind_points(m);
  treefix::python::bind_forests(m);
}
