// The check of a partitioned BFS (distributed/bfs.hpp): every rank runs graph's block check
// (graph/detail/bfs_check.hpp) on its own rows, on the host cores or on its device, against every
// vertex's depth gathered from all ranks; the first problem by rank is the answer on every rank.
#include <algorithm>
#include <cstring>

#include "treefix/distributed/bfs.hpp"
#include "treefix/graph/detail/bfs_check.hpp"

namespace treefix {

namespace {

using detail::ParentArc;

// The first problem (by rank) any rank found, on every rank; empty when none did.
std::string first_problem(const World& world, const std::string& problem) {
  try {
    world.agree_on_error(problem);
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

// Parent arcs p -> v of a directed graph, sent to the ranks holding p's row and looked up there.
std::string check_parent_arcs(const World& world, const PartitionedGraph& g,
                              std::vector<ParentArc> arcs) {
  std::sort(arcs.begin(), arcs.end(), [](const ParentArc& a, const ParentArc& b) {
    return a.parent != b.parent ? a.parent < b.parent : a.child < b.child;
  });  // by parent: grouped by the parent's owner
  std::vector<std::size_t> send_bytes(world.size(), 0), received_bytes;
  for (const auto& a : arcs) send_bytes[g.partition.owner(a.parent)] += sizeof a;
  const std::vector<char> incoming =
      world.all_to_all(reinterpret_cast<const char*>(arcs.data()), send_bytes, received_bytes);
  std::vector<ParentArc> to_check(incoming.size() / sizeof(ParentArc));
  if (!incoming.empty()) std::memcpy(to_check.data(), incoming.data(), incoming.size());
  return detail::check_parent_arcs(g.rows, g.begin(), to_check);
}

std::string size_problem(const World& world, const PartitionedGraph& g,
                         const std::vector<vertex_t>& depth, const std::vector<vertex_t>& parent) {
  if (depth.size() == g.local_vertices() && parent.size() == g.local_vertices()) return {};
  return "rank " + std::to_string(world.rank()) + " has " + std::to_string(depth.size()) +
         " depths and " + std::to_string(parent.size()) + " parents for " +
         std::to_string(g.local_vertices()) + " vertices";
}

}  // namespace

std::string bfs_problem(const World& world, const PartitionedGraph& g,
                        const std::vector<vertex_t>& sources, const std::vector<vertex_t>& depth,
                        const std::vector<vertex_t>& parent) {
  if (world.size() == 1) return bfs_problem(g.rows, sources, depth, parent);
  const std::string sizes = size_problem(world, g, depth, parent);
  if (world.any(!sizes.empty())) return first_problem(world, sizes);
  const std::vector<vertex_t> all_depth = all_gather(world, depth);
  detail::BlockCheck local =
      detail::check_bfs_block(g.rows, g.begin(), sources, depth, parent, all_depth);
  if (!g.undirected()) {  // every rank takes part in the exchange, whatever it found
    const std::string arc_problem = check_parent_arcs(world, g, std::move(local.parent_arcs));
    if (local.problem.empty()) local.problem = arc_problem;
  }
  return first_problem(world, local.problem);
}

std::string bfs_problem(const World& world, Runtime& runtime, const PartitionedDeviceGraph& graph,
                        const std::vector<vertex_t>& sources, const std::vector<vertex_t>& depth,
                        const std::vector<vertex_t>& parent, Profile* profile) {
  const PartitionedGraph& g = graph.host();
  if (world.size() == 1)
    return bfs_problem(runtime, g.rows, graph.rows(), sources, depth, parent, profile);
  // Directed graphs (parent arcs on the parent's rank), malformed arrays, or trees too deep for
  // byte levels: the host check alone.
  const bool sized = size_problem(world, g, depth, parent).empty();
  const vertex_t deepest = sized ? detail::deepest(depth) : detail::kUnreachedLevel;
  if (!g.undirected() || world.max(std::int64_t(deepest)) >= detail::kUnreachedLevel)
    return bfs_problem(world, g, sources, depth, parent);
  // Every vertex's level in a byte (n bytes gathered, not n ints).
  const std::vector<std::uint8_t> levels = all_gather(world, detail::byte_levels(depth));
  const std::size_t fault = detail::first_fault_on_device(runtime, graph.rows(), g.begin(), levels,
                                                          sources, depth, parent, profile);
  const bool found = fault < g.local_vertices();
  if (!world.any(found)) return {};
  // A fault somewhere: the host check names it, on every rank.
  if (std::string problem = bfs_problem(world, g, sources, depth, parent); !problem.empty())
    return problem;
  return first_problem(world, found ? "the device check finds vertex " +
                                          std::to_string(g.begin() + std::int64_t(fault)) +
                                          " at fault where the host check finds none"
                                    : std::string());
}

}  // namespace treefix
