#pragma once
// A partitioned graph's rows on the devices of the world's ranks, one device each: every rank's
// rows as a DeviceGraph (32-bit row offsets while the rank's arcs fit, 64-bit beyond), the
// algorithms' one input (treefix/distributed/bfs.hpp, connectivity.hpp). Rows go up once for any
// number of searches and the components.
//
//   World world;
//   Runtime rt(world.device_spec());
//   PartitionedGraph g = generate::kronecker(world, 20);
//   PartitionedDeviceGraph dg(world, rt, g);   // refused on every rank if a share does not fit
#include <cstddef>
#include <cstdint>
#include <memory>

#include "treefix/core/runtime.hpp"
#include "treefix/distributed/world.hpp"
#include "treefix/graph/device_graph.hpp"
#include "treefix/graph/partitioned_graph.hpp"

namespace treefix {

namespace detail {
class LevelExchange;
}

class PartitionedDeviceGraph {
 public:
  // Checks first, on every rank, that every rank's share fits its device (a world of one: the
  // graph and the single-device search's arrays; several ranks: rows, BFS arrays and bitmaps,
  // exchange buffers); CapacityError with the numbers of the first rank that does not. `graph`
  // must outlive this.
  PartitionedDeviceGraph(const World& world, Runtime& runtime, const PartitionedGraph& graph,
                         Profile* profile = nullptr);
  ~PartitionedDeviceGraph();
  const PartitionedGraph& host() const { return *graph_; }
  const DeviceGraph& rows() const { return rows_; }
  // The host side of the BFS's top-down exchange, kept from search to search (a level's pairs
  // reach tens of megabytes, whose first touch costs more than their copy).
  detail::LevelExchange& exchange() const { return *exchange_; }

 private:
  const PartitionedGraph* graph_;
  DeviceGraph rows_;
  std::unique_ptr<detail::LevelExchange> exchange_;
};

// Device bytes a rank of a world of several needs for `local_vertices` rows of `local_arcs`
// arcs in a graph of `vertices` (the check PartitionedDeviceGraph makes there).
std::uint64_t partitioned_device_bytes(std::size_t vertices, std::size_t local_vertices,
                                       std::uint64_t local_arcs);

}  // namespace treefix
