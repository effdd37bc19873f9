// Points sorted along a Morton curve on the device (spatial/morton.hpp).
#include "spatial/morton.hpp"

#include <algorithm>

#include "treefix/primitives/detail/permute_rows.hpp"
#include "spatial/spatial_tuning.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/primitives/radix_sort.hpp"
#include "treefix/primitives/sort.hpp"

namespace treefix::detail {

int morton_bits(int dim) { return std::min(21, 63 / std::max(1, dim)); }

std::string morton_options(int dim, bool cube) {
  return "-DDIM=" + std::to_string(dim) + " -DBITS=" + std::to_string(morton_bits(dim)) +
         (cube ? " -DCUBE" : "");
}

cl::Buffer sort_along_morton_curve(Runtime& runtime, const cl::Buffer& coord, std::size_t n,
                                   int dim, bool cube, DeviceArray<float>& frame,
                                   DeviceArray<std::int32_t>& order, Profile* profile) {
  Kernels morton(runtime, "spatial/morton.cl", morton_options(dim, cube), {profile, "frame"});
  const Grid grid = morton.grid_stride(n);
  const std::size_t groups = grid.global / grid.local;
  cl::Buffer partial =
      runtime.scratch("morton.partial", groups * static_cast<std::size_t>(dim) * 2 * sizeof(float));
  fit(runtime, frame, 2 + 2 * static_cast<std::size_t>(dim), "Morton frame");
  morton.run("frame_partial", grid, cl_uint(n), coord, partial);
  morton.run("frame_finish", morton.groups(1), cl_uint(groups), partial, frame);
  cl::Buffer code = runtime.scratch("morton.code", n * sizeof(cl_ulong));
  morton.in("codes").run("morton_codes", grid, cl_uint(n), coord, frame, code);
  fit(runtime, order, n, "Morton order");
  const int code_bits = morton_bits(dim) * dim;
  if (runtime.tuning()[knobs::boost_key_sort]) {
    Permuter(runtime, "int", {profile, "sort"}).iota(n, order.buffer());
    sort_by_key<cl_ulong>(runtime, code, order.buffer(), n, true);
  } else {
    radix_sort_by_key64(runtime, code, order.buffer(), n, static_cast<unsigned>(code_bits), true,
                        profile);
  }
  return code;
}

}  // namespace treefix::detail
