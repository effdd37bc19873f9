// The exact kd-tree searches (treefix/spatial/kd_search.hpp) against brute force in cKDTree's
// arithmetic: the same distances bit for bit, neighbours ordered by (distance, index), every
// traversal variant, sorted and unsorted queries, chunked launches, periodic boxes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "fixture.hpp"
#include "ropes_fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/spatial/kd_search.hpp"

using namespace treefix;
using test::Shape;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

// n points of m coordinates as rows (what upload_rows takes), from the shared shapes, moved
// far from the origin so that float would lose them.
template <class Real>
std::vector<Real> rows_of(std::size_t n, int m, Shape shape, std::uint64_t seed, double offset) {
  PointSet p = test::make_points(n, m, shape, seed);
  std::vector<Real> rows(n * m);
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < m; ++k) rows[i * m + k] = Real(offset + 37.0 * p.at(i, k));
  return rows;
}

// distance^p from q to point i, as cKDTree computes it (kernels/spatial/ropes_kd_metric.clh).
template <class Real>
Real powered(const std::vector<Real>& rows, int m, std::size_t i, const Real* q, double p,
             const std::vector<double>& box) {
  auto axis = [&](int k) {
    Real d = rows[i * m + k] - q[k];
    if (!box.empty()) {
      const Real full = Real(box[k]), half = Real(0.5 * box[k]);
      if (d < -half)
        d = full + d;
      else if (d > half)
        d = d - full;
    }
    return std::fabs(d);
  };
  if (p == 2 && box.empty()) {
    Real acc[4] = {0, 0, 0, 0};
    int k = 0;
    for (; k + 4 <= m; k += 4)
      for (int t = 0; t < 4; ++t) acc[t] += axis(k + t) * axis(k + t);
    Real s = acc[0] + acc[1] + acc[2] + acc[3];
    for (; k < m; ++k) s += axis(k) * axis(k);
    return s;
  }
  Real s = 0;
  for (int k = 0; k < m; ++k) {
    const Real a = axis(k);
    s = p == 2 ? s + a * a : p == 1 ? s + a : std::fmax(s, a);
  }
  return s;
}

template <class Real>
Real root(Real s, double p) {
  return p == 2 ? std::sqrt(s) : s;
}

template <class Real>
Real power_of(double r, double p) {
  return std::isinf(p) || std::isinf(r) ? Real(r) : p == 2 ? Real(r * r) : Real(r);
}

template <class Real>
std::vector<Real> wrapped(std::vector<Real> rows, int m, const std::vector<double>& box) {
  if (box.empty()) return rows;
  for (std::size_t j = 0; j < rows.size(); ++j) {
    const Real full = Real(box[j % m]);
    if (full <= 0) continue;
    Real x = rows[j] - std::floor(rows[j] / full) * full;
    while (x >= full) x -= full;
    while (x < 0) x += full;
    rows[j] = x;
  }
  return rows;
}

template <class Real>
struct Search {
  Runtime& rt = test::runtime();
  int m;
  std::vector<Real> data, queries;
  BasicDevicePoints<Real> device_data, device_queries;
  BasicDeviceKdTree<Real> tree;
  Search(std::vector<Real> d, std::vector<Real> q, int dims, int leaf = 3) : m(dims) {
    data = std::move(d);
    queries = std::move(q);
    device_data = BasicDevicePoints<Real>::upload_rows(rt, data.data(), data.size() / m, m);
    device_queries =
        BasicDevicePoints<Real>::upload_rows(rt, queries.data(), queries.size() / m, m);
    BuildOptions build;
    build.leaf_size = leaf;
    build.equal_points_together = true;
    tree = build_kd_tree(rt, device_data, build);
  }
  std::size_t n() const { return data.size() / m; }
  std::size_t nq() const { return queries.size() / m; }

  void check_nearest(const NearestQuery& query, const QueryOptions& options = {}) {
    const std::size_t per = query.ranks.size();
    DeviceArray<std::int64_t> index(rt, std::max<std::size_t>(1, nq() * per));
    DeviceArray<Real> distance(rt, std::max<std::size_t>(1, nq() * per));
    QuerySource<Real> source;
    source.points = &device_queries;
    nearest(rt, tree, source, query, index, distance, options);
    if (nq() == 0) return;
    auto got_i = index.download(rt);
    auto got_d = distance.download(rt);
    const double p = query.metric.p;
    const std::vector<Real> q = wrapped(queries, m, query.metric.box);
    const Real bound = power_of<Real>(query.distance_upper_bound, p);
    for (std::size_t a = 0; a < nq(); ++a) {
      std::vector<std::pair<Real, std::int64_t>> all;
      for (std::size_t i = 0; i < n(); ++i) {
        const Real s = powered(data, m, i, &q[a * m], p, query.metric.box);
        if (s < bound) all.push_back({s, std::int64_t(i)});
      }
      const std::size_t most = std::min<std::size_t>(
          all.size(), std::size_t(*std::max_element(query.ranks.begin(), query.ranks.end())));
      std::partial_sort(all.begin(), all.begin() + most, all.end());
      for (std::size_t t = 0; t < per; ++t) {
        const std::size_t r = std::size_t(query.ranks[t]) - 1;
        const bool found = r < all.size();
        REQUIRE(got_i[a * per + t] == (found ? all[r].second : std::int64_t(n())));
        REQUIRE(got_d[a * per + t] == (found ? root(all[r].first, p) : Real(kInf)));
      }
    }
  }

  // Lists against brute force; `greater` keeps pairs (q, j > q) of the tree's own points.
  void check_pairs(const RadiusQuery& query, bool own, const QueryOptions& options = {}) {
    QuerySource<Real> source;
    if (!own) source.points = &device_queries;
    const std::vector<Real>& asked = own ? data : queries;
    const std::size_t count = asked.size() / m;
    PairLists<Real> lists = pairs_within(rt, tree, source, query, options);
    DeviceArray<std::int64_t> counts(rt, std::max<std::size_t>(1, count));
    count_within(rt, tree, source, query, counts, options);
    REQUIRE(lists.queries == count);
    if (count == 0) return;
    auto offset = lists.offset.download(rt);
    auto index = lists.index.download(rt);
    auto distance = query.distances ? lists.distance.download(rt) : std::vector<Real>();
    auto lengths = counts.download(rt);
    const double p = query.metric.p;
    const std::vector<Real> q = wrapped(asked, m, query.metric.box);
    std::size_t total = 0;
    for (std::size_t a = 0; a < count; ++a) {
      const double r = query.radius.size() == 1 ? query.radius[0] : query.radius[a];
      const Real limit = power_of<Real>(r, p);
      std::vector<std::pair<std::int32_t, Real>> want, got;
      for (std::size_t i = 0; i < n(); ++i) {
        if (query.greater_only && i <= a) continue;
        const Real s = powered(data, m, i, &q[a * m], p, query.metric.box);
        if (s <= limit) want.push_back({std::int32_t(i), root(s, p)});
      }
      for (std::int64_t e = offset[a]; e < offset[a + 1]; ++e)
        got.push_back({index[e], query.distances ? distance[e] : root(Real(0), p)});
      std::sort(got.begin(), got.end());
      if (!query.distances)
        for (auto& w : want) w.second = root(Real(0), p);
      REQUIRE(got == want);
      REQUIRE(lengths[a] == std::int64_t(want.size()));
      total += want.size();
    }
    REQUIRE(lists.total == total);
  }
};

}  // namespace

TEST_CASE("kd search: nearest equals brute force in cKDTree's arithmetic, every k and metric") {
  for (std::size_t n : {1, 2, 97, 1000})
    for (int m : {1, 3, 5})
      for (Shape shape : test::all_shapes()) {
        CAPTURE(n);
        CAPTURE(m);
        CAPTURE(std::string(test::shape_name(shape)));
        Search<double> s(rows_of<double>(n, m, shape, n + m, 5e6),
                         rows_of<double>(n / 3 + 2, m, Shape::uniform, 7 * n, 5e6), m);
        for (double p : {1.0, 2.0, kInf}) {
          CAPTURE(p);
          NearestQuery q;
          q.metric.p = p;
          q.ranks = {1, 2, 3, 4, 5};
          s.check_nearest(q);
          q.ranks = {20, 1, 17};  // beyond 16: the heap
          s.check_nearest(q);
          q.ranks = {1, 3};
          q.distance_upper_bound = 9.0;
          s.check_nearest(q);
        }
      }
}

TEST_CASE("kd search: every variant, sorted or not, chunked heaps, the tree's own points") {
  Search<double> s(rows_of<double>(2003, 3, Shape::clustered, 1, 0.0),
                   rows_of<double>(700, 3, Shape::uniform, 2, 0.0), 3, 8);
  NearestQuery q;
  q.ranks = {1, 2, 3, 4, 5, 6, 7, 8};
  test::each_variant_and_sort([&](Variant v, SortMode sort) {
    QueryOptions o;
    o.variant = v;
    o.sort = sort;
    s.check_nearest(q, o);
    RadiusQuery r;
    r.radius = {2.5};
    s.check_pairs(r, false, o);
  });
  test::ScopedTuning tuning;
  tuning->set("kd_scratch_bytes", 4096);  // heaps of 100 candidates: 3 queries a launch
  NearestQuery many;
  many.ranks.resize(100);
  std::iota(many.ranks.begin(), many.ranks.end(), 1);
  Search<double> small(rows_of<double>(300, 2, Shape::lattice, 3, 0.0),
                       rows_of<double>(11, 2, Shape::uniform, 4, 0.0), 2);
  small.check_nearest(many);
  // The tree's own points: results in the order the points were given.
  DeviceArray<std::int64_t> index(small.rt, 300);
  DeviceArray<double> distance(small.rt, 300);
  NearestQuery one;
  one.ranks = {1};
  nearest(small.rt, small.tree, QuerySource<double>{}, one, index, distance);
  auto d = distance.download(small.rt);
  CHECK(std::all_of(d.begin(), d.end(), [](double x) { return x == 0; }));
}

TEST_CASE("kd search: pairs within r, per-query radii, pairs of own points, bins") {
  for (int m : {1, 2, 4}) {
    CAPTURE(m);
    Search<double> s(rows_of<double>(700, m, Shape::clustered, m, 1e4),
                     rows_of<double>(90, m, Shape::uniform, 9 * m, 1e4), m);
    for (double p : {1.0, 2.0, kInf}) {
      CAPTURE(p);
      RadiusQuery q;
      q.metric.p = p;
      q.radius = {0.0};
      s.check_pairs(q, false);
      q.radius = {4.0};
      q.distances = true;
      s.check_pairs(q, false);
      q.radius.resize(90);
      for (std::size_t i = 0; i < 90; ++i) q.radius[i] = 0.1 * double(i);
      s.check_pairs(q, false);
      q.radius = {3.0};
      q.greater_only = true;
      s.check_pairs(q, true);
      // Bins: counts (and weights) of the pairs of the queries and points per distance bin.
      PairCountQuery bins;
      bins.metric.p = p;
      bins.edges = {0.5, 2.0, 4.0, 60.0};
      bins.query_weights.assign(90, 2.0);
      bins.point_weights.resize(700);
      for (std::size_t i = 0; i < 700; ++i) bins.point_weights[i] = double(i % 3);
      std::vector<double> want(4, 0.0);
      for (std::size_t a = 0; a < 90; ++a)
        for (std::size_t i = 0; i < 700; ++i) {
          const double d = powered(s.data, m, i, &s.queries[a * m], p, {});
          for (std::size_t b = 0; b < 4; ++b)
            if (d <= power_of<double>(bins.edges[b], p)) {
              want[b] += 2.0 * double(i % 3);
              break;
            }
        }
      QuerySource<double> source;
      source.points = &s.device_queries;
      CHECK(pair_counts(s.rt, s.tree, source, bins) == want);
      test::ScopedTuning tuning;
      tuning->set("kd_scratch_bytes", 1024);  // 32 queries a launch
      CHECK(pair_counts(s.rt, s.tree, source, bins) == want);
    }
  }
}

TEST_CASE("kd search: periodic boxes, wrapped queries, open coordinates") {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0), far(-3.0, 4.0);
  const std::vector<double> box = {1.0, 0.0, 2.0};
  std::vector<double> data(3 * 500), queries(3 * 60);
  for (std::size_t j = 0; j < data.size(); ++j)
    data[j] = u(rng) * (box[j % 3] > 0 ? box[j % 3] : 5.0);
  for (double& x : queries) x = far(rng);
  Search<double> s(data, queries, 3, 2);
  check_periodic_box(s.rt, s.tree, box);
  for (double p : {1.0, 2.0, kInf}) {
    CAPTURE(p);
    NearestQuery q;
    q.metric = {p, box};
    q.ranks = {1, 2, 3, 7};
    s.check_nearest(q);
    RadiusQuery r;
    r.metric = {p, box};
    r.radius = {0.3};
    r.distances = true;
    s.check_pairs(r, false);
  }
  CHECK_THROWS_AS(check_periodic_box(s.rt, s.tree, {0.5, 0.0, 2.0}), InputError);
  CHECK_THROWS_AS(check_periodic_box(s.rt, s.tree, {1.0, 0.0, -2.0}), InputError);
}

TEST_CASE("kd search: float coordinates, empty trees, bad requests") {
  Search<float> f(rows_of<float>(500, 3, Shape::uniform, 5, 0.0),
                  rows_of<float>(40, 3, Shape::clustered, 6, 0.0), 3);
  NearestQuery q;
  q.ranks = {1, 2, 8};
  f.check_nearest(q);
  RadiusQuery r;
  r.radius = {3.0};
  f.check_pairs(r, false);
  Search<double> empty(std::vector<double>(), rows_of<double>(5, 2, Shape::uniform, 1, 0.0), 2);
  empty.check_nearest(q);
  empty.check_pairs(r, false);
  Search<double> s(rows_of<double>(50, 2, Shape::uniform, 7, 0.0),
                   rows_of<double>(5, 2, Shape::uniform, 8, 0.0), 2);
  DeviceArray<std::int64_t> index(s.rt, 50);
  DeviceArray<double> distance(s.rt, 50);
  QuerySource<double> asked;
  asked.points = &s.device_queries;
  NearestQuery bad = q;
  bad.metric.p = 0.5;
  CHECK_THROWS_AS(nearest(s.rt, s.tree, asked, bad, index, distance), InputError);
  bad = q;
  bad.ranks = {0};
  CHECK_THROWS_AS(nearest(s.rt, s.tree, asked, bad, index, distance), InputError);
  bad = q;
  bad.distance_upper_bound = -1;
  CHECK_THROWS_AS(nearest(s.rt, s.tree, asked, bad, index, distance), InputError);
  RadiusQuery negative;
  negative.radius = {-1.0};
  CHECK_THROWS_AS(pairs_within(s.rt, s.tree, asked, negative), InputError);
  RadiusQuery overflow;
  overflow.radius = {1e200};
  CHECK_THROWS_AS(pairs_within(s.rt, s.tree, asked, overflow), InputError);
  auto three = DevicePoints64::upload_rows(s.rt, std::vector<double>(6, 0.0).data(), 2, 3);
  asked.points = &three;
  CHECK_THROWS_AS(nearest(s.rt, s.tree, asked, q, index, distance), InputError);
  const double nan = std::nan("");
  CHECK_THROWS_AS(DevicePoints64::upload_rows(s.rt, &nan, 1, 1), InputError);
}
