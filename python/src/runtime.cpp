// treefix.devices(), treefix.Runtime and the default runtime.
#include "runtime.hpp"
#include "result_blocks.hpp"

#include <pybind11/stl.h>

#include "treefix/core/environment.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/core/result_memory.hpp"
#include "treefix/warm_up.hpp"

namespace treefix::python {

RuntimeHandle runtime_or_default(const std::optional<RuntimeHandle>& runtime) {
  if (runtime && *runtime) return *runtime;
  // Made once, on first use, and never destroyed: a process keeps its OpenCL context until it
  // ends (tearing a driver down while the interpreter exits gains nothing).
  static RuntimeHandle* made = nullptr;
  static std::mutex making;
  py::gil_scoped_release release;  // the device setup takes a while; other threads run meanwhile
  // In a forked child the parent's default is unusable: a new one says why (core's refusal).
  if (forked_after_device_setup()) return std::make_shared<RuntimeBox>("");
  std::lock_guard<std::mutex> lock(making);
  if (!made) made = new RuntimeHandle(std::make_shared<RuntimeBox>(""));
  return *made;
}

RuntimeHandle default_runtime_if_any() {
  if (forked_after_device_setup()) return nullptr;  // the driver stayed in the parent
  try {
    return runtime_or_default(std::nullopt);
  } catch (const DeviceError& e) {
    if (e.code() == -1001) return nullptr;  // CL_PLATFORM_NOT_FOUND_KHR: no OpenCL at all
    throw;
  }
}

namespace {

py::dict device_dict(const DeviceDescription& d) {
  py::dict info;
  info["spec"] = std::to_string(d.platform_index) + ":" + std::to_string(d.device_index);
  info["platform"] = d.platform_name;
  info["name"] = d.device_name;
  info["vendor"] = d.vendor;
  info["driver"] = d.driver_version;
  info["version"] = d.device_version;
  info["type"] = d.is_gpu ? "gpu" : d.is_cpu ? "cpu" : "accelerator";
  info["global_mem_bytes"] = d.global_mem_bytes;
  info["max_alloc_bytes"] = d.max_alloc_bytes;
  info["compute_units"] = d.compute_units;
  info["fp64"] = d.fp64;
  info["summary"] = d.summary();
  return info;
}

py::list devices() {
  std::vector<DeviceDescription> found;
  try {
    py::gil_scoped_release release;
    found = list_devices();
  } catch (const DeviceError& e) {
    if (e.code() != -1001) throw;  // CL_PLATFORM_NOT_FOUND_KHR: no OpenCL platform, no devices
  }
  py::list list;
  for (const DeviceDescription& d : found) list.append(device_dict(d));
  return list;
}

}  // namespace

void bind_runtime(py::module_& m) {
  m.def("devices", &devices, R"doc(
The OpenCL devices of every platform, as dicts: spec ("P:D", usable as Runtime(spec)), platform,
name, vendor, driver, version, type ("gpu", "cpu" or "accelerator"), global_mem_bytes,
max_alloc_bytes, compute_units, fp64, summary. An empty list when no OpenCL platform is installed.)doc");

  py::class_<RuntimeBox, RuntimeHandle>(m, "Runtime", R"doc(
An OpenCL device with its context, queue and compiled programs, kept between calls.

Runtime(device=None): device is a spec as the command line's --device takes it: "gpu", "cpu",
"P:D" (indices from devices()), or words matched against the platform and device names ("nvidia",
"pocl"; several, comma-separated, must all match). None: $TREEFIX_DEVICE if set, else the first
GPU, else any device. RuntimeError when no device matches or none exists.

Every function and class of the module takes runtime=None, meaning a default Runtime made on first
use and kept for the process. A Runtime may be shared by several Python threads: their device work
takes turns on it (the GIL is released meanwhile).)doc")
      .def(py::init([](const std::optional<std::string>& device) {
             py::gil_scoped_release release;
             return std::make_shared<RuntimeBox>(device.value_or(""));
           }),
           py::arg("device") = py::none())
      .def_property_readonly(
          "device", [](RuntimeBox& box) { return device_dict(box.runtime.description()); },
          "The device, as a dict like those of devices().")
      .def_property_readonly(
          "programs_built",
          [](RuntimeBox& box) {
            return on_device(box, [](Runtime& runtime) { return runtime.programs_built(); });
          },
          "Programs compiled (or loaded from the disk cache) so far.")
      .def("__repr__", [](RuntimeBox& box) {
        return "treefix.Runtime(" + box.runtime.description().summary() + ")";
      });

  m.def(
      "default_runtime", [] { return runtime_or_default(std::nullopt); },
      "The Runtime that runtime=None stands for (made on first use).");
  m.def(
      "set_host_threads",
      [](unsigned threads) {
        if (threads > kMaxHostThreads)
          throw InputError("set_host_threads: " + std::to_string(threads) + " threads; at most " +
                           std::to_string(kMaxHostThreads));
        set_host_threads(threads);
      },
      py::arg("threads"), R"doc(
The number of host threads the library's host loops use (reading and converting inputs, the host
algorithms, KDTree builds): the same as the command line's --threads; 0 goes back to the default,
TREEFIX_THREADS, else OMP_NUM_THREADS, else every core.)doc");
  m.def("host_threads", &host_threads, "The number of host threads the host loops use.");
  m.def(
      "warmup",
      [](const std::optional<std::string>& device, unsigned threads) {
        if (Environment::read().cache_dir.empty())
          throw InputError("warmup: the disk cache is off (TREEFIX_CACHE=off): nothing would be "
                           "kept");
        const auto tasks = library_warm_up_tasks();
        py::gil_scoped_release release;
        const WarmUpSummary summary = warm_up_in_parallel(device.value_or(""), tasks, threads);
        return std::make_pair(summary.programs, summary.seconds);
      },
      py::arg("device") = py::none(), py::arg("threads") = 0, R"doc(
Compiles every kernel program the library's paths take into the disk cache (TREEFIX_CACHE_DIR,
else ~/.cache/treefix), `threads` at a time (0: the host threads), so that no later call, in this
process or another, waits for a compiler: the same as `treefix warmup`. Returns (programs,
seconds). device: as Runtime(device). Ctrl-C stops it.)doc");
  m.def("cached_result_bytes", &treefix::cached_result_bytes, R"doc(
Bytes of host memory kept from freed large results (4 MiB or more) for the next result of the
same size: a loop that replaces its result array reuses mapped pages instead of new ones, which
the operating system would zero first. At most 1 GiB is kept.)doc");
  m.def("release_cached_results", &treefix::release_cached_results,
        "Returns the host memory cached_result_bytes() counts to the operating system (resident "
        "memory drops by as much).");
}

}  // namespace treefix::python
