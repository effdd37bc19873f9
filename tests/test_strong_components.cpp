// Strongly connected components on the device (graph/strong_components.hpp) against Tarjan's
// algorithm on the host, on directed graphs of every shape: empty, single vertices, cycles,
// paths both ways, DAGs, stars, nested cycles, self loops and repeats, random graphs sparse and
// dense, the directed excerpts of the real graphs; and component numbering (vertex_results.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "fixture.hpp"
#include "graph_families.hpp"
#include "treefix/graph/csr.hpp"
#include "treefix/graph/device_graph.hpp"
#include "treefix/graph/strong_components.hpp"
#include "treefix/graph/vertex_results.hpp"

using namespace treefix;

namespace {

// Tarjan's algorithm without recursion: each vertex's component labelled by its smallest vertex.
std::vector<vertex_t> tarjan_labels(const Csr& g) {
  const std::size_t n = g.vertices();
  std::vector<vertex_t> index(n, -1), low(n, 0), label(n, -1), stack;
  std::vector<bool> on_stack(n, false);
  std::vector<std::pair<vertex_t, std::int64_t>> calls;  // vertex, next arc
  vertex_t next_index = 0;
  for (std::size_t root = 0; root < n; ++root) {
    if (index[root] >= 0) continue;
    calls.push_back({static_cast<vertex_t>(root), g.row_offset[root]});
    while (!calls.empty()) {
      auto& [v, arc] = calls.back();
      if (arc == g.row_offset[v]) {
        if (index[v] < 0) {
          index[v] = low[v] = next_index++;
          stack.push_back(v);
          on_stack[v] = true;
        }
      }
      if (arc < g.row_offset[v + 1]) {
        const vertex_t w = g.column[arc++];
        if (index[w] < 0) {
          calls.push_back({w, g.row_offset[w]});
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      if (low[v] == index[v]) {
        std::vector<vertex_t> members;
        vertex_t w;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[w] = false;
          members.push_back(w);
        } while (w != v);
        const vertex_t smallest = *std::min_element(members.begin(), members.end());
        for (vertex_t m : members) label[m] = smallest;
      }
      const vertex_t done = v;
      calls.pop_back();
      if (!calls.empty()) low[calls.back().first] = std::min(low[calls.back().first], low[done]);
    }
  }
  return label;
}

Csr directed_graph(std::size_t n, const std::vector<std::pair<vertex_t, vertex_t>>& arcs) {
  std::vector<vertex_t> from, to;
  for (auto [u, v] : arcs) {
    from.push_back(u);
    to.push_back(v);
  }
  return csr_from_edges(n, from, to, false);
}

Csr random_directed(std::size_t n, std::size_t m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::pair<vertex_t, vertex_t>> arcs;
  for (std::size_t i = 0; i < m && n > 0; ++i)
    arcs.emplace_back(static_cast<vertex_t>(rng() % n), static_cast<vertex_t>(rng() % n));
  return directed_graph(n, arcs);
}

// Cycles of `size` vertices, joined in a chain of one-way arcs, ids shuffled.
Csr chained_cycles(std::size_t cycles, std::size_t size, std::uint64_t seed) {
  const std::size_t n = cycles * size;
  std::vector<vertex_t> id(n);
  std::iota(id.begin(), id.end(), 0);
  std::shuffle(id.begin(), id.end(), std::mt19937_64(seed));
  std::vector<std::pair<vertex_t, vertex_t>> arcs;
  for (std::size_t c = 0; c < cycles; ++c) {
    for (std::size_t i = 0; i < size; ++i)
      arcs.emplace_back(id[c * size + i], id[c * size + (i + 1) % size]);
    if (c + 1 < cycles) arcs.emplace_back(id[c * size], id[(c + 1) * size + size / 2]);
  }
  return directed_graph(n, arcs);
}

std::vector<test::NamedGraph> directed_families() {
  std::vector<test::NamedGraph> g;
  g.push_back({"empty", directed_graph(0, {})});
  g.push_back({"one vertex", directed_graph(1, {})});
  g.push_back({"one vertex, self loop", test::raw_csr(1, {{0, 0}})});
  g.push_back({"two-cycle", directed_graph(2, {{0, 1}, {1, 0}})});
  g.push_back({"one-way pair", directed_graph(2, {{1, 0}})});
  {
    std::vector<std::pair<vertex_t, vertex_t>> up, down, ring;
    for (vertex_t v = 0; v + 1 < 1009; ++v) {
      up.emplace_back(v, v + 1);
      down.emplace_back(v + 1, v);
      ring.emplace_back(v, v + 1);
    }
    ring.emplace_back(1008, 0);
    g.push_back({"path up", directed_graph(1009, up)});
    g.push_back({"path down", directed_graph(1009, down)});
    g.push_back({"ring of 1009", directed_graph(1009, ring)});
  }
  {
    std::vector<std::pair<vertex_t, vertex_t>> out, in;
    for (vertex_t v = 1; v < 4099; ++v) {
      out.emplace_back(0, v);
      in.emplace_back(v, 0);
    }
    g.push_back({"star out", directed_graph(4099, out)});
    std::vector<std::pair<vertex_t, vertex_t>> both = out;
    both.insert(both.end(), in.begin(), in.end());
    g.push_back({"star both ways", directed_graph(4099, both)});
  }
  {  // a DAG: arcs from smaller to larger ids only
    Csr r = random_directed(3001, 12000, 3);
    std::vector<std::pair<vertex_t, vertex_t>> dag;
    for (std::size_t v = 0; v < r.vertices(); ++v)
      for (auto a = r.row_offset[v]; a < r.row_offset[v + 1]; ++a)
        if (r.column[a] > static_cast<vertex_t>(v)) dag.emplace_back(static_cast<vertex_t>(v), r.column[a]);
    g.push_back({"random DAG", directed_graph(3001, dag)});
  }
  g.push_back({"chained cycles 97 x 31", chained_cycles(97, 31, 4)});
  g.push_back({"self loops and repeats",
               test::raw_csr(5, {{0, 0}, {0, 1}, {0, 1}, {1, 2}, {2, 0}, {3, 3}, {3, 4}})});
  g.push_back({"random sparse m = n", random_directed(65537, 65537, 5)});
  g.push_back({"random m = 2n", random_directed(20011, 40022, 6)});
  g.push_back({"random dense m = 8n", random_directed(4099, 32792, 7)});
  for (const char* name : {"notredame_excerpt.mtx", "epinions_excerpt.mtx"})
    g.push_back({name, read_graph(test::graph_data(name))});
  return g;
}

}  // namespace

TEST_CASE("strong components on the device equal Tarjan's on every directed shape") {
  auto& rt = test::runtime();
  for (const auto& [name, graph] : directed_families()) {
    const auto name_shown = name;  // CAPTURE copies no structured binding (C++17)
    CAPTURE(name_shown);
    const std::vector<vertex_t> expected = tarjan_labels(graph);
    for (OffsetWidth width : {OffsetWidth::fit, OffsetWidth::wide}) {
      StrongComponents scc = strong_components(rt, DeviceGraph(rt, graph, nullptr, width));
      const std::vector<vertex_t> got = scc.label.download(rt);
      CHECK(got == expected);
      std::size_t count = 0;
      for (std::size_t v = 0; v < expected.size(); ++v) count += expected[v] == vertex_t(v);
      CHECK(scc.count == count);
      if (graph.vertices() > 0) CHECK(scc.rounds >= 1);
    }
  }
}

TEST_CASE("components are numbered in the order of their smallest vertex, on the device") {
  auto& rt = test::runtime();
  for (std::size_t n : test::awkward_sizes()) {
    CAPTURE(n);
    // Representatives: the largest vertex of blocks of random sizes, shuffled ids.
    std::mt19937_64 rng(n);
    std::vector<vertex_t> id(n);
    std::iota(id.begin(), id.end(), 0);
    std::shuffle(id.begin(), id.end(), rng);
    std::vector<vertex_t> label(n);
    for (std::size_t first = 0; first < n;) {
      const std::size_t size = std::min<std::size_t>(n - first, 1 + rng() % 5);
      const vertex_t largest = *std::max_element(id.begin() + first, id.begin() + first + size);
      for (std::size_t i = first; i < first + size; ++i) label[id[i]] = largest;
      first += size;
    }
    // The expected numbering, and the smallest vertex of each component.
    std::vector<vertex_t> smallest(n, -1), number(n, -1), expected(n);
    for (std::size_t v = 0; v < n; ++v)
      if (smallest[label[v]] < 0) smallest[label[v]] = static_cast<vertex_t>(v);
    vertex_t next = 0;
    for (std::size_t v = 0; v < n; ++v)
      if (smallest[label[v]] == static_cast<vertex_t>(v)) number[v] = next++;
    for (std::size_t v = 0; v < n; ++v) expected[v] = number[smallest[label[v]]];
    auto device = DeviceArray<vertex_t>::upload(rt, label);
    CHECK(number_components(rt, device, false) == static_cast<std::size_t>(next));
    CHECK(device.download(rt) == expected);
    // Labels that are their components' smallest vertices already.
    std::vector<vertex_t> minima(n);
    for (std::size_t v = 0; v < n; ++v) minima[v] = smallest[label[v]];
    auto by_minimum = DeviceArray<vertex_t>::upload(rt, label);
    label_by_minimum(rt, by_minimum);
    CHECK(by_minimum.download(rt) == minima);
    CHECK(number_components(rt, by_minimum, true) == static_cast<std::size_t>(next));
    CHECK(by_minimum.download(rt) == expected);
    // Missing parents marked.
    std::vector<vertex_t> parent(n);
    for (std::size_t v = 0; v < n; ++v) parent[v] = v % 3 == 0 ? -1 : static_cast<vertex_t>(v / 2);
    auto device_parent = DeviceArray<vertex_t>::upload(rt, parent);
    mark_missing_parents(rt, device_parent, -9999);
    for (auto& p : parent) p = p < 0 ? -9999 : p;
    CHECK(device_parent.download(rt) == parent);
  }
}
