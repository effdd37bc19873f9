// kNN and correlation end to end on device-built kd-trees (upload, build, query on the device,
// download) against brute force, exactly: random, clustered, duplicate-heavy and real points,
// self queries and separate queries, every variant, sorted and not.
#include <doctest/doctest.h>

#include "fixture.hpp"
#include "ropes_fixture.hpp"
#include "treefix/spatial/neighbours.hpp"

using namespace treefix;

namespace {

struct Case {
  std::string name;
  PointSet data, queries;
};

std::vector<Case> cases() {
  std::vector<Case> c;
  for (std::size_t n : {1, 2, 7, 97, 1031})
    for (auto shape : test::all_shapes())
      c.push_back({std::string(test::shape_name(shape)) + " " + std::to_string(n),
                   test::make_points(n, 3, shape, n + 11),
                   test::make_points(n / 3 + 2, 3, shape, n + 12)});
  PointSet same(600, 2);  // all equal: every distance ties
  for (auto& x : same.coord) x = -3.0f;
  c.push_back({"all equal", same, same});
  PointSet dragon = test::real_scan("dragon_scan_2k.xyz");
  c.push_back({"dragon", dragon, test::make_points(257, 3, test::Shape::clustered, 4)});
  c.push_back({"kinect office", test::real_scan("kinect_office_2k.xyz"), dragon});
  return c;
}

// Self queries (nullptr) or the case's queries, through the device API.
std::vector<std::uint32_t> device_counts(Runtime& rt, const DeviceKdTree& tree,
                                         const DevicePoints* queries, std::size_t n, double radius,
                                         const QueryOptions& o) {
  DeviceArray<std::uint32_t> counts(rt, n, "counts");
  correlation_counts(rt, tree, queries, radius, counts, o);
  return counts.download(rt);
}

Neighbours device_knn(Runtime& rt, const DeviceKdTree& tree, const DevicePoints* queries,
                      std::size_t n, int k, const QueryOptions& o) {
  DeviceArray<std::int32_t> index(rt, n * k, "index");
  DeviceArray<float> d2(rt, n * k, "d2");
  knn(rt, tree, queries, k, index, d2, o);
  Neighbours r;
  r.k = k;
  r.index = index.download(rt);
  r.d2 = d2.download(rt);
  return r;
}

}  // namespace

TEST_CASE("device-built kd-trees: knn (k = 8) and correlation equal brute force") {
  auto& rt = test::runtime();
  for (const Case& c : cases()) {
    CAPTURE(c.name);
    auto data = DevicePoints::upload(rt, c.data);
    auto queries = DevicePoints::upload(rt, c.queries);
    DeviceKdTree tree = build_kd_tree(rt, data, {8});
    // a radius that holds a few points on average, and one that holds ties exactly
    const double radius = c.name.rfind("lattice", 0) == 0 ? 1.0 : 0.05;
    const int k = int(std::min<std::size_t>(8, c.data.n));
    auto counts_self = reference::correlation_brute(c.data, c.data, radius);
    auto counts_other = reference::correlation_brute(c.data, c.queries, radius);
    auto knn_self = reference::knn_brute(c.data, c.data, k);
    auto knn_other = reference::knn_brute(c.data, c.queries, k);
    test::each_variant_and_sort([&](Variant v, SortMode sort) {
      QueryOptions o;
      o.variant = v;
      o.sort = sort;
      CHECK(device_counts(rt, tree, nullptr, c.data.n, radius, o) == counts_self);
      CHECK(device_counts(rt, tree, &queries, c.queries.n, radius, o) == counts_other);
      Neighbours self = device_knn(rt, tree, nullptr, c.data.n, k, o);
      CHECK(self.index == knn_self.index);
      CHECK(self.d2 == knn_self.d2);
      Neighbours other = device_knn(rt, tree, &queries, c.queries.n, k, o);
      CHECK(other.index == knn_other.index);
      CHECK(other.d2 == knn_other.d2);
    });
  }
}

TEST_CASE("device-built kd-trees: empty query sets and too-small outputs") {
  auto& rt = test::runtime();
  auto data = DevicePoints::upload(rt, test::make_points(50, 3, test::Shape::uniform, 1));
  DeviceKdTree tree = build_kd_tree(rt, data);
  auto none = DevicePoints::upload(rt, PointSet(0, 3));
  DeviceArray<std::uint32_t> counts(rt, 0, "counts");
  correlation_counts(rt, tree, &none, 0.1, counts);
  DeviceArray<std::uint32_t> small(rt, 10, "counts");
  CHECK_THROWS_AS(correlation_counts(rt, tree, nullptr, 0.1, small), InputError);
  DeviceArray<std::int32_t> index(rt, 50, "index");
  DeviceArray<float> d2(rt, 50, "d2");
  CHECK_THROWS_AS(knn(rt, tree, nullptr, 2, index, d2), InputError);
  CHECK_THROWS_AS(knn(rt, tree, nullptr, 51, index, d2), InputError);
  auto flat = DevicePoints::upload(rt, PointSet(4, 2));
  CHECK_THROWS_AS(knn(rt, tree, &flat, 1, index, d2), InputError);
}
