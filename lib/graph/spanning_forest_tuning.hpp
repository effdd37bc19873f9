#pragma once
// Internal: rooted spanning forests' tuning knobs (rows in spanning_forest_tuning.cpp).
#include "treefix/core/tuning.hpp"

namespace treefix::knobs {
extern const Knob<std::size_t> rst_bfs_levels_per_log2, pr_levels_per_launch;
}  // namespace treefix::knobs
