#pragma once
// Graphs in compressed sparse row form. Undirected graphs store both directions of every edge.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "treefix/treefix/tree.hpp"

namespace treefix {

struct Csr {
  std::vector<std::int64_t>
      row_offset;                // vertices + 1 entries; row v is column[row_offset[v]..[v+1])
  std::vector<vertex_t> column;  // neighbour ids
  bool undirected = false;       // every arc u -> v has its v -> u (enables bottom-up BFS)
  std::size_t vertices() const { return row_offset.empty() ? 0 : row_offset.size() - 1; }
  std::size_t edges() const { return column.size(); }  // directed edges (arcs)
  std::size_t degree(vertex_t v) const {
    return static_cast<std::size_t>(row_offset[v + 1] - row_offset[v]);
  }
};

// Builds the CSR of n vertices from arcs source[i] -> target[i] (both directions when
// `undirected`). Self loops are dropped, duplicate arcs merged, every row sorted. O(n + m log d).
// Throws InputError for an endpoint outside 0..n-1.
Csr csr_from_edges(std::size_t n, const std::vector<vertex_t>& source,
                   const std::vector<vertex_t>& target, bool undirected);

// Whether every arc has its reverse (rows must be sorted, as csr_from_edges leaves them).
bool has_reverse_arcs(const Csr& graph);

// The graph of a forest: an arc from every vertex to each of its children (rows in increasing
// child order), so that a BFS from the roots visits the forest level by level.
Csr child_graph(const ParentArray& parent);

}  // namespace treefix
