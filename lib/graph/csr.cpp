// CSR construction: from edge lists, from a forest's parent array; the symmetry check.
#include "treefix/graph/csr.hpp"

#include <algorithm>
#include <string>

#include "treefix/core/error.hpp"

namespace treefix {

Csr csr_from_edges(std::size_t n, const std::vector<vertex_t>& source,
                   const std::vector<vertex_t>& target, bool undirected) {
  if (source.size() != target.size())
    throw InputError("csr_from_edges: " + std::to_string(source.size()) + " sources for " +
                     std::to_string(target.size()) + " targets");
  if (n > static_cast<std::size_t>(INT32_MAX))
    throw InputError("a graph of " + std::to_string(n) + " vertices exceeds 2^31-1 vertices");
  const std::size_t m = source.size();
  Csr g;
  g.row_offset.assign(n + 1, 0);
  for (std::size_t i = 0; i < m; ++i) {
    vertex_t u = source[i], v = target[i];
    if (u < 0 || v < 0 || static_cast<std::size_t>(u) >= n || static_cast<std::size_t>(v) >= n)
      throw InputError("edge " + std::to_string(i) + " (" + std::to_string(u) + ", " +
                       std::to_string(v) + ") has an endpoint outside 0.." + std::to_string(n) +
                       "-1");
    if (u == v) continue;
    ++g.row_offset[u + 1];
    if (undirected) ++g.row_offset[v + 1];
  }
  for (std::size_t v = 0; v < n; ++v) g.row_offset[v + 1] += g.row_offset[v];
  g.column.resize(static_cast<std::size_t>(g.row_offset[n]));
  std::vector<std::int64_t> fill(g.row_offset.begin(), g.row_offset.end() - 1);
  for (std::size_t i = 0; i < m; ++i) {
    vertex_t u = source[i], v = target[i];
    if (u == v) continue;
    g.column[fill[u]++] = v;
    if (undirected) g.column[fill[v]++] = u;
  }
  // sort rows and merge duplicates, compacting in place
  std::int64_t write = 0;
  for (std::size_t v = 0; v < n; ++v) {
    auto begin = g.column.begin() + g.row_offset[v], end = g.column.begin() + g.row_offset[v + 1];
    std::sort(begin, end);
    auto last = std::unique(begin, end);
    std::int64_t row_start = write;
    for (auto it = begin; it != last; ++it) g.column[write++] = *it;
    g.row_offset[v] = row_start;
  }
  g.row_offset[n] = write;
  g.column.resize(static_cast<std::size_t>(write));
  g.column.shrink_to_fit();
  g.undirected = undirected;
  return g;
}

bool has_reverse_arcs(const Csr& g) {
  for (std::size_t v = 0; v < g.vertices(); ++v)
    for (std::int64_t e = g.row_offset[v]; e < g.row_offset[v + 1]; ++e) {
      vertex_t u = g.column[e];
      auto begin = g.column.begin() + g.row_offset[u], end = g.column.begin() + g.row_offset[u + 1];
      if (!std::binary_search(begin, end, static_cast<vertex_t>(v))) return false;
    }
  return true;
}

Csr child_graph(const ParentArray& parent) {
  ChildLists lists = child_lists(parent);
  Csr g;
  g.row_offset = std::move(lists.child_offset);
  g.column = std::move(lists.child);
  return g;
}

}  // namespace treefix
