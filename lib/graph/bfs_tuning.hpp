#pragma once
// Internal: the BFS's tuning knobs (rows in bfs_tuning.cpp).
#include "treefix/core/tuning.hpp"

namespace treefix::knobs {
extern const Knob<std::size_t> bfs_small_frontier, bfs_small_arcs, bfs_small_levels,
    bfs_small_buffer, bfs_small_group_size;
extern const Knob<bool> bfs_grid_barrier;
extern const Knob<std::size_t> bfs_grid_frontier, bfs_grid_arcs, bfs_grid_groups_per_unit,
    bfs_grid_group_size, bfs_grid_patience;
}  // namespace treefix::knobs
