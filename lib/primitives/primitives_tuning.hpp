#pragma once
// Internal: the tuning knobs of list ranking, radix sort and permutations (rows in
// listrank_tuning.cpp, radix_sort_tuning.cpp and permutation_tuning.cpp).
#include "treefix/core/tuning.hpp"

namespace treefix::knobs {
extern const Knob<std::size_t> list_rank_stride;
extern const Knob<std::size_t> radix_sort_items;
extern const Knob<std::size_t> two_pass_permutation_from;
extern const Knob<unsigned> permutation_block_log;
}  // namespace treefix::knobs
