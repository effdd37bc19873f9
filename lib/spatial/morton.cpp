// Points sorted along a Morton curve on the device (spatial/morton.hpp).
#include "spatial/morton.hpp"

#include <algorithm>

#include "spatial/real_type.hpp"
#include "treefix/primitives/detail/permute_rows.hpp"
#include "spatial/spatial_tuning.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/primitives/radix_sort.hpp"
#include "treefix/primitives/sort.hpp"

namespace treefix::detail {

int morton_bits(int dim) { return std::min(21, 63 / std::max(1, dim)); }

template <class Real>
cl::Buffer sort_along_morton_curve(Runtime& runtime, const cl::Buffer& coord, std::size_t n,
                                   int dim, bool cube, DeviceArray<Real>& frame,
                                   DeviceArray<std::int32_t>& order, Profile* profile) {
  const std::string options = real_options<Real>(runtime, "Morton order") + (cube ? " -DCUBE" : "");
  Kernels morton(runtime, "spatial/morton.cl", options, {profile, "frame"});
  const Grid grid = morton.grid_stride(n);
  const std::size_t groups = grid.global / grid.local;
  const cl_uint bits = static_cast<cl_uint>(morton_bits(dim));
  cl::Buffer partial =
      runtime.scratch("morton.partial", groups * static_cast<std::size_t>(dim) * 2 * sizeof(Real));
  fit(runtime, frame, 2 + 2 * static_cast<std::size_t>(dim), "Morton frame");
  morton.run("frame_partial", grid, cl_uint(n), cl_uint(dim), coord, partial);
  morton.run("frame_finish", morton.groups(1), cl_uint(groups), cl_uint(dim), bits, partial, frame);
  cl::Buffer code = runtime.scratch("morton.code", n * sizeof(cl_ulong));
  morton.in("codes").run("morton_codes", grid, cl_uint(n), cl_uint(dim), bits, coord, frame, code);
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

template cl::Buffer sort_along_morton_curve<float>(Runtime&, const cl::Buffer&, std::size_t, int,
                                                   bool, DeviceArray<float>&,
                                                   DeviceArray<std::int32_t>&, Profile*);
template cl::Buffer sort_along_morton_curve<double>(Runtime&, const cl::Buffer&, std::size_t, int,
                                                    bool, DeviceArray<double>&,
                                                    DeviceArray<std::int32_t>&, Profile*);

}  // namespace treefix::detail
