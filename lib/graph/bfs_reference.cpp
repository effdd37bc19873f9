// The sequential BFS the tests and benchmarks compare with, and the comparison of a BFS tree with
// it (bfs_check.cpp checks the tree).
#include <cstdint>
#include <string>
#include <vector>

#include "treefix/core/error.hpp"
#include "treefix/graph/bfs.hpp"

namespace treefix {

BfsResult bfs_reference(const Csr& graph, vertex_t source) {
  const std::size_t n = graph.vertices();
  if (source < 0 || static_cast<std::size_t>(source) >= n)
    throw InputError("BFS source " + std::to_string(source) + " outside 0.." + std::to_string(n) +
                     "-1");
  BfsResult r;
  r.depth.assign(n, -1);
  r.parent.assign(n, -1);
  std::vector<vertex_t> queue;
  queue.reserve(n);
  queue.push_back(source);
  r.depth[source] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    vertex_t v = queue[head];
    for (std::int64_t e = graph.row_offset[v]; e < graph.row_offset[v + 1]; ++e) {
      vertex_t u = graph.column[e];
      if (r.depth[u] == -1) {
        r.depth[u] = r.depth[v] + 1;
        r.parent[u] = v;
        queue.push_back(u);
      }
    }
  }
  r.levels = queue.empty() ? 0 : static_cast<std::size_t>(r.depth[queue.back()]) + 1;
  return r;
}

std::string bfs_tree_problem(const Csr& graph, vertex_t source,
                             const std::vector<vertex_t>& expected_depth,
                             const std::vector<vertex_t>& depth,
                             const std::vector<vertex_t>& parent) {
  const std::size_t n = graph.vertices();
  if (depth.size() != n || parent.size() != n || expected_depth.size() != n)
    return "arrays of " + std::to_string(depth.size()) + "/" + std::to_string(parent.size()) +
           " entries for " + std::to_string(n) + " vertices";
  for (std::size_t v = 0; v < n; ++v)
    if (depth[v] != expected_depth[v])
      return "vertex " + std::to_string(v) + ": depth " + std::to_string(depth[v]) + ", expected " +
             std::to_string(expected_depth[v]);
  return bfs_problem(graph, {source}, depth, parent);
}

namespace detail {

void require_bfs_sources(const std::vector<vertex_t>& sources, std::size_t n) {
  for (vertex_t s : sources)
    if (s < 0 || static_cast<std::size_t>(s) >= n)
      throw InputError("BFS source " + std::to_string(s) + " outside 0.." + std::to_string(n) +
                       "-1 (the graph has " + std::to_string(n) + " vertices)");
}

}  // namespace detail

}  // namespace treefix
