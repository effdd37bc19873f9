#pragma once
// Internal: the distributed BFS's tuning knob (row in bfs_tuning.cpp).
#include "treefix/core/tuning.hpp"

namespace treefix::knobs {
extern const Knob<std::size_t> distributed_bottom_up_exchange;
}  // namespace treefix::knobs
