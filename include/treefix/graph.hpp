#pragma once
// Graphs in compressed sparse row form. Undirected graphs store both directions of every edge.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "treefix/tree.hpp"

namespace treefix {

struct Csr {
  std::vector<std::int64_t> row_offset;  // vertices + 1 entries; row v is column[row_offset[v]..[v+1])
  std::vector<vertex_t> column;          // neighbour ids
  std::size_t vertices() const { return row_offset.empty() ? 0 : row_offset.size() - 1; }
  std::size_t edges() const { return column.size(); }  // directed edges (arcs)
};

}  // namespace treefix
