// Partitioned graphs over the ranks of the process's world: one rank when the test binary runs
// alone, the launcher's ranks when CTest starts it under mpiexec (-n 2 and -n 3, the cases named
// "ranks:*"; tests/CMakeLists.txt). Each case cuts the whole graph into this rank's share, runs
// the one entry per algorithm, puts the shares back together and compares them with the
// single-device references, so the same case checks one rank and several.
#ifdef TREEFIX_HAVE_MPI
#include <doctest/doctest.h>

#include <vector>

#include "fixture.hpp"
#include "graph_families.hpp"
#include "process_world.hpp"
#include "treefix/distributed/bfs.hpp"
#include "treefix/distributed/connectivity.hpp"
#include "treefix/distributed/partitioned_graph.hpp"
#include "treefix/graph/bfs.hpp"
#include "treefix/graph/generate.hpp"

namespace treefix::test {
namespace {

// A raw test graph (rows as given, repeats and loops kept) in the library's form, as every Csr
// the library makes: rows sorted, repeats merged, loops dropped.
Csr library_form(const Csr& raw) {
  std::vector<vertex_t> from, to;
  for (std::size_t v = 0; v < raw.vertices(); ++v)
    for (auto a = raw.row_offset[v]; a < raw.row_offset[v + 1]; ++a) {
      from.push_back(static_cast<vertex_t>(v));
      to.push_back(raw.column[a]);
    }
  return csr_from_edges(raw.vertices(), from, to, true);
}

// Graphs whose searches take a few dozen levels at most: over several ranks each level is a round
// of exchanges, so the long paths of graph_families() stay with the world-of-one cases.
std::vector<NamedGraph> ranked_families() {
  std::vector<NamedGraph> g;
  g.push_back({"one vertex", csr_from_edges(1, {}, {}, true)});
  g.push_back({"random, m = 3n", library_form(random_undirected(4099, 3 * 4099, 17))});
  g.push_back({"random, m = n/2 (many components)",
               library_form(random_undirected(6007, 3003, 18))});
  g.push_back({"kronecker scale 11", generate::kronecker(11, 8, 5)});
  g.push_back({"grid 40x37", generate::grid2d(40, 37)});
  g.push_back({"star", library_form(forest_graph(generate::star(4099)))});
  g.push_back({"luxembourg_excerpt.mtx", read_graph(graph_data("luxembourg_excerpt.mtx"))});
  return g;
}

}  // namespace

TEST_CASE("ranks: a partitioned graph's shares put together are the whole graph") {
  const World& world = process_world();
  for (const NamedGraph& family : ranked_families()) {
    CAPTURE(family.name);
    const PartitionedGraph share = partition_graph(world, family.graph);
    CHECK(share.vertices == family.graph.vertices());
    CHECK(share.rows.vertices() == static_cast<std::size_t>(share.partition.end(world.rank()) -
                                                            share.partition.begin(world.rank())));
    CHECK(all_gather(world, share.rows.column) == family.graph.column);
    CHECK(has_reverse_arcs(world, share) == has_reverse_arcs(family.graph));
    CHECK(graph_hash(world, share) == graph_hash(family.graph));
  }
}

TEST_CASE("ranks: BFS depths are the single device's, parents pass the check on every rank") {
  const World& world = process_world();
  for (const NamedGraph& family : ranked_families()) {
    CAPTURE(family.name);
    const PartitionedGraph share = partition_graph(world, family.graph);
    const PartitionedDeviceGraph device_graph(world, runtime(), share);
    const vertex_t source = static_cast<vertex_t>(family.graph.vertices() / 3);
    const PartitionedBfs r = bfs(world, runtime(), device_graph, {source});
    CHECK(all_gather(world, r.depth) == bfs_reference(family.graph, source).depth);
    CHECK(bfs_problem(world, share, {source}, r.depth, r.parent) == "");
    CHECK(bfs_problem(world, runtime(), device_graph, {source}, r.depth, r.parent) == "");
    // A depth off by one on each rank's last vertex: found, and the same answer on every rank.
    std::vector<vertex_t> wrong = r.depth;
    if (!wrong.empty()) wrong.back() += 1;
    CHECK(bfs_problem(world, share, {source}, wrong, r.parent) != "");
  }
}

TEST_CASE("ranks: components are the smallest vertex of each component, counted once") {
  const World& world = process_world();
  for (const NamedGraph& family : ranked_families()) {
    CAPTURE(family.name);
    const PartitionedGraph share = partition_graph(world, family.graph);
    const PartitionedDeviceGraph device_graph(world, runtime(), share);
    const PartitionedComponents cc = connected_components(world, runtime(), device_graph);
    const std::vector<vertex_t> expected = min_labels(family.graph);
    CHECK(all_gather(world, cc.label) == expected);
    std::size_t count = 0;
    for (std::size_t v = 0; v < expected.size(); ++v) count += expected[v] == vertex_t(v);
    CHECK(cc.count == count);
  }
}

}  // namespace treefix::test
#endif
