#pragma once
// Internal to the distributed module: bitmaps of vertices (frontiers, vertices sent, ghosts), one
// bit per vertex in 32-bit words, as the kernels read them. A rank's range starts at a multiple
// of 32 (the partition), so its slice of a bitmap of all vertices is whole words.
#include <cstdint>

namespace treefix::detail {

inline std::uint64_t bitmap_words(std::uint64_t vertices) { return (vertices + 31) / 32; }

}  // namespace treefix::detail
