// The partitioned BFS's tuning row (bfs.cpp).
#include "distributed/bfs_tuning.hpp"

namespace treefix::knobs {

// A top-down level sends a (target, parent) pair through the host for each new vertex its
// frontier reaches on another rank; a bottom-up level sends the frontier as a bitmap instead,
// n/8 bytes whatever the frontier. Where the single-device rule (bottom_up_alpha) keeps a level
// top-down but its frontier's arcs that leave the rank, at 8 bytes each, pass this many bitmaps,
// the level runs bottom-up: a few hub vertices in a Kronecker frontier reach millions of remote
// vertices, whose pairs cost several times what a bottom-up level's pass over the rows costs.
// 0 leaves the single-device rule alone.
const Knob<std::size_t> distributed_bottom_up_exchange = declare<std::size_t>(
    TuningRow("distributed", "distributed_bottom_up_exchange",
              "frontier bitmaps' worth of remote arcs from which a BFS level runs bottom-up (0: "
              "never for this reason)")
        .env("TREEFIX_BFS_EXCHANGE_SWITCH")
        .defaults(4, 4)
        .range(0, std::size_t(1) << 20));

}  // namespace treefix::knobs
