// Device-wide scan (reduce-then-scan over kernels/scan.cl).
#include <algorithm>
#include <string>

#include "treefix/primitives.hpp"

namespace treefix {

namespace {

std::size_t value_bytes(ValueType t) {
  return t == ValueType::int32 || t == ValueType::float32 ? 4 : 8;
}

// Items per work-item: enough sequential work per item to amortise the group scan, bounded so the
// padded tile fits comfortably in local memory.
std::size_t items_per_thread(const Runtime& runtime, std::size_t wg, std::size_t bytes) {
  std::size_t items = runtime.description().is_gpu ? (bytes == 4 ? 12 : 6) : 16;
  const std::size_t budget = runtime.description().local_mem_bytes / 2;
  while (items > 1 && (wg * items * 33 / 32 + wg) * bytes > budget) --items;
  return items;
}

}  // namespace

void scan(Runtime& runtime, ValueType type, Op op, ScanKind kind, const cl::Buffer& in,
          const cl::Buffer& out, std::size_t n, Profile* profile, const char* phase,
          const cl::Buffer* total) {
  if (type == ValueType::float64 && !runtime.description().fp64)
    throw InputError("the device " + runtime.description().device_name +
                     " has no double precision (cl_khr_fp64)");
  translate_device_errors("scan", [&] {
    const std::size_t bytes = value_bytes(type);
    const std::size_t wg = runtime.default_work_group_size();
    const std::size_t items = items_per_thread(runtime, wg, bytes);
    const bool wide = n > 0xFFFFFFFFull - wg * items * 2;
    std::string options = value_op_options(type, op) + " -DITEMS=" + std::to_string(items) +
                          (wide ? " -DWIDE_INDEX=1" : "");
    SizedProgram sized = runtime.sized_program("scan.cl", options, wg);
    const std::size_t tile = sized.wg_size * items;
    const std::size_t tiles = (n + tile - 1) / tile;
    const std::size_t want_groups = std::max<std::size_t>(1, runtime.saturating_groups(sized.wg_size));
    const std::size_t tiles_per_group = std::max<std::size_t>(1, (tiles + want_groups - 1) / want_groups);
    const std::size_t groups = (tiles + tiles_per_group - 1) / tiles_per_group;

    cl::Buffer& partial = runtime.scratch("scan.partial", (groups + 1) * bytes);
    cl::Buffer& total_slot = runtime.scratch("scan.total", bytes);
    const cl::Buffer& total_out = total ? *total : total_slot;

    auto set_index = [&](cl::Kernel& k, cl_uint at, std::size_t v) {
      if (wide) k.setArg(at, static_cast<cl_ulong>(v));
      else k.setArg(at, static_cast<cl_uint>(v));
    };

    if (groups > 0) {
      cl::Kernel reduce(sized.program, "scan_reduce");
      reduce.setArg(0, in);
      set_index(reduce, 1, n);
      set_index(reduce, 2, tiles_per_group);
      reduce.setArg(3, partial);
      runtime.launch(reduce, groups * sized.wg_size, sized.wg_size, profile, phase);
    }
    cl::Kernel partials(sized.program, "scan_partials");
    set_args(partials, partial, static_cast<cl_uint>(groups), total_out);
    runtime.launch(partials, sized.wg_size, sized.wg_size, profile, phase);
    if (groups > 0) {
      cl::Kernel tiles_kernel(sized.program, "scan_tiles");
      tiles_kernel.setArg(0, in);
      tiles_kernel.setArg(1, out);
      set_index(tiles_kernel, 2, n);
      set_index(tiles_kernel, 3, tiles_per_group);
      tiles_kernel.setArg(4, partial);
      tiles_kernel.setArg(5, static_cast<cl_int>(kind == ScanKind::inclusive));
      runtime.launch(tiles_kernel, groups * sized.wg_size, sized.wg_size, profile, phase);
    }
  });
}

}  // namespace treefix
