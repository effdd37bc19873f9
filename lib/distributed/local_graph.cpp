// The 1-D partition and the local graph (distributed/distributed_graph.hpp): slicing a whole
// graph, building rows from arcs sent to their owners or from an edge stream, the
// order-independent hash.
#include <algorithm>
#include <cstring>

#include "distributed/buckets.hpp"
#include "distributed/mix.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/distributed/distributed_graph.hpp"

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

LocalGraph local_slice(const World& world, const Csr& whole) {
  LocalGraph g;
  g.vertices = whole.vertices();
  g.arcs = whole.edges();
  g.undirected = whole.undirected;
  g.partition = VertexPartition::balanced(g.vertices, world.size());
  g.rank = world.rank();
  const std::int64_t begin = g.begin(), end = g.end();
  const std::int64_t arc_begin = whole.row_offset.empty() ? 0 : whole.row_offset[begin];
  g.row_offset.resize(static_cast<std::size_t>(end - begin) + 1);
  for (std::int64_t v = begin; v <= end; ++v)
    g.row_offset[v - begin] = (whole.row_offset.empty() ? 0 : whole.row_offset[v]) - arc_begin;
  g.column.assign(whole.column.begin() + arc_begin,
                  whole.column.begin() + arc_begin + g.row_offset.back());
  normalize_local_rows(
      g);  // a Csr handed over as it is (self loops, repeats) gets the library's form
  g.arcs = world.sum(g.local_arcs());
  return g;
}

namespace {

struct Arc {
  vertex_t source, target;
};

}  // namespace

void normalize_local_rows(LocalGraph& g) {
  const std::size_t local_n = g.local_vertices();
  const std::int64_t begin = g.begin();
  std::vector<std::int64_t> kept(local_n + 1, 0);
  const Ranges ranges(local_n, host_threads() * 4, 1024);
  parallel_for(ranges.count, [&](std::size_t piece) {
    for (std::size_t v = ranges.begin(piece); v < ranges.end(piece); ++v) {
      vertex_t* row = g.column.data() + g.row_offset[v];
      vertex_t* row_end = g.column.data() + g.row_offset[v + 1];
      std::sort(row, row_end);
      row_end = std::unique(row, row_end);
      row_end = std::remove(row, row_end, static_cast<vertex_t>(begin + v));
      kept[v] = row_end - row;
    }
  });
  exclusive_sum(kept.data(), local_n + 1);
  if (kept[local_n] == g.row_offset[local_n]) return;  // nothing removed: rows in place
  // Compacting in place is safe front to back: every row moves to a lower or equal position.
  for (std::size_t v = 0; v < local_n; ++v)
    std::memmove(g.column.data() + kept[v], g.column.data() + g.row_offset[v],
                 (kept[v + 1] - kept[v]) * sizeof(vertex_t));
  g.column.resize(static_cast<std::size_t>(kept[local_n]));
  g.row_offset = std::move(kept);
}

namespace {

// Arcs bucketed by the rank that owns their source; send_bytes[r] the bytes of rank r's bucket.
template <typename EachArc>
void bucket_by_owner(const VertexPartition& partition, const Ranges& pieces,
                     const EachArc& each_arc, std::vector<Arc>& packed,
                     std::vector<std::size_t>& send_bytes) {
  const std::vector<std::size_t> start = detail::bucket_items(
      pieces, partition.ranks(), [&](const Arc& a) { return partition.owner(a.source); }, each_arc,
      packed);
  send_bytes.resize(partition.ranks());
  for (int r = 0; r < partition.ranks(); ++r)
    send_bytes[r] = (start[r + 1] - start[r]) * sizeof(Arc);
}

// Vertices grouped in blocks of 2^shift consecutive ids, about kBlocksPerPass of them over the
// range: arcs bucketed by their source's block are then counted or placed block by block, each
// block by one thread without atomics, its rows a few megabytes of memory. Counting and placing
// arcs in the order they come instead touches a random row of gigabytes per arc, and costs a
// cache and TLB miss each (five times slower at Kronecker-29).
constexpr std::size_t kBlocksPerPass = 4096;

unsigned block_shift(std::size_t vertices) {
  unsigned shift = 0;
  while ((vertices >> shift) > kBlocksPerPass) ++shift;
  return shift;
}

// visit(arc) for every arc of the pieces, block by block of the sources [base, base + vertices):
// the arcs bucketed into `grouped` by their source's block, then each block visited by one
// thread, so that `visit` may update its source's entries without atomics.
template <typename EachArc, typename Visit>
void visit_by_block(const Ranges& pieces, const EachArc& each_arc, std::int64_t base,
                    std::size_t vertices, std::vector<Arc>& grouped, const Visit& visit) {
  const unsigned shift = block_shift(vertices);
  const std::size_t blocks = (vertices >> shift) + 1;
  const std::vector<std::size_t> start = detail::bucket_items(
      pieces, blocks,
      [&](const Arc& a) { return static_cast<std::size_t>(a.source - base) >> shift; }, each_arc,
      grouped);
  parallel_for(blocks, [&](std::size_t block) {
    for (std::size_t i = start[block]; i < start[block + 1]; ++i) visit(grouped[i]);
  });
}

// Visits the arcs of an array.
auto arcs_of(const Ranges& pieces, const Arc* arcs) {
  return [&pieces, arcs](std::size_t piece, auto&& visit) {
    for (std::size_t i = pieces.begin(piece); i < pieces.end(piece); ++i) visit(arcs[i]);
  };
}

// Arcs this rank owns written into their rows: cursor[v] is the next free place of local row v
// (arcs land in their row in any order; rows are sorted afterwards).
template <typename EachArc>
void place_arcs(const Ranges& pieces, const EachArc& each_arc, std::int64_t begin,
                std::size_t local_n, std::int64_t* cursor, vertex_t* column,
                std::vector<Arc>& grouped) {
  visit_by_block(pieces, each_arc, begin, local_n, grouped,
                 [&](const Arc& a) { column[cursor[a.source - begin]++] = a.target; });
}

// Rows of the arcs this rank owns: counted, placed, each sorted and compacted (self loops and
// duplicates out), on all host cores.
void build_rows(LocalGraph& g, const std::vector<Arc>& arcs) {
  const std::size_t local_n = g.local_vertices();
  const std::int64_t begin = g.begin();
  std::vector<std::int64_t> count(local_n + 1, 0);
  const Ranges pieces(arcs.size(), host_threads() * 4, 1 << 16);
  std::vector<Arc> grouped;
  visit_by_block(pieces, arcs_of(pieces, arcs.data()), begin, local_n, grouped,
                 [&](const Arc& a) { ++count[a.source - begin]; });
  exclusive_sum(count.data(), local_n + 1);
  std::vector<vertex_t> column(arcs.size());
  std::vector<std::int64_t> cursor(count.begin(), count.end() - 1);
  place_arcs(pieces, arcs_of(pieces, arcs.data()), begin, local_n, cursor.data(), column.data(),
             grouped);
  g.row_offset = std::move(count);
  g.column = std::move(column);
  normalize_local_rows(g);
}

}  // namespace

LocalGraph local_graph_from_arcs(const World& world, std::size_t n, std::vector<vertex_t> source,
                                 std::vector<vertex_t> target, bool undirected) {
  LocalGraph g;
  g.vertices = n;
  g.undirected = undirected;
  g.partition = VertexPartition::balanced(n, world.size());
  g.rank = world.rank();
  const Ranges pieces(source.size(), host_threads() * 4, 1 << 16);
  std::vector<std::string> bad(pieces.count);
  parallel_for(pieces.count, [&](std::size_t piece) {
    for (std::size_t i = pieces.begin(piece); i < pieces.end(piece) && bad[piece].empty(); ++i)
      if (source[i] < 0 || target[i] < 0 || static_cast<std::size_t>(source[i]) >= n ||
          static_cast<std::size_t>(target[i]) >= n)
        bad[piece] = "arc " + std::to_string(source[i]) + " -> " + std::to_string(target[i]) +
                     " has an endpoint outside 0.." + std::to_string(n ? n - 1 : 0);
  });
  std::string first_bad;
  for (const std::string& b : bad)
    if (first_bad.empty()) first_bad = b;
  world.agree_on_error(first_bad, World::ErrorKind::input);
  std::vector<Arc> packed;
  std::vector<std::size_t> send_bytes;
  bucket_by_owner(
      g.partition, pieces,
      [&](std::size_t piece, auto&& visit) {
        for (std::size_t i = pieces.begin(piece); i < pieces.end(piece); ++i) {
          visit(Arc{source[i], target[i]});
          if (undirected) visit(Arc{target[i], source[i]});
        }
      },
      packed, send_bytes);
  std::vector<vertex_t>().swap(source);
  std::vector<vertex_t>().swap(target);
  std::vector<Arc> mine;
  if (!world.uses_mpi()) {
    mine = std::move(packed);  // a world of one keeps its arcs
  } else {
    std::vector<std::size_t> received_bytes;
    std::vector<char> received =
        world.all_to_all(reinterpret_cast<const char*>(packed.data()), send_bytes, received_bytes);
    std::vector<Arc>().swap(packed);
    mine.resize(received.size() / sizeof(Arc));
    if (!mine.empty()) parallel_memcpy(mine.data(), received.data(), received.size());
  }
  build_rows(g, mine);
  g.arcs = world.sum(g.local_arcs());
  return g;
}

namespace {

// Edges a rank makes per round: an eighth of the largest share, so that every graph, the tests'
// small ones too, goes through several rounds; at least 2^10 (a round's collective and thread
// dispatch stay small against its work) and at most 2^25 (the host holds 56 bytes per edge of it).
constexpr std::uint64_t kLeastRoundEdges = 1ull << 10, kMostRoundEdges = 1ull << 25;

struct StreamRounds {
  std::uint64_t count = 0, edges = 0;  // every rank runs as many rounds, of as many edges
  StreamRounds(const World& world, std::uint64_t edges_here) {
    const std::uint64_t most =
        static_cast<std::uint64_t>(world.max(static_cast<std::int64_t>(edges_here)));
    edges = std::clamp((most + 7) / 8, kLeastRoundEdges, kMostRoundEdges);
    count = (most + edges - 1) / edges;
  }
};

}  // namespace

std::uint64_t edge_stream_host_bytes(std::size_t n, std::uint64_t edges, int ranks,
                                     bool undirected) {
  const std::uint64_t arcs = edges * (undirected ? 2 : 1);
  const std::uint64_t share = (n + ranks - 1) / ranks;
  // The first pass: a count per vertex of the whole graph, the ranks' counts of this share and
  // their sums.
  const std::uint64_t counting = 8ull * n + 8ull * share * (ranks + 1);
  // The second: the rows (int64 offset and cursor per vertex, int32 column per arc).
  const std::uint64_t rows = 16ull * share + 4ull * ((arcs + ranks - 1) / ranks);
  // One round: its edges (8 bytes), their arcs (8 bytes each) bucketed by owner, received, and
  // bucketed by block.
  const std::uint64_t round = kMostRoundEdges * (8 + 3 * 8 * (undirected ? 2 : 1));
  return std::max(counting, rows) + round;
}

LocalGraph local_graph_from_edge_stream(const World& world, std::size_t n, std::uint64_t edges_here,
                                        bool undirected, const EdgeMaker& make_edges,
                                        PhaseTimes* phases) {
  PhaseTimes unused;
  PhaseTimes& times = phases ? *phases : unused;
  LocalGraph g;
  g.vertices = n;
  g.undirected = undirected;
  g.partition = VertexPartition::balanced(n, world.size());
  g.rank = world.rank();
  const std::size_t local_n = g.local_vertices();
  const std::int64_t begin = g.begin();
  const StreamRounds rounds(world, edges_here);
  const std::size_t round_edges =
      static_cast<std::size_t>(std::min<std::uint64_t>(edges_here, rounds.edges));
  std::vector<vertex_t> source(round_edges), target(round_edges);
  // Makes round r's edges into source and target; returns how many.
  auto make_round = [&](std::uint64_t round) -> std::size_t {
    const std::uint64_t first = std::min(edges_here, round * rounds.edges),
                        last = std::min(edges_here, first + rounds.edges);
    if (last > first)
      times.measure("make edges", [&] { make_edges(first, last, source.data(), target.data()); });
    return static_cast<std::size_t>(last - first);
  };
  // The arcs of a round's piece: each edge's, and its reverse's when undirected.
  auto round_arcs = [&](const Ranges& pieces) {
    return [&](std::size_t piece, auto&& visit) {
      for (std::size_t i = pieces.begin(piece); i < pieces.end(piece); ++i) {
        visit(Arc{source[i], target[i]});
        if (undirected) visit(Arc{target[i], source[i]});
      }
    };
  };

  // First pass: each vertex's arcs counted over the whole graph (a world of one: straight into
  // its rows), then summed by its owner.
  std::vector<std::int64_t> row_offset(local_n + 1, 0);
  {
    std::vector<std::int64_t> degree(world.uses_mpi() ? n : 0, 0);
    std::int64_t* const count = world.uses_mpi() ? degree.data() : row_offset.data();
    std::vector<Arc> grouped;
    for (std::uint64_t round = 0; round < rounds.count; ++round) {
      const Ranges pieces(make_round(round), host_threads() * 4, 1 << 16);
      times.measure("count arcs", [&] {
        visit_by_block(pieces, round_arcs(pieces), 0, n, grouped,
                       [&](const Arc& a) { ++count[a.source]; });
      });
    }
    if (world.uses_mpi()) {
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
  }
  exclusive_sum(row_offset.data(), local_n + 1);

  // Second pass: the edges made again, their arcs sent to their owners and placed in their rows.
  std::vector<vertex_t> column(static_cast<std::size_t>(row_offset[local_n]));
  std::vector<std::int64_t> cursor(row_offset.begin(), row_offset.end() - 1);
  std::vector<Arc> packed, grouped;
  std::vector<char> received;
  std::vector<std::size_t> send_bytes, received_bytes;
  for (std::uint64_t round = 0; round < rounds.count; ++round) {
    const Ranges pieces(make_round(round), host_threads() * 4, 1 << 16);
    if (!world.uses_mpi()) {  // a world of one owns every arc
      times.measure("place arcs", [&] {
        place_arcs(pieces, round_arcs(pieces), begin, local_n, cursor.data(), column.data(),
                   grouped);
      });
      continue;
    }
    times.measure("bucket arcs", [&] {
      bucket_by_owner(g.partition, pieces, round_arcs(pieces), packed, send_bytes);
    });
    times.measure("exchange", [&] {
      world.all_to_all(reinterpret_cast<const char*>(packed.data()), send_bytes, received,
                       received_bytes);
    });
    times.measure("place arcs", [&] {
      const Ranges arrived(received.size() / sizeof(Arc), host_threads() * 4, 1 << 16);
      place_arcs(arrived, arcs_of(arrived, reinterpret_cast<const Arc*>(received.data())), begin,
                 local_n, cursor.data(), column.data(), grouped);
    });
  }
  std::vector<std::int64_t>().swap(cursor);
  g.row_offset = std::move(row_offset);
  g.column = std::move(column);
  times.measure("sort rows", [&] { normalize_local_rows(g); });
  g.arcs = world.sum(g.local_arcs());
  return g;
}

namespace {

using detail::mix;  // arcs' keys hashed: sums are order-independent, collisions ~2^-64

// The sum over this rank's arcs of mix(key ^ (u << 32 | v)) and, with `reversed`, of the reverse.
std::uint64_t local_arc_sum(const LocalGraph& g, std::uint64_t key, bool reversed) {
  const std::size_t local_n = g.local_vertices();
  const Ranges ranges(local_n, host_threads() * 4, 1024);
  std::vector<std::uint64_t> partial(ranges.count, 0);
  parallel_for(ranges.count, [&](std::size_t piece) {
    std::uint64_t h = 0;
    for (std::size_t v = ranges.begin(piece); v < ranges.end(piece); ++v) {
      const std::uint64_t u = static_cast<std::uint64_t>(g.begin() + v);
      for (std::int64_t e = g.row_offset[v]; e < g.row_offset[v + 1]; ++e) {
        const std::uint64_t w = static_cast<std::uint32_t>(g.column[e]);
        h += mix(key ^ (reversed ? (w << 32 | u) : (u << 32 | w)));
      }
    }
    partial[piece] = h;
  });
  std::uint64_t h = 0;
  for (std::uint64_t p : partial) h += p;
  return h;
}

}  // namespace

std::uint64_t graph_hash(const World& world, const LocalGraph& g) {
  return world.sum(local_arc_sum(g, 0, false)) + mix(g.vertices);  // mod 2^64, any order
}

bool has_reverse_arcs(const World& world, const LocalGraph& g) {
  const std::uint64_t key = mix(0x7265766572736564ull + g.arcs);
  std::vector<std::uint64_t> sums = {local_arc_sum(g, key, false), local_arc_sum(g, key, true)};
  world.sum_in_place(sums);
  return sums[0] == sums[1];
}

}  // namespace treefix
