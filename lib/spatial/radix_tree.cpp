// The binary radix tree of sorted Morton codes on the device (spatial/radix_tree.hpp).
#include "spatial/radix_tree.hpp"

#include <algorithm>
#include <string>

#include "treefix/core/launch.hpp"

namespace treefix::detail {

RadixTree build_radix_tree(Runtime& runtime, const DeviceArray<cl_ulong>& code, std::size_t n,
                           int code_bits, Profile* profile) {
  RadixTree t;
  t.n = n;
  const std::size_t internal = std::max<std::size_t>(1, n - 1);
  auto array = [&](std::size_t size, const char* what) {
    return DeviceArray<std::int32_t>(runtime, size, what);
  };
  t.left = array(internal, "radix tree children");
  t.right = array(internal, "radix tree children");
  t.prefix = array(internal, "radix tree prefixes");
  t.range_first = array(internal, "radix tree ranges");
  t.range_last = array(internal, "radix tree ranges");
  t.parent = array(2 * n - 1, "radix tree parents");
  const Phase phase{profile, "build"};
  if (n == 1) {
    fill(runtime, t.parent.buffer(), cl_int(-1), 1, phase);
    return t;
  }
  Kernels tree(runtime, "spatial/radix_tree.cl", "-DCODE_BITS=" + std::to_string(code_bits), phase);
  tree.run("radix_tree", tree.grid_stride(n - 1), cl_int(n), code, t.left, t.right, t.parent,
           t.prefix, t.range_first, t.range_last);
  return t;
}

}  // namespace treefix::detail
