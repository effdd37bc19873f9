// Distributed connected components and BFS spanning forests (distributed/distributed_bfs.hpp).
// Local components on the device, then rounds of label exchange over the cut arcs on the host:
// each round moves every component's smallest label across one more rank boundary.
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstring>

#include "treefix/core/parallel.hpp"
#include "treefix/distributed/distributed_bfs.hpp"
#include "treefix/graph/connectivity.hpp"
#include "treefix/graph/device_graph.hpp"

namespace treefix {

namespace {

// The rank's vertices joined by the arcs between them (local ids), both directions stored.
Csr local_part(const LocalGraph& g) {
  const std::size_t local_n = g.local_vertices();
  const std::int64_t first = g.begin(), end = g.end();
  Csr part;
  part.undirected = true;
  part.row_offset.assign(local_n + 1, 0);
  parallel_for(local_n, [&](std::size_t v) {
    std::int64_t inside = 0;
    for (std::int64_t e = g.row_offset[v]; e < g.row_offset[v + 1]; ++e)
      inside += g.column[e] >= first && g.column[e] < end;
    part.row_offset[v] = inside;
  });
  exclusive_sum(part.row_offset.data(), local_n + 1);
  part.column.resize(part.row_offset[local_n]);
  parallel_for(local_n, [&](std::size_t v) {
    std::int64_t at = part.row_offset[v];
    for (std::int64_t e = g.row_offset[v]; e < g.row_offset[v + 1]; ++e)
      if (g.column[e] >= first && g.column[e] < end)
        part.column[at++] = static_cast<vertex_t>(g.column[e] - first);
  });
  return part;
}

// The same graph with the reverse of every arc added (components of a directed graph are those
// of its undirected graph).
LocalGraph symmetrized(const World& world, const LocalGraph& g) {
  std::vector<vertex_t> source(g.local_arcs()), target(g.column);
  for (std::size_t v = 0; v < g.local_vertices(); ++v)
    std::fill(source.begin() + g.row_offset[v], source.begin() + g.row_offset[v + 1],
              static_cast<vertex_t>(g.begin() + v));
  return local_graph_from_arcs(world, g.vertices, std::move(source), std::move(target), true);
}

DistributedComponents components_of_undirected(const World& world, Runtime& runtime,
                                               const LocalGraph& g, Profile* profile) {
  const std::size_t local_n = g.local_vertices();
  const std::int64_t first = g.begin(), end = g.end();
  // Local components: rep[v] is the smallest local id of v's component among the rank's arcs.
  std::vector<vertex_t> rep(local_n);
  if (local_n) {
    DeviceGraph part(runtime, local_part(g), profile);
    rep = connected_components(runtime, part, profile).label.download(runtime, profile);
  }
  // Every rank asks once for the labels of the vertices its cut arcs reach (its ghosts, in id
  // order, hence grouped by owner); each round the owners answer in the same order. ghost_of[w]
  // is w's place among the ghosts (n entries: one array lookup per cut arc and round).
  std::vector<std::int32_t> ghost_of(g.vertices, 0);
  parallel_for(local_n, [&](std::size_t v) {
    for (std::int64_t e = g.row_offset[v]; e < g.row_offset[v + 1]; ++e)
      if (g.column[e] < first || g.column[e] >= end)
        __atomic_store_n(&ghost_of[g.column[e]], 1, __ATOMIC_RELAXED);
  });
  std::vector<vertex_t> ghosts;
  for (std::size_t w = 0; w < g.vertices; ++w)
    if (ghost_of[w]) {
      ghost_of[w] = static_cast<std::int32_t>(ghosts.size());
      ghosts.push_back(static_cast<vertex_t>(w));
    }
  std::vector<std::size_t> request_bytes(world.size(), 0), asked_bytes;
  for (vertex_t w : ghosts) request_bytes[g.partition.owner(w)] += sizeof(vertex_t);
  const std::vector<char> asked_raw =
      world.all_to_all(reinterpret_cast<const char*>(ghosts.data()), request_bytes, asked_bytes);
  std::vector<vertex_t> asked(asked_raw.size() / sizeof(vertex_t));
  if (!asked.empty()) std::memcpy(asked.data(), asked_raw.data(), asked_raw.size());

  // label[c] of local component c (indexed by its representative): its smallest global id.
  std::vector<vertex_t> label(local_n);
  for (std::size_t v = 0; v < local_n; ++v) label[v] = static_cast<vertex_t>(first + v);
  DistributedComponents result;
  std::vector<vertex_t> answer(asked.size());
  const Ranges pieces(local_n, host_threads() * 4, 1024);
  for (;;) {
    const auto start = std::chrono::steady_clock::now();
    parallel_for(asked.size(), [&](std::size_t i) { answer[i] = label[rep[asked[i] - first]]; });
    std::vector<std::size_t> received_bytes;
    const std::vector<char> reply =
        world.all_to_all(reinterpret_cast<const char*>(answer.data()), asked_bytes, received_bytes);
    result.exchange_milliseconds +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const vertex_t* ghost_label = reinterpret_cast<const vertex_t*>(reply.data());
    // Every cut arc lowers its local component's label to the far end's (an atomic minimum:
    // the components' vertices are spread over the pieces).
    std::vector<char> changed(pieces.count, 0);
    parallel_for(pieces.count, [&](std::size_t piece) {
      for (std::size_t v = pieces.begin(piece); v < pieces.end(piece); ++v) {
        vertex_t seen = INT_MAX;
        for (std::int64_t e = g.row_offset[v]; e < g.row_offset[v + 1]; ++e)
          if (g.column[e] < first || g.column[e] >= end)
            seen = std::min(seen, ghost_label[ghost_of[g.column[e]]]);
        vertex_t* component = &label[rep[v]];
        vertex_t now = __atomic_load_n(component, __ATOMIC_RELAXED);
        while (seen < now)
          if (__atomic_compare_exchange_n(component, &now, seen, false, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED)) {
            changed[piece] = 1;
            break;
          }
      }
    });
    ++result.merge_rounds;
    if (!world.any(std::find(changed.begin(), changed.end(), 1) != changed.end())) break;
  }
  result.label.resize(local_n);
  std::uint64_t count = 0;
  for (std::size_t v = 0; v < local_n; ++v) {
    result.label[v] = label[rep[v]];
    count += result.label[v] == first + static_cast<std::int64_t>(v);
  }
  result.count = world.sum(count);
  return result;
}

}  // namespace

DistributedComponents distributed_components(const World& world, Runtime& runtime,
                                             const LocalGraph& graph, Profile* profile) {
  if (graph.undirected) return components_of_undirected(world, runtime, graph, profile);
  return components_of_undirected(world, runtime, symmetrized(world, graph), profile);
}

std::vector<vertex_t> distributed_bfs_forest(const World& world, Runtime& runtime,
                                             const LocalGraph& g, vertex_t root, Profile* profile) {
  const DistributedComponents cc = distributed_components(world, runtime, g, profile);
  const std::int64_t first = g.begin();
  const bool has_root = root >= 0;
  const std::int64_t root_label =
      world.min(has_root && root >= first && root < g.end() ? cc.label[root - first] : LLONG_MAX);
  // The roots: every component's smallest vertex with arcs (isolated vertices stay roots without
  // a search), except in the root's component, where the root is.
  std::vector<vertex_t> local_roots;
  for (std::size_t v = 0; v < g.local_vertices(); ++v)
    if (cc.label[v] == first + static_cast<std::int64_t>(v) &&
        g.row_offset[v + 1] > g.row_offset[v] && cc.label[v] != root_label)
      local_roots.push_back(cc.label[v]);
  std::vector<vertex_t> roots = all_gather(world, local_roots);
  if (has_root) roots.push_back(root);
  DeviceLocalGraph device_graph(world, runtime, g, profile);
  DistributedBfsOptions options;
  options.profile = profile;
  return distributed_bfs(world, runtime, device_graph, roots, options).parent;
}

}  // namespace treefix
