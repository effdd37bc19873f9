// Connected components' tuning rows (connectivity.cpp).
#include "graph/connectivity_tuning.hpp"

namespace treefix::knobs {

// Arcs per row linked in Afforest's sampling rounds before the most frequent component is found
// and skipped (0: ECL-CC alone, every edge linked once). `treefix-bench rooting` times 0, 1 and 2
// on every graph.
const Knob<std::size_t> connectivity_samples = declare<std::size_t>(
    TuningRow("graph", "connectivity_samples",
              "arcs per row sampled by connectivity before skipping the giant component (0: "
              "ECL-CC alone)")
        .env("TREEFIX_CC_SAMPLES")
        .defaults(2, 2)
        .range(0, 64));
// ... applied only to graphs of at least this many arcs per vertex: on the H100, sampling halved
// Kronecker-22 (30 arcs per vertex: 5.43 -> 2.72 ms) but slowed the 2048 grid (4 per vertex:
// 1.45 -> 2.04 ms), the road network and the mesh (2 and 13.5 per vertex).
const Knob<std::size_t> connectivity_sample_degree =
    declare<std::size_t>(TuningRow("graph", "connectivity_sample_degree",
                                   "arcs per vertex from which connectivity samples")
                             .defaults(16, 16)
                             .range(0, 1 << 30));

}  // namespace treefix::knobs
