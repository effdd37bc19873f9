#pragma once
// A graph split by vertex ranges (a 1-D partition) over the ranks of a world, one device each:
// rank r owns vertices [first[r], first[r + 1]) and holds their out-arcs as CSR rows, a Csr whose
// row v is vertex first[r] + v and whose column ids are the whole graph's. A world of one rank
// holds the whole graph, and the algorithms then run their single-device path. The world, the
// readers and the algorithms over several ranks are in treefix/distributed/ (MPI); this header is
// the data, which needs no MPI.
//
// Range boundaries are multiples of 32 (except the last, n), so that each rank's slice of a
// vertex bitmap is whole 32-bit words and the ranks' slices concatenate into the global bitmap.
// Small graphs therefore leave the last ranks without vertices; the algorithms allow that.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "treefix/graph/csr.hpp"

namespace treefix {

struct VertexPartition {
  std::vector<std::int64_t> first;  // ranks + 1 entries, first[0] = 0, first[ranks] = n

  // n vertices in ranges of about n / ranks, boundaries rounded up to multiples of 32.
  static VertexPartition balanced(std::size_t n, int ranks);
  int ranks() const { return static_cast<int>(first.size()) - 1; }
  std::int64_t begin(int rank) const { return first[rank]; }
  std::int64_t end(int rank) const { return first[rank + 1]; }
  int owner(std::int64_t vertex) const;  // the rank whose range holds `vertex`
};

struct PartitionedGraph {
  // This rank's rows: rows.vertices() == local_vertices(); rows.undirected is the whole graph's
  // (every arc has its reverse, on its target's rank). Rows are sorted, without duplicates or
  // self loops, as every Csr of the library; ids are int32 (below 2^31 vertices).
  Csr rows;
  VertexPartition partition;
  int rank = 0;
  std::size_t vertices = 0;  // of the whole graph
  std::uint64_t arcs = 0;    // of the whole graph

  // The whole graph as the one part of a world of one rank.
  static PartitionedGraph whole(Csr graph);

  bool undirected() const { return rows.undirected; }
  std::int64_t begin() const { return partition.begin(rank); }
  std::int64_t end() const { return partition.end(rank); }
  std::size_t local_vertices() const { return static_cast<std::size_t>(end() - begin()); }
  std::size_t local_arcs() const { return rows.column.size(); }
};

// This rank's vertices with depth >= 0 and the arcs out of them (TEPS count the reached
// component's edges), on all host cores.
struct ReachedCount {
  std::uint64_t vertices = 0, arcs = 0;
};
ReachedCount count_reached(const Csr& rows, const std::vector<vertex_t>& depth);

}  // namespace treefix
