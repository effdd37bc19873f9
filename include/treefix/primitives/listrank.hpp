#pragma once
// List ranking on the device: for disjoint linked lists given by successor links, the position of
// every element in its list. The building block of Euler-tour rooting (rooting.hpp).
//
//   succ[i]  the element after i, or -1 when i is the last of its list
//   rank[i]  the number of elements before i in its list (0 for a head)
//
// Methods:
//   wyllie      pointer jumping along predecessor links: ceil(log2 n) rounds over all n elements,
//               O(n log n) work. Simple; the reference.
//   ruling_set  sparse ruling set (work-efficient, O(n)): a pseudo-random sample of about n/stride
//               elements plus every head become rulers; each ruler walks its sublist to the next
//               ruler, recording owner and local offset; the short list of rulers is ranked by
//               Wyllie; every element then adds its ruler's rank. Rulers are chosen by a hash of
//               the index, so no memory layout of the lists makes sublists long in expectation.
//
// Preconditions: n < 2^31 and the links form lists (no cycle, no element with two predecessors).
// Elements of a cycle get meaningless ranks (-1 or any number; never an out-of-bounds access or a
// hang), and the lists beside it are still ranked. Validate shapes first when input is untrusted.
#include <cstddef>
#include <cstdint>
#include <string>

#include "treefix/core/device_array.hpp"
#include "treefix/core/names.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix {

enum class ListRankMethod { wyllie, ruling_set };
TREEFIX_ENUM_NAMES(ListRankMethod, "list-ranking method", {ListRankMethod::wyllie, "wyllie"},
                   {ListRankMethod::ruling_set, "ruling-set", "ruling_set"});

struct ListRankOptions {
  ListRankMethod method = ListRankMethod::ruling_set;
  std::size_t stride =
      0;  // ruling_set: one ruler per ~stride elements (0: tuning knob list_rank_stride)
  Profile* profile = nullptr;  // receives every kernel event, phase "listrank"
};

// rank[0..n) from succ[0..n) (int buffers). succ is not modified.
void list_rank(Runtime& runtime, const cl::Buffer& succ, const cl::Buffer& rank, std::size_t n,
               const ListRankOptions& options = {});

inline DeviceArray<std::int32_t> list_rank(Runtime& runtime, const DeviceArray<std::int32_t>& succ,
                                           const ListRankOptions& options = {}) {
  DeviceArray<std::int32_t> rank(runtime, succ.size(), "list ranks");
  list_rank(runtime, succ.buffer(), rank.buffer(), succ.size(), options);
  return rank;
}

}  // namespace treefix
