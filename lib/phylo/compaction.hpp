#pragma once
// Internal to the phylo module: lists made on the device by compaction (an exclusive scan of 0/1
// flags, then a scatter: kernels/phylo/traversal.cl).
#include <cstddef>

#include "treefix/core/launch.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix::detail {

// The indices i < n whose int32 flag is non-zero (0 or 1 each), in increasing order, written to
// out[0 .. count) (room for count values); with map, map[i] instead of i. Returns count (one
// read back). `position` receives the exclusive scan of the flags (n + 1 ints: position[n] is
// the count), for callers that need each index's place in the list.
std::size_t compact(Runtime& runtime, const cl::Buffer& flag, std::size_t n, const cl::Buffer& out,
                    const cl::Buffer& position, const cl::Buffer* map = nullptr,
                    Profile* profile = nullptr);

// to[i] = from[index[i]] for i < n (int32).
void gather_ints(Runtime& runtime, const cl::Buffer& index, const cl::Buffer& from, std::size_t n,
                 const cl::Buffer& to, Profile* profile = nullptr);

}  // namespace treefix::detail
