// Points sorted along a Morton curve on the device (spatial/morton.hpp).
#include "spatial/morton.hpp"

#include <algorithm>

#include "spatial/permute.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/primitives/radix_sort.hpp"
#include "treefix/primitives/sort.hpp"

namespace treefix::detail {

int morton_bits(int dim) { return std::min(21, 63 / std::max(1, dim)); }

std::string morton_options(int dim, bool cube) {
  return "-DDIM=" + std::to_string(dim) + " -DBITS=" + std::to_string(morton_bits(dim)) +
         (cube ? " -DCUBE" : "");
}

void sort_codes(Runtime& runtime, DeviceArray<cl_ulong>& code, DeviceArray<std::int32_t>& order,
                std::size_t n, int code_bits, bool boost, Profile* profile) {
  if (!boost) {
    radix_sort_by_key64(runtime, code.buffer(), order.buffer(), n,
                        static_cast<unsigned>(code_bits), true, profile);
    return;
  }
  Permuter(runtime, "int", {profile, "sort"}).iota(n, order.buffer());
  sort_by_key<cl_ulong>(runtime, code.buffer(), order.buffer(), n, true);
}

MortonOrder sort_along_morton_curve(Runtime& runtime, const cl::Buffer& coord, std::size_t n,
                                    int dim, bool cube, Profile* profile) {
  MortonOrder m;
  Kernels frame(runtime, "spatial/morton.cl", morton_options(dim, cube), {profile, "frame"});
  const Grid grid = frame.grid_stride(n);
  const std::size_t groups = grid.global / grid.local;
  cl::Buffer& partial =
      runtime.scratch("morton.partial", groups * static_cast<std::size_t>(dim) * 2 * sizeof(float));
  m.frame = DeviceArray<float>(runtime, 2 + 2 * static_cast<std::size_t>(dim), "Morton frame");
  frame.run("frame_partial", grid, cl_uint(n), coord, partial);
  frame.run("frame_finish", frame.groups(1), cl_uint(groups), partial, m.frame);
  m.code = DeviceArray<cl_ulong>(runtime, n, "Morton codes");
  frame.in("codes").run("morton_codes", grid, cl_uint(n), coord, m.frame, m.code);
  m.order = DeviceArray<std::int32_t>(runtime, n, "Morton order");
  sort_codes(runtime, m.code, m.order, n, morton_bits(dim) * dim,
             runtime.tuning().boost_key_sort, profile);
  return m;
}

}  // namespace treefix::detail
