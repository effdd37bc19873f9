// A partitioned graph's rows on the ranks' devices (distributed/partitioned_device_graph.hpp).
#include "treefix/distributed/partitioned_device_graph.hpp"

#include <algorithm>

#include "distributed/level_exchange.hpp"
#include "distributed/vertex_bitmaps.hpp"
#include "treefix/graph/graph_limits.hpp"

namespace treefix {

std::uint64_t partitioned_device_bytes(std::size_t vertices, std::size_t local_vertices,
                                       std::uint64_t local_arcs) {
  using detail::bitmap_words;
  const std::uint64_t offset_bytes = DeviceGraph::needs_wide_offsets(local_arcs) ? 8 : 4;
  // rows; depth, parent and two queues; the global frontier bitmap, the bitmap of vertices sent
  // to their owners, and this rank's slice of the frontier; the exchange buffers of top-down
  // levels, sized by the frontier's arcs: counted at an eighth of the rank's arcs (8 bytes a
  // pair), the most a direction-optimising BFS's top-down level has on the graphs measured.
  return (local_vertices + 1) * offset_bytes + local_arcs * 4 + local_vertices * 16 +
         bitmap_words(vertices) * 4 * 2 + bitmap_words(local_vertices) * 4 + local_arcs / 8 * 8 * 2;
}

PartitionedDeviceGraph::PartitionedDeviceGraph(const World& world, Runtime& runtime,
                                               const PartitionedGraph& graph, Profile* profile)
    : graph_(&graph), exchange_(std::make_unique<detail::LevelExchange>()) {
  on_every_rank(world, [&] {
    if (world.size() == 1) {  // the single-device search's needs; the host holds the graph
      require_graph_fits(GraphLimits{~std::uint64_t(0), &runtime}, "the graph", graph.vertices,
                         graph.arcs);
      return;
    }
    runtime.require_fits(
        "rank " + std::to_string(world.rank()) + "'s share of a graph of " +
            std::to_string(graph.vertices) + " vertices and " + std::to_string(graph.arcs) +
            " arcs (" + std::to_string(graph.local_vertices()) + " vertices, " +
            std::to_string(graph.local_arcs()) + " arcs)",
        partitioned_device_bytes(graph.vertices, graph.local_vertices(), graph.local_arcs()),
        std::max<std::uint64_t>(graph.local_arcs() * 4, detail::bitmap_words(graph.vertices) * 4));
  });
  rows_ = DeviceGraph(runtime, graph.rows, profile);
}

PartitionedDeviceGraph::~PartitionedDeviceGraph() = default;

}  // namespace treefix
