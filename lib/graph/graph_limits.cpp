// Capacity checks of the graph readers (treefix/graph/graph_limits.hpp).
#include "treefix/graph/graph_limits.hpp"

#include <algorithm>
#include <climits>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/graph/csr.hpp"

namespace treefix {

namespace {
std::uint64_t add(std::uint64_t a, std::uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
std::string counts(std::size_t n, std::uint64_t arcs, const char* unit) {
  return std::to_string(n) + " vertices and " + std::to_string(arcs) + " " + unit;
}
}  // namespace

void require_host_fits(const GraphLimits& limits, std::uint64_t host_bytes,
                       const std::string& what) {
  if (limits.host_bytes == 0) return require_host_memory(host_bytes, what);
  if (host_bytes > limits.host_bytes)
    throw CapacityError(what + " needs " + std::to_string(host_bytes / (1024 * 1024)) +
                        " MiB of host memory, more than the " +
                        std::to_string(limits.host_bytes / (1024 * 1024)) + " MiB allowed");
}

void require_graph_fits(const GraphLimits& limits, const std::string& what, std::size_t n,
                        std::uint64_t arcs, std::uint64_t input_bytes) {
  const std::string graph = what + ": a graph of " + counts(n, arcs, "arcs");
  if (n > static_cast<std::size_t>(INT32_MAX))
    throw CapacityError(graph + " exceeds the 2^31-1 vertices that 32-bit vertex ids allow");
  require_host_fits(limits, add(input_bytes, csr_build_bytes(n, arcs)), graph);
  if (!limits.device) return;
  const std::uint64_t offsets =
      bytes_for(static_cast<std::uint64_t>(n) + 1, arcs > INT32_MAX - 1 ? 8 : 4);
  const std::uint64_t columns = bytes_for(arcs, 4), per_vertex = bytes_for(n, 4);
  limits.device->require_fits(graph, add(add(offsets, columns), bytes_for(per_vertex, 3)),
                              std::max({offsets, columns, per_vertex}));
}

void require_forest_fits(const GraphLimits& limits, const std::string& what, std::size_t n,
                         std::uint64_t edges) {
  const std::string forest = what + ": a forest of " + counts(n, edges, "edges");
  if (n > static_cast<std::size_t>(INT32_MAX))
    throw CapacityError(forest + " exceeds the 2^31-1 vertices that 32-bit vertex ids allow");
  // host: the edges, and the parent array as downloaded and as returned
  require_host_fits(limits, add(bytes_for(edges, 8), bytes_for(n, 8)), forest);
  if (!limits.device) return;
  // device: the edges (8 bytes), per arc (2 per edge) a 64-bit sort key and four int32 arrays,
  // per vertex at least four int32 arrays (labels, hooks, first arcs, parents)
  const std::uint64_t arcs = bytes_for(edges, 2);
  limits.device->require_fits(
      forest, add(add(bytes_for(edges, 8), bytes_for(arcs, 24)), bytes_for(n, 16)),
      std::max(bytes_for(arcs, 8), bytes_for(n, 4)));
}

}  // namespace treefix
