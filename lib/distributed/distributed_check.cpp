// The check of a distributed BFS (distributed/distributed_bfs.hpp), after Graph500's validation:
// every rank checks its vertices and arcs against everybody's depths; parent arcs are checked
// on the parent's rank, where the arc is stored.
#include <algorithm>
#include <cstring>

#include "treefix/core/parallel.hpp"
#include "treefix/distributed/distributed_bfs.hpp"

namespace treefix {

namespace {

struct ParentArc {
  vertex_t parent, child;
  bool operator<(const ParentArc& other) const {
    return parent != other.parent ? parent < other.parent : child < other.child;
  }
};

// The first problem (by rank) any rank found, on every rank; empty when none did.
std::string first_problem(const World& world, const std::string& problem) {
  try {
    world.agree_on_error(problem);
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

}  // namespace

std::string distributed_bfs_problem(const World& world, const LocalGraph& g,
                                    const std::vector<vertex_t>& sources,
                                    const std::vector<vertex_t>& depth,
                                    const std::vector<vertex_t>& parent) {
  const std::vector<vertex_t> all_depth = all_gather(world, depth);
  const std::int64_t first = g.begin();
  const std::size_t local_n = g.local_vertices();
  std::vector<char> is_source(local_n, 0);
  for (vertex_t s : sources)
    if (s >= first && s < g.end()) is_source[s - first] = 1;
  // Per vertex and its arcs, on all cores; the first problem of each piece kept.
  const Ranges ranges(local_n, host_threads() * 4, 1024);
  std::vector<std::string> problems(ranges.count);
  std::vector<std::vector<ParentArc>> parent_arcs(ranges.count);
  parallel_for(ranges.count, [&](std::size_t piece) {
    std::string& problem = problems[piece];
    for (std::size_t v = ranges.begin(piece); v < ranges.end(piece) && problem.empty(); ++v) {
      const std::int64_t gv = first + v;
      const vertex_t d = depth[v], p = parent[v];
      auto vertex = [gv] { return "vertex " + std::to_string(gv) + ": "; };  // when at fault
      if (is_source[v]) {
        if (d != 0 || p != -1) problem = vertex() + "a source needs depth 0 and parent -1";
      } else if (d == -1) {
        if (p != -1) problem = vertex() + "unreached but has parent " + std::to_string(p);
        continue;
      } else if (d <= 0 || p < 0 || static_cast<std::size_t>(p) >= g.vertices) {
        problem = vertex() + "depth " + std::to_string(d) + " with parent " + std::to_string(p);
      } else if (all_depth[p] != d - 1) {
        problem = vertex() + "depth " + std::to_string(d) + " but its parent " + std::to_string(p) +
                  " has depth " + std::to_string(all_depth[p]);
      } else {
        parent_arcs[piece].push_back({p, static_cast<vertex_t>(gv)});
      }
      if (!problem.empty()) break;
      for (std::int64_t e = g.row_offset[v]; e < g.row_offset[v + 1]; ++e) {
        const vertex_t w = g.column[e], dw = all_depth[w];
        if (dw < 0 || dw > d + 1) {
          problem = vertex() + "depth " + std::to_string(d) + " but its neighbour " +
                    std::to_string(w) + " has depth " + std::to_string(dw);
          break;
        }
      }
    }
  });
  std::string problem;
  for (const std::string& p : problems)
    if (problem.empty()) problem = p;
  // Parent arcs p -> v, checked where p's row is.
  std::vector<ParentArc> arcs;
  for (const auto& piece : parent_arcs) arcs.insert(arcs.end(), piece.begin(), piece.end());
  std::sort(arcs.begin(), arcs.end());  // by parent: grouped by the parent's owner
  std::vector<std::size_t> send_bytes(world.size(), 0), received_bytes;
  for (const auto& a : arcs) send_bytes[g.partition.owner(a.parent)] += sizeof a;
  const std::vector<char> incoming =
      world.all_to_all(reinterpret_cast<const char*>(arcs.data()), send_bytes, received_bytes);
  std::vector<ParentArc> to_check(incoming.size() / sizeof(ParentArc));
  if (!incoming.empty()) std::memcpy(to_check.data(), incoming.data(), incoming.size());
  for (const auto& [p, v] : to_check) {
    if (!problem.empty()) break;
    const vertex_t* row = g.column.data() + g.row_offset[p - first];
    const vertex_t* row_end = g.column.data() + g.row_offset[p - first + 1];
    if (!std::binary_search(row, row_end, v))
      problem =
          "vertex " + std::to_string(v) + ": parent " + std::to_string(p) + " has no arc to it";
  }
  return first_problem(world, problem);
}

}  // namespace treefix
