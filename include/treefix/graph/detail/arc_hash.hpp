#pragma once
// Order-independent sums over a graph's arcs, for the symmetry test and the graph hash
// (treefix/graph/csr.hpp): the sum over the arcs (u, v) of mix64(key ^ (u << 32 | v)), and the
// same over their reverses, mod 2^64. Any split of the rows into blocks (the ranks of a
// partitioned graph, the host threads) adds up to the same sums, so a partitioned graph sums its
// blocks over the ranks (treefix/distributed/partitioned_graph.hpp). The device computes the
// same sums (kernels/graph/normalise.cl's arc_sums, with kernels/primitives/mix.clh, the device's
// mix64): device_has_reverse_arcs (graph/device_matrix.hpp) is this test on a DeviceGraph.
#include <cstdint>

#include "treefix/core/launch.hpp"
#include "treefix/graph/csr.hpp"
#include "treefix/graph/device_graph.hpp"

namespace treefix::detail {

// Two 64-bit lanes, each summed with its own key.
struct ArcKey {
  std::uint64_t lane[2] = {0, 0};
  // A key drawn from the system's entropy: no input can be made to collide with it.
  static ArcKey fresh();
};

struct ArcSums {
  std::uint64_t forward[2] = {0, 0};  // over the arcs
  std::uint64_t reverse[2] = {0, 0};  // over their reverses (when asked for)
  // Whether the arcs, a set, equal their reverses (but for a chance of about 2^-128 per fresh
  // key): the sums over both agree in both lanes.
  bool symmetric() const { return forward[0] == reverse[0] && forward[1] == reverse[1]; }
};

// The sums over the arcs of `rows`, whose row v is vertex first + v (a block of a larger graph:
// global column ids), on all host cores. `reverses`: the reverses' sums as well.
ArcSums arc_sums(const Csr& rows, std::int64_t first, const ArcKey& key, bool reverses);

// The same sums, reverses included, over the arcs of a graph on the device (row v is vertex
// first + v); one read of a few words per work-group.
ArcSums arc_sums(Runtime& runtime, const DeviceGraph& rows, std::int64_t first, const ArcKey& key,
                 Profile* profile = nullptr);

// The graph hash's sum for the rows (lane 0 with key 0); graph_hash adds the vertex count's mix.
std::uint64_t arc_hash_sum(const Csr& rows, std::int64_t first);

}  // namespace treefix::detail
