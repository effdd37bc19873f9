// Partitioned graphs made by the ranks together (distributed/partitioned_graph.hpp): a whole
// graph sliced, rows built from arcs sent to their owners or from an edge stream, the keyed arc
// sums added over the ranks. The row building itself (arcs bucketed and placed block by block,
// rows sorted and compacted) is graph's (graph/detail/arc_buckets.hpp, csr.hpp), as on one device.
#include "treefix/distributed/partitioned_graph.hpp"

#include <algorithm>

#include "treefix/core/error.hpp"
#include "treefix/core/mix.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/distributed/partitioned_device_graph.hpp"
#include "treefix/graph/detail/arc_buckets.hpp"
#include "treefix/graph/detail/arc_hash.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/graph/graph_limits.hpp"

namespace treefix {

namespace {

using detail::Arc;

// An empty share of a graph of n vertices: the partition, the rank, rows to be filled.
PartitionedGraph share_of(const World& world, std::size_t n, bool undirected) {
  PartitionedGraph g;
  g.vertices = n;
  g.rows.undirected = undirected;
  g.partition = VertexPartition::balanced(n, world.size());
  g.rank = world.rank();
  return g;
}

// The arcs of the pieces bucketed by the rank that owns their source, sent to it, received.
template <typename EachArc>
void send_to_owners(const World& world, const VertexPartition& partition, const Ranges& pieces,
                    const EachArc& each_arc, std::vector<Arc>& packed, std::vector<char>& received,
                    PhaseTimes& times) {
  std::vector<std::size_t> send_bytes(partition.ranks()), received_bytes;
  times.measure("bucket arcs", [&] {
    const std::vector<std::size_t> start = detail::bucket_items(
        pieces, partition.ranks(), [&](const Arc& a) { return partition.owner(a.source); },
        each_arc, packed);
    for (int r = 0; r < partition.ranks(); ++r)
      send_bytes[r] = (start[r + 1] - start[r]) * sizeof(Arc);
  });
  times.measure("exchange", [&] {
    world.all_to_all(reinterpret_cast<const char*>(packed.data()), send_bytes, received,
                     received_bytes);
  });
}

// The rows of the arcs this rank received: counted, placed, sorted and compacted, on all cores.
void build_rows(PartitionedGraph& g, const Arc* arcs, std::size_t count) {
  const std::size_t local_n = g.local_vertices();
  const std::int64_t begin = g.begin();
  g.rows.row_offset.assign(local_n + 1, 0);
  const Ranges pieces(count, host_threads() * 4, 1 << 16);
  std::vector<Arc> grouped;
  detail::visit_by_block(pieces, detail::arcs_of(pieces, arcs), begin, local_n, grouped,
                         [&](const Arc& a) { ++g.rows.row_offset[a.source - begin]; });
  exclusive_sum(g.rows.row_offset.data(), local_n + 1);
  g.rows.column.resize(count);
  std::vector<std::int64_t> cursor(g.rows.row_offset.begin(), g.rows.row_offset.end() - 1);
  detail::place_arcs(pieces, detail::arcs_of(pieces, arcs), begin, local_n, cursor.data(),
                     g.rows.column.data(), grouped);
  normalize_rows(g.rows, begin);
}

}  // namespace

PartitionedGraph partition_graph(const World& world, const Csr& whole) {
  PartitionedGraph g = share_of(world, whole.vertices(), whole.undirected);
  const std::int64_t begin = g.begin(), end = g.end();
  const std::int64_t arc_begin = whole.row_offset.empty() ? 0 : whole.row_offset[begin];
  g.rows.row_offset.resize(static_cast<std::size_t>(end - begin) + 1);
  for (std::int64_t v = begin; v <= end; ++v)
    g.rows.row_offset[v - begin] = (whole.row_offset.empty() ? 0 : whole.row_offset[v]) - arc_begin;
  g.rows.column.assign(whole.column.begin() + arc_begin,
                       whole.column.begin() + arc_begin + g.rows.row_offset.back());
  normalize_rows(g.rows, begin);  // a Csr handed over as it is (self loops, repeats)
  g.arcs = world.sum(g.local_arcs());
  return g;
}

PartitionedGraph partitioned_graph_from_arcs(const World& world, std::size_t n,
                                             std::vector<vertex_t> source,
                                             std::vector<vertex_t> target, bool undirected) {
  if (world.size() == 1)  // the single-device build: checks, counts and places in one
    return PartitionedGraph::whole(csr_from_edges(n, source, target, undirected));
  const Ranges pieces(source.size(), host_threads() * 4, 1 << 16);
  std::vector<std::string> bad_piece(pieces.count);
  parallel_for(pieces.count, [&](std::size_t piece) {
    for (std::size_t i = pieces.begin(piece); i < pieces.end(piece) && bad_piece[piece].empty();
         ++i)
      if (source[i] < 0 || target[i] < 0 || static_cast<std::size_t>(source[i]) >= n ||
          static_cast<std::size_t>(target[i]) >= n)
        bad_piece[piece] = "arc " + std::to_string(source[i]) + " -> " + std::to_string(target[i]) +
                           " has an endpoint outside 0.." + std::to_string(n ? n - 1 : 0);
  });
  std::string bad = source.size() == target.size()
                        ? std::string()
                        : std::to_string(source.size()) + " sources for " +
                              std::to_string(target.size()) + " targets";
  for (const std::string& b : bad_piece)
    if (bad.empty()) bad = b;
  world.agree_on_error(bad, World::ErrorKind::input);
  PartitionedGraph g = share_of(world, n, undirected);
  std::vector<Arc> packed;
  std::vector<char> received;
  PhaseTimes unused;
  send_to_owners(
      world, g.partition, pieces,
      [&](std::size_t piece, auto&& visit) {
        for (std::size_t i = pieces.begin(piece); i < pieces.end(piece); ++i) {
          visit(Arc{source[i], target[i]});
          if (undirected) visit(Arc{target[i], source[i]});
        }
      },
      packed, received, unused);
  std::vector<vertex_t>().swap(source);
  std::vector<vertex_t>().swap(target);
  std::vector<Arc>().swap(packed);
  build_rows(g, reinterpret_cast<const Arc*>(received.data()), received.size() / sizeof(Arc));
  g.arcs = world.sum(g.local_arcs());
  return g;
}

PartitionedGraph partitioned_graph_from_edge_stream(const World& world, std::size_t n,
                                                    std::uint64_t edges_here, bool undirected,
                                                    const EdgeMaker& make_edges,
                                                    PhaseTimes* phases) {
  if (world.size() == 1)
    return PartitionedGraph::whole(
        csr_from_edge_stream(n, edges_here, undirected, make_edges, phases));
  PhaseTimes unused;
  PhaseTimes& times = phases ? *phases : unused;
  PartitionedGraph g = share_of(world, n, undirected);
  const std::size_t local_n = g.local_vertices();
  const std::int64_t begin = g.begin();
  detail::EdgeRounds rounds(
      edges_here, static_cast<std::uint64_t>(world.max(static_cast<std::int64_t>(edges_here))),
      undirected, make_edges, times);
  std::vector<Arc> grouped;

  // First pass: each vertex's arcs counted over the whole graph, then summed by its owner.
  std::vector<std::int64_t>& row_offset = g.rows.row_offset;
  row_offset.assign(local_n + 1, 0);
  {
    std::vector<std::int64_t> degree(n, 0);
    for (std::uint64_t round = 0; round < rounds.count(); ++round) {
      const Ranges pieces = rounds.make(round);
      times.measure("count arcs", [&] {
        detail::visit_by_block(pieces, rounds.arcs(pieces), 0, n, grouped,
                               [&](const Arc& a) { ++degree[a.source]; });
      });
    }
    std::vector<std::size_t> send_bytes(world.size()), received_bytes;
    for (int r = 0; r < world.size(); ++r)
      send_bytes[r] = static_cast<std::size_t>(g.partition.end(r) - g.partition.begin(r)) *
                      sizeof(std::int64_t);
    const std::vector<char> received = times.measure("exchange", [&] {
      return world.all_to_all(reinterpret_cast<const char*>(degree.data()), send_bytes,
                              received_bytes);
    });
    std::vector<std::int64_t>().swap(degree);
    const std::int64_t* counts = reinterpret_cast<const std::int64_t*>(received.data());
    const Ranges ranges(local_n, host_threads() * 4, 1 << 16);
    parallel_for(ranges.count, [&](std::size_t piece) {
      for (std::size_t v = ranges.begin(piece); v < ranges.end(piece); ++v)
        for (int r = 0; r < world.size(); ++r) row_offset[v] += counts[r * local_n + v];
    });
  }
  exclusive_sum(row_offset.data(), local_n + 1);

  // Second pass: the edges made again, their arcs sent to their owners and placed in their rows.
  g.rows.column.resize(static_cast<std::size_t>(row_offset[local_n]));
  std::vector<std::int64_t> cursor(row_offset.begin(), row_offset.end() - 1);
  std::vector<Arc> packed;
  std::vector<char> received;
  for (std::uint64_t round = 0; round < rounds.count(); ++round) {
    const Ranges pieces = rounds.make(round);
    send_to_owners(world, g.partition, pieces, rounds.arcs(pieces), packed, received, times);
    times.measure("place arcs", [&] {
      const Ranges arrived(received.size() / sizeof(Arc), host_threads() * 4, 1 << 16);
      detail::place_arcs(arrived,
                         detail::arcs_of(arrived, reinterpret_cast<const Arc*>(received.data())),
                         begin, local_n, cursor.data(), g.rows.column.data(), grouped);
    });
  }
  std::vector<std::int64_t>().swap(cursor);
  times.measure("sort rows", [&] { normalize_rows(g.rows, begin); });
  g.arcs = world.sum(g.local_arcs());
  return g;
}

std::uint64_t graph_hash(const World& world, const PartitionedGraph& g) {
  return world.sum(detail::arc_hash_sum(g.rows, g.begin())) + mix64(g.vertices);  // mod 2^64
}

bool has_reverse_arcs(const World& world, const PartitionedGraph& g) {
  if (world.size() == 1) return has_reverse_arcs(g.rows);
  detail::ArcKey key = world.rank() == 0 ? detail::ArcKey::fresh() : detail::ArcKey{};
  world.broadcast_bytes(&key, sizeof key);
  const detail::ArcSums mine = detail::arc_sums(g.rows, g.begin(), key, true);
  std::vector<std::uint64_t> sums = {mine.forward[0], mine.forward[1], mine.reverse[0],
                                     mine.reverse[1]};
  world.sum_in_place(sums);
  const detail::ArcSums all{{sums[0], sums[1]}, {sums[2], sums[3]}};
  return all.symmetric();
}

void require_kronecker_fits(const World& world, const Runtime* device, unsigned scale,
                            unsigned edge_factor) {
  on_every_rank(world, [&] {
    const std::uint64_t n = 1ull << std::min(scale, 62u), arcs = 2ull * edge_factor * n;
    const std::string graph = "kronecker:" + std::to_string(scale);
    if (device && world.size() == 1)
      require_graph_fits(GraphLimits{0, device}, graph, static_cast<std::size_t>(n), arcs);
    else if (device)
      device->require_fits("rank " + std::to_string(world.rank()) + "'s share of " + graph + " (" +
                               std::to_string(n) + " vertices, up to " + std::to_string(arcs) +
                               " arcs over " + std::to_string(world.size()) + " ranks)",
                           partitioned_device_bytes(n, n / world.size(), arcs / world.size()),
                           arcs / world.size() * 4);
    require_host_fits(
        {}, generate::kronecker_host_bytes(scale, edge_factor, world.size()) * world.local_size(),
        "generating " + graph + " on " + std::to_string(world.local_size()) +
            " ranks of this host");
  });
}

namespace generate {

PartitionedGraph kronecker(const World& world, unsigned scale, unsigned edge_factor,
                           std::uint64_t seed, PhaseTimes* phases) {
  kronecker_host_bytes(scale, edge_factor, world.size());  // the scale checked on every rank
  const std::uint64_t n = 1ull << scale, edges = n * edge_factor;
  const std::uint64_t first = edges * world.rank() / world.size(),
                      last = edges * (world.rank() + 1) / world.size();
  return partitioned_graph_from_edge_stream(
      world, static_cast<std::size_t>(n), last - first, true,
      [&](std::uint64_t from, std::uint64_t to, vertex_t* source, vertex_t* target) {
        kronecker_edges(scale, seed, first + from, first + to, source, target);
      },
      phases);
}

}  // namespace generate

}  // namespace treefix
