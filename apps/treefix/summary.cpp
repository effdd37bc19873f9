// Forest and graph summaries (summary.hpp).
#include "summary.hpp"

#include <algorithm>
#include <numeric>

namespace treefix::cli {
namespace {

DegreeStats degree_stats(const std::vector<std::size_t>& degree) {
  DegreeStats s;
  if (degree.empty()) return s;
  const auto [low, high] = std::minmax_element(degree.begin(), degree.end());
  s.min = *low;
  s.max = *high;
  s.mean = static_cast<double>(std::accumulate(degree.begin(), degree.end(), std::size_t{0})) /
           static_cast<double>(degree.size());
  return s;
}

// Union-find with path halving; the smaller id becomes the root, so results do not depend on
// the order of the arcs.
vertex_t find(std::vector<vertex_t>& up, vertex_t v) {
  while (up[v] != v) {
    up[v] = up[up[v]];
    v = up[v];
  }
  return v;
}

}  // namespace

ForestSummary summarize_forest(const ParentArray& parent) {
  ForestSummary s;
  const std::size_t n = parent.size();
  s.vertices = n;
  std::vector<std::size_t> children(n, 0);
  for (vertex_t p : parent)
    if (p >= 0) ++children[p];
  // Depths: each vertex climbs to the first ancestor whose depth is known, then the path is
  // filled in on the way back, so every vertex is visited a constant number of times.
  std::vector<std::int64_t> depth(n, -1);
  std::vector<vertex_t> path;
  for (std::size_t v = 0; v < n; ++v) {
    vertex_t at = static_cast<vertex_t>(v);
    while (depth[at] < 0 && parent[at] >= 0) {
      path.push_back(at);
      at = parent[at];
    }
    if (depth[at] < 0) depth[at] = 0;  // a root
    std::int64_t d = depth[at];
    while (!path.empty()) {
      depth[path.back()] = ++d;
      path.pop_back();
    }
  }
  for (std::size_t v = 0; v < n; ++v) {
    s.roots += parent[v] < 0;
    s.leaves += children[v] == 0;
    const auto d = static_cast<std::size_t>(depth[v]);
    if (d >= s.levels.size()) s.levels.resize(d + 1, 0);
    ++s.levels[d];
  }
  s.depth = s.levels.empty() ? 0 : s.levels.size() - 1;
  s.children = degree_stats(children);
  return s;
}

GraphSummary summarize_graph(const Csr& graph) {
  GraphSummary s;
  const std::size_t n = graph.vertices();
  s.vertices = n;
  s.arcs = graph.edges();
  s.undirected = graph.undirected;
  std::vector<std::size_t> degree(n);
  std::vector<vertex_t> up(n);
  std::iota(up.begin(), up.end(), 0);
  for (std::size_t v = 0; v < n; ++v) {
    degree[v] = graph.degree(static_cast<vertex_t>(v));
    for (auto a = graph.row_offset[v]; a < graph.row_offset[v + 1]; ++a) {
      const vertex_t x = find(up, static_cast<vertex_t>(v)), y = find(up, graph.column[a]);
      if (x != y) up[std::max(x, y)] = std::min(x, y);
    }
  }
  std::vector<std::size_t> size(n, 0), in_degree(n, 0);
  for (vertex_t c : graph.column) ++in_degree[c];
  for (std::size_t v = 0; v < n; ++v) {
    ++size[find(up, static_cast<vertex_t>(v))];
    s.isolated += degree[v] == 0 && in_degree[v] == 0;
  }
  for (std::size_t v = 0; v < n; ++v)
    if (size[v] > 0) {
      ++s.components;
      s.largest_component = std::max(s.largest_component, size[v]);
    }
  s.out_degree = degree_stats(degree);
  return s;
}

void print_forest_line(std::ostream& out, const ForestSummary& summary) {
  out << summary.roots << (summary.roots == 1 ? " component" : " components") << ", depth "
      << summary.depth << " (" << summary.vertices << " vertices, " << summary.leaves << " leaves)";
}

}  // namespace treefix::cli
