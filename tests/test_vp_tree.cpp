// The vp-tree built on all host cores: the same tree as on one thread, a valid vp-tree (bounds,
// median splits, preorder, height) on uniform, clustered, all-equal and real points, and kNN on
// it equal to brute force; correlation and kd-tree kNN on the real scans too.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <numeric>

#include "fixture.hpp"
#include "ropes_fixture.hpp"
#include "treefix/spatial/neighbours.hpp"

using namespace treefix;
using test::check_same;
using test::Shape;

namespace {

// n points all at one place: every distance ties.
PointSet all_equal(std::size_t n) {
  PointSet p(n, 3);
  for (std::size_t i = 0; i < n; ++i) p.at(i, 0) = 1.5f, p.at(i, 1) = -2.0f, p.at(i, 2) = 0.25f;
  return p;
}

float distance(const VpTree& t, std::int32_t a, std::int32_t b) {
  return std::sqrt(squared_distance(t.points, std::size_t(a), t.points, std::size_t(b)));
}

// Everything the traversals rely on, checked node by node (no recursion: nodes are in preorder,
// so a node's subtree is the node range [v, v + size)).
void check_valid_vp_tree(const VpTree& t, const PointSet& input, int leaf_size) {
  const std::size_t n = input.n, nodes = t.nodes();
  REQUIRE(t.point_index.size() == n);
  std::vector<int> seen(n, 0);
  for (std::int32_t i : t.point_index) ++seen[std::size_t(i)];
  CHECK(std::count(seen.begin(), seen.end(), 1) == std::ptrdiff_t(n));  // a permutation
  std::size_t moved_wrong = 0;  // points not where point_index says (counted: one CHECK)
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < input.dim; ++k)
      moved_wrong += t.points.at(i, k) != input.at(std::size_t(t.point_index[i]), k);
  CHECK(moved_wrong == 0);
  // Every position belongs to exactly one node; subtree end positions from the preorder ranges.
  std::vector<int> owner(n, 0);
  std::vector<std::int32_t> depth(nodes, 0), end(nodes, 0);
  for (std::size_t v = 0; v < nodes; ++v)
    for (std::int32_t j = t.first[v]; j < t.first[v] + t.count[v]; ++j) ++owner[std::size_t(j)];
  CHECK(std::count(owner.begin(), owner.end(), 1) == std::ptrdiff_t(n));
  int height = 0;
  // Node by node; a broken rule is counted (one CHECK each, not one per node) with a node.
  std::size_t broken = 0, broken_node = 0;
  auto expect = [&](bool rule, std::size_t v) {
    if (!rule && broken++ == 0) broken_node = v;
  };
  for (std::size_t v = nodes; v-- > 0;) {  // children after parents: walk backwards for ends
    const std::int32_t in = t.child[2 * v], out = t.child[2 * v + 1];
    if (in < 0) {
      expect(out < 0 && t.count[v] <= leaf_size, v);
      end[v] = t.first[v] + t.count[v];
      continue;
    }
    expect(in == std::int32_t(v) + 1, v);  // preorder
    expect(t.count[v] == 1, v);            // the vantage point
    expect(t.first[in] == t.first[v] + 1 && t.first[out] == end[in], v);
    // Median split: the inside half is the smaller, by at most one.
    const std::int32_t in_size = end[in] - t.first[in], out_size = end[out] - t.first[out];
    expect(out_size == in_size || out_size == in_size + 1, v);
    end[v] = end[out];
    const std::int32_t vantage = t.first[v];
    for (std::int32_t c : {in, out}) {
      expect(t.parent_vantage[c] == vantage, v);
      float lo = INFINITY, hi = 0;
      for (std::int32_t j = t.first[c]; j < end[c]; ++j) {
        const float d = distance(t, vantage, j);
        lo = std::min(lo, d), hi = std::max(hi, d);
        expect(c == in ? d <= t.mu[v] : d >= t.mu[v], v);
      }
      expect(t.parent_lo[c] == lo && t.parent_hi[c] == hi, v);  // exact: traversals prune by them
    }
  }
  CAPTURE(broken_node);
  CHECK(broken == 0);
  CHECK(t.parent_vantage[0] == -1);
  CHECK(end[0] == std::int32_t(n));
  for (std::size_t v = 0; v < nodes; ++v)
    for (int c = 0; c < 2; ++c)
      if (t.child[2 * v + c] >= 0) {
        depth[t.child[2 * v + c]] = depth[v] + 1;
        height = std::max(height, depth[v] + 1);
      }
  CHECK(t.height == height);
  // Medians: the height is about log2(n / leaf) whatever the points.
  CHECK(height <=
        1 + int(std::ceil(std::log2(double(std::max<std::size_t>(n, 2)) / leaf_size))) + 1);
}

void check_same_tree(const VpTree& a, const VpTree& b) {
  CHECK(a.height == b.height);
  CHECK(a.child == b.child);
  CHECK(a.first == b.first);
  CHECK(a.count == b.count);
  CHECK(a.point_index == b.point_index);
  CHECK(a.mu == b.mu);
  CHECK(a.parent_vantage == b.parent_vantage);
  CHECK(a.parent_lo == b.parent_lo);
  CHECK(a.parent_hi == b.parent_hi);
  CHECK(a.points.coord == b.points.coord);
}

}  // namespace

TEST_CASE("vp-tree: the parallel build equals the one-thread build and is a valid vp-tree") {
  // 30011 points: the first levels are split in blocks by all threads (radix select, blocked
  // partition), the rest by whole subtrees.
  for (std::size_t n : {0, 1, 2, 9, 97, 4099, 30011})
    for (Shape shape : test::all_shapes())
      for (int leaf : {1, 8}) {
        if (leaf == 1 && n > 5000) continue;  // the large size is for the blocked levels
        CAPTURE(n);
        CAPTURE(std::string(test::shape_name(shape)));
        CAPTURE(leaf);
        const auto pts = test::make_points(n, 3, shape, n + 17);
        const VpTree parallel = build_vp_tree(pts, leaf);
        check_same_tree(parallel, build_vp_tree(pts, leaf, false));
        check_valid_vp_tree(parallel, pts, leaf);
      }
  for (const auto& name : test::real_scans()) {
    CAPTURE(name);
    const PointSet pts = test::real_scan(name);
    const VpTree parallel = build_vp_tree(pts, 4);
    check_same_tree(parallel, build_vp_tree(pts, 4, false));
    check_valid_vp_tree(parallel, pts, 4);
  }
  for (int dim : {1, 2, 16}) {  // rows of other widths
    CAPTURE(dim);
    const auto pts = test::make_points(20011, dim, Shape::clustered, 5);
    const VpTree parallel = build_vp_tree(pts, 8);
    check_same_tree(parallel, build_vp_tree(pts, 8, false));
    check_valid_vp_tree(parallel, pts, 8);
  }
  const auto equal = all_equal(30011);
  const VpTree tree = build_vp_tree(equal, 8);
  check_same_tree(tree, build_vp_tree(equal, 8, false));
  check_valid_vp_tree(tree, equal, 8);
}

TEST_CASE("vp-tree: a million equal points build in O(n log n), as deep as distinct points") {
  const auto t0 = std::chrono::steady_clock::now();
  const VpTree tree = build_vp_tree(all_equal(1000000), 8);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(tree.height == 17);  // ceil(log2(10^6 / 8)), as for any 10^6 points
  CHECK(seconds < 30.0);     // quadratic would be hours
}

TEST_CASE("vp-tree: knn equals brute force on random, clustered, all-equal and real points") {
  auto& rt = test::runtime();
  std::vector<std::pair<std::string, PointSet>> sets = {
      {"uniform", test::make_points(5003, 3, Shape::uniform, 1)},
      {"clustered", test::make_points(5003, 3, Shape::clustered, 2)},
      {"all equal", all_equal(2000)},
  };
  for (const auto& name : test::real_scans()) sets.push_back({name, test::real_scan(name)});
  for (const auto& [set_name, data] : sets) {
    const std::string& name = set_name;  // C++17: a lambda (CAPTURE) cannot capture a binding
    CAPTURE(name);
    // Queries: every 7th data point (exact hits, ties) and uniform points over the same box.
    std::vector<std::int32_t> pick;
    for (std::size_t i = 0; i < data.n; i += 7) pick.push_back(std::int32_t(i));
    PointSet queries = data.permuted(pick);
    const VpTree vp = build_vp_tree(data, 8);
    for (int k : {1, 8}) {
      CAPTURE(k);
      const auto want = reference::knn_brute(data, queries, k);
      check_same(reference::knn_tree(vp, queries, k, 2), want);
      for (Variant v : {Variant::independent, Variant::lockstep}) {
        CAPTURE(std::string(to_string(v)));
        QueryOptions o;
        o.variant = v;
        check_same(knn(rt, vp, queries, k, o), want);
      }
    }
  }
}

TEST_CASE("vp-tree: kd-tree knn and correlation equal brute force on the real scans") {
  auto& rt = test::runtime();
  for (const auto& name : test::real_scans()) {
    CAPTURE(name);
    const PointSet data = test::real_scan(name);
    const KdTree kd = build_kd_tree(data, 8);
    check_same(knn(rt, kd, data, 8, {}), reference::knn_brute(data, data, 8));
    // Radii around the scan's own spacing: a few and some tens of neighbours.
    const auto near = reference::knn_brute(data, data, 2);
    std::vector<float> spacing(data.n);
    for (std::size_t i = 0; i < data.n; ++i) spacing[i] = std::sqrt(near.d2[2 * i + 1]);
    std::nth_element(spacing.begin(), spacing.begin() + spacing.size() / 2, spacing.end());
    for (double scale : {1.0, 4.0}) {
      const double radius = scale * spacing[spacing.size() / 2];
      CAPTURE(radius);
      CHECK(correlation_counts(rt, kd, data, radius, {}) ==
            reference::correlation_brute(data, data, radius));
    }
  }
}
