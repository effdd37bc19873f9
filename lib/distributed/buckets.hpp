// Items grouped by bucket on all host cores: arcs by the rank that owns their source or by their
// row's block (local_graph.cpp), a top-down level's pairs by their target's owner
// (distributed_bfs.cpp).
#pragma once

#include <cstddef>
#include <vector>

#include "treefix/core/parallel.hpp"

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

}  // namespace treefix::detail
