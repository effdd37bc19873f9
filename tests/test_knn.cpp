// k nearest neighbours (kd-tree and vp-tree, guided) against brute force, exactly, ties included.
#include <doctest/doctest.h>

#include "fixture.hpp"
#include "ropes_fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/spatial/neighbours.hpp"

using namespace treefix;
using test::check_same;
using test::Shape;

TEST_CASE("ropes: knn on kd-trees and vp-trees equals brute force, ties by smaller index") {
  auto& rt = test::runtime();
  for (std::size_t n : {1, 2, 7, 97, 1000, 4099})
    for (Shape shape : test::all_shapes())
      for (int k : {1, 5}) {
        if (std::size_t(k) > n) continue;
        CAPTURE(n);
        CAPTURE(std::string(test::shape_name(shape)));
        CAPTURE(k);
        auto data = test::make_points(n, 3, shape, 3 * n + 2);
        auto queries = test::make_points(n / 2 + 3, 3,
                                         shape == Shape::lattice ? shape : Shape::uniform, n + 5);
        auto want = reference::knn_brute(data, queries, k);
        auto kd = build_kd_tree(data, 4);
        auto vp = build_vp_tree(data, 4);
        check_same(reference::knn_tree(kd, queries, k, 2), want);
        check_same(reference::knn_tree(vp, queries, k, 2), want);
        for (Variant v : test::all_variants())
          for (SortMode sort : {SortMode::on, SortMode::off}) {
            CAPTURE(std::string(to_string(v)));
            CAPTURE(int(sort));
            QueryOptions o;
            o.variant = v;
            o.sort = sort;
            check_same(knn(rt, kd, queries, k, o), want);
            check_same(knn(rt, vp, queries, k, o), want);
          }
      }
}

TEST_CASE("ropes: knn on 100003 clustered points, queries from the data, guided lockstep") {
  auto& rt = test::runtime();
  auto data = test::make_points(100003, 3, Shape::clustered, 21);
  auto queries = data.permuted([] {
    std::vector<std::int32_t> pick;
    for (std::int32_t i = 0; i < 100003; i += 97) pick.push_back(i);
    return pick;
  }());
  auto want = reference::knn_brute(data, queries, 5);
  auto kd = build_kd_tree(data, 8);
  TraversalStats stats;
  QueryOptions o;
  o.variant = Variant::lockstep;
  o.sort = SortMode::on;
  o.stats = &stats;
  check_same(knn(rt, kd, queries, 5, o), want);
  CHECK(stats.work_expansion() >= 1.0);
  o.variant = Variant::independent;
  check_same(knn(rt, build_vp_tree(data, 8), queries, 5, o), want);
  for (std::size_t q = 0; q < queries.n; ++q) CHECK(want.d2[q * 5] == 0.0f);  // itself
}

TEST_CASE("ropes: knn refuses k out of range and mismatched dimensions") {
  auto& rt = test::runtime();
  auto data = test::make_points(10, 3, Shape::uniform, 1);
  auto kd = build_kd_tree(data);
  CHECK_THROWS_AS(knn(rt, kd, data, 0), InputError);
  CHECK_THROWS_AS(knn(rt, kd, data, 11), InputError);
  CHECK_THROWS_AS(knn(rt, kd, data, max_knn_k + 1), InputError);
  CHECK_THROWS_AS(knn(rt, kd, test::make_points(3, 2, Shape::uniform, 2), 1), InputError);
  auto none = knn(rt, kd, PointSet(0, 3), 3);
  CHECK(none.index.empty());
}
