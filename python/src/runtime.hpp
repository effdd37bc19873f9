#pragma once
// The device a Python call runs on: a treefix::Runtime shared by every object made on it (a Tree,
// Graph or KDTree keeps its Runtime alive), with the lock that serialises device work on it.
//
// treefix::Runtime is not thread-safe (its program cache, workspace slots and staging memory are
// plain members), so two Python threads that share a Runtime take turns: each call releases the
// GIL, then takes the Runtime's lock for its device work. The lock is never taken with the GIL
// held, and released before the GIL is taken back, so the two cannot deadlock.
#include <pybind11/pybind11.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "treefix/core/runtime.hpp"

namespace treefix::python {

namespace py = pybind11;

struct RuntimeBox {
  explicit RuntimeBox(const std::string& device_spec) : runtime(device_spec) {}
  Runtime runtime;
  std::mutex lock;
};
using RuntimeHandle = std::shared_ptr<RuntimeBox>;

// The runtime a call asked for, or the default one (made on first use, kept for the process);
// RuntimeError when there is none (no OpenCL device, or a forked child).
RuntimeHandle runtime_or_default(const std::optional<RuntimeHandle>& runtime);
// The default runtime, or null when this process can have none: no OpenCL device at all, or a
// child forked after its parent set up the device (host-only work goes on there: parsing,
// validation, the sequential pass).
RuntimeHandle default_runtime_if_any();
// The runtime a call asked for, else default_runtime_if_any().
inline RuntimeHandle runtime_or_any(const std::optional<RuntimeHandle>& runtime) {
  return runtime && *runtime ? *runtime : default_runtime_if_any();
}

// Runs f(runtime) without the GIL and under the runtime's lock. f must not touch Python objects.
template <class F>
decltype(auto) on_device(RuntimeBox& box, F&& f) {
  py::gil_scoped_release release;
  std::lock_guard<std::mutex> lock(box.lock);
  return f(box.runtime);
}

// The `runtime=None` keyword argument every function takes.
inline py::arg_v runtime_arg() {
  return py::arg_v("runtime", std::optional<RuntimeHandle>(), "None");
}

void bind_runtime(py::module_& m);
void bind_trees(py::module_& m);
void bind_graphs(py::module_& m);
void bind_points(py::module_& m);
void bind_forests(py::module_& m);

}  // namespace treefix::python
