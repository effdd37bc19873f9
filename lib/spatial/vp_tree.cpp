// The vantage-point tree, built on the host cores level by level, without recursion (see
// docs/design/spatial.md, "vp-tree construction", for why on the host).
//
// A split of the points at positions [begin, end) of point_index: the vantage point v is the
// point farthest from the range's first point (the first such position), moved to `begin`; the
// others get the key (distance to v, original index) as one 64-bit integer (a non-negative
// float's bits order as its value); the median key K splits them stably: keys < K inside, the
// rest (K first among them) outside. Keys are unique, so K and the stable partition do not depend
// on how they are found: the result is the same for any number of threads.
//
// Two ways to split, with the same result: a large range on the first levels is cut into blocks
// that all threads work on (K by a radix select, 8 bits a pass, block histograms; the partition
// by block counts and prefix offsets); once a level has enough ranges for every thread, each
// thread builds whole subtrees with an explicit stack (K by nth_element). Medians halve every
// range, so the height is ceil(log2) of the points per leaf whatever the input (all points
// equal included), and the node numbering in preorder follows from the sizes alone.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <utility>

#include "spatial/host_build.hpp"
#include "treefix/core/parallel.hpp"

namespace treefix {
namespace {

struct Range {
  std::int32_t begin, end, node;
  std::int32_t parent_vantage;  // original index, -1 at the root
  float lo, hi;                 // distance range of the points to the parent's vantage point
};

// Nodes and height of the subtree over m points. Sizes on one level differ by at most one, so a
// level holds at most two distinct sizes: O(log m) steps, no recursion, no allocation.
struct Shape {
  std::int64_t nodes = 0;
  int height = 0;
};
Shape subtree_shape(std::int64_t m, int leaf_size) {
  struct Sizes {
    std::int64_t size[4], many[4];
    int count = 0;
    void add(std::int64_t s, std::int64_t k) {
      for (int i = 0; i < count; ++i)
        if (size[i] == s) return void(many[i] += k);
      size[count] = s, many[count++] = k;
    }
  };
  Shape shape;
  Sizes level;
  level.add(m, 1);
  for (int depth = 0; level.count; ++depth) {
    Sizes next;
    for (int i = 0; i < level.count; ++i) {
      shape.nodes += level.many[i];
      shape.height = depth;
      const std::int64_t size = level.size[i];
      if (size <= leaf_size) continue;
      next.add((size - 1) / 2, level.many[i]);
      next.add(size - 1 - (size - 1) / 2, level.many[i]);
    }
    level = next;
  }
  return shape;
}

std::uint64_t make_key(float distance, std::int32_t index) {
  std::uint32_t bits;
  std::memcpy(&bits, &distance, 4);
  return (std::uint64_t(bits) << 32) | std::uint32_t(index);
}
float key_distance(std::uint64_t key) {
  const auto bits = std::uint32_t(key >> 32);
  float distance;
  std::memcpy(&distance, &bits, 4);
  return distance;
}

// body(from, to) over slices of [0, n): on all host threads, or in one piece.
template <class Body>
void each_slice(bool parallel, std::size_t n, Body body) {
  if (!parallel) return body(0, n);
  const Ranges slices(n, 4 * std::size_t(host_threads()), std::size_t(1) << 14);
  parallel_for(slices.count, [&](std::size_t s) { body(slices.begin(s), slices.end(s)); });
}

struct Builder {
  VpTree& tree;
  int leaf_size, dim;
  // Per position (they move with point_index): the point's coordinates as a row, so that the
  // passes over a range stream through memory; the key; scratch of nth_element and the partition.
  std::vector<float> rows, moved_rows;
  std::vector<std::uint64_t> key, copy;
  std::vector<std::int32_t> moved;

  const float* row(std::int32_t position) const { return &rows[std::size_t(position) * dim]; }
  void swap_rows(std::int32_t a, std::int32_t b) {
    std::swap_ranges(rows.begin() + std::ptrdiff_t(a) * dim,
                     rows.begin() + std::ptrdiff_t(a + 1) * dim,
                     rows.begin() + std::ptrdiff_t(b) * dim);
  }
  // The formula of squared_distance (treefix/spatial/points.hpp), on rows.
  float distance(const float* p, const float* q) const {
    float sum = 0.0f;
    for (int k = 0; k < dim; ++k) {
      float diff = p[k] - q[k];
      float sq = diff * diff;
      sum = sum + sq;
    }
    return std::sqrt(sum);
  }

  // body(block, begin, end) over `blocks` blocks of [begin, end): in parallel, or in place.
  template <class Body>
  static void for_blocks(std::int32_t begin, std::int32_t end, std::size_t blocks, Body body) {
    const Ranges r(std::size_t(end - begin), blocks);
    auto one = [&](std::size_t b) {
      body(b, begin + std::int32_t(r.begin(b)), begin + std::int32_t(r.end(b)));
    };
    if (r.count == 1)
      one(0);
    else
      parallel_for(r.count, one);
  }

  // The rank-th smallest key of [begin, end) (0-based): a radix select over blocks, 8 bits a
  // pass from the top, until one candidate is left.
  std::uint64_t select_by_blocks(std::int32_t begin, std::int32_t end, std::size_t blocks,
                                 std::size_t rank) const {
    std::uint64_t prefix = 0, mask = 0;
    std::vector<std::size_t> histogram(blocks * 256);
    for (int shift = 56; shift >= 0; shift -= 8) {
      std::fill(histogram.begin(), histogram.end(), 0);
      for_blocks(begin, end, blocks, [&](std::size_t b, std::int32_t lo, std::int32_t hi) {
        std::size_t* h = &histogram[b * 256];
        for (std::int32_t i = lo; i < hi; ++i)
          if ((key[i] & mask) == prefix) ++h[(key[i] >> shift) & 255];
      });
      std::size_t digit = 0, below = 0, count = 0;
      for (;; ++digit) {
        count = 0;
        for (std::size_t b = 0; b < blocks; ++b) count += histogram[b * 256 + digit];
        if (rank < below + count) break;
        below += count;
      }
      rank -= below;
      prefix |= std::uint64_t(digit) << shift;
      mask |= std::uint64_t(255) << shift;
      if (count == 1) {  // the one candidate: find it
        std::uint64_t found = 0;
        for_blocks(begin, end, blocks, [&](std::size_t, std::int32_t lo, std::int32_t hi) {
          for (std::int32_t i = lo; i < hi; ++i)
            if ((key[i] & mask) == prefix) found = key[i];  // one block writes, once
        });
        return found;
      }
    }
    return prefix;
  }

  // Splits `range` (more than leaf_size points) with `blocks` blocks (1: on this thread);
  // returns the children's ranges.
  std::pair<Range, Range> split(const Range& range, std::size_t blocks) {
    const std::int32_t begin = range.begin, end = range.end, node = range.node;
    std::vector<std::int32_t>& order = tree.point_index;
    // The vantage point: farthest from the first point, the first position among equals.
    std::vector<std::pair<float, std::int32_t>> far(blocks, {-1.0f, begin});
    std::vector<float> point(row(begin), row(begin) + dim);  // the first point, then the vantage
    for_blocks(begin, end, blocks, [&](std::size_t b, std::int32_t lo, std::int32_t hi) {
      for (std::int32_t i = lo; i < hi; ++i) {
        const float d = distance(point.data(), row(i));
        if (d > far[b].first) far[b] = {d, i};
      }
    });
    std::pair<float, std::int32_t> best = far[0];
    for (auto& f : far)
      if (f.first > best.first) best = f;
    std::swap(order[begin], order[best.second]);
    swap_rows(begin, best.second);
    const std::int32_t vantage = order[begin], lo = begin + 1;
    std::copy(row(begin), row(begin) + dim, point.begin());
    for_blocks(lo, end, blocks, [&](std::size_t, std::int32_t from, std::int32_t to) {
      for (std::int32_t i = from; i < to; ++i)
        key[i] = make_key(distance(point.data(), row(i)), order[i]);
    });
    // The median key: the first of the outside half.
    const std::size_t inside = std::size_t(end - lo) / 2;
    std::uint64_t median;
    if (blocks == 1) {
      std::copy(key.begin() + lo, key.begin() + end, copy.begin() + lo);
      std::nth_element(copy.begin() + lo, copy.begin() + lo + std::ptrdiff_t(inside),
                       copy.begin() + end);
      median = copy[lo + inside];
    } else {
      median = select_by_blocks(lo, end, blocks, inside);
    }
    // Stable partition around it, with each side's distance range. Blocks count their inside
    // points first (one block needs not: it has them all), then write at their offsets.
    const std::int32_t mid = lo + std::int32_t(inside);
    std::vector<std::int32_t> inside_before(blocks + 1, 0);  // inside points in blocks before b
    if (blocks > 1) {
      for_blocks(lo, end, blocks, [&](std::size_t b, std::int32_t from, std::int32_t to) {
        std::int32_t count = 0;
        for (std::int32_t i = from; i < to; ++i) count += key[i] < median;
        inside_before[b + 1] = count;
      });
      std::partial_sum(inside_before.begin(), inside_before.end(), inside_before.begin());
    }
    struct Side {
      float lo = std::numeric_limits<float>::infinity(), hi = 0;
      void add(float d) { lo = std::min(lo, d), hi = std::max(hi, d); }
      void add(const Side& s) { lo = std::min(lo, s.lo), hi = std::max(hi, s.hi); }
    };
    std::vector<std::pair<Side, Side>> sides(blocks);
    for_blocks(lo, end, blocks, [&](std::size_t b, std::int32_t from, std::int32_t to) {
      std::int32_t at_in = lo + inside_before[b], at_out = mid + (from - lo) - inside_before[b];
      for (std::int32_t i = from; i < to; ++i) {
        const bool is_inside = key[i] < median;
        (is_inside ? sides[b].first : sides[b].second).add(key_distance(key[i]));
        const std::int32_t target = is_inside ? at_in++ : at_out++;
        moved[target] = order[i];
        const float* from_row = row(i);
        float* to_row = &moved_rows[std::size_t(target) * dim];
        for (int k = 0; k < dim; ++k) to_row[k] = from_row[k];
      }
    });
    Side in_side, out_side;
    for (auto& [in, out] : sides) in_side.add(in), out_side.add(out);
    for_blocks(lo, end, blocks, [&](std::size_t, std::int32_t from, std::int32_t to) {
      std::copy(moved.begin() + from, moved.begin() + to, order.begin() + from);
      std::copy(moved_rows.begin() + std::ptrdiff_t(from) * dim,
                moved_rows.begin() + std::ptrdiff_t(to) * dim,
                rows.begin() + std::ptrdiff_t(from) * dim);
    });
    // Preorder: the inside subtree follows the node, the outside subtree follows it.
    const auto inside_nodes = std::int32_t(subtree_shape(mid - lo, leaf_size).nodes);
    tree.count[node] = 1;
    tree.mu[node] = key_distance(median);
    tree.child[2 * std::size_t(node)] = node + 1;
    tree.child[2 * std::size_t(node) + 1] = node + 1 + inside_nodes;
    return {Range{lo, mid, node + 1, vantage, in_side.lo, in_side.hi},
            Range{mid, end, node + 1 + inside_nodes, vantage, out_side.lo, out_side.hi}};
  }

  // The node of `range`: its point range and bounds; true when it is an inner node to split.
  bool place(const Range& range) {
    const std::int32_t node = range.node, size = range.end - range.begin;
    tree.first[node] = range.begin;
    tree.count[node] = size;
    tree.parent_vantage[node] = range.parent_vantage;
    tree.parent_lo[node] = range.parent_vantage < 0 ? 0.0f : range.lo;
    tree.parent_hi[node] = range.parent_vantage < 0 ? 0.0f : range.hi;
    return size > leaf_size;
  }

  // The whole subtree of `range` on this thread, depth first with an explicit stack.
  void build_subtree(const Range& range) {
    std::vector<Range> stack{range};
    while (!stack.empty()) {
      const Range r = stack.back();
      stack.pop_back();
      if (!place(r)) continue;
      auto [inside, outside] = split(r, 1);
      stack.push_back(outside);
      stack.push_back(inside);
    }
  }
};

}  // namespace

VpTree build_vp_tree(const PointSet& points, int leaf_size, bool parallel) {
  VpTree tree;
  detail::start_tree(tree, points, 2, leaf_size, "vp-tree");
  const std::size_t n = points.n;
  const Shape shape = subtree_shape(std::int64_t(n), leaf_size);
  const auto nodes = std::size_t(shape.nodes);
  tree.height = shape.height;
  tree.first.assign(nodes, 0);
  tree.count.assign(nodes, 0);
  tree.child.assign(2 * nodes, -1);
  tree.mu.assign(nodes, 0.0f);
  tree.parent_vantage.assign(nodes, -1);
  tree.parent_lo.assign(nodes, 0.0f);
  tree.parent_hi.assign(nodes, 0.0f);

  Builder b{tree,
            leaf_size,
            points.dim,
            std::vector<float>(n * points.dim),
            std::vector<float>(n * points.dim),
            std::vector<std::uint64_t>(n),
            std::vector<std::uint64_t>(n),
            std::vector<std::int32_t>(n)};
  const std::size_t dim = std::size_t(points.dim);
  each_slice(parallel, n, [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i)
      for (std::size_t k = 0; k < dim; ++k) b.rows[i * dim + k] = points.at(i, int(k));
  });
  const Range root{0, std::int32_t(n), 0, -1, 0.0f, 0.0f};
  if (!parallel) {
    b.build_subtree(root);
  } else {
    // Levels of large ranges, every thread on each range; then one subtree per range.
    const std::size_t threads = host_threads(), grain = std::size_t(1) << 12;
    std::vector<Range> level{root}, next;
    while (!level.empty() && level.size() < 2 * threads &&
           std::size_t(level.front().end - level.front().begin) >= 2 * grain) {
      next.clear();
      for (const Range& r : level) {
        if (!b.place(r)) continue;
        const std::size_t size = std::size_t(r.end - r.begin);
        auto [inside, outside] = b.split(r, Ranges(size, 4 * threads, grain).count);
        next.push_back(inside);
        next.push_back(outside);
      }
      std::swap(level, next);
    }
    parallel_for(level.size(), [&](std::size_t i) { b.build_subtree(level[i]); });
  }
  // Parent vantage points as tree positions (the inverse permutation); points in tree order.
  std::vector<std::int32_t> position(n);
  tree.points = PointSet(n, points.dim);
  each_slice(parallel, n, [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
      const std::int32_t original = tree.point_index[i];
      position[original] = std::int32_t(i);
      for (std::size_t k = 0; k < dim; ++k) tree.points.at(i, int(k)) = b.rows[i * dim + k];
    }
  });
  each_slice(parallel, nodes, [&](std::size_t from, std::size_t to) {
    for (std::size_t v = from; v < to; ++v)
      if (tree.parent_vantage[v] >= 0) tree.parent_vantage[v] = position[tree.parent_vantage[v]];
  });
  return tree;
}

}  // namespace treefix
