#pragma once
// Internal to the spatial module: the binary radix tree of sorted Morton codes on the device
// (kernels/spatial/radix_tree.cl; node numbering there), from which the kd-style tree and the
// octree are collapsed.
#include <cstddef>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix::detail {

// Arrays in the Runtime's workspace ("radix_tree.*"): valid until the next build.
struct RadixTree {
  std::size_t n = 0;                                        // leaves (points); n - 1 internal nodes
  cl::Buffer left, right, prefix, range_first, range_last;  // internal nodes (int)
  cl::Buffer parent;                                        // all 2n - 1 nodes (int)
};

// code: n >= 1 sorted codes of code_bits bits. Phase "build".
RadixTree build_radix_tree(Runtime& runtime, const cl::Buffer& code, std::size_t n, int code_bits,
                           Profile* profile);

}  // namespace treefix::detail
