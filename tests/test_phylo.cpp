// The phylo module's queries against CPU references, on awkward sizes and degenerate shapes:
// traversal orders, lowest common ancestors, exact path lengths and cophenetic matrices.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>
#include <random>

#include "fixture.hpp"
#include "treefix/phylo/lca.hpp"
#include "treefix/phylo/path_lengths.hpp"
#include "treefix/phylo/surgery.hpp"
#include "treefix/phylo/traversal.hpp"
#include "treefix/phylo/unifrac.hpp"
#include "treefix/treefix/generate.hpp"

using namespace treefix;

namespace {

struct Shape {
  std::string name;
  ParentArray parent;
};

std::vector<Shape> shapes() {
  return {{"empty", {}},
          {"one", {-1}},
          {"two", {1, -1}},
          {"isolated", ParentArray(13, -1)},
          {"path", generate::path(1500)},
          {"star", generate::star(997)},
          {"caterpillar", generate::caterpillar(401, 200)},
          {"binary", generate::shuffle_labels(generate::random_binary(1001, 3), 4)},
          {"random", generate::shuffle_labels(generate::random_recursive(2003, 5), 6)},
          {"forest", generate::random_forest(1009, 17, 7)}};
}

std::vector<vertex_t> depths_of(const ParentArray& parent) { return depths(parent); }

vertex_t naive_lca(const ParentArray& parent, const std::vector<vertex_t>& depth, vertex_t u,
                   vertex_t v) {
  while (depth[u] > depth[v]) u = parent[u];
  while (depth[v] > depth[u]) v = parent[v];
  while (u != v) {
    u = parent[u];
    v = parent[v];
    if (u < 0 || v < 0) return -1;
  }
  return u;
}

// The path length between u and v summed in long double with Neumaier's compensation: far more
// accurate than the double result it checks.
long double naive_distance(const ParentArray& parent, const std::vector<vertex_t>& depth,
                           const std::vector<double>& w, vertex_t u, vertex_t v) {
  const vertex_t l = naive_lca(parent, depth, u, v);
  if (l < 0) return INFINITY;
  long double sum = 0, c = 0;
  auto add = [&](long double x) {
    const long double t = sum + x;
    c += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  };
  for (vertex_t x : {u, v})
    for (; x != l; x = parent[x]) add(w[x]);
  return sum + c;
}

template <class T>
std::vector<T> download(Runtime& rt, const DeviceArray<T>& a) {
  return a.download(rt);
}

}  // namespace

TEST_CASE("phylo: postorder, levelorder, tips and pre-order intervals match the host forms") {
  Runtime& rt = test::runtime();
  for (const Shape& shape : shapes()) {
    CAPTURE(shape.name);
    const ParentArray& parent = shape.parent;
    const std::size_t n = parent.size();
    DeviceTree tree(rt, parent);
    const EulerTour host = build_euler_tour(parent);
    // post-order: children before parents, and the order of the tour's closes
    std::vector<std::pair<std::int64_t, vertex_t>> closes;
    for (std::size_t v = 0; v < n; ++v) closes.push_back({host.close_pos[v], vertex_t(v)});
    std::sort(closes.begin(), closes.end());
    std::vector<vertex_t> expected_post;
    for (auto& c : closes) expected_post.push_back(c.second);
    CHECK(download(rt, postorder(rt, tree)) == expected_post);
    // level order: a breadth-first search from the roots in increasing id, children in order
    const ChildLists lists = child_lists(parent);
    std::vector<vertex_t> bfs(lists.roots.begin(), lists.roots.end());
    for (std::size_t i = 0; i < bfs.size(); ++i)
      for (auto c = lists.child_offset[bfs[i]]; c < lists.child_offset[bfs[i] + 1]; ++c)
        bfs.push_back(lists.child[c]);
    CHECK(download(rt, levelorder(rt, tree)) == bfs);
    std::vector<vertex_t> expected_tips;
    for (std::size_t v = 0; v < n; ++v)
      if (lists.child_offset[v] == lists.child_offset[v + 1]) expected_tips.push_back(vertex_t(v));
    CHECK(download(rt, tips(rt, tree)) == expected_tips);
    // intervals: pre_order[begin[v] .. end[v]) is v's subtree
    const PreorderIntervals intervals = preorder_intervals(rt, tree);
    const auto begin = download(rt, intervals.begin), end = download(rt, intervals.end);
    std::vector<std::pair<std::int64_t, vertex_t>> opens;
    for (std::size_t v = 0; v < n; ++v) opens.push_back({host.open_pos[v], vertex_t(v)});
    std::sort(opens.begin(), opens.end());
    std::vector<vertex_t> rank(n);
    for (std::size_t i = 0; i < n; ++i) rank[opens[i].second] = vertex_t(i);
    std::size_t wrong = 0;
    for (std::size_t v = 0; v < n; ++v)
      wrong += begin[v] != rank[v] ||
               end[v] - begin[v] != (host.close_pos[v] - host.open_pos[v] + 1) / 2;
    CHECK(wrong == 0);
  }
}

TEST_CASE("phylo: lca of every pair on small trees and of random pairs on large ones") {
  Runtime& rt = test::runtime();
  std::mt19937_64 rng(11);
  for (const Shape& shape : shapes()) {
    CAPTURE(shape.name);
    const ParentArray& parent = shape.parent;
    const std::size_t n = parent.size();
    DeviceTree tree(rt, parent);
    LcaIndex index(rt, tree);
    const auto depth = depths_of(parent);
    std::vector<vertex_t> u, v;
    if (n <= 60) {
      for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = 0; b < n; ++b) {
          u.push_back(vertex_t(a));
          v.push_back(vertex_t(b));
        }
    } else {
      std::uniform_int_distribution<vertex_t> pick(0, vertex_t(n) - 1);
      for (int i = 0; i < 20000; ++i) {
        u.push_back(pick(rng));
        v.push_back(i % 7 == 0 ? parent[u.back()] >= 0 ? parent[u.back()] : u.back() : pick(rng));
      }
    }
    std::vector<vertex_t> got(u.size()), chunked(u.size());
    index.lca(rt, u.data(), v.data(), u.size(), got.data());
    index.lca(rt, u.data(), v.data(), u.size(), chunked.data(), 997);  // several chunks
    CHECK(chunked == got);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < u.size(); ++i)
      wrong += got[i] != naive_lca(parent, depth, u[i], v[i]);
    CHECK(wrong == 0);
    if (n > 0) {
      // the mrca of a set: the lca folded over it
      std::vector<vertex_t> set(u.begin(), u.begin() + std::min<std::size_t>(u.size(), 5));
      vertex_t folded = set[0];
      for (vertex_t x : set) folded = folded < 0 ? -1 : naive_lca(parent, depth, folded, x);
      CHECK(index.mrca(rt, set) == folded);
      CHECK(index.mrca(rt, {set[0]}) == set[0]);
    }
  }
}

TEST_CASE("phylo: lca refuses vertices out of range, naming the pair") {
  Runtime& rt = test::runtime();
  DeviceTree tree(rt, generate::path(20));
  LcaIndex index(rt, tree);
  std::vector<vertex_t> u = {0, 1, 2, 3}, v = {0, 99, 2, -1}, out(4);
  CHECK_THROWS_WITH_AS(index.lca(rt, u.data(), v.data(), 4, out.data()),
                       "pair 1: vertex 99 is not a vertex of the tree (20 vertices)", InputError);
  u[1] = v[1] = 1;  // the bad pair in the second chunk is named by its place in the whole array
  CHECK_THROWS_WITH_AS(index.lca(rt, u.data(), v.data(), 4, out.data(), 2),
                       "pair 3: vertex -1 is not a vertex of the tree (20 vertices)", InputError);
  CHECK_THROWS_AS(index.mrca(rt, {}), InputError);
  CHECK_THROWS_AS(index.mrca(rt, {3, 20}), InputError);
}

TEST_CASE("phylo: path lengths are the exact sums rounded once, the same bits every run") {
  Runtime& rt = test::runtime();
  const double u = std::ldexp(1.0, -53);
  std::mt19937_64 rng(12);
  for (const Shape& shape : shapes()) {
    CAPTURE(shape.name);
    const ParentArray& parent = shape.parent;
    const std::size_t n = parent.size();
    DeviceTree tree(rt, parent);
    LcaIndex index(rt, tree);
    const auto depth = depths_of(parent);
    // lengths over many decades, so that the sums along a path are not exact in double
    std::vector<double> w(n);
    std::uniform_real_distribution<double> exponent(-12, 3);
    for (auto& x : w) x = std::pow(10.0, exponent(rng));
    auto weights = DeviceArray<double>::upload(rt, w);
    PathLengths lengths(rt, tree, weights);
    std::vector<vertex_t> a, b;
    std::uniform_int_distribution<vertex_t> pick(0, std::max<vertex_t>(0, vertex_t(n) - 1));
    for (int i = 0; i < (n ? 3000 : 0); ++i) {
      a.push_back(pick(rng));
      b.push_back(i % 5 == 0 ? a.back() : pick(rng));
    }
    std::vector<double> d(a.size()), again(a.size());
    lengths.distances(rt, index, a.data(), b.data(), a.size(), d.data());
    lengths.distances(rt, index, a.data(), b.data(), a.size(), again.data(), 1001);  // chunks
    CHECK(std::memcmp(d.data(), again.data(), d.size() * sizeof(double)) == 0);
    std::size_t outside = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const long double exact = naive_distance(parent, depth, w, a[i], b[i]);
      if (std::isinf(exact)) {
        outside += !std::isinf(d[i]);
        continue;
      }
      outside += std::fabs(static_cast<long double>(d[i]) - exact) > u * std::fabs(exact) * 1.0001L;
    }
    CHECK(outside == 0);
    // root distances: the rootfix of the weights, exactly rounded
    DeviceArray<double> root(rt, n);
    lengths.root_distances(rt, root.buffer());
    const auto from_root = root.download(rt);
    std::size_t off = 0;
    for (std::size_t v = 0; v < n; ++v) {
      long double sum = 0;
      for (vertex_t x = vertex_t(v); x >= 0; x = parent[x]) sum += w[x];
      off += std::fabs(from_root[v] - sum) > 2 * u * std::fabs(sum);
    }
    CHECK(off == 0);
    // the cophenetic matrix of some vertices: the distances, symmetric, zero diagonal
    std::vector<vertex_t> some(a.begin(), a.begin() + std::min<std::size_t>(a.size(), 37));
    std::vector<double> matrix(some.size() * some.size());
    lengths.cophenetic(rt, index, some, matrix.data());
    const std::size_t k = some.size();
    std::vector<vertex_t> rows, columns;
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j) {
        rows.push_back(some[i]);
        columns.push_back(some[j]);
      }
    std::vector<double> pairwise(rows.size());
    lengths.distances(rt, index, rows.data(), columns.data(), rows.size(), pairwise.data());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j) {
        const double m = matrix[i * k + j];
        bad += std::memcmp(&m, &matrix[j * k + i], sizeof m) != 0;
        bad += i == j ? m != 0.0 : std::memcmp(&m, &pairwise[i * k + j], sizeof m) != 0;
      }
    CHECK(bad == 0);
  }
}

TEST_CASE("phylo: path lengths refuse non-finite branch lengths") {
  Runtime& rt = test::runtime();
  DeviceTree tree(rt, generate::star(5));
  auto weights = DeviceArray<double>::upload(rt, {0.0, 1.0, NAN, 2.0, 3.0});
  CHECK_THROWS_WITH_AS(PathLengths(rt, tree, weights), doctest::Contains("vertex 2 is not finite"),
                       InputError);
}

// --- surgery ---------------------------------------------------------------------------------

namespace {

// Whether vertex ids are a pre-order: every vertex after its parent, each subtree a run of ids.
bool numbered_in_preorder(const ParentArray& parent) {
  const std::size_t n = parent.size();
  std::vector<std::int64_t> size(n, 1);
  for (std::size_t i = n; i-- > 0;) {
    if (parent[i] >= vertex_t(i)) return false;
    if (parent[i] >= 0) size[parent[i]] += size[i];
  }
  for (std::size_t i = 0; i < n; ++i) {
    const vertex_t p = parent[i];
    if (p >= 0 && std::int64_t(i) + size[i] > std::int64_t(p) + size[p]) return false;
    if (p < 0 && i > 0 && parent[i - 1] >= 0) {  // a root starts after the previous tree ends
      vertex_t r = vertex_t(i - 1);
      while (parent[r] >= 0) r = parent[r];
      if (std::int64_t(r) + size[r] != std::int64_t(i)) return false;
    }
  }
  return true;
}

std::vector<vertex_t> host_pre_rank(const ParentArray& parent) {
  const EulerTour tour = build_euler_tour(parent);
  std::vector<std::pair<std::int64_t, vertex_t>> opens;
  for (std::size_t v = 0; v < parent.size(); ++v) opens.push_back({tour.open_pos[v], vertex_t(v)});
  std::sort(opens.begin(), opens.end());
  std::vector<vertex_t> rank(parent.size());
  for (std::size_t i = 0; i < opens.size(); ++i) rank[opens[i].second] = vertex_t(i);
  return rank;
}

// Each new vertex's parent, told as old vertices: origin[parent[i]] (or -1).
std::vector<vertex_t> parents_as_old(const HostEditedTree& t) {
  std::vector<vertex_t> p(t.parent.size());
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = t.parent[i] < 0 ? -1 : t.origin[t.parent[i]];
  return p;
}

}  // namespace

TEST_CASE("phylo: prune keeps the induced subtree with merged branches and root distances") {
  Runtime& rt = test::runtime();
  std::mt19937_64 rng(21);
  for (const Shape& shape : shapes()) {
    CAPTURE(shape.name);
    const ParentArray& parent = shape.parent;
    const std::size_t n = parent.size();
    if (n == 0) continue;
    DeviceTree tree(rt, parent);
    LcaIndex index(rt, tree);
    std::vector<double> w(n);
    std::uniform_real_distribution<double> len(0.001, 2.0);
    for (auto& x : w) x = len(rng);
    auto weights = DeviceArray<double>::upload(rt, w);
    PathLengths lengths(rt, tree, weights);
    const ChildLists lists = child_lists(parent);
    std::vector<vertex_t> tip_list;
    for (std::size_t v = 0; v < n; ++v)
      if (lists.child_offset[v] == lists.child_offset[v + 1]) tip_list.push_back(vertex_t(v));
    for (int trial = 0; trial < 3; ++trial) {
      std::vector<vertex_t> keep;
      for (vertex_t t : tip_list)
        if (std::uniform_int_distribution<int>(0, 2)(rng) == 0 || trial == 2) keep.push_back(t);
      if (keep.empty()) keep.push_back(tip_list[0]);
      if (trial == 1) keep.push_back(keep[0]);  // repeats are fine
      const HostEditedTree pruned = prune(rt, tree, index, lengths, keep).download(rt);
      // reference: kept vertices and the branch points of their union of root paths
      std::vector<int> below(n, 0), kept(n, 0);
      for (vertex_t v : keep) kept[v] = 1;
      const auto order = top_down_order(parent);
      std::vector<int> count(n, 0), branches(n, 0);
      for (std::size_t i = order.size(); i-- > 0;) {
        const vertex_t v = order[i];
        count[v] += kept[v];
        if (parent[v] >= 0 && count[v] > 0) {
          count[parent[v]] += count[v];
          ++branches[parent[v]];
        }
      }
      const auto rank = host_pre_rank(parent);
      std::vector<vertex_t> expected;
      for (std::size_t v = 0; v < n; ++v)
        if (kept[v] || branches[v] >= 2) expected.push_back(vertex_t(v));
      std::sort(expected.begin(), expected.end(),
                [&](vertex_t a, vertex_t b) { return rank[a] < rank[b]; });
      CHECK(pruned.origin == expected);
      CHECK(numbered_in_preorder(pruned.parent));
      std::vector<char> in_set(n, 0);
      for (vertex_t v : expected) in_set[v] = 1;
      std::size_t wrong = 0;
      const auto as_old = parents_as_old(pruned);
      for (std::size_t i = 0; i < expected.size(); ++i) {
        vertex_t up = parent[expected[i]];
        long double sum = w[expected[i]];
        while (up >= 0 && !in_set[up]) {
          sum += w[up];
          up = parent[up];
        }
        if (up < 0) sum = 0;  // a new root: its distance from the old root
        if (up < 0)
          for (vertex_t x = expected[i]; x >= 0; x = parent[x]) sum += w[x];
        wrong += as_old[i] != up;
        wrong += std::fabs(pruned.lengths[i] - sum) > 1e-15L * std::fabs(sum);
      }
      CHECK(wrong == 0);
    }
  }
  DeviceTree tree(rt, generate::star(4));
  LcaIndex index(rt, tree);
  PathLengths lengths(rt, tree, DeviceArray<double>::upload(rt, {0, 1, 1, 1}));
  CHECK_THROWS_AS(prune(rt, tree, index, lengths, {}), InputError);
  CHECK_THROWS_AS(prune(rt, tree, index, lengths, {1, 4}), InputError);
}

TEST_CASE("phylo: reroot at a vertex and on an edge turns the root path over") {
  Runtime& rt = test::runtime();
  std::mt19937_64 rng(22);
  for (const Shape& shape : shapes()) {
    CAPTURE(shape.name);
    const ParentArray& parent = shape.parent;
    const std::size_t n = parent.size();
    if (n == 0) continue;
    DeviceTree tree(rt, parent);
    std::vector<double> w(n);
    std::uniform_real_distribution<double> len(0.001, 2.0);
    for (auto& x : w) x = len(rng);
    auto weights = DeviceArray<double>::upload(rt, w);
    const ChildLists lists = child_lists(parent);
    for (int trial = 0; trial < 6; ++trial) {
      const vertex_t x = std::uniform_int_distribution<vertex_t>(0, vertex_t(n) - 1)(rng);
      const bool on_edge = trial % 2 == 1 && parent[x] >= 0;
      for (bool suppress : {true, false}) {
        CAPTURE(x);
        CAPTURE(on_edge);
        CAPTURE(suppress);
        RerootOptions options;
        options.on_edge = on_edge;
        options.suppress_unifurcations = suppress;
        const HostEditedTree t = reroot(rt, tree, weights, x, options).download(rt);
        // reference, in old ids (n: the new root on the edge)
        std::vector<vertex_t> expect_parent(parent.begin(), parent.end());
        std::vector<double> expect_length = w;
        expect_parent.push_back(-1);
        expect_length.push_back(0);
        const vertex_t y = on_edge ? parent[x] : x;
        vertex_t root = y;
        while (parent[root] >= 0) root = parent[root];
        for (vertex_t c = y; parent[c] >= 0; c = parent[c]) {
          expect_parent[parent[c]] = c;
          expect_length[parent[c]] = w[c];
        }
        if (on_edge) {
          expect_parent[x] = expect_parent[y] = vertex_t(n);
          expect_length[x] = w[x] / 2;
          expect_length[y] = w[x] - w[x] / 2;
          expect_length[n] = w[root];
        } else {
          expect_parent[x] = -1;
          expect_length[x] = w[root];
        }
        vertex_t removed = -1;
        const auto children = lists.child_offset[root + 1] - lists.child_offset[root];
        if (suppress && (on_edge || root != x) && children == 2) {
          for (auto c = lists.child_offset[root]; c < lists.child_offset[root + 1]; ++c) {
            const vertex_t q = lists.child[c];
            if (expect_parent[q] == root) {
              expect_parent[q] = expect_parent[root];
              expect_length[q] = w[q] + expect_length[root];
            }
          }
          removed = root;
        }
        const std::size_t m = n + on_edge - (removed >= 0);
        REQUIRE(t.parent.size() == m);
        CHECK(numbered_in_preorder(t.parent));
        const auto as_old = parents_as_old(t);
        std::size_t wrong = 0;
        std::vector<int> seen(n + 1, 0);
        for (std::size_t i = 0; i < m; ++i) {
          const vertex_t old = t.origin[i] < 0 ? vertex_t(n) : t.origin[i];
          ++seen[old];
          const vertex_t want = expect_parent[old];
          wrong += (as_old[i] < 0 ? (t.parent[i] < 0 ? -1 : vertex_t(n)) : as_old[i]) !=
                   (want == vertex_t(n) ? vertex_t(n) : want);
          wrong += t.lengths[i] != expect_length[old];
        }
        CHECK(wrong == 0);
        CHECK(std::count(seen.begin(), seen.end(), 1) == std::ptrdiff_t(m));
        if (removed >= 0) CHECK(seen[removed] == 0);
      }
    }
  }
  DeviceTree tree(rt, generate::path(3));
  auto weights = DeviceArray<double>::upload(rt, {0, 1, 1});
  RerootOptions edge;
  edge.on_edge = true;
  CHECK_THROWS_WITH_AS(reroot(rt, tree, weights, 0, edge), doctest::Contains("is a root"),
                       InputError);
  edge.distance = 1.5;
  CHECK_THROWS_WITH_AS(reroot(rt, tree, weights, 1, edge), doctest::Contains("not on the branch"),
                       InputError);
  CHECK_THROWS_AS(reroot(rt, tree, weights, 3), InputError);
}

TEST_CASE("phylo: ladderize orders children by subtree size, stably") {
  Runtime& rt = test::runtime();
  for (const Shape& shape : shapes()) {
    CAPTURE(shape.name);
    const ParentArray& parent = shape.parent;
    const std::size_t n = parent.size();
    DeviceTree tree(rt, parent);
    std::vector<double> w(n);
    std::iota(w.begin(), w.end(), 0.5);
    auto weights = DeviceArray<double>::upload(rt, w);
    for (bool ascending : {true, false}) {
      const HostEditedTree t = ladderize(rt, tree, weights, ascending).download(rt);
      // reference: child lists stably sorted by subtree size, then a depth-first numbering
      ChildLists lists = child_lists(parent);
      std::vector<std::int64_t> size(n, 1);
      const auto order = top_down_order(parent);
      for (std::size_t i = order.size(); i-- > 0;)
        if (parent[order[i]] >= 0) size[parent[order[i]]] += size[order[i]];
      auto sorted = [&](auto first, auto last) {
        std::stable_sort(first, last, [&](vertex_t a, vertex_t b) {
          return ascending ? size[a] < size[b] : size[a] > size[b];
        });
      };
      for (std::size_t v = 0; v < n; ++v)
        sorted(lists.child.begin() + lists.child_offset[v],
               lists.child.begin() + lists.child_offset[v + 1]);
      std::vector<vertex_t> roots = lists.roots;
      sorted(roots.begin(), roots.end());
      std::vector<vertex_t> expect_origin;
      std::vector<vertex_t> stack(roots.rbegin(), roots.rend());
      while (!stack.empty()) {
        const vertex_t v = stack.back();
        stack.pop_back();
        expect_origin.push_back(v);
        for (auto c = lists.child_offset[v + 1]; c-- > lists.child_offset[v];)
          stack.push_back(lists.child[c]);
      }
      CHECK(t.origin == expect_origin);
      CHECK(numbered_in_preorder(t.parent));
      std::size_t wrong = 0;
      const auto as_old = parents_as_old(t);
      for (std::size_t i = 0; i < n; ++i)
        wrong += as_old[i] != parent[t.origin[i]] || t.lengths[i] != w[t.origin[i]];
      CHECK(wrong == 0);
    }
  }
}

// --- UniFrac ---------------------------------------------------------------------------------
namespace {

// The definitions of unifrac.hpp, directly: subtree counts by walking up from every column.
std::vector<long double> unifrac_reference(const ParentArray& parent, const std::vector<double>& w,
                                           const std::vector<std::int64_t>& counts,
                                           std::size_t samples,
                                           const std::vector<vertex_t>& columns, bool weighted,
                                           bool normalized) {
  const std::size_t n = parent.size(), width = columns.size();
  std::vector<std::vector<std::int64_t>> below(samples, std::vector<std::int64_t>(n, 0));
  std::vector<std::int64_t> total(samples, 0);
  for (std::size_t s = 0; s < samples; ++s)
    for (std::size_t c = 0; c < width; ++c) {
      total[s] += counts[s * width + c];
      for (vertex_t v = columns[c]; v >= 0; v = parent[v]) below[s][v] += counts[s * width + c];
    }
  auto f = [&](std::size_t s, std::size_t b) -> long double {
    return total[s] ? static_cast<long double>(below[s][b]) / total[s] : below[s][b];
  };
  std::vector<long double> d;
  for (std::size_t i = 0; i < samples; ++i)
    for (std::size_t j = i + 1; j < samples; ++j) {
      long double num = 0, den = 0, di = 0, dj = 0;
      for (std::size_t b = 0; b < n; ++b) {
        if (weighted) {
          num += w[b] * std::fabs(f(i, b) - f(j, b));
          di += w[b] * f(i, b);
          dj += w[b] * f(j, b);
        } else {
          const bool x = below[i][b] > 0, y = below[j][b] > 0;
          num += (x != y) * w[b];
          den += (x || y) * w[b];
        }
      }
      if (!weighted)
        d.push_back(den == 0 ? 0 : num / den);
      else if (normalized)
        d.push_back(total[i] == 0 && total[j] == 0 ? 0 : num / (di + dj));
      else
        d.push_back(num);
    }
  return d;
}

}  // namespace

TEST_CASE("phylo: unifrac matches its definitions on every shape, the same bits every run") {
  Runtime& rt = test::runtime();
  std::mt19937_64 rng(31);
  for (const Shape& shape : shapes()) {
    CAPTURE(shape.name);
    const ParentArray& parent = shape.parent;
    const std::size_t n = parent.size();
    if (n == 0) continue;
    DeviceTree tree(rt, parent);
    std::vector<double> w(n);
    std::uniform_real_distribution<double> len(0.0, 1.5);
    for (auto& x : w) x = len(rng) < 0.1 ? 0.0 : len(rng);  // some zero-length branches
    auto weights = DeviceArray<double>::upload(rt, w);
    const ChildLists lists = child_lists(parent);
    std::vector<vertex_t> columns;
    for (std::size_t v = 0; v < n; ++v)
      if (lists.child_offset[v] == lists.child_offset[v + 1]) columns.push_back(vertex_t(v));
    std::shuffle(columns.begin(), columns.end(), rng);
    columns.resize(std::min<std::size_t>(columns.size(), 300));
    const std::size_t samples = 37;  // tiles of 16 with a partial one
    std::vector<std::int64_t> counts(samples * columns.size());
    for (std::size_t k = 0; k < counts.size(); ++k)
      counts[k] = std::uniform_int_distribution<int>(0, 3)(rng) == 0
                      ? std::uniform_int_distribution<std::int64_t>(1, 50)(rng)
                      : 0;
    std::fill(counts.begin() + 5 * columns.size(), counts.begin() + 6 * columns.size(), 0);
    for (auto [weighted, normalized] : {std::pair{false, false}, {true, false}, {true, true}}) {
      const auto weighted_shown = weighted;  // CAPTURE copies no structured binding (C++17)
      CAPTURE(weighted_shown);
      const auto normalized_shown = normalized;  // CAPTURE copies no structured binding (C++17)
      CAPTURE(normalized_shown);
      UnifracOptions options;
      options.weighted = weighted;
      options.normalized = normalized;
      std::vector<double> d(samples * (samples - 1) / 2), again(d.size());
      unifrac(rt, tree, weights, counts.data(), samples, columns, options, d.data());
      unifrac(rt, tree, weights, counts.data(), samples, columns, options, again.data());
      CHECK(std::memcmp(d.data(), again.data(), d.size() * sizeof(double)) == 0);
      const auto expected =
          unifrac_reference(parent, w, counts, samples, columns, weighted, normalized);
      std::size_t off = 0;
      for (std::size_t k = 0; k < d.size(); ++k)
        off += std::fabs(d[k] - expected[k]) > 1e-14L * std::max<long double>(1, expected[k]);
      CHECK(off == 0);
    }
  }
}

TEST_CASE("phylo: unifrac refuses bad columns and negative counts") {
  Runtime& rt = test::runtime();
  DeviceTree tree(rt, generate::star(4));
  auto weights = DeviceArray<double>::upload(rt, {0, 1, 1, 1});
  std::vector<std::int64_t> counts = {1, 2, 3, 4, -5, 6};
  std::vector<double> d(3);
  UnifracOptions options;
  CHECK_THROWS_WITH_AS(unifrac(rt, tree, weights, counts.data(), 2, {1, 2, 3}, options, d.data()),
                       "unifrac: sample 1 has a negative count (-5) in column 1", InputError);
  CHECK_THROWS_WITH_AS(unifrac(rt, tree, weights, counts.data(), 2, {1, 1, 3}, options, d.data()),
                       "unifrac: vertex 1 is columns 0 and 1", InputError);
  CHECK_THROWS_AS(unifrac(rt, tree, weights, counts.data(), 2, {1, 2, 7}, options, d.data()),
                  InputError);
  options.normalized = true;
  CHECK_THROWS_AS(unifrac(rt, tree, weights, counts.data(), 2, {1, 2, 3}, options, d.data()),
                  InputError);
}
