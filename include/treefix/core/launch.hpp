#pragma once
// The one way the library launches a kernel: get the program, size the launch from the device's
// Tuning, set typed arguments, record the event under a phase name.
//
//   Kernels bfs(runtime, "graph/bfs.cl", graph.offset_option(), {profile, "bfs"});
//   bfs.run("bfs_reset", bfs.grid_stride(n), depth, parent, cl_int(n));
//   bfs.run("bfs_expand", bfs.groups(g), row_offset, column, ..., Index{count, wide});
//   fill(runtime, flag, cl_int(0), 1, {profile, "bfs"});
//
// Kernels builds its file once per (file, options) through the Runtime's program cache, with
// -DWG_SIZE = the largest power of two <= the wish (default: tuning knob work_group_size) that all
// its kernels accept, and keeps one cl::Kernel per name, so a loop of launches costs no kernel
// creation. Arguments are set in order and typed:
//   cl::Buffer, DeviceArray<T>      the buffer
//   Index{value, wide}              idx_t of kernels/core/common.clh: ulong when wide, else uint
//                                   (the width is decided once per call, from the largest index)
//   Offset{value, wide}             a signed CSR offset (EDGE_T): long when wide, else int,
//                                   saturated at INT_MAX (a threshold no row reaches)
//   LocalBytes{bytes}               local memory of that size
//   RawArg{pointer, size}           a value of a type the host does not name (a user's VISIT_T)
//   any arithmetic value            as it is: pass cl_int, cl_uint, cl_long, float ... explicitly
// A caller that lets another function add arguments (a scan's hooks, a traversal's pieces) hands
// it a BindArgs, which appends to the same KernelArgs.
#include <CL/opencl.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>

#include "treefix/core/device_array.hpp"
#include "treefix/core/profile.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix {

// Where a command's event goes: a profile (may be null) and the phase to record it under.
struct Phase {
  Profile* profile = nullptr;
  const char* name = "kernel";
  void record(const cl::Event& event) const {
    if (profile) profile->record(name, event);
  }
};

struct Index {
  std::size_t value;
  bool wide;
};
struct Offset {
  std::size_t value;
  bool wide;
};
struct LocalBytes {
  std::size_t bytes;
};
struct RawArg {
  const void* data;
  std::size_t size;
};

// Sets a kernel's arguments in order, starting at `first`.
class KernelArgs {
 public:
  explicit KernelArgs(cl::Kernel& kernel, cl_uint first = 0) : kernel_(kernel), next_(first) {}
  template <class... A>
  KernelArgs& operator()(const A&... args) {
    (set(args), ...);
    return *this;
  }
  cl_uint next() const { return next_; }

 private:
  void set(const cl::Buffer& buffer) { kernel_.setArg(next_++, buffer); }
  template <class T>
  void set(const DeviceArray<T>& array) {
    kernel_.setArg(next_++, array.buffer());
  }
  void set(const Index& index) {
    if (index.wide)
      kernel_.setArg(next_++, static_cast<cl_ulong>(index.value));
    else
      kernel_.setArg(next_++, static_cast<cl_uint>(index.value));
  }
  void set(const Offset& offset) {
    if (offset.wide)
      kernel_.setArg(next_++, static_cast<cl_long>(offset.value));
    else
      kernel_.setArg(next_++, static_cast<cl_int>(std::min<std::size_t>(offset.value, 0x7fffffff)));
  }
  void set(const LocalBytes& local) { kernel_.setArg(next_++, cl::Local(local.bytes)); }
  void set(const RawArg& raw) { kernel_.setArg(next_++, raw.size, raw.data); }
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  void set(const T& value) {
    kernel_.setArg(next_++, value);
  }

  cl::Kernel& kernel_;
  cl_uint next_;
};

using BindArgs = std::function<void(KernelArgs& args)>;

// A launch's shape: `global` work-items in groups of `local` (global is a multiple of local).
struct Grid {
  std::size_t global = 0, local = 0;
};

class Kernels {
 public:
  // Builds (or finds) the embedded kernel file with `options`; wg_wish 0 = Tuning's size.
  Kernels(Runtime& runtime, const std::string& file, const std::string& options = "",
          Phase phase = {}, std::size_t wg_wish = 0);
  // A program built elsewhere (spliced source: Runtime::sized_program_from_source).
  Kernels(Runtime& runtime, SizedProgram program, Phase phase = {});

  std::size_t wg_size() const { return program_.wg_size; }
  const cl::Program& program() const { return program_.program; }
  Runtime& runtime() const { return *runtime_; }
  // The same program and kernels, recording under another phase.
  Kernels in(const char* phase) const;

  Grid items(std::size_t n) const;        // one work-item per element, rounded up to groups
  Grid groups(std::size_t count) const;   // `count` work-groups
  Grid grid_stride(std::size_t n) const;  // items(n), capped at enough groups to fill the device

  template <class... A>
  cl::Event run(const char* kernel_name, const Grid& grid, const A&... args) {
    cl::Kernel& k = kernel(kernel_name);
    KernelArgs bound(k);
    bound(args...);
    return enqueue(k, kernel_name, grid);
  }
  // The arguments come from a callback (and may be followed by more, set by `bind`).
  cl::Event run_bound(const char* kernel_name, const Grid& grid, const BindArgs& bind);

 private:
  cl::Kernel& kernel(const char* name);
  cl::Event enqueue(const cl::Kernel& kernel, const char* name, const Grid& grid);

  Runtime* runtime_;
  SizedProgram program_;
  Phase phase_;
  std::shared_ptr<std::map<std::string, cl::Kernel>> kernels_;
};

// Writes `count` copies of `value` from element `offset` on (clEnqueueFillBuffer).
template <class T>
cl::Event fill(Runtime& runtime, const cl::Buffer& buffer, const T& value, std::size_t count,
               Phase phase = {}, std::size_t offset = 0) {
  cl::Event done;
  if (count == 0) return done;
  translate_device_errors(phase.name, [&] {
    runtime.queue().enqueueFillBuffer(buffer, value, offset * sizeof(T), count * sizeof(T), nullptr,
                                      &done);
  });
  phase.record(done);
  return done;
}

}  // namespace treefix
