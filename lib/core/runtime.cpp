// Runtime: the chosen device's context and queue, its Tuning, programs (through the cache) and
// memory limits.
#include "treefix/core/runtime.hpp"

#include <algorithm>
#include <cstdio>

#include "core/device_select.hpp"
#include "core/process_fork.hpp"
#include "core/program_cache.hpp"
#include "treefix/core/detail/runtime_tuning.hpp"
#include "treefix/core/environment.hpp"
#include "treefix/core/host_memory.hpp"

namespace treefix {

struct Runtime::Impl {
  // A mapped page-locked buffer; unmapped before it is released.
  struct Staging {
    cl::Buffer buffer;
    void* host = nullptr;
    std::size_t bytes = 0;
  };
  ~Impl() {
    try {
      for (auto& [slot, staging] : staging)
        if (staging.host) queue.enqueueUnmapMemObject(staging.buffer, staging.host);
      if (!staging.empty()) queue.finish();
    } catch (...) {  // a destructor does not throw; the context goes away anyway
    }
  }
  DeviceDescription description;
  cl::Device device;
  cl::Context context;
  cl::CommandQueue queue;
  Tuning tuning;
  std::unique_ptr<detail::ProgramCache> programs;
  std::map<std::string, cl::Buffer> scratch;
  std::map<std::string, std::size_t> scratch_bytes;
  std::map<std::size_t, Staging> staging;
};

Runtime::Runtime(const std::string& device_spec) : impl_(std::make_unique<Impl>()) {
  const Environment environment = Environment::read();
  detail::DeviceCandidate chosen =
      detail::select_device(device_spec.empty() ? environment.device : device_spec);
  translate_device_errors("creating the OpenCL context", [&] {
    impl_->description = chosen.description;
    impl_->device = chosen.device;
    impl_->context = cl::Context(chosen.device);
    impl_->queue = cl::CommandQueue(impl_->context, chosen.device, CL_QUEUE_PROFILING_ENABLE);
  });
  impl_->tuning = resolve_tuning(impl_->description, environment);
  impl_->programs =
      std::make_unique<detail::ProgramCache>(impl_->description, impl_->context, chosen.device,
                                             environment.cache_dir, environment.build_options);
}

Runtime::~Runtime() {
  // In a forked child the driver would never answer: the device objects are left, not released.
  if (forked_after_device_setup()) static_cast<void>(impl_.release());
}

const DeviceDescription& Runtime::description() const { return impl_->description; }
const cl::Context& Runtime::context() const { return impl_->context; }
const cl::Device& Runtime::device() const { return impl_->device; }
cl::CommandQueue& Runtime::queue() {
  detail::refuse_after_fork("using the OpenCL device");
  return impl_->queue;
}
const Tuning& Runtime::tuning() const { return impl_->tuning; }
Tuning& Runtime::tuning() { return impl_->tuning; }

std::string Runtime::expanded_source(const std::string& name) {
  return detail::ProgramCache::expanded_source(name);
}

cl::Program Runtime::program(const std::string& name, const std::string& options) {
  detail::refuse_after_fork("building a kernel program");
  return impl_->programs->build(name, expanded_source(name), options);
}

cl::Program Runtime::program_from_source(const std::string& label, const std::string& source,
                                         const std::string& options) {
  detail::refuse_after_fork("building a kernel program");
  return impl_->programs->build(label, source, options);
}

SizedProgram Runtime::sized_program(const std::string& name, const std::string& options,
                                    std::size_t wish) {
  return sized_program_from_source(name, expanded_source(name), options, wish);
}

SizedProgram Runtime::sized_program_from_source(const std::string& label, const std::string& source,
                                                const std::string& options, std::size_t wish) {
  detail::refuse_after_fork("building a kernel program");
  return translate_device_errors("sizing a program", [&] {
    return impl_->programs->build_sized(label, source, options,
                                        wish ? wish : impl_->tuning[knobs::work_group_size]);
  });
}

std::size_t Runtime::programs_built() const { return impl_->programs->built(); }

std::size_t Runtime::saturating_groups(std::size_t wg_size) const {
  // Enough resident groups to hide memory latency: on a GPU as many as a unit holds threads for,
  // on a CPU a few per core so that PoCL's threads balance.
  const Tuning& t = impl_->tuning;
  std::size_t per_unit =
      std::max(t[knobs::min_groups_per_unit],
               t[knobs::resident_items_per_unit] / std::max<std::size_t>(1, wg_size));
  return std::max<std::size_t>(
      1, impl_->description.compute_units * std::max<std::size_t>(1, per_unit));
}

void Runtime::require_fits(const std::string& what, std::uint64_t total_bytes,
                           std::uint64_t largest_buffer_bytes) const {
  const auto& d = impl_->description;
  if (total_bytes > d.global_mem_bytes || largest_buffer_bytes > d.max_alloc_bytes)
    throw CapacityError(what + " needs " + mib_text(total_bytes) +
                        " of device memory (largest buffer " + mib_text(largest_buffer_bytes) +
                        "), but " + d.device_name + " has " + mib_text(d.global_mem_bytes) +
                        " of global memory and allows buffers of at most " +
                        mib_text(d.max_alloc_bytes));
  // A CPU device's memory is the host's: what this process may still take bounds it too (asked
  // for large requests only: the answer reads a few /proc and cgroup files).
  constexpr std::uint64_t kAskHostFrom = std::uint64_t{64} << 20;
  if (d.is_cpu && total_bytes >= kAskHostFrom)
    require_host_memory(total_bytes, what + " (device memory on the host)");
}

cl::Buffer Runtime::allocate(std::size_t bytes, const std::string& what) {
  detail::refuse_after_fork(what.c_str());
  require_fits(what, bytes, bytes);
  return translate_device_errors(what.c_str(), [&] {
    return cl::Buffer(impl_->context, CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 16));
  });
}

cl::Buffer& Runtime::scratch(const std::string& slot, std::size_t bytes) {
  auto& have = impl_->scratch_bytes[slot];
  auto& buffer = impl_->scratch[slot];
  if (!buffer() || have < bytes) {
    buffer = cl::Buffer();  // release the old one before asking for the larger
    buffer = allocate(bytes, "workspace '" + slot + "'");
    have = std::max<std::size_t>(bytes, 16);
  }
  return buffer;
}

void* Runtime::pinned_staging(std::size_t slot, std::size_t bytes) {
  auto& staging = impl_->staging[slot];
  if (staging.host && staging.bytes >= bytes) return staging.host;
  return translate_device_errors("page-locked staging memory", [&] {
    if (staging.host) impl_->queue.enqueueUnmapMemObject(staging.buffer, staging.host);
    impl_->queue.finish();
    staging = {};
    staging.buffer = cl::Buffer(impl_->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes);
    staging.host = impl_->queue.enqueueMapBuffer(staging.buffer, CL_TRUE,
                                                 CL_MAP_READ | CL_MAP_WRITE, 0, bytes);
    staging.bytes = bytes;
    return staging.host;
  });
}

Runtime& shared_runtime() {
  static Runtime runtime;
  return runtime;
}

}  // namespace treefix
