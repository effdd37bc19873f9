#pragma once
// The world the distributed test cases run in: one rank when the test binary is started alone,
// the launcher's ranks when an MPI launcher starts it (CTest runs the cases named
// "distributed*" on 2 and 3 ranks: tests/CMakeLists.txt). Every case is written for any number
// of ranks: inputs are cut into this rank's share, results put back together before they are
// compared with the whole graph's reference.
#include <cstdint>
#include <vector>

#include "treefix/distributed/distributed_graph.hpp"
#include "treefix/distributed/world.hpp"
#include "treefix/graph/csr.hpp"

namespace treefix::test {

// One World per process (MPI is initialised once), shared by every case.
inline World& test_world() {
  static World world;
  return world;
}

// This rank's share of an array with one entry per vertex of an n-vertex graph (the vertex
// ranges of local_slice); an array of another size is passed whole (the checks' size errors).
template <class T>
std::vector<T> share_of(const std::vector<T>& whole, std::size_t n) {
  if (whole.size() != n) return whole;
  const VertexPartition ranges = VertexPartition::balanced(n, test_world().size());
  const int rank = test_world().rank();
  return std::vector<T>(whole.begin() + ranges.begin(rank), whole.begin() + ranges.end(rank));
}

// Every rank's share, in rank order: the whole array, on every rank.
template <class T>
std::vector<T> whole_of(const std::vector<T>& share) {
  return all_gather(test_world(), share);
}

// The sum of a count over the ranks.
inline std::uint64_t summed(std::uint64_t mine) {
  std::vector<std::uint64_t> value{mine};
  test_world().sum_in_place(value);
  return value[0];
}

// The rows of `whole` that this rank owns, as local_slice holds them: offsets from 0.
inline std::vector<std::int64_t> owned_row_offsets(const Csr& whole) {
  const VertexPartition ranges = VertexPartition::balanced(whole.vertices(), test_world().size());
  const int rank = test_world().rank();
  std::vector<std::int64_t> offsets;
  for (std::int64_t v = ranges.begin(rank); v <= ranges.end(rank); ++v)
    offsets.push_back(whole.row_offset[v] - whole.row_offset[ranges.begin(rank)]);
  return offsets;
}

inline std::vector<vertex_t> owned_columns(const Csr& whole) {
  const VertexPartition ranges = VertexPartition::balanced(whole.vertices(), test_world().size());
  const int rank = test_world().rank();
  return std::vector<vertex_t>(whole.column.begin() + whole.row_offset[ranges.begin(rank)],
                               whole.column.begin() + whole.row_offset[ranges.end(rank)]);
}

}  // namespace treefix::test
