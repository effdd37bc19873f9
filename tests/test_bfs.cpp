// Device BFS against the sequential reference: depths equal, every parent a neighbour one level up.
#include <doctest/doctest.h>

#include <filesystem>
#include <random>

#include "fixture.hpp"
#include "graph_families.hpp"
#include "treefix/core/error.hpp"
#include "treefix/graph/bfs.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/graph/graph_io.hpp"
#include "treefix/treefix/generate.hpp"

using namespace treefix;

namespace {

std::string data_path(const std::string& name) {
  return (std::filesystem::path(__FILE__).parent_path() / "data" / name).string();
}

// Runs the device BFS from `source` and checks it against the reference; returns the result.
BfsResult check_bfs(const Csr& g, vertex_t source, const BfsOptions& options = {}) {
  BfsResult device = bfs(test::runtime(), g, source, options);
  BfsResult ref = bfs_reference(g, source);
  CHECK_MESSAGE(bfs_tree_problem(g, source, ref.depth, device.depth, device.parent) == "",
                "n=", g.vertices(), " source=", source);
  CHECK(device.levels == ref.levels);
  return device;
}

Csr random_graph(std::size_t n, std::size_t m, std::uint64_t seed, bool undirected) {
  std::mt19937_64 rng(seed);
  std::vector<vertex_t> s(m), t(m);
  std::uniform_int_distribution<vertex_t> pick(0, static_cast<vertex_t>(n) - 1);
  for (std::size_t i = 0; i < m; ++i) {
    s[i] = pick(rng);
    t[i] = pick(rng);
  }
  return csr_from_edges(n, s, t, undirected);
}

// A center joined to `leaves` others, plus a path hanging off the last leaf.
Csr star_graph(std::size_t leaves) {
  std::vector<vertex_t> s, t;
  for (std::size_t v = 1; v <= leaves; ++v) {
    s.push_back(0);
    t.push_back(static_cast<vertex_t>(v));
  }
  for (std::size_t v = leaves + 1; v < leaves + 6; ++v) {
    s.push_back(static_cast<vertex_t>(v - 1));
    t.push_back(static_cast<vertex_t>(v));
  }
  return csr_from_edges(leaves + 6, s, t, true);
}

}  // namespace

TEST_CASE("bfs on random graphs of awkward sizes matches the reference, directed and undirected") {
  for (std::size_t n : test::awkward_sizes()) {
    if (n == 0) continue;
    CAPTURE(n);
    check_bfs(random_graph(n, 3 * n, n, true), 0);
    check_bfs(random_graph(n, 2 * n, n + 1, false), static_cast<vertex_t>(n / 2));
  }
}

TEST_CASE("bfs on Kronecker graphs: hubs go through the work-group and device-wide paths") {
  Csr g = generate::kronecker(14, 16, 11);
  vertex_t source = 0;
  while (g.degree(source) == 0) ++source;
  BfsOptions top_down;
  top_down.direction_optimizing = false;
  check_bfs(g, source, top_down);
  check_bfs(g, source);
  BfsOptions low = top_down;
  low.huge_degree = 1;  // raised to the work-group size: every long row takes the device-wide path
  check_bfs(g, source, low);
}

TEST_CASE(
    "direction-optimising bfs goes bottom-up on wide levels and still matches the reference") {
  BfsOptions beamer;  // the default
  Csr g = generate::kronecker(14, 16, 5);
  REQUIRE(g.undirected);
  vertex_t source = 0;
  while (g.degree(source) == 0) ++source;
  auto r = check_bfs(g, source, beamer);
  CHECK(r.bottom_up_levels > 0);
  CHECK(r.bottom_up_levels < r.levels);
  for (std::size_t n : {2, 97, 4099, 100003}) {
    CAPTURE(n);
    Csr random = random_graph(n, 4 * n, n + 7, true);
    check_bfs(random, 0, beamer);
    BfsOptions always = beamer;  // bottom-up from the first level on, never back
    always.bottom_up_alpha = 1e-9;
    always.top_down_beta = 1e9;
    check_bfs(random, static_cast<vertex_t>(n - 1), always);
  }
  check_bfs(star_graph(100000), 5, beamer);
  check_bfs(generate::grid2d(61, 67), 0, beamer);
  // directed graphs never go bottom-up
  Csr directed = random_graph(4099, 4 * 4099, 3, false);
  CHECK_FALSE(directed.undirected);
  CHECK(check_bfs(directed, 0, beamer).bottom_up_levels == 0);
}

TEST_CASE("bfs on a star: a row of 10^5 neighbours, reached from the center and from a leaf") {
  Csr g = star_graph(100000);
  auto r = check_bfs(g, 0);
  CHECK(r.levels == 7);
  check_bfs(g, 77);
}

TEST_CASE("bfs on a grid and a long path (many levels)") {
  check_bfs(generate::grid2d(61, 67), 0);
  check_bfs(generate::grid2d(61, 67), 61 * 67 / 2);
  std::vector<vertex_t> s, t;
  for (vertex_t v = 1; v < 3001; ++v) {
    s.push_back(v - 1);
    t.push_back(v);
  }
  auto r = check_bfs(csr_from_edges(3001, s, t, true), 0);
  CHECK(r.levels == 3001);
}

TEST_CASE("bfs on real Matrix Market and METIS files, unreachable vertices at -1") {
  check_bfs(read_graph(data_path("petersen.mtx")), 3);
  auto r = check_bfs(read_graph(data_path("directed_real.mtx")), 0);
  CHECK(r.depth == std::vector<vertex_t>{0, 1, 1, 2, 3, -1, -1});
  CHECK(r.parent[5] == -1);
  auto t = check_bfs(read_graph(data_path("two_triangles.graph")), 4);
  CHECK(t.depth[6] == -1);
}

TEST_CASE("bfs on one vertex, and from several sources at once") {
  Csr one = csr_from_edges(1, {}, {}, true);
  auto r = check_bfs(one, 0);
  CHECK(r.depth == std::vector<vertex_t>{0});
  CHECK(r.parent == std::vector<vertex_t>{-1});
  auto& rt = test::runtime();
  Csr grid = generate::grid2d(20, 30);
  DeviceGraph device(rt, grid);
  DeviceBfs multi = bfs(rt, device, {0, 599, 0});
  auto depth = multi.depth.download(rt);
  CHECK(depth[0] == 0);
  CHECK(depth[599] == 0);
  CHECK(depth[29] == 19);   // corner (0, 29): 29 from vertex 0, 19 from vertex 599 = (19, 29)
  CHECK(depth[570] == 19);  // corner (19, 0)
  CHECK(multi.reached() == 600);
  CHECK(multi.levels() == 25);  // farthest from both corners: distance 24
}

TEST_CASE("bfs rejects a source outside the graph") {
  Csr g = generate::grid2d(3, 3);
  CHECK_THROWS_AS(bfs(test::runtime(), g, 9), InputError);
  CHECK_THROWS_AS(bfs(test::runtime(), g, -1), InputError);
  CHECK_THROWS_AS(bfs(test::runtime(), Csr{}, 0), InputError);
}

TEST_CASE("bfs: small frontiers run many levels in one launch, and the switch-over both ways") {
  // The threshold decides which levels one work-group runs in a loop: 1 and 3 make the search
  // change path every few levels, 64 mixes, and a huge one keeps whole searches in one launch.
  auto& rt = test::runtime();
  for (const auto& [family, g] : test::graph_families()) {
    if (g.vertices() == 0) continue;
    const std::string& name = family;  // C++17: a lambda (CAPTURE) cannot capture a binding
    CAPTURE(name);
    for (std::size_t small :
         {std::size_t{1}, std::size_t{3}, std::size_t{64}, std::size_t{1} << 30}) {
      CAPTURE(small);
      test::ScopedTuning tuning;
      tuning->set("bfs_small_frontier", small);
      const vertex_t source = static_cast<vertex_t>(g.vertices() / 3);
      check_bfs(g, source);
      BfsOptions top_down;
      top_down.direction_optimizing = false;
      check_bfs(g, source, top_down);
    }
  }
  // the level offsets and launch counts of a long search
  Csr strip = generate::grid2d(5, 4001);
  DeviceGraph device(rt, strip);
  auto reference = bfs_reference(strip, 0);
  std::vector<std::size_t> expected_offset(reference.levels + 1, 0);
  for (vertex_t d : reference.depth) ++expected_offset[d + 1];
  for (std::size_t l = 0; l < reference.levels; ++l) expected_offset[l + 1] += expected_offset[l];
  for (std::size_t small : {std::size_t{2}, std::size_t{1} << 30}) {
    test::ScopedTuning tuning;
    tuning->set("bfs_grid_barrier", false);  // the two portable kernels (NVIDIA has a third)
    tuning->set("bfs_small_frontier", small);
    DeviceBfs searched = bfs(rt, device, {0});
    CHECK(searched.level_offset == expected_offset);
    CHECK(searched.depth.download(rt) == reference.depth);
    if (small > 5)  // every level is small: a few batches of launches for 4005 levels
      CHECK(searched.kernel_launches < 64);
    else  // every level of 5 vertices goes through the multi-group path
      CHECK(searched.kernel_launches > reference.levels);
  }
}

TEST_CASE("bfs: narrow levels read from the queue in chunks, a bounded number per launch") {
  // Every level narrow (no threshold but the huge rows), the frontier in local-memory chunks of
  // 1, 7 or 64 vertices (so that almost every level is read back from the global queue), and
  // launches that stop after 3 levels or run the whole search.
  auto& rt = test::runtime();
  struct Shape {
    std::size_t buffer, levels;
  };
  for (const auto& [family, g] : test::graph_families()) {
    if (g.vertices() == 0) continue;
    const std::string& name = family;  // C++17: a lambda (CAPTURE) cannot capture a binding
    CAPTURE(name);
    for (Shape shape : {Shape{1, 16384}, Shape{7, 3}, Shape{64, 16384}}) {
      CAPTURE(shape.buffer);
      CAPTURE(shape.levels);
      test::ScopedTuning tuning;
      tuning->set("bfs_small_frontier", std::size_t{1} << 30);
      tuning->set("bfs_small_arcs", std::size_t{1} << 30);
      tuning->set("bfs_small_buffer", shape.buffer);
      tuning->set("bfs_small_levels", shape.levels);
      check_bfs(g, static_cast<vertex_t>(g.vertices() / 2));
    }
  }
  // a path whose end is a hub of huge degree: found by the short-row path of the one-group
  // kernel, which hands the next level (a huge row) to every group
  {
    std::vector<vertex_t> s, t;
    const vertex_t hub = 9, leaves = 20000;
    for (vertex_t v = 1; v <= hub; ++v) s.push_back(v - 1), t.push_back(v);
    for (vertex_t leaf = 0; leaf < leaves; ++leaf) s.push_back(hub), t.push_back(hub + 1 + leaf);
    Csr g = csr_from_edges(static_cast<std::size_t>(hub + 1 + leaves), s, t, true);
    test::ScopedTuning tuning;
    tuning->set("bfs_small_frontier", std::size_t{1} << 30);
    tuning->set("bfs_small_arcs", std::size_t{1} << 30);
    BfsOptions options;
    options.huge_degree = 1000;
    for (bool beamer : {false, true}) {
      options.direction_optimizing = beamer;
      CHECK(check_bfs(g, 0, options).levels == 11);
    }
  }
  // level offsets and launches: 4005 levels of at most 5 vertices, 100 levels per launch
  Csr strip = generate::grid2d(5, 4001);
  auto reference = bfs_reference(strip, 0);
  std::vector<std::size_t> expected_offset(reference.levels + 1, 0);
  for (vertex_t d : reference.depth) ++expected_offset[d + 1];
  for (std::size_t l = 0; l < reference.levels; ++l) expected_offset[l + 1] += expected_offset[l];
  DeviceGraph device(rt, strip);
  for (std::size_t buffer : {std::size_t{2}, std::size_t{0}}) {
    CAPTURE(buffer);
    test::ScopedTuning tuning;
    tuning->set("bfs_grid_barrier", false);  // the two portable kernels (NVIDIA has a third)
    tuning->set("bfs_small_frontier", 64);
    tuning->set("bfs_small_levels", 100);
    tuning->set("bfs_small_buffer", buffer);
    DeviceBfs searched = bfs(rt, device, {0});
    CHECK(searched.level_offset == expected_offset);
    CHECK(searched.depth.download(rt) == reference.depth);
    // at least 41 launches of the one-group kernel (each followed by one of the multi-group
    // level, which passes), enqueued in batches of 1, 2, 4 ... steps: 63 steps at most
    CHECK(searched.kernel_launches >= 2 + 2 * 41);
    CHECK(searched.kernel_launches <= 2 + 2 * 63);
  }
}

TEST_CASE("bfs: medium levels with a grid-wide barrier, and the switch-over to the other paths") {
  // The grid-barrier kernel needs its groups resident: one per compute unit here (PoCL runs
  // each on a thread of its own). Thresholds of 3 and 64 vertices hand levels between the
  // one-group kernel, it, and the multi-group level (wide frontiers, huge rows, bottom-up).
  for (const auto& [family, g] : test::graph_families()) {
    if (g.vertices() < 2) continue;
    const std::string& name = family;  // C++17: a lambda (CAPTURE) cannot capture a binding
    CAPTURE(name);
    for (std::size_t small : {std::size_t{3}, std::size_t{64}}) {
      CAPTURE(small);
      test::ScopedTuning tuning;
      tuning->set("bfs_grid_barrier", true);
      tuning->set("bfs_grid_groups_per_unit", 1);
      tuning->set("bfs_small_frontier", small);
      tuning->set("bfs_grid_frontier", 4000);
      const vertex_t source = static_cast<vertex_t>(g.vertices() / 3);
      BfsOptions options;
      options.direction_optimizing = small == 64;
      DeviceGraph device(test::runtime(), g);
      DeviceBfs searched = bfs(test::runtime(), device, {source}, options);
      CHECK_FALSE(searched.grid_barrier_gave_up);
      BfsResult ref = bfs_reference(g, source);
      CHECK(bfs_tree_problem(g, source, ref.depth, searched.depth.download(test::runtime()),
                             searched.parent.download(test::runtime())) == "");
      CHECK(searched.levels() == ref.levels);
    }
  }
}

TEST_CASE(
    "bfs: a grid barrier whose groups are not all resident gives up, and the search is redone") {
  // PoCL runs one work-group per thread to its end: of 64 groups per compute unit the first
  // ones wait at the barrier for groups that cannot start, give up, and the host searches again
  // with the portable kernels.
  Csr g = generate::grid2d(40, 50);
  test::ScopedTuning tuning;
  tuning->set("bfs_grid_barrier", true);
  tuning->set("bfs_grid_groups_per_unit", 64);
  tuning->set("bfs_small_frontier", 3);
  DeviceGraph device(test::runtime(), g);
  DeviceBfs searched = bfs(test::runtime(), device, {0});
  CHECK(searched.grid_barrier_gave_up);
  BfsResult ref = bfs_reference(g, 0);
  CHECK(bfs_tree_problem(g, 0, ref.depth, searched.depth.download(test::runtime()),
                         searched.parent.download(test::runtime())) == "");
}

TEST_CASE("bfs: the arc threshold hands narrow frontiers of many arcs to every group and back") {
  // A grid's frontiers have about 4 arcs per vertex: with 8 to 40 arcs allowed, searches switch
  // between the two paths many times, in both directions, with chunked frontiers.
  for (const auto& [graph_name, g] : {std::pair{"grid 61x67", generate::grid2d(61, 67)},
                                      std::pair{"random", random_graph(4099, 3 * 4099, 5, true)}}) {
    const char* name = graph_name;  // C++17: a lambda (CAPTURE) cannot capture a binding
    CAPTURE(name);
    for (std::size_t arcs : {std::size_t{8}, std::size_t{40}}) {
      CAPTURE(arcs);
      test::ScopedTuning tuning;
      tuning->set("bfs_small_frontier", std::size_t{1} << 30);
      tuning->set("bfs_small_arcs", arcs);
      tuning->set("bfs_small_buffer", 3);
      check_bfs(g, 0);
      BfsOptions top_down;
      top_down.direction_optimizing = false;
      check_bfs(g, static_cast<vertex_t>(g.vertices() - 1), top_down);
    }
  }
}

TEST_CASE("bfs: a small frontier with too many arcs is handed to the multi-group level") {
  // Vertex 0 reaches 8 broad rows of 5000 leaves (below the huge-row threshold): level 1 has 8
  // vertices but 40008 arcs, more than one work-group takes; the search must still be exact,
  // through the small-frontier kernel, the multi-group level, and back.
  std::vector<vertex_t> s, t;
  const vertex_t hubs = 8, leaves = 5000;
  for (vertex_t h = 1; h <= hubs; ++h) {
    s.push_back(0);
    t.push_back(h);
    for (vertex_t l = 0; l < leaves; ++l) {
      s.push_back(h);
      t.push_back(hubs + 1 + (h - 1) * leaves + l);
    }
  }
  const std::size_t n = 1 + hubs + hubs * leaves;
  s.push_back(static_cast<vertex_t>(n - 1));  // a tail of 3 after the last leaf
  t.push_back(static_cast<vertex_t>(n));
  s.push_back(static_cast<vertex_t>(n));
  t.push_back(static_cast<vertex_t>(n + 1));
  s.push_back(static_cast<vertex_t>(n + 1));
  t.push_back(static_cast<vertex_t>(n + 2));
  Csr g = csr_from_edges(n + 3, s, t, true);
  for (bool beamer : {false, true}) {
    BfsOptions options;
    options.direction_optimizing = beamer;
    auto r = check_bfs(g, 0, options);
    CHECK(r.levels == 6);
  }
}

TEST_CASE("bfs: a frontier of a few long rows is shared by teams of work-groups") {
  // The source reaches 3 hubs of 1,007..3,007 leaves and 40 vertices of 2..41 leaves: one tile
  // of long and short rows on the second level; the leaves share some neighbours (repeat claims).
  // Every level goes to the multi-group kernel (no one-group levels, no huge-row list), whose
  // groups (1, 2, 7, 64) then split into teams of 1..64 per tile.
  std::vector<vertex_t> s, t;
  vertex_t next = 1;
  std::vector<vertex_t> leaves;
  auto join = [&](vertex_t a, vertex_t b) { s.push_back(a), t.push_back(b); };
  for (vertex_t hub = 0; hub < 43; ++hub) {
    const vertex_t v = next++;
    join(0, v);
    const vertex_t fan = hub < 3 ? 1000 * (hub + 1) + 7 : 2 + hub - 3;
    for (vertex_t i = 0; i < fan; ++i) {
      leaves.push_back(next);
      join(v, next++);
    }
  }
  for (std::size_t i = 0; i + 17 < leaves.size(); i += 13) join(leaves[i], leaves[i + 17]);
  const Csr g = csr_from_edges(static_cast<std::size_t>(next), s, t, true);
  test::ScopedTuning tuning;
  tuning->set("bfs_small_frontier", 1);  // one vertex of one arc at most: never here
  tuning->set("bfs_small_arcs", 1);
  tuning->set("bfs_grid_barrier", false);
  for (std::size_t groups : {1, 2, 7, 64}) {
    CAPTURE(groups);
    BfsOptions options;
    options.groups = groups;
    options.huge_degree = std::size_t{1} << 30;
    for (bool beamer : {false, true}) {
      options.direction_optimizing = beamer;
      CHECK(check_bfs(g, 0, options).levels == 3);
    }
  }
}
