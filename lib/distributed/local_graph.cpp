// The 1-D partition and the local graph (distributed/distributed_graph.hpp): slicing a whole
// graph, building rows from arcs sent to their owners, the order-independent hash.
#include <algorithm>
#include <cstring>

#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
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

// Rows of the arcs this rank owns: counted, scattered (arcs land in their row in any order),
// each sorted and compacted (self loops and duplicates out), on all host cores.
void build_rows(LocalGraph& g, const std::vector<Arc>& arcs) {
  const std::size_t local_n = g.local_vertices();
  const std::int64_t begin = g.begin();
  std::vector<std::int64_t> count(local_n + 1, 0);
  const Ranges pieces(arcs.size(), host_threads() * 4, 1 << 16);
  parallel_for(pieces.count, [&](std::size_t piece) {
    for (std::size_t i = pieces.begin(piece); i < pieces.end(piece); ++i)
      __atomic_fetch_add(&count[arcs[i].source - begin], 1, __ATOMIC_RELAXED);
  });
  exclusive_sum(count.data(), local_n + 1);
  std::vector<vertex_t> column(arcs.size());
  std::vector<std::int64_t> at(count.begin(), count.end() - 1);
  parallel_for(pieces.count, [&](std::size_t piece) {
    for (std::size_t i = pieces.begin(piece); i < pieces.end(piece); ++i)
      column[__atomic_fetch_add(&at[arcs[i].source - begin], 1, __ATOMIC_RELAXED)] = arcs[i].target;
  });
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
  // Bucket the arcs by owner: each piece of the input counts its arcs per rank, then writes them
  // at its own place in each rank's bucket (the same order on every run).
  const std::size_t ranks = world.size();
  auto each_arc = [&](std::size_t piece, auto&& visit) {
    for (std::size_t i = pieces.begin(piece); i < pieces.end(piece); ++i) {
      visit(Arc{source[i], target[i]});
      if (undirected) visit(Arc{target[i], source[i]});
    }
  };
  std::vector<std::size_t> at(pieces.count * ranks, 0), send_bytes(ranks, 0);
  parallel_for(pieces.count, [&](std::size_t piece) {
    each_arc(piece, [&](const Arc& a) { ++at[piece * ranks + g.partition.owner(a.source)]; });
  });
  std::size_t total = 0;
  for (std::size_t r = 0; r < ranks; ++r)
    for (std::size_t piece = 0; piece < pieces.count; ++piece) {
      const std::size_t count = at[piece * ranks + r];
      at[piece * ranks + r] = total;
      total += count;
      send_bytes[r] += count * sizeof(Arc);
    }
  std::vector<Arc> packed(total);
  parallel_for(pieces.count, [&](std::size_t piece) {
    each_arc(piece,
             [&](const Arc& a) { packed[at[piece * ranks + g.partition.owner(a.source)]++] = a; });
  });
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

// splitmix64's finaliser of an arc's 64-bit key: sums of it are order-independent, and two
// different arc sets collide with probability ~2^-64.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

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
