// Graph generators (Kronecker/R-MAT, 2-D grid) and BFS spanning trees of graphs.
#include <algorithm>
#include <numeric>
#include <random>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/graph/graph_limits.hpp"

namespace treefix::generate {

Csr kronecker(unsigned scale, unsigned edge_factor, std::uint64_t seed, const GraphLimits& limits) {
  if (scale > 30) throw InputError("kronecker scale " + std::to_string(scale) + " exceeds 30");
  const std::size_t n = std::size_t{1} << scale;
  const std::size_t m = n * edge_factor;  // at most 2^30 * 2^32: no overflow
  // The labels and both endpoint arrays, then the CSR build over 2m arcs: refused before any.
  require_graph_fits(limits,
                     "kronecker graph of scale " + std::to_string(scale) + " and edge factor " +
                         std::to_string(edge_factor),
                     n, bytes_for(m, 2), add_bytes(bytes_for(n, 4), bytes_for(m, 8)));
  // Graph500 initiator: a = 0.57, b = 0.19, c = 0.19, d = 0.05. Each of the `scale` bits of the
  // two endpoints is chosen by picking a quadrant with these probabilities.
  constexpr double a = 0.57, b = 0.19, c = 0.19;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<vertex_t> label(n);
  std::iota(label.begin(), label.end(), 0);
  std::shuffle(label.begin(), label.end(), rng);
  std::vector<vertex_t> source(m), target(m);
  for (std::size_t e = 0; e < m; ++e) {
    std::size_t u = 0, v = 0;
    for (unsigned bit = 0; bit < scale; ++bit) {
      double r = uniform(rng);
      bool right = r >= a && (r < a + b || r >= a + b + c);  // quadrants b and d: column bit set
      bool down = r >= a + b;                                // quadrants c and d: row bit set
      u = (u << 1) | (down ? 1 : 0);
      v = (v << 1) | (right ? 1 : 0);
    }
    source[e] = label[u];
    target[e] = label[v];
  }
  return csr_from_edges(n, source, target, true);
}

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
