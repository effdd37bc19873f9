// The radix sort's tuning row (radix_sort.cpp).
#include "primitives/primitives_tuning.hpp"

namespace treefix::knobs {

// A tile of work-group * items pairs is sorted in local memory (6 bytes a pair), so local memory
// bounds it. More items: fewer tiles, so less counting and scanning; longer local sorts.
const Knob<std::size_t> radix_sort_items = declare<std::size_t>(
    TuningRow("primitives", "radix_sort_items", "pairs per work-item of a radix sort tile")
        .env("TREEFIX_RADIX_ITEMS")
        .defaults(8, 8)
        .range(1, 64));

}  // namespace treefix::knobs
