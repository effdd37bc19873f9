// Capacity checks before allocation (treefix/graph/graph_limits.hpp).
#include "treefix/graph/graph_limits.hpp"

#include <algorithm>
#include <climits>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/graph/csr.hpp"
#include "treefix/graph/device_graph.hpp"

namespace treefix {

namespace {
const auto add = add_bytes;
std::string counts(std::size_t n, std::uint64_t arcs, const char* unit) {
  return std::to_string(n) + " vertices and " + std::to_string(arcs) + " " + unit;
}
}  // namespace

void require_memory(const GraphLimits& limits, const std::string& what, const MemoryNeed& need) {
  const DeviceDescription* device = limits.device ? &limits.device->description() : nullptr;
  // A CPU device's buffers are host memory.
  const bool shared = device && device->is_cpu;
  const std::uint64_t host = device && shared ? add(need.host, need.device) : need.host;
  const std::uint64_t host_allowed =
      limits.host_bytes ? limits.host_bytes : host_memory_available_bytes();
  const bool host_fits = host <= host_allowed;
  const bool device_fits = !device || (need.device <= device->global_mem_bytes &&
                                       need.device_buffer <= device->max_alloc_bytes);
  if (host_fits && device_fits) return;
  std::string message = what + " needs " + mib_text(host) + " of host memory";
  if (device) {
    if (shared) message += " (" + mib_text(need.device) + " of it for the CPU device)";
    message += " and " + mib_text(need.device) + " of device memory (largest buffer " +
               mib_text(need.device_buffer) + ")";
  }
  message += ", but ";
  if (limits.host_bytes) {
    message += "the limit is " + mib_text(limits.host_bytes);
  } else {
    message += "only " + mib_text(host_allowed) + " of the host's " +
               mib_text(host_memory_bytes()) + " are available";
  }
  if (device)
    message += ", and " + device->device_name + " has " + mib_text(device->global_mem_bytes) +
               " of global memory and allows buffers of at most " +
               mib_text(device->max_alloc_bytes);
  throw CapacityError(message);
}

void require_host_fits(const GraphLimits& limits, std::uint64_t host_bytes,
                       const std::string& what) {
  require_memory(GraphLimits{limits.host_bytes, nullptr}, what, MemoryNeed{host_bytes, 0, 0});
}

void require_graph_fits(const GraphLimits& limits, const std::string& what, std::size_t n,
                        std::uint64_t arcs, std::uint64_t input_bytes) {
  const std::string graph = what + ": a graph of " + counts(n, arcs, "arcs");
  if (n > static_cast<std::size_t>(INT32_MAX))
    throw CapacityError(graph + " exceeds the 2^31-1 vertices that 32-bit vertex ids allow");
  MemoryNeed need;
  need.host = add(input_bytes, csr_build_bytes(n, arcs));
  const std::uint64_t offsets =
      bytes_for(static_cast<std::uint64_t>(n) + 1, DeviceGraph::needs_wide_offsets(arcs) ? 8 : 4);
  const std::uint64_t columns = bytes_for(arcs, 4), per_vertex = bytes_for(n, 4);
  need.device = add(add(offsets, columns), bytes_for(per_vertex, 3));
  need.device_buffer = std::max({offsets, columns, per_vertex});
  require_memory(limits, graph, need);
}

void require_forest_fits(const GraphLimits& limits, const std::string& what, std::size_t n,
                         std::uint64_t edges) {
  const std::string forest = what + ": a forest of " + counts(n, edges, "edges");
  if (n > static_cast<std::size_t>(INT32_MAX))
    throw CapacityError(forest + " exceeds the 2^31-1 vertices that 32-bit vertex ids allow");
  MemoryNeed need;
  // host: the edges, and the parent array as downloaded and as returned
  need.host = add(bytes_for(edges, 8), bytes_for(n, 8));
  // device: the edges (8 bytes), per arc (2 per edge) a 64-bit sort key and four int32 arrays,
  // per vertex at least four int32 arrays (labels, hooks, first arcs, parents)
  const std::uint64_t arcs = bytes_for(edges, 2);
  need.device = add(add(bytes_for(edges, 8), bytes_for(arcs, 24)), bytes_for(n, 16));
  need.device_buffer = std::max(bytes_for(arcs, 8), bytes_for(n, 4));
  require_memory(limits, forest, need);
}

}  // namespace treefix
