// Minimum spanning forests on the device (graph/minimum_spanning_tree.hpp) against Kruskal's
// algorithm on the host in the same total order, entry for entry, for int32, int64, float32 and
// float64 weights: ties everywhere, negative and zero weights, +inf and NaN, repeats and the
// diagonal, stars, paths, forests, disconnected and empty graphs; csr, coo and transposed csc
// layouts. And the weights of BFS trees (graph/bfs_tree.hpp) against a host lookup.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "fixture.hpp"
#include "sparse_entries.hpp"
#include "treefix/graph/bfs.hpp"
#include "treefix/graph/bfs_tree.hpp"
#include "treefix/graph/minimum_spanning_tree.hpp"

using namespace treefix;
using test::Entries;

namespace {

// The weight order of the device: NaN after everything, -0 equal to +0.
bool lighter(double a, double b) {
  if (std::isnan(a)) return false;
  if (std::isnan(b)) return true;
  return a < b;
}
bool same_weight(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

// Kruskal over the entries in CSR order (rows, then stored position), ranked as the device
// ranks them. T: the weights' type (values converted, then compared, in it).
template <class T>
SpanningForest kruskal(const Entries& e) {
  std::vector<std::size_t> entry(e.row.size());
  std::iota(entry.begin(), entry.end(), 0);
  std::stable_sort(entry.begin(), entry.end(), [&](std::size_t a, std::size_t b) {
    return e.row[a] != e.row[b] ? e.row[a] < e.row[b] : e.col[a] < e.col[b];
  });
  std::vector<std::size_t> rank(entry.size());
  std::iota(rank.begin(), rank.end(), 0);
  auto weight = [&](std::size_t i) { return static_cast<double>(static_cast<T>(e.value[entry[i]])); };
  auto lo = [&](std::size_t i) { return std::min(e.row[entry[i]], e.col[entry[i]]); };
  auto hi = [&](std::size_t i) { return std::max(e.row[entry[i]], e.col[entry[i]]); };
  std::stable_sort(rank.begin(), rank.end(), [&](std::size_t a, std::size_t b) {
    if (!same_weight(weight(a), weight(b))) return lighter(weight(a), weight(b));
    if (lo(a) != lo(b)) return lo(a) < lo(b);
    if (hi(a) != hi(b)) return hi(a) < hi(b);
    return (e.row[entry[a]] > e.col[entry[a]]) < (e.row[entry[b]] > e.col[entry[b]]);
  });
  std::vector<vertex_t> up(e.n);
  std::iota(up.begin(), up.end(), 0);
  auto find = [&](vertex_t v) {
    while (up[v] != v) v = up[v] = up[up[v]];
    return v;
  };
  std::vector<std::size_t> chosen;  // positions in CSR order
  for (std::size_t r : rank) {
    const vertex_t a = find(e.row[entry[r]]), b = find(e.col[entry[r]]);
    if (a == b) continue;
    up[std::max(a, b)] = std::min(a, b);
    chosen.push_back(r);
  }
  std::sort(chosen.begin(), chosen.end());
  SpanningForest f;
  for (std::size_t i : chosen) {
    f.row.push_back(e.row[entry[i]]);
    f.column.push_back(e.col[entry[i]]);
    f.value.push_back(weight(i));
  }
  f.components = e.n - chosen.size();
  return f;
}

template <class T>
std::vector<T> typed(const std::vector<double>& values) {
  std::vector<T> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = static_cast<T>(values[i]);
  return out;
}

// The device's forest of `e` laid out as `layout`, with T weights, against Kruskal's.
template <class T>
void check_forest(const Entries& e, SparseLayout layout) {
  auto& rt = test::runtime();
  const test::HostCsr stored = test::csr_of(e);
  HostMatrix h;
  h.layout = layout;
  h.n = e.n;
  Entries expected_entries = e;
  std::vector<T> values;
  if (layout == SparseLayout::coo) {
    h.rows = {e.row.data(), e.row.size(), false};
    h.indices = {e.col.data(), e.col.size(), false};
    values = typed<T>(e.value);
  } else {  // csr, or csc taken as it lies: the csc of stored's arrays is the transpose
    h.offsets = {stored.offset.data(), e.n + 1, true};
    h.indices = {stored.column.data(), stored.column.size(), false};
    values = typed<T>(stored.value);
    if (layout == SparseLayout::csc) std::swap(expected_entries.row, expected_entries.col);
  }
  h.values = values.data();
  h.value_type = value_type_of<T>();
  MatrixUpload options;
  options.values = true;
  options.transpose_ok = true;
  const DeviceMatrix m = upload_matrix(rt, h, options);
  const SpanningForest got = minimum_spanning_forest(rt, m);
  // Kruskal on the entries as the matrix means them (the transpose's for csc).
  const SpanningForest want = kruskal<T>(expected_entries);
  CHECK(got.components == want.components);
  if (layout == SparseLayout::csc) {
    // A^T's CSR order is not A's: compare as sets of entries.
    std::vector<std::tuple<vertex_t, vertex_t, double>> a, b;
    for (std::size_t i = 0; i < got.row.size(); ++i) a.emplace_back(got.row[i], got.column[i], got.value[i]);
    for (std::size_t i = 0; i < want.row.size(); ++i) b.emplace_back(want.row[i], want.column[i], want.value[i]);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    CHECK(a.size() == b.size());
    CHECK(std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
      return std::get<0>(x) == std::get<0>(y) && std::get<1>(x) == std::get<1>(y) &&
             same_weight(std::get<2>(x), std::get<2>(y));
    }));
    return;
  }
  CHECK(got.row == want.row);
  CHECK(got.column == want.column);
  REQUIRE(got.value.size() == want.value.size());
  for (std::size_t i = 0; i < got.value.size(); ++i) CHECK(same_weight(got.value[i], want.value[i]));
}

template <class T>
void check_every_layout(const Entries& e) {
  for (SparseLayout layout : {SparseLayout::csr, SparseLayout::coo, SparseLayout::csc})
    check_forest<T>(e, layout);
}

std::vector<std::pair<std::string, Entries>> weighted_graphs() {
  std::vector<std::pair<std::string, Entries>> g;
  g.push_back({"empty", Entries{}});
  Entries one;
  one.n = 1;
  one.add(0, 0, 3);
  g.push_back({"one vertex with a loop", one});
  Entries star, path, ties;
  star.n = path.n = 4099;
  ties.n = 1009;
  std::mt19937_64 rng(7);
  for (vertex_t v = 1; v < 4099; ++v) {
    star.add(0, v, static_cast<double>(rng() % 1000) - 500);
    star.add(v, 0, static_cast<double>(rng() % 1000) - 500);  // the other way, another weight
    path.add(v - 1, v, 1.5);  // all equal: the order's ids decide
  }
  for (vertex_t v = 0; v < 1009; ++v)
    for (int k = 0; k < 4; ++k) ties.add(v, static_cast<vertex_t>(rng() % 1009), static_cast<double>(rng() % 3));
  g.push_back({"star, both ways", star});
  g.push_back({"path of equal weights", path});
  g.push_back({"random, three weights", ties});
  Entries sparse = test::random_entries(20011, 12000, 8);  // a forest of many trees
  for (auto& w : sparse.value) w = std::fmod(w * 7919, 104729) - 50000;
  g.push_back({"random sparse, many components", sparse});
  Entries dense = test::random_entries(997, 12000, 9);
  for (auto& w : dense.value) w = static_cast<double>(rng() % 100000) / 7;
  g.push_back({"random dense", dense});
  Entries special;
  special.n = 6;
  const double inf = std::numeric_limits<double>::infinity();
  special.add(0, 1, 0.0);
  special.add(1, 2, -0.0);
  special.add(2, 3, inf);
  special.add(3, 4, std::nan(""));
  special.add(4, 0, -inf);
  special.add(1, 4, std::nan(""));
  special.add(2, 2, -7);
  special.add(0, 1, 5);  // a repeat, heavier
  g.push_back({"zeros, infinities, NaN, loop, repeat", special});
  return g;
}

}  // namespace

TEST_CASE("minimum spanning forests equal Kruskal's in the same order, for every weight type") {
  for (const auto& [name, e] : weighted_graphs()) {
    const auto name_shown = name;  // CAPTURE copies no structured binding (C++17)
    CAPTURE(name_shown);
    check_every_layout<double>(e);
    const bool finite = std::all_of(e.value.begin(), e.value.end(), [](double w) { return std::isfinite(w); });
    if (finite) {
      check_every_layout<std::int32_t>(e);
      check_every_layout<std::int64_t>(e);
    }
    check_forest<float>(e, SparseLayout::csr);
  }
}

TEST_CASE("int64 weights are compared exactly, beyond float64's 53 bits") {
  Entries e;
  e.n = 3;
  const double big = 9007199254740992.0;  // 2^53: the int64 weights below differ by 1
  e.add(0, 1, big);
  e.add(1, 2, big);
  e.add(0, 2, big);
  auto& rt = test::runtime();
  const test::HostCsr stored = test::csr_of(e);
  std::vector<std::int64_t> w = {std::int64_t(1) << 53, (std::int64_t(1) << 53) + 1,
                                 (std::int64_t(1) << 53) - 1};  // (0,1), (0,2), (1,2) in CSR order
  HostMatrix h = test::host_csr(stored, e.n);
  h.values = w.data();
  h.value_type = ValueType::int64;
  MatrixUpload options;
  options.values = true;
  const SpanningForest f = minimum_spanning_forest(rt, upload_matrix(rt, h, options));
  CHECK(f.row == std::vector<vertex_t>{0, 1});
  CHECK(f.column == std::vector<vertex_t>{1, 2});
}

TEST_CASE("breadth-first trees carry SciPy's weights: sums of repeats, the lighter nonzero way") {
  auto& rt = test::runtime();
  Entries e = test::random_entries(1009, 5000, 10);
  for (std::size_t i = 0; i < e.value.size(); ++i) e.value[i] = static_cast<double>(i % 7);  // zeros too
  const test::HostCsr stored = test::csr_of(e);
  MatrixUpload options;
  options.values = true;
  const DeviceMatrix m = upload_matrix(rt, test::host_csr(stored, e.n), options);
  // Host sums of the stored values per (row, column).
  std::vector<std::map<vertex_t, double>> sum(e.n);
  for (std::size_t i = 0; i < e.row.size(); ++i) sum[e.row[i]][e.col[i]] += e.value[i];
  auto at = [&](vertex_t r, vertex_t c) {
    auto it = sum[r].find(c);
    return it == sum[r].end() ? 0.0 : it->second;
  };
  for (bool directed : {true, false}) {
    CAPTURE(directed);
    DeviceGraph graph = pattern_graph(rt, m);
    if (!directed) graph = undirected_graph(rt, graph);
    DeviceBfs search = bfs(rt, graph, {0});
    const std::vector<vertex_t> parent = search.parent.download(rt);
    const WeightedCsr tree = bfs_tree_matrix(rt, m, search.parent, directed);
    std::size_t entries = 0;
    for (std::size_t r = 0; r < e.n; ++r)
      for (auto k = tree.row_offset[r]; k < tree.row_offset[r + 1]; ++k, ++entries) {
        const vertex_t v = tree.column[k];
        CHECK(parent[v] == static_cast<vertex_t>(r));
        if (k > tree.row_offset[r]) CHECK(tree.column[k - 1] < v);
        const double inf = std::numeric_limits<double>::infinity();
        const double a = at(static_cast<vertex_t>(r), v), b = at(v, static_cast<vertex_t>(r));
        CHECK(tree.value[k] == (directed ? a : std::min(a == 0 ? inf : a, b == 0 ? inf : b)));
      }
    CHECK(entries == static_cast<std::size_t>(std::count_if(parent.begin(), parent.end(),
                                                            [](vertex_t p) { return p >= 0; })));
  }
}
