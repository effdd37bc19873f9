// The one check of a BFS tree (Graph500's, treefix/graph/bfs.hpp's bfs_problem): the host check
// and the device check (32- and 64-bit row offsets) accept valid trees and reject wrong ones with
// the same message. A partitioned graph's ranks run the same check on their rows
// (test_distributed.cpp, tests/cli/distributed.sh).
#include <doctest/doctest.h>

#include <algorithm>

#include "fixture.hpp"
#include "treefix/graph/bfs.hpp"
#include "treefix/graph/device_graph.hpp"
#include "treefix/graph/generate.hpp"

using namespace treefix;

namespace {

// The host check's answer; the device check must give the same.
std::string problem_of(const Csr& csr, const std::vector<vertex_t>& sources,
                       const std::vector<vertex_t>& depth, const std::vector<vertex_t>& parent) {
  const std::string host = bfs_problem(csr, sources, depth, parent);
  for (OffsetWidth width : {OffsetWidth::fit, OffsetWidth::wide}) {
    const DeviceGraph rows(test::runtime(), csr, nullptr, width);
    CHECK(bfs_problem(test::runtime(), csr, rows, sources, depth, parent) == host);
  }
  return host;
}

// 0-1, 0-2, 1-3, 2-3, 3-4, 2-7 and another component 5-6.
Csr small_graph() { return csr_from_edges(8, {0, 0, 1, 2, 3, 2, 5}, {1, 2, 3, 3, 4, 7, 6}, true); }
const std::vector<vertex_t> kDepth = {0, 1, 1, 2, 3, -1, -1, 2};
const std::vector<vertex_t> kParent = {-1, 0, 0, 1, 3, -1, -1, 2};

}  // namespace

TEST_CASE("bfs check: a valid tree passes") {
  CHECK(problem_of(small_graph(), {0}, kDepth, kParent) == "");
  std::vector<vertex_t> parent = kParent;
  parent[3] = 2;  // the other parent one level up
  CHECK(problem_of(small_graph(), {0}, kDepth, parent) == "");
  // two sources, one per component
  CHECK(problem_of(small_graph(), {0, 6}, {0, 1, 1, 2, 3, 1, 0, 2}, {-1, 0, 0, 1, 3, 6, -1, 2}) ==
        "");
  CHECK(problem_of(csr_from_edges(1, {}, {}, true), {0}, {0}, {-1}) == "");
}

TEST_CASE("bfs check: wrong trees are rejected") {
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

TEST_CASE("bfs check: a hub's row (checked by a work-group on the device)") {
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

TEST_CASE("bfs check: directed graphs (parent arcs looked up in the parents' rows)") {
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

TEST_CASE("bfs check: trees deeper than a byte's levels") {
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

TEST_CASE("bfs check: a Kronecker graph's BFS") {
  const Csr g = generate::kronecker(10, 16, 1);
  const DeviceGraph rows(test::runtime(), g);
  vertex_t hub = 0;  // the source: the vertex of most arcs
  for (vertex_t v = 0; v < static_cast<vertex_t>(g.vertices()); ++v)
    if (g.degree(v) > g.degree(hub)) hub = v;
  const BfsResult r = bfs(test::runtime(), g, hub);
  REQUIRE(r.levels > 3);
  CHECK(bfs_problem(g, {hub}, r.depth, r.parent) == "");
  CHECK(bfs_problem(test::runtime(), g, rows, {hub}, r.depth, r.parent) == "");
  // one reached leaf's parent swapped for another vertex of its parent's level
  std::vector<vertex_t> parent = r.parent;
  for (std::size_t v = 0; v < parent.size(); ++v)
    if (r.depth[v] == 2) {
      for (std::size_t u = 0; u < parent.size(); ++u)
        if (r.depth[u] == 1 &&
            !std::binary_search(g.column.begin() + g.row_offset[v],
                                g.column.begin() + g.row_offset[v + 1], vertex_t(u))) {
          parent[v] = static_cast<vertex_t>(u);
          break;
        }
      if (parent[v] != r.parent[v]) break;
    }
  REQUIRE(parent != r.parent);
  const std::string problem = bfs_problem(test::runtime(), g, rows, {hub}, r.depth, parent);
  CHECK(problem.find("is not a neighbour") != std::string::npos);
}
