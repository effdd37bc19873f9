// Graph generators (2-D grid; Kronecker: kronecker.cpp) and BFS spanning trees of graphs.
#include <algorithm>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/graph/graph_limits.hpp"

namespace treefix::generate {

Csr grid2d(std::size_t rows, std::size_t cols, const GraphLimits& limits) {
  const std::size_t n = rows * cols;
  if (rows && n / rows != cols) throw InputError("grid size overflows");
  if (n > static_cast<std::size_t>(INT32_MAX))
    throw InputError("a grid of " + std::to_string(n) + " vertices exceeds 2^31-1 vertices");
  require_graph_fits(limits, "grid of " + std::to_string(rows) + " x " + std::to_string(cols), n,
                     bytes_for(n, 4));
  Csr g;
  g.row_offset.resize(n + 1);
  g.column.reserve(4 * n);
  g.row_offset[0] = 0;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) {
      std::size_t v = r * cols + c;
      if (r > 0) g.column.push_back(static_cast<vertex_t>(v - cols));
      if (c > 0) g.column.push_back(static_cast<vertex_t>(v - 1));
      if (c + 1 < cols) g.column.push_back(static_cast<vertex_t>(v + 1));
      if (r + 1 < rows) g.column.push_back(static_cast<vertex_t>(v + cols));
      g.row_offset[v + 1] = static_cast<std::int64_t>(g.column.size());
    }
  g.undirected = true;
  return g;
}

ParentArray bfs_spanning_tree(const Csr& graph, vertex_t source) {
  const std::size_t n = graph.vertices();
  if (source < 0 || static_cast<std::size_t>(source) >= n)
    throw InputError("BFS source " + std::to_string(source) + " outside 0.." + std::to_string(n) +
                     "-1");
  require_host_memory(bytes_for(n, 2 * sizeof(vertex_t) + 1),
                      "a BFS spanning tree of " + std::to_string(n) + " vertices");
  ParentArray parent(n, -1);
  std::vector<char> seen(n, 0);
  std::vector<vertex_t> queue;
  queue.reserve(n);
  queue.push_back(source);
  seen[source] = 1;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    vertex_t v = queue[head];
    for (std::int64_t e = graph.row_offset[v]; e < graph.row_offset[v + 1]; ++e) {
      vertex_t u = graph.column[e];
      if (!seen[u]) {
        seen[u] = 1;
        parent[u] = v;
        queue.push_back(u);
      }
    }
  }
  return parent;
}

}  // namespace treefix::generate
