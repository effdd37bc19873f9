// Kernels: the launch idiom (treefix/core/launch.hpp).
#include "treefix/core/launch.hpp"

#include <algorithm>

#include "treefix/core/interrupt.hpp"

namespace treefix {

Kernels::Kernels(Runtime& runtime, const std::string& file, const std::string& options, Phase phase,
                 std::size_t wg_wish)
    : Kernels(runtime, runtime.sized_program(file, options, wg_wish), phase) {}

Kernels::Kernels(Runtime& runtime, SizedProgram program, Phase phase)
    : runtime_(&runtime),
      program_(std::move(program)),
      phase_(phase),
      kernels_(std::make_shared<std::map<std::string, cl::Kernel>>()) {}

Kernels Kernels::in(const char* phase) const {
  Kernels other = *this;
  other.phase_.name = phase;
  return other;
}

Grid Kernels::items(std::size_t n) const {
  const std::size_t wg = wg_size();
  return {(n + wg - 1) / wg * wg, wg};
}

Grid Kernels::groups(std::size_t count) const { return {count * wg_size(), wg_size()}; }

Grid Kernels::grid_stride(std::size_t n) const {
  const std::size_t wg = wg_size();
  const std::size_t wanted = (n + wg - 1) / wg;
  return groups(std::max<std::size_t>(1, std::min(wanted, runtime_->saturating_groups(wg))));
}

cl::Kernel& Kernels::kernel(const char* name) {
  auto it = kernels_->find(name);
  if (it == kernels_->end()) {
    cl::Kernel created =
        translate_device_errors(name, [&] { return cl::Kernel(program_.program, name); });
    it = kernels_->emplace(name, std::move(created)).first;
  }
  return it->second;
}

cl::Event Kernels::run_bound(const char* kernel_name, const Grid& grid, const BindArgs& bind) {
  cl::Kernel& k = kernel(kernel_name);
  KernelArgs args(k);
  bind(args);
  return enqueue(k, kernel_name, grid);
}

cl::Event Kernels::enqueue(const cl::Kernel& kernel, const char* name, const Grid& grid) {
  cl::Event event;
  if (grid.global == 0) return event;
  interruption_point();  // between device steps: nothing of this launch has started
  translate_device_errors(name, [&] {
    runtime_->queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(grid.global),
                                           grid.local ? cl::NDRange(grid.local) : cl::NullRange,
                                           nullptr, &event);
  });
  phase_.record(event);
  return event;
}

}  // namespace treefix
