#pragma once
// Capacity checks of the graph readers: what a graph of n vertices and m arcs needs is compared
// with the host's memory and, when the graph is for a device, with the device's memory and its
// largest buffer, as soon as a header (or the largest id of an edge list) tells n and m and before
// anything of that size is allocated. A refusal is a CapacityError with the numbers, so a header
// claiming 2*10^9 vertices fails at once instead of thrashing or being killed.
//
//   GraphReadOptions read;
//   read.limits.device = &runtime;     // bfs, rst, root: the graph goes to this device
//   Csr g = read_graph(path, read);    // CapacityError "g.mtx: a graph of ... needs ..."
#include <cstddef>
#include <cstdint>
#include <string>

namespace treefix {

class Runtime;

struct GraphLimits {
  std::uint64_t host_bytes = 0;     // host memory a reader may use; 0: the host's physical memory
  const Runtime* device = nullptr;  // the device the graph is read for, if any
};

// Refuses `host_bytes` of host memory beyond the limit: CapacityError "what needs X MiB of host
// memory, but ...".
void require_host_fits(const GraphLimits& limits, std::uint64_t host_bytes,
                       const std::string& what);

// The host check for reading a graph of n vertices and `arcs` arcs into CSR (plus `input_bytes`
// the reader holds meanwhile), and, with a device, the device check for the CSR on the device
// with three int32 arrays per vertex (every graph computation has results and work arrays per
// vertex: BFS depth, parent and queue; labels and hooks of connectivity).
void require_graph_fits(const GraphLimits& limits, const std::string& what, std::size_t n,
                        std::uint64_t arcs, std::uint64_t input_bytes = 0);

// The same for rooting a forest of n vertices given as `edges` edges (treefix root): the edge
// list on the host and the parent array; on the device the edges, the Euler tour's arcs (sort
// keys, successors, ranks) and the per-vertex arrays of connectivity and rooting
// (lib/graph/rooting.cpp).
void require_forest_fits(const GraphLimits& limits, const std::string& what, std::size_t n,
                         std::uint64_t edges);

}  // namespace treefix
