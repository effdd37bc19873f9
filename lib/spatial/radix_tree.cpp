// The binary radix tree of sorted Morton codes on the device (spatial/radix_tree.hpp).
#include "spatial/radix_tree.hpp"

#include <algorithm>
#include <string>

#include "treefix/core/launch.hpp"

namespace treefix::detail {

RadixTree build_radix_tree(Runtime& runtime, const cl::Buffer& code, std::size_t n, int code_bits,
                           Profile* profile) {
  RadixTree t;
  t.n = n;
  const std::size_t internal = std::max<std::size_t>(1, n - 1) * sizeof(cl_int);
  t.left = runtime.scratch("radix_tree.left", internal);
  t.right = runtime.scratch("radix_tree.right", internal);
  t.prefix = runtime.scratch("radix_tree.prefix", internal);
  t.range_first = runtime.scratch("radix_tree.first", internal);
  t.range_last = runtime.scratch("radix_tree.last", internal);
  t.parent = runtime.scratch("radix_tree.parent", (2 * n - 1) * sizeof(cl_int));
  const Phase phase{profile, "build"};
  if (n == 1) {
    fill(runtime, t.parent, cl_int(-1), 1, phase);
    return t;
  }
  Kernels tree(runtime, "spatial/radix_tree.cl", "", phase);
  tree.run("radix_tree", tree.grid_stride(n - 1), cl_int(n), cl_int(code_bits), code, t.left,
           t.right, t.parent, t.prefix, t.range_first, t.range_last);
  return t;
}

}  // namespace treefix::detail
