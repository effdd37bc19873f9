// CSR rows from an edge stream made twice in rounds (treefix/graph/edge_stream.hpp).
#include "treefix/graph/edge_stream.hpp"

#include "treefix/core/parallel.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/graph/detail/arc_buckets.hpp"

namespace treefix {

std::uint64_t edge_stream_host_bytes(std::size_t n, std::uint64_t edges, int ranks,
                                     bool undirected) {
  const std::uint64_t arcs = edges * (undirected ? 2 : 1);
  const std::uint64_t share = (n + ranks - 1) / ranks;
  // The first pass: a count per vertex of the whole graph (several ranks), the ranks' counts of
  // this share and their sums.
  const std::uint64_t counting = ranks > 1 ? 8ull * n + 8ull * share * (ranks + 1) : 8ull * n;
  // The second: the rows (int64 offset and cursor per vertex, int32 column per arc).
  const std::uint64_t rows = 16ull * share + 4ull * ((arcs + ranks - 1) / ranks);
  // One round: its edges (8 bytes), their arcs (8 bytes each) bucketed by owner, received, and
  // bucketed by block.
  const std::uint64_t round = detail::kMostRoundEdges * (8 + 3 * 8 * (undirected ? 2 : 1));
  return std::max(counting, rows) + round;
}

Csr csr_from_edge_stream(std::size_t n, std::uint64_t edges, bool undirected,
                         const EdgeMaker& make_edges, PhaseTimes* phases) {
  PhaseTimes unused;
  PhaseTimes& times = phases ? *phases : unused;
  detail::EdgeRounds rounds(edges, edges, undirected, make_edges, times);
  std::vector<detail::Arc> grouped;
  // First pass: each vertex's arcs counted, straight into its row offset.
  Csr g;
  g.undirected = undirected;
  g.row_offset.assign(n + 1, 0);
  for (std::uint64_t round = 0; round < rounds.count(); ++round) {
    const Ranges pieces = rounds.make(round);
    times.measure("count arcs", [&] {
      detail::visit_by_block(pieces, rounds.arcs(pieces), 0, n, grouped,
                             [&](const detail::Arc& a) { ++g.row_offset[a.source]; });
    });
  }
  exclusive_sum(g.row_offset.data(), n + 1);
  // Second pass: the edges made again, their arcs placed in their rows.
  g.column.resize(static_cast<std::size_t>(g.row_offset[n]));
  std::vector<std::int64_t> cursor(g.row_offset.begin(), g.row_offset.end() - 1);
  for (std::uint64_t round = 0; round < rounds.count(); ++round) {
    const Ranges pieces = rounds.make(round);
    times.measure("place arcs", [&] {
      detail::place_arcs(pieces, rounds.arcs(pieces), 0, n, cursor.data(), g.column.data(),
                         grouped);
    });
  }
  std::vector<std::int64_t>().swap(cursor);
  times.measure("sort rows", [&] { normalize_rows(g); });
  return g;
}

}  // namespace treefix
