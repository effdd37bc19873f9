// Connected components against a host union-find on every graph family, through the CSR path
// (ECL-CC alone and with Afforest's sampling) and the edge-list path; the hooking edges must be
// a spanning forest of the graph.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "fixture.hpp"
#include "graph_families.hpp"
#include "treefix/core/error.hpp"
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

// The components of g on `device` (the labels, their count, the spanning forest) against the
// host union-find's labels `expected`.
void check_components(const Csr& g, const DeviceGraph& device,
                      const std::vector<vertex_t>& expected) {
  auto& rt = test::runtime();
  const std::size_t components = count_components(expected);
  Components cc = connected_components(rt, device);
  CHECK(cc.label.download(rt) == expected);
  CHECK(cc.count == components);
  check_spanning_forest(g, cc, components);
}

// The same on every graph family, with each of `samples` arcs per row sampled first (whatever
// the rows' degrees), with row offsets as narrow as fit or 64-bit.
void check_every_family(OffsetWidth width, std::initializer_list<std::size_t> samples) {
  auto& rt = test::runtime();
  for (const auto& [family, g] : test::graph_families()) {
    const std::string& name = family;  // C++17: a lambda (CAPTURE) cannot capture a binding
    CAPTURE(name);
    const auto expected = test::min_labels(g);
    DeviceGraph device(rt, g, nullptr, width);
    if (width == OffsetWidth::wide) REQUIRE(device.wide_offsets());
    for (std::size_t sampled : samples) {
      CAPTURE(sampled);
      test::ScopedTuning tuning;
      tuning->set("connectivity_samples", sampled);
      tuning->set("connectivity_sample_degree", 0);
      check_components(g, device, expected);
    }
  }
}

}  // namespace

TEST_CASE("connectivity: CSR graphs of every family, with 0, 1 and 2 sampled arcs per row") {
  check_every_family(OffsetWidth::fit, {0, 1, 2});
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

TEST_CASE("connectivity: 64-bit row offsets (the path of graphs past 2^31 arcs) on every family") {
  check_every_family(OffsetWidth::wide, {0, 2});
}

TEST_CASE("connectivity: a Kronecker graph of a million arcs, 32- and 64-bit row offsets") {
  // Long rows (hubs) go through the work-group chunks, whose first arcs are EDGE_T; the device's
  // own sampling setting decides, as in a real run.
  auto& rt = test::runtime();
  Csr g = generate::kronecker(16, 16, 7);
  REQUIRE(g.edges() > 1000000);
  const auto expected = test::min_labels(g);
  for (OffsetWidth width : {OffsetWidth::fit, OffsetWidth::wide}) {
    DeviceGraph device(rt, g, nullptr, width);
    CHECK(device.wide_offsets() == (width == OffsetWidth::wide));
    check_components(g, device, expected);
  }
}

TEST_CASE("connectivity: sizes past 32-bit vertex ids or the device are refused with the numbers") {
  auto& rt = test::runtime();
  auto refusal = [&](std::size_t vertices, std::uint64_t arcs) -> std::string {
    try {
      require_components_fit(rt, vertices, arcs);
    } catch (const CapacityError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(refusal(1000, 5000).empty());
  CHECK(refusal(0, 0).empty());
  // Row offsets turn 64-bit past INT32_MAX - 1 arcs, and that alone refuses nothing.
  CHECK_FALSE(DeviceGraph::needs_wide_offsets(2147483646));
  CHECK(DeviceGraph::needs_wide_offsets(2147483647));
  const std::string ids = refusal(2147483647, 10);
  CHECK(ids.find("2147483647 vertices and 10 arcs") != std::string::npos);
  CHECK(ids.find("at most 2147483646 vertices") != std::string::npos);
  // 2^42 arcs: 16 TiB of columns, beyond any device; refused by memory, not by index width.
  const std::string memory = refusal(std::size_t{1} << 27, std::uint64_t{1} << 42);
  CHECK(memory.find("134217728 vertices and 4398046511104 arcs") != std::string::npos);
  CHECK(memory.find("of device memory") != std::string::npos);
  CHECK(memory.find("32-bit") == std::string::npos);
  // A Kronecker graph of scale 27 (4.3e9 arcs, 17 GB of columns): fits or not by memory only.
  const std::string scale27 = refusal(std::size_t{1} << 27, 4294967296u + 12345);
  CHECK((scale27.empty() || scale27.find("of device memory") != std::string::npos));
  CHECK(scale27.find("32-bit") == std::string::npos);
}

TEST_CASE("connectivity: edge lists past 32-bit edge ids are refused with the edges given") {
  auto& rt = test::runtime();
  DeviceArray<vertex_t> ends(rt, 1, "edge ends");  // never read: refused first
  try {
    connected_components(rt, 10, ends.buffer(), ends.buffer(), std::size_t{1} << 30);
    FAIL("expected a CapacityError");
  } catch (const CapacityError& e) {
    const std::string message = e.what();
    CHECK(message.find("10 vertices and 1073741824 edges") != std::string::npos);
    CHECK(message.find("at most 2147483646 vertices and 1073741822 edges") != std::string::npos);
  }
}
