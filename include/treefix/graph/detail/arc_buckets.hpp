#pragma once
// Items grouped by bucket on all host cores, and arcs placed in their rows block by block: how an
// edge stream becomes CSR rows (lib/graph/edge_stream.cpp on one rank, the partitioned builders of
// lib/distributed on several: arcs bucketed by the rank that owns their source), and how a
// partitioned BFS groups a level's pairs by their target's owner.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "treefix/core/parallel.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/graph/edge_stream.hpp"

namespace treefix::detail {

// Piece p of the input (pieces.begin(p) .. pieces.end(p)) writes its items for bucket b at its
// own place in b's bucket, so the buckets come out in the same order on every run. Each piece
// counts and writes through counters of its own: pieces sharing the cache lines of one table of
// counters (a few buckets, as many as ranks) would pass those lines between cores at every item.
//   each_item(piece, visit)  calls visit(item) for every item of the piece, the same each time
//   bucket_of(item)          the item's bucket, below `buckets`
template <typename Item, typename BucketOf, typename EachItem>
class Buckets {
 public:
  Buckets(const Ranges& pieces, std::size_t buckets, const BucketOf& bucket_of,
          const EachItem& each_item)
      : pieces_(pieces),
        buckets_(buckets),
        bucket_of_(bucket_of),
        each_item_(each_item),
        at_(pieces.count * buckets, 0),
        start_(buckets + 1, 0) {
    parallel_for(pieces_.count, [&](std::size_t piece) {
      std::vector<std::size_t> count(buckets_, 0);
      each_item_(piece, [&](const Item& item) { ++count[bucket_of_(item)]; });
      std::copy(count.begin(), count.end(), at_.begin() + piece * buckets_);
    });
    std::size_t total = 0;
    for (std::size_t b = 0; b < buckets_; ++b) {
      start_[b] = total;
      for (std::size_t piece = 0; piece < pieces_.count; ++piece) {
        const std::size_t count = at_[piece * buckets_ + b];
        at_[piece * buckets_ + b] = total;
        total += count;
      }
    }
    start_[buckets_] = total;
  }

  std::size_t total() const { return start_[buckets_]; }
  // Bucket b is packed[start()[b], start()[b + 1]).
  const std::vector<std::size_t>& start() const { return start_; }

  // Writes every item into its bucket; `packed` has room for total() items.
  void scatter(Item* packed) const {
    parallel_for(pieces_.count, [&](std::size_t piece) {
      std::vector<std::size_t> at(at_.begin() + piece * buckets_,
                                  at_.begin() + (piece + 1) * buckets_);
      each_item_(piece, [&](const Item& item) { packed[at[bucket_of_(item)]++] = item; });
    });
  }

 private:
  const Ranges& pieces_;
  std::size_t buckets_;
  const BucketOf& bucket_of_;
  const EachItem& each_item_;
  std::vector<std::size_t> at_;  // [piece * buckets + b]: where the piece's items of b go
  std::vector<std::size_t> start_;
};

// The items bucketed into `packed` (grown to hold them); returns where each bucket starts (and,
// last, the total).
template <typename Item, typename BucketOf, typename EachItem>
std::vector<std::size_t> bucket_items(const Ranges& pieces, std::size_t buckets,
                                      const BucketOf& bucket_of, const EachItem& each_item,
                                      std::vector<Item>& packed) {
  const Buckets<Item, BucketOf, EachItem> grouped(pieces, buckets, bucket_of, each_item);
  if (packed.size() < grouped.total()) packed.resize(grouped.total());
  grouped.scatter(packed.data());
  return grouped.start();
}

// One arc of an edge stream or of a rank's share on its way to its row.
struct Arc {
  vertex_t source, target;
};

// Vertices grouped in blocks of 2^shift consecutive ids, about kBlocksPerPass of them over the
// range: arcs bucketed by their source's block are then counted or placed block by block, each
// block by one thread without atomics, its rows a few megabytes of memory. Counting and placing
// arcs in the order they come instead touches a random row of gigabytes per arc, and costs a
// cache and TLB miss each (five times slower at Kronecker-29).
constexpr std::size_t kBlocksPerPass = 4096;

inline unsigned block_shift(std::size_t vertices) {
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
  const std::vector<std::size_t> start = bucket_items(
      pieces, blocks,
      [&](const Arc& a) { return static_cast<std::size_t>(a.source - base) >> shift; }, each_arc,
      grouped);
  parallel_for(blocks, [&](std::size_t block) {
    for (std::size_t i = start[block]; i < start[block + 1]; ++i) visit(grouped[i]);
  });
}

// Visits the arcs of an array, piece by piece.
inline auto arcs_of(const Ranges& pieces, const Arc* arcs) {
  return [&pieces, arcs](std::size_t piece, auto&& visit) {
    for (std::size_t i = pieces.begin(piece); i < pieces.end(piece); ++i) visit(arcs[i]);
  };
}

// Arcs of the rows [begin, begin + rows) written into them: cursor[v] is the next free place of
// row v (arcs land in their row in any order; rows are sorted afterwards).
template <typename EachArc>
void place_arcs(const Ranges& pieces, const EachArc& each_arc, std::int64_t begin, std::size_t rows,
                std::int64_t* cursor, vertex_t* column, std::vector<Arc>& grouped) {
  visit_by_block(pieces, each_arc, begin, rows, grouped,
                 [&](const Arc& a) { column[cursor[a.source - begin]++] = a.target; });
}

// Edges a rank makes per round: an eighth of the largest share, so that every graph, the tests'
// small ones too, goes through several rounds; at least 2^10 (a round's collective and thread
// dispatch stay small against its work) and at most 2^25 (the host holds 56 bytes per edge of it).
constexpr std::uint64_t kLeastRoundEdges = 1ull << 10, kMostRoundEdges = 1ull << 25;

// The rounds of an edge stream, made into buffers of one round: every rank runs as many rounds
// (`count`), of as many edges, set by the largest share of any rank.
class EdgeRounds {
 public:
  EdgeRounds(std::uint64_t edges_here, std::uint64_t largest_share, bool undirected,
             const EdgeMaker& make_edges, PhaseTimes& times)
      : edges_here_(edges_here),
        round_edges_(std::clamp((largest_share + 7) / 8, kLeastRoundEdges, kMostRoundEdges)),
        count_((largest_share + round_edges_ - 1) / round_edges_),
        undirected_(undirected),
        make_edges_(make_edges),
        times_(times),
        source_(static_cast<std::size_t>(std::min(edges_here, round_edges_))),
        target_(source_.size()) {}

  std::uint64_t count() const { return count_; }

  // Makes round r's edges; returns the host cores' pieces over them.
  Ranges make(std::uint64_t round) {
    const std::uint64_t first = std::min(edges_here_, round * round_edges_),
                        last = std::min(edges_here_, first + round_edges_);
    if (last > first)
      times_.measure("make edges",
                     [&] { make_edges_(first, last, source_.data(), target_.data()); });
    return Ranges(static_cast<std::size_t>(last - first), host_threads() * 4, 1 << 16);
  }

  // The arcs of the round's pieces: each edge's, and its reverse's when undirected.
  auto arcs(const Ranges& pieces) const {
    return [this, &pieces](std::size_t piece, auto&& visit) {
      for (std::size_t i = pieces.begin(piece); i < pieces.end(piece); ++i) {
        visit(Arc{source_[i], target_[i]});
        if (undirected_) visit(Arc{target_[i], source_[i]});
      }
    };
  }

 private:
  std::uint64_t edges_here_, round_edges_, count_;
  bool undirected_;
  const EdgeMaker& make_edges_;
  PhaseTimes& times_;
  std::vector<vertex_t> source_, target_;
};

}  // namespace treefix::detail
