#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>

#include "fixture.hpp"
#include "graph_families.hpp"
#include "treefix/graph/bfs.hpp"
#include "treefix/graph/connectivity.hpp"
#include "treefix/graph/rooting.hpp"
#include "treefix/graph/spanning_forest.hpp"
#include "treefix/treefix/euler_tour.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/treefix.hpp"

using namespace treefix;

namespace {

// The edges of a parent array, in shuffled order and random orientation (an unrooted forest).
EdgeList unrooted(const ParentArray& parent, std::uint64_t seed) {
  EdgeList list;
  list.vertices = parent.size();
  std::vector<std::size_t> order(parent.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  for (std::size_t v : order) {
    if (parent[v] < 0) continue;
    bool flip = rng() & 1;
    list.source.push_back(flip ? parent[v] : static_cast<vertex_t>(v));
    list.target.push_back(flip ? static_cast<vertex_t>(v) : parent[v]);
  }
  return list;
}

// Every parent edge is a graph edge, no cycles, one root per component, and the roots are the
// components' smallest vertices except `root`, which must be one.
void check_rooted_spanning_forest(const Csr& g, const ParentArray& parent, vertex_t root = -1) {
  REQUIRE(parent.size() == g.vertices());
  CHECK_NOTHROW(validate_parent_array(parent));
  auto label = test::min_labels(g);
  std::size_t bad_edges = 0;
  for (std::size_t v = 0; v < parent.size(); ++v) {
    if (parent[v] < 0) continue;
    auto b = g.column.begin() + g.row_offset[v], e = g.column.begin() + g.row_offset[v + 1];
    if (std::find(b, e, parent[v]) == e) ++bad_edges;
  }
  CHECK(bad_edges == 0);
  std::vector<vertex_t> expected_root(parent.size(), -1);
  for (std::size_t v = 0; v < parent.size(); ++v) expected_root[label[v]] = label[v];
  if (root >= 0) expected_root[label[root]] = root;
  std::size_t wrong_roots = 0;
  for (std::size_t v = 0; v < parent.size(); ++v)
    wrong_roots += (parent[v] < 0) != (expected_root[label[v]] == static_cast<vertex_t>(v));
  CHECK(wrong_roots == 0);
}

// The unique parent array of a forest rooted at the given roots (host BFS).
ParentArray reference_rooting(const EdgeList& forest, const std::vector<vertex_t>& roots) {
  std::vector<std::pair<vertex_t, vertex_t>> pairs;
  for (std::size_t i = 0; i < forest.edges(); ++i)
    pairs.emplace_back(forest.source[i], forest.target[i]);
  Csr g = test::raw_csr(forest.vertices, pairs);
  auto label = test::min_labels(g);
  std::vector<vertex_t> root_of(forest.vertices);
  std::iota(root_of.begin(), root_of.end(), 0);
  for (vertex_t r : roots) root_of[label[r]] = r;
  ParentArray parent(forest.vertices, -1);
  std::vector<char> seen(forest.vertices, 0);
  std::vector<vertex_t> queue;
  for (std::size_t v = 0; v < forest.vertices; ++v)
    if (root_of[label[v]] == static_cast<vertex_t>(v)) {
      queue.push_back(v);
      seen[v] = 1;
    }
  for (std::size_t head = 0; head < queue.size(); ++head) {
    vertex_t u = queue[head];
    for (auto a = g.row_offset[u]; a < g.row_offset[u + 1]; ++a)
      if (!seen[g.column[a]]) {
        seen[g.column[a]] = 1;
        parent[g.column[a]] = u;
        queue.push_back(g.column[a]);
      }
  }
  return parent;
}

EdgeList small(std::size_t n, std::vector<std::pair<vertex_t, vertex_t>> edges) {
  EdgeList list;
  list.vertices = n;
  for (auto [u, v] : edges) {
    list.source.push_back(u);
    list.target.push_back(v);
  }
  return list;
}

template <class F>
std::pair<std::size_t, std::string> edge_error(F&& f) {
  try {
    f();
  } catch (const EdgeListError& e) {
    return {e.edge_index(), e.what()};
  }
  FAIL("expected an EdgeListError");
  return {};
}

}  // namespace

TEST_CASE("rooting: random forests of awkward sizes are rooted at their smallest vertices") {
  auto& rt = test::runtime();
  for (auto method : {ListRankMethod::ruling_set, ListRankMethod::wyllie}) {
    for (std::size_t n : test::awkward_sizes()) {
      CAPTURE(n);
      std::size_t trees = std::max<std::size_t>(1, n / 50);
      auto forest = unrooted(generate::random_forest(n, trees, n + 7), n);
      RootingOptions options;
      options.list_rank.method = method;
      CHECK(root_forest(rt, forest, options) == reference_rooting(forest, {}));
    }
  }
}

TEST_CASE("rooting: degenerate shapes with chosen roots (path, star, caterpillar, shuffled)") {
  auto& rt = test::runtime();
  std::vector<ParentArray> shapes = {generate::path(100003), generate::star(4099),
                                     generate::caterpillar(65537, 257),
                                     generate::shuffle_labels(generate::path(65537), 3),
                                     generate::shuffle_labels(generate::kary(100003, 3), 4)};
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    CAPTURE(s);
    auto forest = unrooted(shapes[s], s);
    vertex_t root = static_cast<vertex_t>(forest.vertices * 2 / 3);
    RootingOptions options;
    options.roots = {root};
    options.list_rank.stride = 3 + s;  // short sublists: many rulers
    CHECK(root_forest(rt, forest, options) == reference_rooting(forest, {root}));
  }
}

TEST_CASE("rooting: a path of 2^20 + 1 vertices in shuffled order, isolated vertices beside it") {
  auto& rt = test::runtime();
  auto forest = unrooted(generate::shuffle_labels(generate::path((1 << 20) + 1), 11), 5);
  forest.vertices += 3;  // three isolated vertices at the end
  auto parent = root_forest(rt, forest);
  CHECK(parent == reference_rooting(forest, {}));
  CHECK(parent[forest.vertices - 1] == -1);
}

TEST_CASE("rooting: device-resident edges in, device parent array out; several roots") {
  auto& rt = test::runtime();
  auto forest = unrooted(generate::random_forest(4099, 9, 1), 2);
  auto reference = reference_rooting(forest, {});
  // name a root in three different trees: the leaf-most vertex of three trees
  std::vector<vertex_t> roots;
  std::set<vertex_t> trees;
  std::vector<std::pair<vertex_t, vertex_t>> pairs;
  for (std::size_t i = 0; i < forest.edges(); ++i)
    pairs.emplace_back(forest.source[i], forest.target[i]);
  auto label = test::min_labels(test::raw_csr(forest.vertices, pairs));
  for (vertex_t v = 4098; v >= 0 && roots.size() < 3; --v)
    if (trees.insert(label[v]).second) roots.push_back(v);
  auto source = DeviceArray<vertex_t>::upload(rt, forest.source);
  auto target = DeviceArray<vertex_t>::upload(rt, forest.target);
  RootingOptions options;
  options.roots = roots;
  CHECK(root_forest(rt, forest.vertices, source, target, options).download(rt) ==
        reference_rooting(forest, roots));
}

TEST_CASE("rooting: empty forests and forests without edges") {
  auto& rt = test::runtime();
  CHECK(root_forest(rt, small(0, {})).empty());
  CHECK(root_forest(rt, small(5, {})) == ParentArray(5, -1));
  CHECK(root_forest(rt, small(2, {{1, 0}})) == ParentArray{-1, 0});
  RootingOptions options;
  options.roots = {1};
  CHECK(root_forest(rt, small(2, {{1, 0}}), options) == ParentArray{1, -1});
}

TEST_CASE("rooting: cycles, duplicates, self loops and out-of-range ids are rejected by edge") {
  auto& rt = test::runtime();
  auto [cycle_edge, cycle] = edge_error([&] {
    root_forest(rt, small(6, {{0, 1}, {1, 2}, {4, 5}, {2, 0}}));
  });
  CHECK((cycle_edge == 0 || cycle_edge == 1 || cycle_edge == 3));  // any edge of the cycle
  CHECK(cycle.find("closes a cycle") != std::string::npos);
  auto [dup_edge, dup] = edge_error([&] { root_forest(rt, small(4, {{0, 1}, {2, 3}, {1, 0}})); });
  CHECK(dup_edge == 2);
  CHECK(dup.find("repeats edge 0") != std::string::npos);
  auto [loop_edge, loop] = edge_error([&] { root_forest(rt, small(4, {{0, 1}, {2, 2}})); });
  CHECK(loop_edge == 1);
  CHECK(loop.find("self loop") != std::string::npos);
  auto [range_edge, range] = edge_error([&] { root_forest(rt, small(4, {{0, 1}, {2, 4}})); });
  CHECK(range_edge == 1);
  CHECK(range.find("outside 0..3") != std::string::npos);
  // a big cycle: a path closed into a ring
  auto ring = unrooted(generate::path(65537), 1);
  ring.source.push_back(0);
  ring.target.push_back(65536);
  auto [ring_edge, ring_message] = edge_error([&] { root_forest(rt, ring); });
  CHECK(ring_message.find("closes a cycle") != std::string::npos);
  CHECK(ring_edge < ring.edges());
}

TEST_CASE("rooting: bad roots are input errors") {
  auto& rt = test::runtime();
  RootingOptions options;
  options.roots = {7};
  CHECK_THROWS_AS(root_forest(rt, small(4, {{0, 1}}), options), InputError);
  options.roots = {0, 1};
  CHECK_THROWS_WITH_AS(root_forest(rt, small(4, {{0, 1}}), options), doctest::Contains("same tree"),
                       InputError);
}

TEST_CASE("rooting: connectivity labels are the smallest ids, hooking edges span each component") {
  auto& rt = test::runtime();
  std::mt19937_64 rng(5);
  for (std::size_t n : {1, 2, 31, 1000, 100003}) {
    CAPTURE(n);
    std::vector<std::pair<vertex_t, vertex_t>> pairs;
    for (std::size_t i = 0; i < n * 6 / 10; ++i)  // sparse: many components, some cycles
      pairs.emplace_back(rng() % n, rng() % n);
    Csr g = test::raw_csr(n, pairs);
    std::vector<vertex_t> source;
    for (std::size_t u = 0; u < n; ++u)
      for (auto a = g.row_offset[u]; a < g.row_offset[u + 1]; ++a) source.push_back(u);
    auto s = DeviceArray<vertex_t>::upload(rt, source);
    auto t = DeviceArray<vertex_t>::upload(rt, g.column);
    auto cc = connected_components(rt, n, s.buffer(), t.buffer(), source.size());
    auto expected = test::min_labels(g);
    CHECK(cc.label.download(rt) == expected);
    std::size_t components = 0;
    for (std::size_t v = 0; v < n; ++v) components += expected[v] == static_cast<vertex_t>(v);
    CHECK(cc.count == components);
    // the hooking edges form a forest over the same components
    EdgeList forest{n, cc.forest_source.download(rt), cc.forest_target.download(rt)};
    CHECK(forest.edges() == n - components);
    auto parent = root_forest(rt, forest);
    check_rooted_spanning_forest(g, parent);
  }
}

TEST_CASE("rooting: rooted spanning forests of every graph family, with and without R") {
  auto& rt = test::runtime();
  const auto graphs = test::graph_families();
  for (auto& [family, g] : graphs) {
    const std::string& name = family;  // C++17: a lambda (CAPTURE) cannot capture a binding
    CAPTURE(name);
    for (auto method :
         {RstMethod::euler, RstMethod::bfs, RstMethod::path_reversal, RstMethod::automatic}) {
      std::string method_name = to_string(method);
      CAPTURE(method_name);
      RstOptions options;
      options.method = method;
      check_rooted_spanning_forest(g, rooted_spanning_forest(rt, g, options));
      if (g.vertices() > 1) {
        options.root = static_cast<vertex_t>(g.vertices() - 2);
        options.list_rank.method = ListRankMethod::wyllie;
        check_rooted_spanning_forest(g, rooted_spanning_forest(rt, g, options), *options.root);
      }
    }
  }
  RstOptions bad;
  bad.root = 5;
  CHECK_THROWS_AS(rooted_spanning_forest(rt, test::raw_csr(3, {{0, 1}}), bad), InputError);
  CHECK(parse<RstMethod>("bfs") == RstMethod::bfs);
  CHECK(parse<RstMethod>("auto") == RstMethod::automatic);
  CHECK_THROWS_AS(parse<RstMethod>("dfs"), InputError);
}

TEST_CASE("rooting: the device Euler tour equals the host builder's positions") {
  auto& rt = test::runtime();
  for (auto method : {ListRankMethod::ruling_set, ListRankMethod::wyllie}) {
    for (std::size_t n : test::awkward_sizes()) {
      CAPTURE(n);
      auto parent = generate::random_forest(n, std::max<std::size_t>(1, n / 100), n);
      EulerTour expected = build_euler_tour(parent);
      ListRankOptions options;
      options.method = method;
      DeviceEulerTour tour = device_euler_tour(rt, parent, options);
      REQUIRE(tour.size() == n);
      CHECK_FALSE(tour.wide_positions());
      std::vector<std::int32_t> open_pos(n), close_pos(n);
      if (n) {
        rt.queue().enqueueReadBuffer(tour.open_pos(), CL_TRUE, 0, n * 4, open_pos.data());
        rt.queue().enqueueReadBuffer(tour.close_pos(), CL_TRUE, 0, n * 4, close_pos.data());
      }
      CHECK(std::vector<std::int64_t>(open_pos.begin(), open_pos.end()) == expected.open_pos);
      CHECK(std::vector<std::int64_t>(close_pos.begin(), close_pos.end()) == expected.close_pos);
    }
  }
  for (auto& parent : {generate::path(100003), generate::star(65537),
                       generate::shuffle_labels(generate::caterpillar(100003, 999), 2)}) {
    EulerTour expected = build_euler_tour(parent);
    DeviceEulerTour tour = device_euler_tour(rt, parent);
    std::vector<std::int32_t> open_pos(parent.size());
    rt.queue().enqueueReadBuffer(tour.open_pos(), CL_TRUE, 0, parent.size() * 4, open_pos.data());
    CHECK(std::vector<std::int64_t>(open_pos.begin(), open_pos.end()) == expected.open_pos);
  }
  CHECK_THROWS_AS(device_euler_tour(rt, ParentArray{1, 0}), InputError);
}

TEST_CASE(
    "rooting: DeviceTree's Euler tour comes from the device and gives the reference treefix") {
  auto& rt = test::runtime();
  auto parent = generate::random_forest(100003, 17, 8);
  DeviceTree tree(rt, parent);
  const DeviceEulerTour& tour = tree.euler_tour();
  std::vector<std::int32_t> close_pos(parent.size());
  rt.queue().enqueueReadBuffer(tour.close_pos(), CL_TRUE, 0, parent.size() * 4, close_pos.data());
  auto expected = build_euler_tour(parent).close_pos;
  CHECK(std::vector<std::int64_t>(close_pos.begin(), close_pos.end()) == expected);
  auto weights = test::random_values<std::int64_t>(parent.size(), 3, -1000, 1000);
  TreefixOptions options;
  options.algorithm = Algorithm::euler;
  CHECK(rootfix(rt, parent, weights, options) ==
        reference::rootfix(parent, weights, Op::sum, false));
  CHECK(leaffix(rt, parent, weights, options) ==
        reference::leaffix(parent, weights, Op::sum, false));
}

TEST_CASE("rooting: auto takes BFS on low-diameter graphs and euler past the level budget") {
  auto& rt = test::runtime();
  const std::size_t n = 5000;
  RstOptions options;
  options.method = RstMethod::automatic;
  RstMethod chosen = RstMethod::path_reversal;
  options.chosen = &chosen;
  // a star: two levels, one component: the BFS tree
  std::vector<std::pair<vertex_t, vertex_t>> star, path, two_stars;
  for (std::size_t v = 1; v < n; ++v) star.emplace_back(0, static_cast<vertex_t>(v));
  Csr star_graph = test::raw_csr(n, star);
  check_rooted_spanning_forest(star_graph, rooted_spanning_forest(rt, star_graph, options));
  CHECK(chosen == RstMethod::bfs);
  // a path longer than the budget: euler
  REQUIRE(rst_bfs_level_budget(rt, n) < n - 1);
  for (std::size_t v = 1; v < n; ++v)
    path.emplace_back(static_cast<vertex_t>(v - 1), static_cast<vertex_t>(v));
  Csr path_graph = test::raw_csr(n, path);
  check_rooted_spanning_forest(path_graph, rooted_spanning_forest(rt, path_graph, options));
  CHECK(chosen == RstMethod::euler);
  options.root = static_cast<vertex_t>(n / 2);  // the root's component first, as euler does
  check_rooted_spanning_forest(path_graph, rooted_spanning_forest(rt, path_graph, options),
                               *options.root);
  CHECK(chosen == RstMethod::euler);
  // two components: BFS from the root does not cover the graph, so euler
  for (std::size_t v = 1; v < n / 2; ++v) two_stars.emplace_back(0, static_cast<vertex_t>(v));
  for (std::size_t v = n / 2 + 1; v < n; ++v)
    two_stars.emplace_back(static_cast<vertex_t>(n / 2), static_cast<vertex_t>(v));
  Csr two_graph = test::raw_csr(n, two_stars);
  options.root.reset();
  check_rooted_spanning_forest(two_graph, rooted_spanning_forest(rt, two_graph, options));
  CHECK(chosen == RstMethod::euler);
  // the budget stops a BFS early: it says so, and its levels so far are those of a full search
  BfsOptions capped;
  capped.max_levels = 10;
  DeviceBfs partial = bfs(rt, DeviceGraph(rt, path_graph), {0}, capped);
  CHECK_FALSE(partial.complete);
  CHECK(partial.levels() >= 10);
  CHECK(partial.levels() < n);
  for (std::size_t level = 0; level + 1 < partial.level_offset.size(); ++level)
    CHECK(partial.level_offset[level + 1] - partial.level_offset[level] == 1);
  CHECK(bfs(rt, DeviceGraph(rt, star_graph), {0}, capped).complete);
  // the budget grows with the graph
  CHECK(rst_bfs_level_budget(rt, 1 << 20) > rst_bfs_level_budget(rt, 1 << 10));
}

TEST_CASE("rooting: PR-RST builds and walks one or several jump levels per launch") {
  auto& rt = test::runtime();
  const auto graphs = test::graph_families();
  for (std::size_t per_launch : {1, 2, 3, 5}) {  // 1: the portable form, the default on other GPUs
    CAPTURE(per_launch);
    test::ScopedTuning tuning;
    tuning->set("pr_levels_per_launch", per_launch);
    for (auto& [family, g] : graphs) {
      const std::string& name = family;
      CAPTURE(name);
      RstOptions options;
      options.method = RstMethod::path_reversal;
      check_rooted_spanning_forest(g, rooted_spanning_forest(rt, g, options));
      if (g.vertices() > 1) {
        options.root = static_cast<vertex_t>(g.vertices() - 2);
        check_rooted_spanning_forest(g, rooted_spanning_forest(rt, g, options), *options.root);
      }
    }
  }
}
