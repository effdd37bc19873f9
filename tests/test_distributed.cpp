// The distributed graph layer: the partition, rows built from routed arcs, the distributed BFS
// kernels, components and the check against the host references. In a world of one when the test
// binary runs alone, on several ranks under an MPI launcher (CTest: 2 and 3 ranks;
// distributed_fixture.hpp); the commands over several ranks: tests/cli/distributed.sh.
#ifdef TREEFIX_HAVE_MPI
#include <doctest/doctest.h>

#include <random>

#include "distributed_fixture.hpp"
#include "fixture.hpp"
#include "graph_families.hpp"
#include "scratch_directory.hpp"
#include "treefix/distributed/distributed_bfs.hpp"
#include "treefix/graph/bfs.hpp"

namespace treefix::test {

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

TEST_CASE("distributed: rows built from arcs equal csr_from_edges (self loops, duplicates)") {
  std::mt19937_64 rng(3);
  for (std::size_t n : {1, 2, 97, 4099}) {
    std::vector<vertex_t> source, target, my_source, my_target;  // every rank holds some arcs
    for (std::size_t i = 0; i < 3 * n; ++i) {
      source.push_back(static_cast<vertex_t>(rng() % n));
      target.push_back(i % 7 ? static_cast<vertex_t>(rng() % n) : source.back());  // loops
      if (static_cast<int>(i % test_world().size()) == test_world().rank())
        my_source.push_back(source.back()), my_target.push_back(target.back());
    }
    for (bool undirected : {false, true}) {
      const Csr expected = csr_from_edges(n, source, target, undirected);
      const LocalGraph g =
          local_graph_from_arcs(test_world(), n, my_source, my_target, undirected);
      CHECK(g.row_offset == owned_row_offsets(expected));
      CHECK(g.column == owned_columns(expected));
      CHECK(g.arcs == expected.edges());
      CHECK(has_reverse_arcs(test_world(), g) == has_reverse_arcs(expected));
    }
  }
  CHECK_THROWS_AS(local_graph_from_arcs(test_world(), 3, {0}, {3}, true), InputError);
}

TEST_CASE("distributed: rows built from an edge stream equal csr_from_edges, in several rounds") {
  std::mt19937_64 rng(5);
  // 0 edges; fewer than one round; 10007 (prime) edges: eight rounds of 1251, the last short
  for (std::size_t edges : {0, 1, 1000, 10007}) {
    const std::size_t n = 1 + edges / 3;
    std::vector<vertex_t> source, target;
    for (std::size_t i = 0; i < edges; ++i) {
      source.push_back(static_cast<vertex_t>(rng() % n));
      target.push_back(i % 5 ? static_cast<vertex_t>(rng() % n) : source.back());  // loops
    }
    for (bool undirected : {false, true}) {
      CAPTURE(edges);
      CAPTURE(undirected);
      // This rank makes edges [mine, mine + here) of an even split.
      const auto ranks = static_cast<std::uint64_t>(test_world().size());
      const auto rank = static_cast<std::uint64_t>(test_world().rank());
      const std::uint64_t mine = edges * rank / ranks, here = edges * (rank + 1) / ranks - mine;
      std::size_t made = 0, calls = 0;
      const LocalGraph g = local_graph_from_edge_stream(
          test_world(), n, here, undirected,
          [&](std::uint64_t first, std::uint64_t last, vertex_t* s, vertex_t* t) {
            REQUIRE(first < last);
            REQUIRE(last <= here);
            std::copy(source.begin() + mine + first, source.begin() + mine + last, s);
            std::copy(target.begin() + mine + first, target.begin() + mine + last, t);
            made += last - first;
            ++calls;
          });
      const Csr expected = csr_from_edges(n, source, target, undirected);
      CHECK(g.row_offset == owned_row_offsets(expected));
      CHECK(g.column == owned_columns(expected));
      CHECK(g.arcs == expected.edges());
      CHECK(summed(made) == 2 * edges);  // every edge made once to count and once to place
      if (edges == 10007 && test_world().size() == 1) CHECK(calls == 2 * 8);  // rounds of 1251
    }
  }
}

TEST_CASE("distributed: the BFS kernels give the reference depths and valid parents") {
  for (const NamedGraph& family : graph_families()) {
    const Csr& g = family.graph;
    if (g.vertices() == 0) continue;
    // On several ranks every level is a round of exchanges: the path's 100,003 levels are left to
    // the world of one (the strip's 5,003 levels cross the rank boundaries the same way).
    if (test_world().size() > 1 && family.name == "shuffled path with extras") continue;
    CAPTURE(family.name);
    const LocalGraph local = local_slice(test_world(), g);
    DeviceLocalGraph device_graph(test_world(), runtime(), local);
    // vertex 0 is the star's hub: its row of 65536 arcs is expanded by a work-group
    for (const vertex_t source : {static_cast<vertex_t>(g.vertices() / 3), vertex_t{0}}) {
      CAPTURE(source);
      const BfsResult reference = bfs_reference(g, source);
      // top-down only, direction-optimising, and bottom-up from the first level on (the
      // star's hub then finds its parent past its first arcs, in a work-group)
      for (int mode : {0, 1, 2}) {
        CAPTURE(mode);
        DistributedBfsOptions options;
        options.direction_optimizing = mode > 0;
        if (mode == 2) options.bottom_up_alpha = 1e18, options.top_down_beta = 1e18;
        const DistributedBfs r =
            distributed_bfs(test_world(), runtime(), device_graph, {source}, options);
        const std::vector<vertex_t> depth = whole_of(r.depth), parent = whole_of(r.parent);
        CHECK(depth == reference.depth);
        CHECK(distributed_bfs_problem(test_world(), local, {source}, r.depth, r.parent) == "");
        CHECK(bfs_tree_problem(g, source, reference.depth, depth, parent) == "");
      }
    }
  }
}

TEST_CASE("distributed: multi-source BFS, and the check finds what is wrong") {
  const Csr g = generate::grid2d(17, 23);
  const LocalGraph local = local_slice(test_world(), g);
  DeviceLocalGraph device_graph(test_world(), runtime(), local);
  const std::vector<vertex_t> sources = {0, 390, 200, 0};
  DistributedBfs r = distributed_bfs(test_world(), runtime(), device_graph, sources);
  CHECK(distributed_bfs_problem(test_world(), local, sources, r.depth, r.parent) == "");
  const std::vector<vertex_t> found = whole_of(r.depth);
  REQUIRE(found.size() == g.vertices());
  for (std::size_t v = 0; v < g.vertices(); ++v) {  // the distance to the nearest source
    int nearest = INT32_MAX;
    for (vertex_t s : sources)
      nearest =
          std::min<int>(nearest, std::abs(int(v / 23) - s / 23) + std::abs(int(v % 23) - s % 23));
    CHECK(found[v] == nearest);
  }
  std::vector<vertex_t> depth = found, parent = whole_of(r.parent);
  depth[100] += 1;
  CHECK(distributed_bfs_problem(test_world(), local, sources, share_of(depth, g.vertices()),
                                r.parent) != "");
  parent[5] = 300;  // not a neighbour of 5
  CHECK(distributed_bfs_problem(test_world(), local, sources, r.depth,
                                share_of(parent, g.vertices()))
            .find("vertex") != std::string::npos);
  CHECK_THROWS_AS(distributed_bfs(test_world(), runtime(), device_graph, {391}), InputError);
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
      const DistributedComponents cc = distributed_components(
          test_world(), runtime(), local_slice(test_world(), family.graph));
      const std::vector<vertex_t> expected = min_labels(family.graph);
      CHECK(whole_of(cc.label) == expected);
      std::size_t count = 0;
      for (std::size_t v = 0; v < expected.size(); ++v) count += expected[v] == vertex_t(v);
      CHECK(cc.count == count);
      if (test_world().size() == 1) {  // a world of one has no cut arcs: nothing to exchange
        CHECK(cc.merge_rounds == 0);
        CHECK(cc.ghosts == 0);
        CHECK(cc.joined == 0);
      } else {  // cut arcs, if any, are exchanged in one round
        CHECK(cc.merge_rounds == (cc.ghosts > 0 ? 1u : 0u));
      }
    }
  }
}

TEST_CASE("distributed: components of directed graphs, from the rows on the device") {
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
    const LocalGraph local = local_slice(test_world(), g);
    CHECK(whole_of(distributed_components(test_world(), runtime(), local).label) == expected);
    const DeviceLocalGraph device_graph(test_world(), runtime(), local);
    CHECK(whole_of(distributed_components(test_world(), runtime(), device_graph).label) ==
          expected);
  }
}

TEST_CASE("distributed: components refuse a share beyond the device, with the numbers") {
  // Rank 0's share of a graph of 2^31 - 1 vertices: 32 vertices without arcs, but the union-find
  // of every vertex id (8 GiB) besides. Refused before any device work where it does not fit.
  // The share is made up for rank 0 of two ranks: the case runs in a world of one only (a real
  // share of the last rank would be 2^31 rows of host memory).
  if (test_world().size() > 1) {
    MESSAGE("a world of one only: the share is rank 0's of a made-up two-rank partition");
    return;
  }
  LocalGraph g;
  g.vertices = 2147483647;
  g.undirected = true;
  g.partition.first = {0, 32, static_cast<std::int64_t>(g.vertices)};
  g.row_offset.assign(33, 0);
  const DeviceDescription& device = runtime().description();
  if (g.vertices * 4 <= device.max_alloc_bytes &&
      g.vertices * 4 + g.vertices / 8 <= device.global_mem_bytes) {
    MESSAGE("skipped: the device holds 8 GiB buffers");
    return;
  }
  try {
    distributed_components(test_world(), runtime(), g);
    FAIL("not refused");
  } catch (const CapacityError& e) {
    const std::string what = e.what();
    CHECK(what.find("components: rank 0's share of a graph of 2147483647 vertices") !=
          std::string::npos);
    CHECK(what.find("needs") != std::string::npos);
  }
}

TEST_CASE("distributed: BFS forest roots every component at its smallest vertex, or at the root") {
  const Csr g = generate::grid2d(13, 29);  // one component
  const LocalGraph local = local_slice(test_world(), g);
  for (const vertex_t root : {vertex_t{-1}, vertex_t{200}}) {
    CAPTURE(root);
    const std::vector<vertex_t> parent =
        whole_of(distributed_bfs_forest(test_world(), runtime(), local, root));
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

TEST_CASE("distributed: Kronecker graphs written as .csr and read back by byte ranges") {
  ScratchDirectory dir("treefix-distributed-csr");
  const LocalGraph k = kronecker_local_graph(test_world(), 10, 8, 4);
  CHECK(k.vertices == 1024);
  CHECK(k.undirected);
  CHECK(has_reverse_arcs(test_world(), k));
  const std::string path = (dir.path / "k.csr").string();
  write_local_graph_csr(test_world(), k, path);
  const LocalGraph back = read_local_graph(test_world(), path);
  CHECK(back.row_offset == k.row_offset);
  CHECK(back.column == k.column);
  CHECK(graph_hash(test_world(), back) == graph_hash(test_world(), k));
  const Csr whole = read_graph(path);  // the single-device reader takes it too
  CHECK(whole.column == whole_of(k.column));
  CHECK(graph_hash(test_world(), kronecker_local_graph(test_world(), 10, 8, 5)) !=
        graph_hash(test_world(), k));
}

}  // namespace treefix::test
#endif
