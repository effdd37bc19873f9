// The list ranking's tuning row (listrank.cpp).
#include "primitives/primitives_tuning.hpp"

namespace treefix::knobs {

// Ruling-set list ranking: one ruler per this many elements (longer sublists, fewer rulers). A
// CPU device runs a work-group on one core: long ruler sublists, fewer dependent rounds.
const Knob<std::size_t> list_rank_stride = declare<std::size_t>(
    TuningRow("primitives", "list_rank_stride", "elements per ruler of the ruling-set list ranking")
        .env("TREEFIX_LIST_RANK_STRIDE")
        .defaults(256, 32)
        .range(1, 1 << 20)
        .swept({8, 16, 32, 64, 128, 256}, "list-rank"));

}  // namespace treefix::knobs
