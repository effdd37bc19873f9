// The BFS's tuning rows (bfs.cpp): which levels run in one work-group, which under a grid-wide
// barrier, and the sizes of those kernels' groups.
#include "graph/bfs_tuning.hpp"

#include <cstdint>

namespace treefix::knobs {

// While a level holds at most bfs_small_frontier vertices and bfs_small_arcs arcs (and no huge
// row), one work-group runs it and the following levels in one launch (work-group barriers
// between levels, kernels/graph/bfs_small.cl), until a frontier grows past them: a level there
// costs a few dependent loads and barriers, a level with every group a launch and its tail
// (~15 us on the H100); on a GPU the 2048 grid's widest levels (~4096 vertices, 16K arcs) stay in
// it. On NVIDIA, past a few hundred vertices a level outgrows one compute unit (the 2048 grid:
// 15 us a level in one group) and the grid barrier takes over. A CPU device: one group's worth.
// The frontier is read in chunks, so local memory does not bound it. Tests set a few vertices so
// that a search switches paths often.
const Knob<std::size_t> bfs_small_frontier =
    declare<std::size_t>(TuningRow("graph", "bfs_small_frontier",
                                   "frontier vertices up to which one work-group runs BFS levels")
                             .env("TREEFIX_BFS_SMALL_FRONTIER")
                             .defaults(256, 16384)
                             .measured_on("nvidia", 512)
                             .range(1, 1 << 30));
const Knob<std::size_t> bfs_small_arcs = declare<std::size_t>(
    TuningRow("graph", "bfs_small_arcs", "... and frontier arcs up to which it does")
        .env("TREEFIX_BFS_SMALL_ARCS")
        .defaults(4096, 65536)
        .range(1, std::size_t(1) << 31));
// Bounds one launch's time; the next goes on.
const Knob<std::size_t> bfs_small_levels = declare<std::size_t>(
    TuningRow("graph", "bfs_small_levels", "levels per launch of the one-group BFS kernel, at most")
        .defaults(16384, 16384)
        .range(1, 1u << 31));
// Tests set a few to force the chunked path.
const Knob<std::size_t> bfs_small_buffer = declare<std::size_t>(
    TuningRow("graph", "bfs_small_buffer",
              "frontier vertices the one-group BFS kernel keeps in local memory per chunk (0: as "
              "many as fit)")
        .defaults(0, 0)
        .range(0, 1u << 31));
// On a GPU as large a group as the device allows (up to 1024): more loads in flight per level. A
// CPU runs the group's items one after the other between barriers: the usual size.
const Knob<std::size_t> bfs_small_group_size = declare<std::size_t>(
    TuningRow("graph", "bfs_small_group_size",
              "work-group size of the one-group BFS kernel (0: work_group_size)")
        .defaults(0, 1024)
        .range(0, 1 << 16));

// BFS levels too wide for one group but at most bfs_grid_frontier vertices and bfs_grid_arcs
// arcs (top-down, no huge row) run in one launch of bfs_grid_groups_per_unit small groups per
// compute unit with a grid-wide barrier between levels (kernels/graph/bfs_grid.cl). Correct only
// where every group of the launch stays resident: NVIDIA GPUs (known), off elsewhere. A group
// that waits too long gives up and the search runs again without it.
const Knob<bool> bfs_grid_barrier = declare<bool>(
    TuningRow("graph", "bfs_grid_barrier",
              "BFS levels under a grid-wide barrier (needs every group of a launch resident)")
        .env("TREEFIX_BFS_GRID_BARRIER")
        .switch_words("on", "off")
        .defaults(0, 0)
        .measured_on("nvidia", 1));
const Knob<std::size_t> bfs_grid_frontier = declare<std::size_t>(
    TuningRow("graph", "bfs_grid_frontier",
              "frontier vertices up to which the grid-barrier BFS kernel runs levels")
        .defaults(65536, 65536)
        .range(1, 1u << 31));
const Knob<std::size_t> bfs_grid_arcs = declare<std::size_t>(
    TuningRow("graph", "bfs_grid_arcs", "... and frontier arcs up to which it does")
        .defaults(std::size_t(1) << 20, std::size_t(1) << 20)
        .range(1, std::size_t(1) << 32));
const Knob<std::size_t> bfs_grid_groups_per_unit =
    declare<std::size_t>(TuningRow("graph", "bfs_grid_groups_per_unit",
                                   "work-groups per compute unit of the grid-barrier BFS kernel")
                             .defaults(2, 2)
                             .range(1, 1 << 10));
const Knob<std::size_t> bfs_grid_group_size = declare<std::size_t>(
    TuningRow("graph", "bfs_grid_group_size", "work-group size of the grid-barrier BFS kernel")
        .defaults(128, 128)
        .range(1, 1 << 16));
// Seconds either way: a GPU's poll is a round trip to its L2 cache, a CPU's a cached load, and a
// CPU thread may be descheduled.
const Knob<std::size_t> bfs_grid_patience =
    declare<std::size_t>(TuningRow("graph", "bfs_grid_patience",
                                   "polls of a waiting grid-barrier group before it gives up")
                             .defaults(std::size_t(1) << 26, std::size_t(1) << 22)
                             .range(1, INT32_MAX));

}  // namespace treefix::knobs
