#pragma once
// Capacity checks before allocation, for the graph readers, `treefix root` and the generators:
// what an operation needs at its peak is compared with the host memory this process can have now
// and, when the data is for a device, with the device's memory and its largest buffer, as soon as a
// header (or the largest id of an edge list, or a generator's parameters) tells the sizes and
// before anything of that size is allocated. A refusal is one CapacityError with every number, so
// a header claiming 2*10^9 vertices fails at once instead of thrashing or being killed:
//
//   GraphLimits limits;
//   limits.device = &runtime;          // bfs, rst, root: the graph goes to this device
//   read.limits = limits;
//   Csr g = read_graph(path, read);    // CapacityError "g.mtx: a graph of ... needs ..."
//
// A CPU device (PoCL) allocates its buffers in host memory: its bytes count on the host as well.
// The host side is core/host_memory.hpp (host_memory_available_bytes).
#include <cstddef>
#include <cstdint>
#include <string>

namespace treefix {

class Runtime;

struct GraphLimits {
  std::uint64_t host_bytes = 0;     // host memory a reader may use; 0: what the host has available
  const Runtime* device = nullptr;  // the device the graph is read for, if any
};

// Peak bytes of an operation: on the host, and on the device in all and in its largest buffer.
struct MemoryNeed {
  std::uint64_t host = 0, device = 0, device_buffer = 0;
};

// The one check: CapacityError "what needs H MiB of host memory and D MiB of device memory
// (largest buffer B MiB), but only A MiB of the host's P MiB are available and DEVICE has G MiB of
// global memory and allows buffers of at most M MiB" when either side does not fit. Device bytes
// are ignored without a device.
void require_memory(const GraphLimits& limits, const std::string& what, const MemoryNeed& need);

// Host memory alone (require_memory with no device bytes).
void require_host_fits(const GraphLimits& limits, std::uint64_t host_bytes,
                       const std::string& what);

// The check for reading a graph of n vertices and `arcs` arcs into CSR (plus `input_bytes` the
// reader holds meanwhile) and, with a device, the CSR on the device with three int32 arrays per
// vertex (every graph computation has results and work arrays per vertex: BFS depth, parent and
// queue; labels and hooks of connectivity). CapacityError beyond 2^31-1 vertices too.
void require_graph_fits(const GraphLimits& limits, const std::string& what, std::size_t n,
                        std::uint64_t arcs, std::uint64_t input_bytes = 0);

// The same for rooting a forest of n vertices given as `edges` edges (treefix root): the edge
// list on the host and the parent array; on the device the edges, the Euler tour's arcs (sort
// keys, successors, ranks) and the per-vertex arrays of connectivity and rooting
// (lib/graph/rooting.cpp).
void require_forest_fits(const GraphLimits& limits, const std::string& what, std::size_t n,
                         std::uint64_t edges);

}  // namespace treefix
