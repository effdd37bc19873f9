// The spatial trees' key sort's tuning row (morton.cpp).
#include "spatial/spatial_tuning.hpp"

namespace treefix::knobs {

// The Morton keys of the spatial trees' builds (64-bit codes with point indices) sorted by
// Boost.Compute's sort_by_key instead of our radix sort (two 32-bit LSD passes over the key
// halves). `treefix-bench spatial` times both (its sort table).
const Knob<bool> boost_key_sort = declare<bool>(
    TuningRow("spatial", "boost_key_sort", "the sort of the spatial trees' Morton keys")
        .env("TREEFIX_KEY_SORT")
        .switch_words("boost", "radix")
        .defaults(0, 0));

}  // namespace treefix::knobs
