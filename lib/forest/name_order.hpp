#pragma once
// Internal to the forest module: the order of many short strings (file names, labels) on
// `threads` threads of the host executor, for readers that put files in name order.
#include <cstdint>
#include <string_view>
#include <vector>

#include "treefix/core/parallel.hpp"

namespace treefix::detail {

// A name as the sort sees it: trivial, so arrays of them are filled, not zeroed first.
struct NameRef {
  const char* data;
  std::uint32_t size;
  std::string_view view() const { return {data, size}; }
};

// The permutation that sorts names[0, n) as std::string's operator< does (bytes compared as
// unsigned char), equal names by index: order[j] is the index of the j-th name. On one thread a
// plain sort; on more, a sample sort: splitters from a regular sample, each thread's slice counted
// and scattered into buckets, the buckets sorted one per piece of work (no sequential merge).
std::vector<std::uint32_t> sorted_order(const NameRef* names, std::size_t n, unsigned threads);

}  // namespace treefix::detail
