// The 1-D vertex partition and the partitioned graph's data (treefix/graph/partitioned_graph.hpp).
#include "treefix/graph/partitioned_graph.hpp"

#include <algorithm>

#include "treefix/core/parallel.hpp"

namespace treefix {

VertexPartition VertexPartition::balanced(std::size_t n, int ranks) {
  VertexPartition p;
  p.first.resize(ranks + 1);
  const std::int64_t share = (static_cast<std::int64_t>(n) + ranks - 1) / ranks;
  const std::int64_t aligned = (share + 31) / 32 * 32;
  for (int r = 0; r <= ranks; ++r)
    p.first[r] = std::min<std::int64_t>(static_cast<std::int64_t>(n), aligned * r);
  return p;
}

int VertexPartition::owner(std::int64_t vertex) const {
  // the last range whose first vertex is <= vertex (empty ranges are skipped)
  return static_cast<int>(std::upper_bound(first.begin(), first.end() - 1, vertex) -
                          first.begin()) -
         1;
}

PartitionedGraph PartitionedGraph::whole(Csr graph) {
  PartitionedGraph g;
  g.vertices = graph.vertices();
  g.arcs = graph.edges();
  g.partition = VertexPartition::balanced(g.vertices, 1);
  g.rows = std::move(graph);
  if (g.rows.row_offset.empty()) g.rows.row_offset.push_back(0);
  return g;
}

ReachedCount count_reached(const Csr& rows, const std::vector<vertex_t>& depth) {
  const Ranges ranges(depth.size(), host_threads() * 4, 1 << 16);
  std::vector<ReachedCount> partial(ranges.count);
  parallel_for(ranges.count, [&](std::size_t piece) {
    ReachedCount c;
    for (std::size_t v = ranges.begin(piece); v < ranges.end(piece); ++v)
      if (depth[v] >= 0) {
        ++c.vertices;
        c.arcs += rows.row_offset[v + 1] - rows.row_offset[v];
      }
    partial[piece] = c;
  });
  ReachedCount total;
  for (const ReachedCount& c : partial) total.vertices += c.vertices, total.arcs += c.arcs;
  return total;
}

}  // namespace treefix
