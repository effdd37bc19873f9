#pragma once
// A permutation applied many times on the device: to[i] = from[index[i]] for i < n. Elements
// move as bits, 4 or 8 bytes each, whatever their type. A device tree in the pre-order layout
// keeps two: the weights into pre-order and the results back (treefix/treefix/euler_tour.hpp).
//
//   DevicePermutation to_preorder(runtime, pre_order, n, profile);   // planned once
//   to_preorder.apply(runtime, weights, weights_pre, sizeof(float), {profile, "permute"});
//
// One gather reads `from` at random. Once `from` outgrows the caches, every element costs a
// whole sector or burst of memory traffic for its 4 bytes. So for large n
// (tuning knob two_pass_permutation_from), the plan is two gathers whose random reads stay local
// (kernels/primitives/permute.cl):
//   1. within each chunk of `from` (2^11 to 2^16 elements), regroup the elements by the block of
//      `to` (2^permutation_block_log elements, a tuning knob) they go to;
//   2. gather each block of `to` from its runs, one run in every chunk, which stay in the cache
//      while the block is written.
// Two reads and two writes of the array instead of one each, but every read hits memory that
// the cache already holds.
#include <cstddef>

#include "treefix/core/launch.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix {

class DevicePermutation {
 public:
  DevicePermutation() = default;
  // Plans the permutation `index` (n uint values, each of 0 .. n-1 once; not checked), which it
  // keeps. n < 2^32. Kernels are recorded under "layout".
  DevicePermutation(Runtime& runtime, cl::Buffer index, std::size_t n, Profile* profile = nullptr);

  std::size_t size() const { return n_; }
  bool two_pass() const { return static_cast<bool>(offset_()); }

  // to[i] = from[index[i]]; element_bytes is 4 or 8; `from` and `to` hold n elements and are
  // distinct buffers. Two passes go through a scratch array of the runtime.
  void apply(Runtime& runtime, const cl::Buffer& from, const cl::Buffer& to,
             std::size_t element_bytes, const Phase& phase) const;

 private:
  std::size_t n_ = 0;
  unsigned chunk_log_ = 0;  // two passes: 2^chunk_log elements of `from` per chunk
  cl::Buffer index_;        // one pass: to[i] = from[index[i]]
  cl::Buffer offset_;       // two passes: tmp[j] = from[chunk(j) + offset[j]] (ushort) ...
  cl::Buffer second_;       // ... then to[i] = tmp[second[i]] (uint)
};

}  // namespace treefix
