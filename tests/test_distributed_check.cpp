// The Graph500-style check of a distributed BFS (distributed_bfs.hpp), on any number of ranks
// (distributed_fixture.hpp): the host check and the device check accept valid trees and reject
// wrong ones with the same message, the first problem by rank order on every rank.
#ifdef TREEFIX_HAVE_MPI
#include <doctest/doctest.h>

#include <algorithm>

#include "distributed_fixture.hpp"
#include "fixture.hpp"
#include "treefix/distributed/distributed_bfs.hpp"
#include "treefix/graph/device_graph.hpp"

using namespace treefix;

namespace {

// The host check's answer for the whole graph's depth and parent arrays (each rank checks its
// share); the device check (on the rank's rows, and in a world of one on the whole graph's rows
// with int offsets as a single device holds them) must give the same.
std::string problem_of(const Csr& csr, const std::vector<vertex_t>& sources,
                       const std::vector<vertex_t>& whole_depth,
                       const std::vector<vertex_t>& whole_parent) {
  const World& world = test::test_world();
  const LocalGraph g = local_slice(world, csr);
  const std::vector<vertex_t> depth = test::share_of(whole_depth, csr.vertices());
  const std::vector<vertex_t> parent = test::share_of(whole_parent, csr.vertices());
  const std::string host = distributed_bfs_problem(world, g, sources, depth, parent);
  const DeviceLocalGraph rows(world, test::runtime(), g);
  CHECK(distributed_bfs_problem(world, test::runtime(), g, rows.rows(), sources, depth, parent) ==
        host);
  if (world.size() == 1) {
    const DeviceGraph whole(test::runtime(), csr);
    CHECK_FALSE(whole.wide_offsets());
    const DeviceRows narrow{whole.row_offset(), whole.column(), false};
    CHECK(distributed_bfs_problem(world, test::runtime(), g, narrow, sources, depth, parent) ==
          host);
  }
  return host;
}

// 0-1, 0-2, 1-3, 2-3, 3-4, 2-7 and another component 5-6.
Csr small_graph() { return csr_from_edges(8, {0, 0, 1, 2, 3, 2, 5}, {1, 2, 3, 3, 4, 7, 6}, true); }
const std::vector<vertex_t> kDepth = {0, 1, 1, 2, 3, -1, -1, 2};
const std::vector<vertex_t> kParent = {-1, 0, 0, 1, 3, -1, -1, 2};

}  // namespace

TEST_CASE("distributed BFS check: a valid tree passes") {
  CHECK(problem_of(small_graph(), {0}, kDepth, kParent) == "");
  std::vector<vertex_t> parent = kParent;
  parent[3] = 2;  // the other parent one level up
  CHECK(problem_of(small_graph(), {0}, kDepth, parent) == "");
  // two sources, one per component
  CHECK(problem_of(small_graph(), {0, 6}, {0, 1, 1, 2, 3, 1, 0, 2}, {-1, 0, 0, 1, 3, 6, -1, 2}) ==
        "");
  CHECK(problem_of(csr_from_edges(1, {}, {}, true), {0}, {0}, {-1}) == "");
}

TEST_CASE("distributed BFS check: wrong trees are rejected") {
  const Csr g = small_graph();
  SUBCASE("a parent that is not a neighbour") {
    std::vector<vertex_t> parent = kParent;
    parent[4] = 7;  // depth 2, as 3, but no arc 7-4
    CHECK(problem_of(g, {0}, kDepth, parent) == "vertex 4: parent 7 is not a neighbour");
  }
  SUBCASE("a parent outside the graph") {
    std::vector<vertex_t> parent = kParent;
    parent[4] = 8;
    CHECK(problem_of(g, {0}, kDepth, parent) == "vertex 4: depth 3 with parent 8");
  }
  SUBCASE("a level not one below the parent's") {
    std::vector<vertex_t> depth = kDepth;
    depth[4] = 2;
    CHECK(problem_of(g, {0}, depth, kParent) == "vertex 4: depth 2 but its parent 3 has depth 2");
  }
  SUBCASE("levels along an arc more than one apart (a tree, but not a BFS tree)") {
    // the cycle 0-1-2-3-0 walked round: parents one level up along tree arcs, but 0-3 skips two
    const Csr cycle = csr_from_edges(4, {0, 1, 2, 3}, {1, 2, 3, 0}, true);
    CHECK(problem_of(cycle, {0}, {0, 1, 2, 3}, {-1, 0, 1, 2}) ==
          "vertex 0: depth 0 but its neighbour 3 has depth 3");
  }
  SUBCASE("an unreached vertex in the source's component") {
    std::vector<vertex_t> depth = kDepth, parent = kParent;
    depth[4] = parent[4] = -1;
    CHECK(problem_of(g, {0}, depth, parent) ==
          "vertex 3: depth 2 but its neighbour 4 is unreached");
  }
  SUBCASE("a vertex reached outside the source's component") {
    std::vector<vertex_t> depth = kDepth, parent = kParent;
    depth[5] = 1, parent[5] = 0;
    depth[6] = 2, parent[6] = 5;
    CHECK(problem_of(g, {0}, depth, parent) == "vertex 5: parent 0 is not a neighbour");
  }
  SUBCASE("an unreached vertex with a parent") {
    std::vector<vertex_t> parent = kParent;
    parent[6] = 5;
    CHECK(problem_of(g, {0}, kDepth, parent) == "vertex 6: unreached but has parent 5");
  }
  SUBCASE("the source with a parent, or not at depth 0") {
    std::vector<vertex_t> parent = kParent, depth = kDepth;
    parent[0] = 1;
    CHECK(problem_of(g, {0}, kDepth, parent).rfind("vertex 0: a source needs depth 0", 0) == 0);
    depth[0] = 1;
    CHECK(problem_of(g, {0}, depth, kParent).rfind("vertex 0: a source needs depth 0", 0) == 0);
  }
  SUBCASE("a second vertex at depth 0") {
    std::vector<vertex_t> depth = kDepth, parent = kParent;
    depth[5] = depth[6] = 0;
    CHECK(problem_of(g, {0}, depth, parent) ==
          "vertex 5: depth 0 with parent -1 (depth 0 but not a source)");
  }
  SUBCASE("arrays of the wrong size") {
    CHECK(problem_of(g, {0}, {0, 1}, {-1, 0}).find("2 depths and 2 parents for 8 vertices") !=
          std::string::npos);
  }
}

TEST_CASE("distributed BFS check: a hub's row (checked by a work-group on the device)") {
  // a star of 1000 leaves around 0, and a path 1000 - 1001 - 1002 from leaf 1000
  const std::size_t n = 1003;
  std::vector<vertex_t> source, target, depth(n, 2), parent(n, 0);
  for (vertex_t leaf = 1; leaf <= 1000; ++leaf) source.push_back(0), target.push_back(leaf);
  source.insert(source.end(), {1000, 1001}), target.insert(target.end(), {1001, 1002});
  const Csr star = csr_from_edges(n, source, target, true);
  depth[5] = 0, parent[5] = -1;  // from leaf 5
  depth[0] = 1, parent[0] = 5;
  depth[1001] = 3, parent[1001] = 1000;
  depth[1002] = 4, parent[1002] = 1001;
  CHECK(problem_of(star, {5}, depth, parent) == "");
  std::vector<vertex_t> unreached_depth = depth, unreached_parent = parent;
  unreached_depth[900] = unreached_parent[900] = -1;
  CHECK(problem_of(star, {5}, unreached_depth, unreached_parent) ==
        "vertex 0: depth 1 but its neighbour 900 is unreached");
  // two sources: the hub's parent one level up, but not a neighbour
  std::vector<vertex_t> two_depth = depth, two_parent = parent;
  two_depth[1002] = 0, two_parent[1002] = -1;
  two_depth[1001] = 1, two_parent[1001] = 1002;
  two_parent[0] = 1002;
  CHECK(problem_of(star, {5, 1002}, two_depth, two_parent) ==
        "vertex 0: parent 1002 is not a neighbour");
}

TEST_CASE("distributed BFS check: directed graphs (parent arcs looked up on the parent's rank)") {
  // 0 -> 1 -> 2 -> 3 -> 0 and 0 -> 3
  const Csr g = csr_from_edges(4, {0, 1, 2, 3, 0}, {1, 2, 3, 0, 3}, false);
  CHECK(problem_of(g, {0}, {0, 1, 2, 1}, {-1, 0, 1, 0}) == "");
  // from 1: the arc 0 -> 1 leads three levels up (allowed in a directed graph)
  CHECK(problem_of(g, {1}, {3, 0, 1, 2}, {3, -1, 1, 2}) == "");
  CHECK(problem_of(g, {1}, {3, 0, 1, 2}, {3, -1, 1, 1}) ==
        "vertex 3: depth 2 but its parent 1 has depth 0");
  // 2's parent 3 is one level up, but the arc is 2 -> 3, not 3 -> 2
  CHECK(problem_of(g, {0}, {0, 1, 2, 1}, {-1, 0, 3, 0}) == "vertex 2: parent 3 has no arc to it");
  CHECK(problem_of(g, {0}, {0, 1, -1, 1}, {-1, 0, -1, 0}) ==
        "vertex 1: depth 1 but its neighbour 2 is unreached");
}

TEST_CASE("distributed BFS check: trees deeper than a byte's levels") {
  // a path of 300 vertices: levels up to 299, checked on ints (the host check alone)
  const std::size_t n = 300;
  std::vector<vertex_t> source, target, depth(n), parent(n);
  for (std::size_t v = 0; v + 1 < n; ++v) source.push_back(v), target.push_back(v + 1);
  const Csr path = csr_from_edges(n, source, target, true);
  for (std::size_t v = 0; v < n; ++v) depth[v] = v, parent[v] = static_cast<vertex_t>(v) - 1;
  CHECK(problem_of(path, {0}, depth, parent) == "");
  depth[299] = parent[299] = -1;
  CHECK(problem_of(path, {0}, depth, parent) ==
        "vertex 298: depth 298 but its neighbour 299 is unreached");
  depth[299] = 297, parent[299] = 296;
  CHECK(problem_of(path, {0}, depth, parent) == "vertex 299: parent 296 is not a neighbour");
}

TEST_CASE("distributed BFS check: a Kronecker graph's BFS") {
  const World& world = test::test_world();
  const LocalGraph g = kronecker_local_graph(world, 10);
  const DeviceLocalGraph rows(world, test::runtime(), g);
  // The whole graph on every rank, for the choices below (the same on every rank).
  std::vector<std::int64_t> degree = test::whole_of(std::vector<std::int64_t>(
      g.row_offset.begin() + 1, g.row_offset.end()));
  std::vector<std::int64_t> first = test::whole_of(std::vector<std::int64_t>(
      g.row_offset.begin(), g.row_offset.end() - 1));
  for (std::size_t v = 0; v < degree.size(); ++v) degree[v] -= first[v];
  const std::vector<vertex_t> column = test::whole_of(g.column);
  std::vector<std::int64_t> offset(g.vertices + 1, 0);
  for (std::size_t v = 0; v < g.vertices; ++v) offset[v + 1] = offset[v] + degree[v];
  REQUIRE(offset.back() == static_cast<std::int64_t>(column.size()));
  vertex_t hub = 0;  // the source: the vertex of most arcs
  for (std::size_t v = 0; v < g.vertices; ++v)
    if (degree[v] > degree[hub]) hub = static_cast<vertex_t>(v);
  const DistributedBfs r = distributed_bfs(world, test::runtime(), rows, {hub});
  REQUIRE(r.levels.size() > 3);
  CHECK(distributed_bfs_problem(world, g, {hub}, r.depth, r.parent) == "");
  CHECK(distributed_bfs_problem(world, test::runtime(), g, rows.rows(), {hub}, r.depth, r.parent) ==
        "");
  // one reached leaf's parent swapped for another vertex of its parent's level
  const std::vector<vertex_t> depth = test::whole_of(r.depth), found = test::whole_of(r.parent);
  std::vector<vertex_t> parent = found;
  for (std::size_t v = 0; v < parent.size(); ++v)
    if (depth[v] == 2) {
      for (std::size_t u = 0; u < parent.size(); ++u)
        if (depth[u] == 1 && !std::binary_search(column.begin() + offset[v],
                                                 column.begin() + offset[v + 1], vertex_t(u))) {
          parent[v] = static_cast<vertex_t>(u);
          break;
        }
      if (parent[v] != found[v]) break;
    }
  REQUIRE(parent != found);
  const std::string problem = distributed_bfs_problem(
      world, test::runtime(), g, rows.rows(), {hub}, r.depth, test::share_of(parent, g.vertices));
  CHECK(problem.find("is not a neighbour") != std::string::npos);
}
#endif
