// Spatial trees built on the device (treefix/spatial/device_build.hpp): structure, bounds and
// summaries against CPU sums, on random, clustered, duplicate-heavy, geometric and real points,
// at awkward sizes; both key sorts.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <random>

#include "fixture.hpp"
#include "ropes_fixture.hpp"
#include "treefix/core/environment.hpp"
#include "treefix/spatial/device_build.hpp"

using namespace treefix;

namespace {

// Per node, the tree positions below it (every node reached once from the root), checked to be
// a tree whose leaves cover 0 .. n-1 exactly once. Returns the ranges [lo, hi) of each node.
std::vector<std::pair<std::int32_t, std::int32_t>> check_structure(const LinearTree& t,
                                                                   std::size_t n, int leaf,
                                                                   bool leaves_may_exceed) {
  const std::size_t nodes = t.nodes();
  std::vector<std::pair<std::int32_t, std::int32_t>> range(nodes, {INT32_MAX, INT32_MIN});
  std::vector<int> seen(nodes, 0), covered(n, 0);
  std::vector<std::int32_t> order, stack{0};
  std::vector<int> depth(nodes, 0);
  int height = 0;
  while (!stack.empty()) {
    std::int32_t v = stack.back();
    stack.pop_back();
    REQUIRE(v >= 0);
    REQUIRE(std::size_t(v) < nodes);
    REQUIRE(seen[v] == 0);
    seen[v] = 1;
    order.push_back(v);
    height = std::max(height, depth[v]);
    bool inner = false;
    for (int c = 0; c < t.arity; ++c) {
      std::int32_t ch = t.child[std::size_t(v) * t.arity + c];
      if (ch < 0) continue;
      inner = true;
      depth[ch] = depth[v] + 1;
      stack.push_back(ch);
    }
    if (inner) {
      CHECK(t.count[v] == 0);
    } else {
      if (!leaves_may_exceed) CHECK(t.count[v] <= std::max<std::int32_t>(leaf, 0));
      for (std::int32_t j = t.first[v]; j < t.first[v] + t.count[v]; ++j) ++covered.at(j);
      range[v] = {t.first[v], t.first[v] + t.count[v]};
    }
  }
  for (std::size_t v = 0; v < nodes; ++v) CHECK(seen[v] == 1);
  for (std::size_t j = 0; j < n; ++j) REQUIRE(covered[j] == 1);
  CHECK(t.height >= height);
  for (auto it = order.rbegin(); it != order.rend(); ++it)  // children before parents
    for (int c = 0; c < t.arity; ++c) {
      std::int32_t ch = t.child[std::size_t(*it) * t.arity + c];
      if (ch < 0) continue;
      range[*it].first = std::min(range[*it].first, range[ch].first);
      range[*it].second = std::max(range[*it].second, range[ch].second);
    }
  return range;
}

void check_permutation(const std::vector<std::int32_t>& index, const PointSet& in,
                       const PointSet& tree_order) {
  std::vector<int> hit(in.n, 0);
  for (std::size_t i = 0; i < index.size(); ++i) {
    REQUIRE(index[i] >= 0);
    REQUIRE(std::size_t(index[i]) < in.n);
    ++hit[index[i]];
    for (int k = 0; k < in.dim; ++k) REQUIRE(tree_order.at(i, k) == in.at(index[i], k));
  }
  for (int h : hit) REQUIRE(h == 1);
}

PointSet geometric_points(std::size_t n) {  // x = 2^-i: one point per octree level
  PointSet p(n, 3);
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) p.at(i, k) = std::ldexp(1.0f, -int(i % 120));
  return p;
}

std::vector<std::pair<std::string, PointSet>> point_sets(std::size_t n, int dim) {
  std::vector<std::pair<std::string, PointSet>> sets;
  for (auto s : test::all_shapes())
    sets.push_back({test::shape_name(s), test::make_points(n, dim, s, n + dim)});
  if (dim == 3) sets.push_back({"geometric", geometric_points(n)});
  return sets;
}

}  // namespace

TEST_CASE("device-built kd-trees: every point in one leaf, exact boxes, both key sorts") {
  auto& rt = test::runtime();
  for (bool boost : {false, true})
    for (int dim : {1, 2, 3, 5})
      for (std::size_t n : {0, 1, 2, 3, 8, 9, 31, 97, 257, 1000, 4099}) {
        if (boost && dim != 3 && n > 100) continue;  // Boost.Compute compiles slowly on PoCL
        for (auto& [set_name, points] : point_sets(n, dim))
          for (int leaf : {1, 8}) {
            const auto& name = set_name;  // C++17: a lambda (CAPTURE) cannot capture a binding
            CAPTURE(boost);
            CAPTURE(dim);
            CAPTURE(n);
            CAPTURE(name);
            CAPTURE(leaf);
            test::ScopedTuning tuning;
            tuning->set("boost_key_sort", boost);
            auto device = DevicePoints::upload(rt, points);
            KdTree t = build_kd_tree(rt, device, {leaf}).download(rt);
            check_permutation(t.point_index, points, t.points);
            auto range = check_structure(t, n, leaf, false);
            const std::size_t nodes = t.nodes();
            for (std::size_t v = 0; v < nodes; ++v)
              for (int k = 0; k < dim; ++k) {
                float lo = std::numeric_limits<float>::infinity(), hi = -lo;
                for (std::int32_t j = range[v].first; j < range[v].second; ++j) {
                  lo = std::min(lo, t.points.at(j, k));
                  hi = std::max(hi, t.points.at(j, k));
                }
                REQUIRE(t.box_lo[k * nodes + v] == lo);
                REQUIRE(t.box_hi[k * nodes + v] == hi);
              }
          }
      }
}

TEST_CASE("device-built kd-trees stay shallow on duplicates and real scans") {
  auto& rt = test::runtime();
  PointSet same(100003, 3);  // all points equal: ties split by position, a balanced tree
  for (auto& c : same.coord) c = 0.5f;
  KdTree t = build_kd_tree(rt, DevicePoints::upload(rt, same), {8}).download(rt);
  check_structure(t, same.n, 8, false);
  CHECK(t.height <= 15);
  for (const std::string& file : test::real_scans()) {
    CAPTURE(file);
    PointSet scan = test::real_scan(file);
    REQUIRE(scan.n > 2000);
    KdTree s = build_kd_tree(rt, DevicePoints::upload(rt, scan), {8}).download(rt);
    check_permutation(s.point_index, scan, s.points);
    check_structure(s, scan.n, 8, false);
    CHECK(s.height <= 30);
  }
}

TEST_CASE("device-built octrees: leaves partition the bodies; masses and centres equal CPU sums") {
  auto& rt = test::runtime();
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<float> mass(0.0f, 2.0f);
  auto sets = point_sets(4099, 3);
  sets.push_back({"dragon", test::real_scan("dragon_scan_2k.xyz")});
  for (std::size_t n : {0, 1, 2, 3, 9, 97, 257})
    sets.push_back(
        {"awkward " + std::to_string(n), test::make_points(n, 3, test::Shape::uniform, n)});
  for (auto& [set_name, points] : sets) {
    const auto& name = set_name;  // C++17: a lambda (CAPTURE) cannot capture a binding
    CAPTURE(name);
    const std::size_t n = points.n;
    std::vector<float> masses(n);
    for (auto& m : masses) m = mass(rng);
    if (n > 10) masses[3] = 0.0f;
    auto device_masses = DeviceArray<float>::upload(rt, masses);
    Octree t = build_octree(rt, DevicePoints::upload(rt, points), device_masses, {8}).download(rt);
    if (n == 0) {
      CHECK(t.nodes() == 0);
      continue;
    }
    check_permutation(t.point_index, points, t.points);
    auto range = check_structure(t, n, 8, true);
    CHECK(t.height <= device_octree_height);
    for (std::size_t i = 0; i < n; ++i) CHECK(t.mass[i] == masses[t.point_index[i]]);
    for (std::size_t v = 0; v < t.nodes(); ++v) {
      double m = 0, c[3] = {0, 0, 0}, extent = 0;
      for (std::int32_t j = range[v].first; j < range[v].second; ++j) {
        m += t.mass[j];
        for (int k = 0; k < 3; ++k) c[k] += double(t.mass[j]) * t.points.at(j, k);
      }
      CHECK(t.centre_mass[4 * v + 3] == doctest::Approx(m).epsilon(1e-5));
      for (int k = 0; k < 3; ++k) {
        if (m > 0) {
          // the centre is a weighted mean: its error is relative to the spread of the bodies
          for (std::int32_t j = range[v].first; j < range[v].second; ++j)
            extent = std::max(extent, std::abs(double(t.points.at(j, k)) - c[k] / m));
          CHECK(std::abs(t.centre_mass[4 * v + k] - c[k] / m) <= 1e-5 * (extent + 1e-30) + 1e-6);
        }
        // every body lies within a cell side of its cell's centre of mass, in every coordinate
        for (std::int32_t j = range[v].first; j < range[v].second; ++j)
          CHECK(std::abs(t.points.at(j, k) - t.centre_mass[4 * v + k]) <= t.side[v] * 1.0001f);
      }
      // leaf buckets hold at most 8 bodies unless they are finest cells (coincident bodies)
      if (t.count[v] > 8) CHECK(t.side[v] <= t.side[0] * std::ldexp(1.0f, -20));
    }
  }
}

TEST_CASE("device-built octrees of coincident bodies: one finest cell, not a deep chain") {
  auto& rt = test::runtime();
  PointSet same(1000, 3);
  for (std::size_t i = 0; i < same.n; ++i)
    for (int k = 0; k < 3; ++k) same.at(i, k) = i < 900 ? 0.25f : float(i) * 1e-3f;
  auto masses = DeviceArray<float>::upload(rt, std::vector<float>(same.n, 1.0f));
  Octree t = build_octree(rt, DevicePoints::upload(rt, same), masses, {8}).download(rt);
  check_structure(t, same.n, 8, true);
  CHECK(t.height <= device_octree_height);
  std::int32_t biggest = *std::max_element(t.count.begin(), t.count.end());
  CHECK(biggest == 900);
}

TEST_CASE("host octrees of coincident bodies may be 10^6 cells deep: built without recursion") {
  PointSet same(9, 3);
  for (auto& c : same.coord) c = 1.0f;
  Octree t = build_octree(same, std::vector<float>(9, 1.0f), 8, 1000000);
  CHECK(t.height == 1000000);
  CHECK(t.nodes() == 1000001);
  CHECK(t.count.back() == 9);
  Octree copy = t;  // copies and destruction are flat vectors
  CHECK(copy.nodes() == t.nodes());
}

TEST_CASE("device builds refuse bad parameters") {
  auto& rt = test::runtime();
  auto points = DevicePoints::upload(rt, test::make_points(10, 2, test::Shape::uniform, 1));
  CHECK_THROWS_AS(build_kd_tree(rt, points, {0}), InputError);
  auto masses = DeviceArray<float>::upload(rt, std::vector<float>(10, 1.0f));
  CHECK_THROWS_AS(build_octree(rt, points, masses, {8}), InputError);  // 2-d bodies
  PointSet bad(2, 3);
  bad.at(1, 2) = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_AS(DevicePoints::upload(rt, bad), InputError);
}

TEST_CASE("device builds: the key sort and radix tile come from the environment, checked") {
  auto read_with = [](const char* name, const char* value) {
    setenv(name, value, 1);
    try {
      Environment e = Environment::read();
      unsetenv(name);
      return e;
    } catch (...) {
      unsetenv(name);
      throw;
    }
  };
  CHECK(read_with("TREEFIX_KEY_SORT", "boost").tuning("boost_key_sort") ==
        std::optional<std::size_t>(1));
  CHECK(read_with("TREEFIX_KEY_SORT", " radix ").tuning("boost_key_sort") ==
        std::optional<std::size_t>(0));
  CHECK(read_with("TREEFIX_RADIX_ITEMS", "16").tuning("radix_sort_items") ==
        std::optional<std::size_t>(16));
  try {
    read_with("TREEFIX_KEY_SORT", "fast");
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("TREEFIX_KEY_SORT='fast': expected boost or radix") !=
          std::string::npos);
  }
  CHECK_THROWS_AS(read_with("TREEFIX_RADIX_ITEMS", "-4"), InputError);
  CHECK_FALSE(Environment::read().tuning("boost_key_sort").has_value());
}
