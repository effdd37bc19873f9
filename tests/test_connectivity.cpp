// Connected components against a host union-find on every graph family, through the CSR path
// (ECL-CC alone and with Afforest's sampling) and the edge-list path; the hooking edges must be
// a spanning forest of the graph.
#include <doctest/doctest.h>

#include <algorithm>

#include "fixture.hpp"
#include "graph_families.hpp"
#include "treefix/graph/connectivity.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/graph/rooting.hpp"

using namespace treefix;

namespace {

// The hooking edges are graph edges, n - components of them, without a cycle (root_forest
// refuses cycles), so they span every component.
void check_spanning_forest(const Csr& g, const Components& cc, std::size_t components) {
  auto& rt = test::runtime();
  EdgeList forest{g.vertices(), cc.forest_source.download(rt), cc.forest_target.download(rt)};
  REQUIRE(forest.edges() == g.vertices() - components);
  std::size_t not_graph_edges = 0;
  for (std::size_t i = 0; i < forest.edges(); ++i) {
    vertex_t u = forest.source[i], v = forest.target[i];
    if (g.degree(u) > g.degree(v)) std::swap(u, v);
    auto b = g.column.begin() + g.row_offset[u], e = g.column.begin() + g.row_offset[u + 1];
    not_graph_edges += std::find(b, e, v) == e;
  }
  CHECK(not_graph_edges == 0);
  CHECK_NOTHROW(root_forest(rt, forest));
}

std::size_t count_components(const std::vector<vertex_t>& label) {
  std::size_t count = 0;
  for (std::size_t v = 0; v < label.size(); ++v) count += label[v] == static_cast<vertex_t>(v);
  return count;
}

}  // namespace

TEST_CASE("connectivity: CSR graphs of every family, with 0, 1 and 2 sampled arcs per row") {
  auto& rt = test::runtime();
  for (const auto& [family, g] : test::graph_families()) {
    const std::string& name = family;  // C++17: a lambda (CAPTURE) cannot capture a binding
    CAPTURE(name);
    const auto expected = test::min_labels(g);
    const std::size_t components = count_components(expected);
    DeviceGraph device(rt, g);
    for (std::size_t samples : {0, 1, 2}) {
      CAPTURE(samples);
      test::ScopedTuning tuning;
      tuning->set("connectivity_samples", samples);
      tuning->set("connectivity_sample_degree", 0);  // sample whatever the degree
      Components cc = connected_components(rt, device);
      CHECK(cc.label.download(rt) == expected);
      CHECK(cc.count == components);
      check_spanning_forest(g, cc, components);
    }
  }
}

TEST_CASE("connectivity: the giant-component skip on a graph with one large component") {
  // A Kronecker graph has a giant component and many isolated vertices: with sampling, the
  // hooking pass skips the giant's vertices; a small component of long rows beside it must still
  // be joined through the team and work-group paths.
  auto& rt = test::runtime();
  Csr kron = generate::kronecker(14, 16, 3);
  std::vector<std::pair<vertex_t, vertex_t>> edges;
  for (std::size_t u = 0; u < kron.vertices(); ++u)
    for (auto a = kron.row_offset[u]; a < kron.row_offset[u + 1]; ++a)
      if (kron.column[a] < static_cast<vertex_t>(u))
        edges.emplace_back(static_cast<vertex_t>(u), kron.column[a]);
  const vertex_t base = static_cast<vertex_t>(kron.vertices());
  for (vertex_t i = 1; i < 5000; ++i) edges.emplace_back(base, base + i);  // a star of 4999 arms
  for (vertex_t i = 1; i < 400; ++i) edges.emplace_back(base + 5000, base + 5000 + i);
  edges.emplace_back(base + 4999, base + 5000);  // joined into one component through an arm
  Csr g = test::raw_csr(kron.vertices() + 5400, edges);
  const auto expected = test::min_labels(g);
  DeviceGraph device(rt, g);
  for (std::size_t samples : {1, 2, 3}) {
    test::ScopedTuning tuning;
    tuning->set("connectivity_samples", samples);
    tuning->set("connectivity_sample_degree", 0);
    Components cc = connected_components(rt, device);
    CHECK(cc.label.download(rt) == expected);
    check_spanning_forest(g, cc, count_components(expected));
  }
}

TEST_CASE("connectivity: edge lists (every arc, both orders) give the same labels") {
  auto& rt = test::runtime();
  for (const auto& [family, g] : test::graph_families()) {
    const std::string& name = family;  // C++17: a lambda (CAPTURE) cannot capture a binding
    CAPTURE(name);
    std::vector<vertex_t> source;
    for (std::size_t u = 0; u < g.vertices(); ++u)
      for (auto a = g.row_offset[u]; a < g.row_offset[u + 1]; ++a)
        source.push_back(static_cast<vertex_t>(u));
    auto s = DeviceArray<vertex_t>::upload(rt, source);
    auto t = DeviceArray<vertex_t>::upload(rt, g.column);
    const auto expected = test::min_labels(g);
    Components cc = connected_components(rt, g.vertices(), s.buffer(), t.buffer(), source.size());
    CHECK(cc.label.download(rt) == expected);
    check_spanning_forest(g, cc, count_components(expected));
  }
}
