// Spatial trees, the rope-stack engine and 2-point correlation against brute force.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>

#include "fixture.hpp"
#include "ropes_fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/io/text_io.hpp"
#include "treefix/spatial/nbody.hpp"
#include "treefix/spatial/neighbours.hpp"
#include "treefix/spatial/points_io.hpp"

using namespace treefix;
using test::Shape;

namespace {

// Every point in exactly one node's range, ranges of leaves contiguous, depth <= height.
void check_linear_tree(const LinearTree& t, std::size_t n) {
  std::vector<int> seen(n, 0);
  std::vector<std::pair<std::int32_t, int>> stack = {{0, 0}};
  int max_depth = 0;
  std::size_t reached = 0;
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    ++reached;
    max_depth = std::max(max_depth, depth);
    for (std::int32_t j = t.first[node]; j < t.first[node] + t.count[node]; ++j) ++seen[j];
    for (int c = 0; c < t.arity; ++c)
      if (t.child[node * t.arity + c] >= 0) {
        CHECK(t.child[node * t.arity + c] > node);  // preorder
        stack.push_back({t.child[node * t.arity + c], depth + 1});
      }
  }
  CHECK(reached == t.nodes());
  CHECK(max_depth == t.height);
  CHECK(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }));
  auto sorted = t.point_index;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < n; ++i) REQUIRE(sorted[i] == std::int32_t(i));
}

}  // namespace

TEST_CASE("ropes: kd-trees, octrees and vp-trees hold every point once, within their bounds") {
  for (std::size_t n : {0, 1, 2, 7, 97, 1000, 4099})
    for (Shape shape : test::all_shapes()) {
      CAPTURE(n);
      CAPTURE(std::string(test::shape_name(shape)));
      auto pts = test::make_points(n, 3, shape, n + 1);
      auto kd = build_kd_tree(pts, 4);
      check_linear_tree(kd, n);
      // kd boxes contain the points of their leaves
      for (std::size_t v = 0; v < kd.nodes(); ++v)
        for (std::int32_t j = kd.first[v]; j < kd.first[v] + kd.count[v]; ++j)
          for (int k = 0; k < 3; ++k) {
            CHECK(kd.points.at(j, k) >= kd.box_lo[k * kd.nodes() + v]);
            CHECK(kd.points.at(j, k) <= kd.box_hi[k * kd.nodes() + v]);
          }
      auto oct = build_octree(pts, std::vector<float>(n, 1.0f), 4, 12);
      check_linear_tree(oct, n);
      CHECK(oct.height <= 12);
      CHECK(oct.centre_mass[3] == doctest::Approx(double(n)));
      auto vp = build_vp_tree(pts, 4);
      check_linear_tree(vp, n);
      for (std::size_t v = 1; v < vp.nodes(); ++v) CHECK(vp.parent_vantage[v] >= 0);
    }
}

TEST_CASE("ropes: morton order is a permutation that groups nearby points") {
  auto pts = test::make_points(5000, 3, Shape::uniform, 3);
  auto order = morton_order(pts);
  auto sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) REQUIRE(sorted[i] == std::int32_t(i));
  // consecutive points along the curve are much nearer than random pairs
  double along = 0, random_pairs = 0;
  for (std::size_t i = 1; i < order.size(); ++i) {
    along += std::sqrt(squared_distance(pts, order[i - 1], pts, order[i]));
    random_pairs += std::sqrt(squared_distance(pts, i - 1, pts, i));
  }
  CHECK(along * 5 < random_pairs);
  CHECK(morton_order(PointSet(0, 2)).empty());
}

TEST_CASE("ropes: correlation counts equal brute force for every variant, sort and shape") {
  auto& rt = test::runtime();
  for (std::size_t n : {0, 1, 2, 3, 31, 257, 1000, 4099})
    for (Shape shape : test::all_shapes()) {
      auto data = test::make_points(n, 3, shape, 7 * n + 1);
      auto kd = build_kd_tree(data, 8);
      // the radius of a lattice equals exact lattice distances: ties on the boundary
      double radius = shape == Shape::lattice ? 1.0 : shape == Shape::coincident ? 0.5 : 0.15;
      auto expected = reference::correlation_brute(data, data, radius);
      CHECK(reference::correlation_tree(kd, data, radius, 2) == expected);
      for (Variant v : test::all_variants())
        for (SortMode sort : {SortMode::on, SortMode::off}) {
          CAPTURE(n);
          CAPTURE(std::string(test::shape_name(shape)));
          CAPTURE(std::string(to_string(v)));
          CAPTURE(int(sort));
          QueryOptions o;
          o.variant = v;
          o.sort = sort;
          CHECK(correlation_counts(rt, kd, data, radius, o) == expected);
        }
    }
}

TEST_CASE("ropes: correlation with separate queries in 2-d, radius 0 and a huge radius") {
  auto& rt = test::runtime();
  auto data = test::make_points(65537, 2, Shape::clustered, 11);
  auto queries = test::make_points(997, 2, Shape::uniform, 12);
  auto kd = build_kd_tree(data, 16);
  for (double radius : {0.0, 0.05, 10.0}) {
    auto expected = reference::correlation_brute(data, queries, radius);
    QueryOptions o;
    o.variant = Variant::lockstep;
    CHECK(correlation_counts(rt, kd, queries, radius, o) == expected);
    o.variant = Variant::independent;
    CHECK(correlation_counts(rt, kd, queries, radius, o) == expected);
  }
  // radius 0 on the data itself counts each point's duplicates, itself included
  auto self = correlation_counts(rt, kd, data, 0.0);
  CHECK(std::all_of(self.begin(), self.end(), [](std::uint32_t c) { return c >= 1; }));
}

TEST_CASE("ropes: traversal statistics — visits agree across variants, lockstep expands work") {
  auto& rt = test::runtime();
  auto data = test::make_points(20011, 3, Shape::clustered, 5);
  auto kd = build_kd_tree(data, 8);
  TraversalStats ind, rec, lock;
  QueryOptions o;
  o.sort = SortMode::on;
  o.variant = Variant::independent;
  o.stats = &ind;
  auto a = correlation_counts(rt, kd, data, 0.05, o);
  o.variant = Variant::recursive;
  o.stats = &rec;
  auto b = correlation_counts(rt, kd, data, 0.05, o);
  o.variant = Variant::lockstep;
  o.stats = &lock;
  auto c = correlation_counts(rt, kd, data, 0.05, o);
  CHECK(a == b);
  CHECK(a == c);
  // an unguided traversal visits the same nodes alone or in a group
  CHECK(ind.visits == rec.visits);
  CHECK(ind.visits == lock.visits);
  CHECK(ind.work_expansion() == doctest::Approx(1.0));
  CHECK(lock.work_expansion() >= 1.0);
  CHECK(ind.mean_visits() > 1.0);
  std::vector<std::uint32_t> cpu_visits;
  reference::correlation_tree(kd, data.permuted(morton_order(data)), 0.05, 2, &cpu_visits);
  // the device sorts the queries by its own (finer) Morton codes: the same visits per query, in
  // another order
  std::sort(cpu_visits.begin(), cpu_visits.end());
  std::vector<std::uint32_t> device_visits = ind.visits;
  std::sort(device_visits.begin(), device_visits.end());
  CHECK(cpu_visits == device_visits);
}

TEST_CASE("ropes: bad parameters are refused with a clear message") {
  auto& rt = test::runtime();
  auto data = test::make_points(10, 3, Shape::uniform, 1);
  auto kd = build_kd_tree(data);
  CHECK_THROWS_AS(correlation_counts(rt, kd, data, -1.0), InputError);
  CHECK_THROWS_AS(correlation_counts(rt, kd, test::make_points(4, 2, Shape::uniform, 1), 1.0),
                  InputError);
  CHECK_THROWS_AS(parse<Variant>("fast"), InputError);
  CHECK_THROWS_AS(parse<SortMode>("maybe"), InputError);
  PointSet bad(2, 3);
  bad.at(1, 2) = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_AS(build_kd_tree(bad), InputError);
}

TEST_CASE("ropes: lockstep groups wider than 32 items combine several mask words") {
  auto& rt = test::runtime();
  auto data = test::make_points(4099, 3, Shape::clustered, 8);
  auto queries = test::make_points(1031, 3, Shape::uniform, 9);
  auto kd = build_kd_tree(data, 8);
  auto counts = reference::correlation_brute(data, queries, 0.1);
  auto near = reference::knn_brute(data, queries, 3);
  test::ScopedTuning tuning;
  tuning->set("lockstep_width", 128);
  QueryOptions o;
  o.variant = Variant::lockstep;
  TraversalStats stats;
  o.stats = &stats;
  for (SortMode sort : {SortMode::on, SortMode::off}) {
    o.sort = sort;
    CHECK(correlation_counts(rt, kd, queries, 0.1, o) == counts);
    auto got = knn(rt, kd, queries, 3, o);
    CHECK(got.index == near.index);
    CHECK(got.d2 == near.d2);
  }
  CHECK(stats.work_expansion() > 1.0);
}

TEST_CASE("ropes: point and body files round-trip and report bad rows with their line") {
  std::string path = "ropes_points_test.txt";
  auto pts = test::make_points(97, 4, Shape::uniform, 4);
  write_output(path, [&](std::ostream& out) { write_points(out, pts); });
  auto back = read_points(path);
  CHECK(back.n == 97);
  CHECK(back.dim == 4);
  CHECK(back.coord == pts.coord);
  auto bodies = generate::plummer(31, 2);
  write_output(path, [&](std::ostream& out) { write_bodies(out, bodies); });
  auto again = read_bodies(path);
  CHECK(again.mass == bodies.mass);
  CHECK(again.position.coord == bodies.position.coord);
  CHECK(again.velocity.coord == bodies.velocity.coord);
  write_output(path, [](std::ostream& out) { out << "3 2\n0 0\n# comment\n1 2 3\n4 5\n"; });
  try {
    read_points(path);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find(path + ":4") != std::string::npos);
  }
  CHECK_THROWS_AS(read_bodies(path), InputError);  // 2 columns, not 7
  std::remove(path.c_str());
}

TEST_CASE("ropes: auto picks lockstep only for sorted, unguided, coherent traversals on a GPU") {
  auto& rt = test::runtime();
  bool gpu = rt.description().is_gpu;
  auto pieces = [](bool guided, bool coherent) {
    TraversalPieces p;
    p.guided = guided;
    p.coherent = coherent;
    return p;
  };
  CHECK(choose_variant(rt, Variant::automatic, pieces(false, true), true) ==
        (gpu ? Variant::lockstep : Variant::independent));
  CHECK(choose_variant(rt, Variant::automatic, pieces(false, false), true) ==
        Variant::independent);  // correlation: independent is 1.8x faster on the H100
  CHECK(choose_variant(rt, Variant::automatic, pieces(true, true), true) == Variant::independent);
  CHECK(choose_variant(rt, Variant::automatic, pieces(false, true), false) == Variant::independent);
  CHECK(choose_variant(rt, Variant::recursive, pieces(false, true), true) == Variant::recursive);
  CHECK(choose_sort(SortMode::automatic, 100000));
  CHECK_FALSE(choose_sort(SortMode::automatic, 10));
  CHECK_FALSE(choose_sort(SortMode::off, 100000));
}
