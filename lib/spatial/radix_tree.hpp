#pragma once
// Internal to the spatial module: the binary radix tree of sorted Morton codes on the device
// (kernels/spatial/radix_tree.cl; node numbering there), from which the kd-style tree and the
// octree are collapsed.
#include <cstddef>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix::detail {

struct RadixTree {
  std::size_t n = 0;  // leaves (points); n - 1 internal nodes
  DeviceArray<std::int32_t> left, right, prefix, range_first, range_last;  // internal nodes
  DeviceArray<std::int32_t> parent;                                        // all 2n - 1 nodes
};

// code: n >= 1 sorted codes of code_bits bits. Phase "build".
RadixTree build_radix_tree(Runtime& runtime, const DeviceArray<cl_ulong>& code, std::size_t n,
                           int code_bits, Profile* profile);

}  // namespace treefix::detail
