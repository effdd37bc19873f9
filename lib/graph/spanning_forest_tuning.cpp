// Rooted spanning forests' tuning rows (spanning_forest.cpp, path_reversal.cpp).
#include "graph/spanning_forest_tuning.hpp"

namespace treefix::knobs {

// `rst --method auto` gives BFS from the root a budget of this many levels per log2(n) before it
// turns to connectivity + Euler: the break-even of the two in wall time, transfers included
// (docs/design/rooting.md). On an H100 with the grid barrier (about 3.5 us a level) they break
// even near 1000 levels on luxembourg_osm (2^16.8 vertices): 60. Without the barrier a narrow
// level costs about 4.4 times more: 14 (scaled, not measured). On PoCL the break-even fell at
// 420-740 levels on 2^16-2^17-vertex grids, strips and road networks: 32.
const Knob<std::size_t> rst_bfs_levels_per_log2 = declare<std::size_t>(
    TuningRow("graph", "rst_bfs_levels_per_log2",
              "rst auto: BFS levels per log2(vertices) before connectivity + Euler takes over")
        .defaults(32, 14)
        .measured_on("nvidia", 60)
        .range(1, 1 << 20));

// PR-RST: jump-table levels built and walked per launch (1: one pointer jump per launch, the
// portable form; m levels: 2^m - 1 dependent reads per work-item). On PoCL 2 levels per launch
// took 6-43% less wall time than 1 on five graphs (bench/results/pocl-2026-11-26-seeds,
// pr-levels.csv, m = 1, 2, 3). NVIDIA GPUs take 3: an H200 run that swept m = 1, 2, 3
// (bench/results/h200-2026-11-26-seeds, rooting.csv) had 3 fastest in kernels on all eight graphs.
// A later H200 run that also swept 5 (bench/results/h200-2026-11-28-seeds, rooting.csv,
// --pr-levels 1,2,3,5) had 5 fastest in kernels on seven of the eight graphs, with 3 taking
// 1.02-1.22x 5's kernel time there; on the eighth, a shuffled 2^20 path, 3 was fastest and 5
// took 1.22x its time. The NVIDIA value below is still 3. Other GPUs keep the portable 1 until
// measured.
const Knob<std::size_t> pr_levels_per_launch = declare<std::size_t>(
    TuningRow("graph", "pr_levels_per_launch", "PR-RST: pointer-jump levels per launch")
        .defaults(2, 1)
        .measured_on("nvidia", 3)
        .range(1, 6)
        .swept({1, 2, 3, 5}, "rooting"));  // 5: Sahu and Donur's jumps per synchronisation

}  // namespace treefix::knobs
