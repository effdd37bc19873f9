#pragma once
// Graphs shared by the graph tests (connectivity, BFS, rooted spanning forests): every family
// the brief names — random (dense and sparse, many components), skewed (Kronecker), grids and
// strips, paths, forests, stars — and excerpts of the real graphs (tests/data/graphs), with a
// host reference labelling.
#include <algorithm>
#include <filesystem>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "treefix/graph/csr.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/graph/graph_io.hpp"
#include "treefix/treefix/generate.hpp"

namespace treefix::test {

inline std::string graph_data(const std::string& name) {
  return (std::filesystem::path(__FILE__).parent_path() / "data" / "graphs" / name).string();
}

// A CSR of both directions of every pair, kept as given: self loops and repeated pairs stay.
inline Csr raw_csr(std::size_t n, const std::vector<std::pair<vertex_t, vertex_t>>& edges) {
  Csr g;
  g.row_offset.assign(n + 1, 0);
  for (auto [u, v] : edges) {
    ++g.row_offset[u + 1];
    ++g.row_offset[v + 1];
  }
  for (std::size_t v = 0; v < n; ++v) g.row_offset[v + 1] += g.row_offset[v];
  g.column.resize(2 * edges.size());
  std::vector<std::int64_t> next(g.row_offset.begin(), g.row_offset.end() - 1);
  for (auto [u, v] : edges) {
    g.column[next[u]++] = v;
    g.column[next[v]++] = u;
  }
  g.undirected = true;
  return g;
}

// The undirected graph of a parent array (a forest), ids as they are.
inline Csr forest_graph(const ParentArray& parent) {
  std::vector<std::pair<vertex_t, vertex_t>> edges;
  for (std::size_t v = 0; v < parent.size(); ++v)
    if (parent[v] >= 0) edges.emplace_back(static_cast<vertex_t>(v), parent[v]);
  return raw_csr(parent.size(), edges);
}

inline Csr random_undirected(std::size_t n, std::size_t m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::pair<vertex_t, vertex_t>> edges;
  for (std::size_t i = 0; i < m; ++i)
    edges.emplace_back(static_cast<vertex_t>(rng() % n), static_cast<vertex_t>(rng() % n));
  return raw_csr(n, edges);
}

struct NamedGraph {
  std::string name;
  Csr graph;
};

// Every family, at sizes that keep a PoCL run short.
inline std::vector<NamedGraph> graph_families() {
  std::vector<NamedGraph> g;
  g.push_back({"empty", raw_csr(0, {})});
  g.push_back({"single vertex", raw_csr(1, {})});
  g.push_back({"two vertices, no edge", raw_csr(2, {})});
  g.push_back({"random, m = 3n", random_undirected(65537, 3 * 65537, 17)});
  g.push_back({"random, m = n/2 (many components)", random_undirected(100003, 50001, 18)});
  g.push_back({"kronecker scale 13", generate::kronecker(13, 8, 5)});
  g.push_back({"grid 300x337", generate::grid2d(300, 337)});
  g.push_back({"strip 7x5003", generate::grid2d(7, 5003)});
  {
    auto path = generate::shuffle_labels(generate::path(100003), 9);
    std::vector<std::pair<vertex_t, vertex_t>> edges;
    for (std::size_t v = 0; v < path.size(); ++v)
      if (path[v] >= 0) edges.emplace_back(static_cast<vertex_t>(v), path[v]);
    edges.emplace_back(edges.front().first, edges.back().first);  // a long cycle
    edges.emplace_back(3, 3);                                     // a self loop
    edges.emplace_back(edges.front());                            // a repeated edge
    g.push_back({"shuffled path with extras", raw_csr(path.size(), edges)});
  }
  g.push_back({"random forest, 17 trees",
               forest_graph(generate::shuffle_labels(generate::random_forest(100003, 17, 8), 3))});
  g.push_back({"star", forest_graph(generate::star(65537))});
  for (const char* name : {"luxembourg_excerpt.mtx", "wave_excerpt.mtx", "notredame_excerpt.mtx",
                           "epinions_excerpt.mtx"})
    g.push_back({name, read_graph(graph_data(name))});
  return g;
}

// Smallest vertex of each component (host union-find): the reference labels.
inline std::vector<vertex_t> min_labels(const Csr& g) {
  std::vector<vertex_t> up(g.vertices());
  std::iota(up.begin(), up.end(), 0);
  auto find = [&](vertex_t v) {
    while (up[v] != v) v = up[v] = up[up[v]];
    return v;
  };
  for (std::size_t u = 0; u < g.vertices(); ++u)
    for (auto a = g.row_offset[u]; a < g.row_offset[u + 1]; ++a) {
      vertex_t x = find(static_cast<vertex_t>(u)), y = find(g.column[a]);
      if (x != y) up[std::max(x, y)] = std::min(x, y);
    }
  for (std::size_t v = 0; v < up.size(); ++v) up[v] = find(static_cast<vertex_t>(v));
  return up;
}

}  // namespace treefix::test
