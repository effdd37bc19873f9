// Partitioned graphs in a world of one (a test binary is not started by mpirun): the partition,
// rows built from routed arcs and from an edge stream, the one entry per algorithm (which in a
// world of one runs the single-device path), and the partitioned kernels themselves run on the
// whole graph (detail::partitioned_bfs, detail::partitioned_components) against the host
// references. Several ranks: test_partitioned_ranks.cpp under mpiexec
// -n 2 and -n 3 (CTest), and the commands in tests/cli/distributed.sh.
#ifdef TREEFIX_HAVE_MPI
#include <doctest/doctest.h>

#include <random>

#include "fixture.hpp"
#include "graph_families.hpp"
#include "process_world.hpp"
#include "scratch_directory.hpp"
#include "treefix/distributed/bfs.hpp"
#include "treefix/distributed/connectivity.hpp"
#include "treefix/distributed/partitioned_graph.hpp"

namespace treefix::test {
namespace {

// These cases run in a world of one (the whole suite is not started by mpiexec).
World& world_of_one() { return process_world(); }

}  // namespace

TEST_CASE("distributed: vertex ranges are aligned to 32 and every vertex has one owner") {
  for (std::size_t n : awkward_sizes())
    for (int ranks = 1; ranks <= 5; ++ranks) {
      const VertexPartition p = VertexPartition::balanced(n, ranks);
      REQUIRE(p.ranks() == ranks);
      CHECK(p.first.front() == 0);
      CHECK(p.first.back() == static_cast<std::int64_t>(n));
      for (int r = 0; r < ranks; ++r) {
        CHECK(p.begin(r) <= p.end(r));
        if (p.end(r) < static_cast<std::int64_t>(n)) CHECK(p.end(r) % 32 == 0);
      }
      for (std::size_t v = 0; v < n; v += 1 + n / 97) {
        const int owner = p.owner(static_cast<std::int64_t>(v));
        CHECK(p.begin(owner) <= static_cast<std::int64_t>(v));
        CHECK(static_cast<std::int64_t>(v) < p.end(owner));
      }
    }
}

TEST_CASE("distributed: a partitioned graph of arcs or of a whole graph is csr_from_edges's") {
  std::mt19937_64 rng(3);
  for (std::size_t n : {1, 2, 97, 4099}) {
    std::vector<vertex_t> source, target;
    for (std::size_t i = 0; i < 3 * n; ++i) {
      source.push_back(static_cast<vertex_t>(rng() % n));
      target.push_back(i % 7 ? static_cast<vertex_t>(rng() % n) : source.back());  // loops
    }
    for (bool undirected : {false, true}) {
      const Csr expected = csr_from_edges(n, source, target, undirected);
      const PartitionedGraph g =
          partitioned_graph_from_arcs(world_of_one(), n, source, target, undirected);
      CHECK(g.rows.row_offset == expected.row_offset);
      CHECK(g.rows.column == expected.column);
      CHECK(g.arcs == expected.edges());
      CHECK(has_reverse_arcs(world_of_one(), g) == has_reverse_arcs(expected));
      CHECK(graph_hash(world_of_one(), g) == graph_hash(expected));
      const PartitionedGraph slice = partition_graph(world_of_one(), expected);
      CHECK(slice.rows.column == expected.column);
      CHECK(slice.vertices == n);
    }
  }
  CHECK_THROWS_AS(partitioned_graph_from_arcs(world_of_one(), 3, {0}, {3}, true), InputError);
}

TEST_CASE("distributed: the BFS entry and the partitioned kernels give the reference depths") {
  for (const NamedGraph& family : graph_families()) {
    const Csr& g = family.graph;
    if (g.vertices() == 0) continue;
    CAPTURE(family.name);
    const PartitionedGraph local = partition_graph(world_of_one(), g);
    const PartitionedDeviceGraph device_graph(world_of_one(), runtime(), local);
    // vertex 0 is the star's hub: its row of 65536 arcs is expanded by a work-group
    for (const vertex_t source : {static_cast<vertex_t>(g.vertices() / 3), vertex_t{0}}) {
      CAPTURE(source);
      const BfsResult reference = bfs_reference(g, source);
      const PartitionedBfs one = bfs(world_of_one(), runtime(), device_graph, {source});
      CHECK(one.depth == reference.depth);
      CHECK(one.levels.empty());  // the single-device search decides its levels on the device
      CHECK(bfs_tree_problem(local.rows, source, reference.depth, one.depth, one.parent) == "");
      // top-down only, direction-optimising, and bottom-up from the first level on (the
      // star's hub then finds its parent past its first arcs, in a work-group)
      for (int mode : {0, 1, 2}) {
        CAPTURE(mode);
        BfsOptions options;
        options.direction_optimizing = mode > 0;
        if (mode == 2) options.bottom_up_alpha = 1e18, options.top_down_beta = 1e18;
        const PartitionedBfs r =
            detail::partitioned_bfs(world_of_one(), runtime(), device_graph, {source}, options);
        CHECK(r.depth == reference.depth);
        CHECK(r.reached == one.reached);
        CHECK(r.reached_arcs == one.reached_arcs);
        CHECK(bfs_problem(world_of_one(), local, {source}, r.depth, r.parent) == "");
        CHECK(bfs_tree_problem(g, source, reference.depth, r.depth, r.parent) == "");
      }
    }
  }
}

TEST_CASE("distributed: multi-source BFS, and the check finds what is wrong") {
  const Csr g = generate::grid2d(17, 23);
  const PartitionedGraph local = partition_graph(world_of_one(), g);
  const PartitionedDeviceGraph device_graph(world_of_one(), runtime(), local);
  const std::vector<vertex_t> sources = {0, 390, 200, 0};
  const PartitionedBfs r =
      detail::partitioned_bfs(world_of_one(), runtime(), device_graph, sources, {});
  CHECK(bfs_problem(world_of_one(), local, sources, r.depth, r.parent) == "");
  CHECK(bfs_problem(world_of_one(), runtime(), device_graph, sources, r.depth, r.parent) == "");
  for (std::size_t v = 0; v < g.vertices(); ++v) {  // the distance to the nearest source
    int nearest = INT32_MAX;
    for (vertex_t s : sources)
      nearest =
          std::min<int>(nearest, std::abs(int(v / 23) - s / 23) + std::abs(int(v % 23) - s % 23));
    CHECK(r.depth[v] == nearest);
  }
  std::vector<vertex_t> depth = r.depth, parent = r.parent;
  depth[100] += 1;
  CHECK(bfs_problem(world_of_one(), local, sources, depth, r.parent) != "");
  parent[5] = 300;  // not a neighbour of 5
  CHECK(bfs_problem(world_of_one(), runtime(), device_graph, sources, r.depth, parent)
            .find("vertex") != std::string::npos);
  CHECK_THROWS_AS(detail::partitioned_bfs(world_of_one(), runtime(), device_graph, {391}, {}),
                  InputError);
  CHECK_THROWS_AS(bfs(world_of_one(), runtime(), device_graph, {391}), InputError);
}

TEST_CASE("distributed: components give the reference labels on every family") {
  // Medium rows walked by one work-item (the CPU default) and by teams of 32 and of 3 (a team
  // size that leaves a work-group's last items out).
  for (std::size_t team : {1, 32, 3}) {
    CAPTURE(team);
    ScopedTuning tuning;
    tuning->set("distributed_components_team", team);
    for (const NamedGraph& family : graph_families()) {
      CAPTURE(family.name);
      const PartitionedGraph local = partition_graph(world_of_one(), family.graph);
      const PartitionedDeviceGraph device_graph(world_of_one(), runtime(), local);
      const PartitionedComponents cc =
          detail::partitioned_components(world_of_one(), runtime(), device_graph, nullptr);
      const std::vector<vertex_t> expected = min_labels(family.graph);
      CHECK(cc.label == expected);
      std::size_t count = 0;
      for (std::size_t v = 0; v < expected.size(); ++v) count += expected[v] == vertex_t(v);
      CHECK(cc.count == count);
      CHECK(cc.merge_rounds == 0);  // a world of one has no cut arcs: nothing to exchange
      CHECK(cc.ghosts == 0);
      CHECK(cc.joined == 0);
      if (team == 1) {  // the entry: the single-device components
        const PartitionedComponents one =
            connected_components(world_of_one(), runtime(), device_graph);
        CHECK(one.label == expected);
        CHECK(one.count == count);
      }
    }
  }
}

TEST_CASE("distributed: components of directed graphs, as of their undirected graphs") {
  // Random arcs one way only (a hub of 5000 arcs among them: its row is cut in pieces) have the
  // components of their undirected graph, without the reverse arcs being built.
  std::mt19937_64 rng(11);
  for (std::size_t n : {1, 2, 33, 97, 4099, 6007}) {
    CAPTURE(n);
    std::vector<vertex_t> source, target;
    for (std::size_t i = 0; i < n * 3 / 4; ++i) {
      source.push_back(static_cast<vertex_t>(rng() % n));
      target.push_back(static_cast<vertex_t>(rng() % n));
    }
    for (std::size_t i = 0; n > 5000 && i < 5000; ++i) {
      source.push_back(static_cast<vertex_t>(n - 1));
      target.push_back(static_cast<vertex_t>(rng() % n));
    }
    const Csr g = csr_from_edges(n, source, target, false);
    REQUIRE_FALSE(g.undirected);
    const std::vector<vertex_t> expected = min_labels(g);
    const PartitionedGraph local = partition_graph(world_of_one(), g);
    const PartitionedDeviceGraph device_graph(world_of_one(), runtime(), local);
    CHECK(detail::partitioned_components(world_of_one(), runtime(), device_graph, nullptr).label ==
          expected);
    CHECK(connected_components(world_of_one(), runtime(), device_graph).label == expected);
  }
}

TEST_CASE("distributed: components refuse a share beyond the device, with the numbers") {
  // Rank 0's share of a graph of 2^31 - 1 vertices: 32 vertices without arcs, but the union-find
  // of every vertex id (8 GiB) besides. Refused before any device work where it does not fit.
  PartitionedGraph g;
  g.vertices = 2147483647;
  g.rows.undirected = true;
  g.partition.first = {0, 32, static_cast<std::int64_t>(g.vertices)};
  g.rows.row_offset.assign(33, 0);
  const DeviceDescription& device = runtime().description();
  if (g.vertices * 4 <= device.max_alloc_bytes &&
      g.vertices * 4 + g.vertices / 8 <= device.global_mem_bytes) {
    MESSAGE("skipped: the device holds 8 GiB buffers");
    return;
  }
  // The rows alone fit (a world of one checks the single-device search's needs: these are
  // refused there already), so the components' own check speaks.
  try {
    detail::partitioned_components(world_of_one(), runtime(),
                                   PartitionedDeviceGraph(world_of_one(), runtime(), g), nullptr);
    FAIL("not refused");
  } catch (const CapacityError& e) {
    const std::string what = e.what();
    CHECK((what.find("components: rank 0's share of a graph of 2147483647 vertices") !=
               std::string::npos ||
           what.find("a graph of 2147483647 vertices") != std::string::npos));
    CHECK(what.find("needs") != std::string::npos);
  }
}

TEST_CASE("distributed: BFS forest roots every component at its smallest vertex, or at the root") {
  const Csr g = generate::grid2d(13, 29);  // one component
  const PartitionedGraph local = partition_graph(world_of_one(), g);
  const PartitionedDeviceGraph device_graph(world_of_one(), runtime(), local);
  for (const vertex_t root : {vertex_t{-1}, vertex_t{200}}) {
    CAPTURE(root);
    RstOptions options;
    options.method = RstMethod::bfs;
    if (root >= 0) options.root = root;
    const std::vector<vertex_t> parent =
        rooted_spanning_forest(world_of_one(), runtime(), device_graph, options);
    REQUIRE(parent.size() == g.vertices());
    const vertex_t expected_root = root < 0 ? 0 : root;
    const BfsResult reference = bfs_reference(g, expected_root);
    for (std::size_t v = 0; v < g.vertices(); ++v) {
      CAPTURE(v);
      if (vertex_t(v) == expected_root) {
        CHECK(parent[v] == -1);
      } else {
        REQUIRE(parent[v] >= 0);
        CHECK(reference.depth[parent[v]] + 1 == reference.depth[v]);
      }
    }
  }
}

TEST_CASE("distributed: the Kronecker graph is generate::kronecker's, written and read back") {
  ScratchDirectory dir("treefix-distributed-csr");
  const PartitionedGraph k = generate::kronecker(world_of_one(), 10, 8, 4);
  const Csr single = generate::kronecker(10, 8, 4);
  CHECK(k.vertices == 1024);
  CHECK(k.undirected());
  CHECK(k.rows.row_offset == single.row_offset);
  CHECK(k.rows.column == single.column);
  CHECK(has_reverse_arcs(world_of_one(), k));
  const std::string path = (dir.path / "k.csr").string();
  write_partitioned_graph(world_of_one(), k, path);
  CHECK_FALSE(std::filesystem::exists(path + ".partial"));
  const PartitionedGraph back = read_partitioned_graph(world_of_one(), path);
  CHECK(back.rows.row_offset == k.rows.row_offset);
  CHECK(back.rows.column == k.rows.column);
  CHECK(graph_hash(world_of_one(), back) == graph_hash(single));
  CHECK(graph_hash(world_of_one(), generate::kronecker(world_of_one(), 10, 8, 5)) !=
        graph_hash(world_of_one(), k));
}

}  // namespace treefix::test
#endif
