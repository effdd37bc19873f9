// Connected components by asynchronous union-find (kernels/graph/connectivity.cl): ECL-CC's
// initialisation and degree-split hooking, Afforest's sampling and giant-component skip.
#include "treefix/graph/connectivity.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>

#include "graph/connectivity_tuning.hpp"
#include "graph/graph_detail.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/core/launch.hpp"

namespace treefix {
namespace detail {

namespace {
constexpr std::size_t kTeam = 32;                // work-items per medium row (the kernels' TEAM)
constexpr std::size_t kMediumMost = 11 * kTeam;  // the longest medium row (cc_hook_vertices)

// Entries of the work list of long-row chunks: every row longer than kMediumMost contributes
// ceil(length / chunk) chunks, so at most arcs / kMediumMost rows plus arcs / chunk.
std::uint64_t large_chunk_slots(std::uint64_t arcs, std::size_t chunk) {
  return arcs / kMediumMost + arcs / chunk + 1;
}

std::string graph_text(std::size_t vertices, std::uint64_t arcs) {
  return "connected components of a graph of " + std::to_string(vertices) + " vertices and " +
         std::to_string(arcs) + " arcs";
}

// The spanning forest from the hooking records (hook_source[v], hook_target[v]) of every hooked
// v (phase "cc-forest"); the count of components.
void pack_forest(Runtime& rt, const Kernels& labels, std::size_t n, const cl::Buffer& hook_source,
                 const cl::Buffer& hook_target, Components& out, Profile* profile) {
  const Phase phase{profile, "cc-forest"};
  Kernels cc = labels.in(phase.name);
  cl::Buffer count = rt.allocate(sizeof(cl_int), "spanning forest size");
  cl::Buffer forest_source =
      rt.allocate(std::max<std::size_t>(1, n) * sizeof(cl_int), "spanning forest");
  cl::Buffer forest_target =
      rt.allocate(std::max<std::size_t>(1, n) * sizeof(cl_int), "spanning forest");
  fill(rt, count, cl_int(0), 1, phase);
  cc.run("cc_forest", cc.items(n), hook_target, hook_source, forest_source, forest_target, count,
         static_cast<cl_int>(n));
  const std::size_t forest_edges = static_cast<std::size_t>(read_value<cl_int>(rt, count));
  out.count = n - forest_edges;
  out.forest_source = DeviceArray<vertex_t>(rt, forest_edges, "spanning forest");
  out.forest_target = DeviceArray<vertex_t>(rt, forest_edges, "spanning forest");
  if (forest_edges > 0) {
    rt.queue().enqueueCopyBuffer(forest_source, out.forest_source.buffer(), 0, 0,
                                 forest_edges * sizeof(cl_int));
    rt.queue().enqueueCopyBuffer(forest_target, out.forest_target.buffer(), 0, 0,
                                 forest_edges * sizeof(cl_int));
  }
}
}  // namespace

std::string csr_options(bool wide_offsets) {
  return std::string(DeviceGraph::offset_option_for(wide_offsets)) +
         " -DTEAM=" + std::to_string(kTeam);
}

void require_graph_indices(std::size_t vertices, std::size_t edges, const char* what) {
  if (vertices >= static_cast<std::size_t>(INT_MAX) ||
      edges >= static_cast<std::size_t>(INT_MAX / 2))
    throw CapacityError(std::string(what) + " of " + std::to_string(vertices) + " vertices and " +
                        std::to_string(edges) +
                        " edges: the device code uses 32-bit indices (at most " +
                        std::to_string(INT_MAX - 1) + " vertices and " +
                        std::to_string(INT_MAX / 2 - 1) + " edges)");
}

DeviceBytes csr_connectivity_bytes(std::size_t vertices, std::uint64_t arcs, bool wide_offsets,
                                   std::size_t work_group) {
  const std::uint64_t offset_bytes = wide_offsets ? 8 : 4;
  const std::uint64_t per_vertex = bytes_for(std::max<std::size_t>(1, vertices), 4);
  const std::uint64_t offsets = bytes_for(static_cast<std::uint64_t>(vertices) + 1, offset_bytes);
  const std::uint64_t columns = bytes_for(arcs, 4);
  const std::uint64_t chunks = large_chunk_slots(arcs, 8 * work_group);
  const std::uint64_t chunk_list = add_bytes(bytes_for(chunks, 4), bytes_for(chunks, offset_bytes));
  // Held throughout: the graph, the labels, both hooking records. Then either the hooking pass's
  // work lists (a medium row list per vertex and the chunk list), or the forest being packed
  // (two arrays per vertex, then the forest's own copy of at most as many).
  const std::uint64_t held = add_bytes(add_bytes(offsets, columns), bytes_for(per_vertex, 3));
  const std::uint64_t hooking = add_bytes(per_vertex, chunk_list);
  const std::uint64_t packing = bytes_for(per_vertex, 4);
  return {add_bytes(held, std::max(hooking, packing)),
          std::max({offsets, columns, per_vertex, bytes_for(chunks, offset_bytes)})};
}

void require_csr_connectivity(const Runtime& runtime, std::size_t vertices, std::uint64_t arcs,
                              bool wide_offsets, std::size_t work_group) {
  if (vertices >= static_cast<std::size_t>(INT_MAX))
    throw CapacityError(graph_text(vertices, arcs) + ": vertex ids are 32-bit (at most " +
                        std::to_string(INT_MAX - 1) + " vertices)");
  const DeviceBytes need = csr_connectivity_bytes(vertices, arcs, wide_offsets, work_group);
  runtime.require_fits(graph_text(vertices, arcs) + " (the graph, labels and working arrays)",
                       need.total, need.largest);
  // Past any device's memory today (some 5e11 arcs), but the list's indices are 32-bit.
  const std::uint64_t chunks = large_chunk_slots(arcs, 8 * work_group);
  if (chunks >= static_cast<std::uint64_t>(INT_MAX))
    throw CapacityError(graph_text(vertices, arcs) + ": the list of long-row chunks could hold " +
                        std::to_string(chunks) + " entries, and its indices are 32-bit (at most " +
                        std::to_string(INT_MAX - 1) + ")");
}

Connectivity connectivity(Runtime& rt, std::size_t n, const cl::Buffer& source,
                          const cl::Buffer& target, std::size_t edges, Profile* profile) {
  const Phase phase{profile, "connectivity"};
  Kernels cc(rt, "graph/connectivity.cl", "", phase);
  const cl_int count = static_cast<cl_int>(n);
  Connectivity out;
  out.components.label = DeviceArray<vertex_t>(rt, n, "component labels");
  const cl::Buffer& parent = out.components.label.buffer();
  const std::size_t slots = std::max<std::size_t>(1, n);
  out.hook_edge = rt.allocate(slots * sizeof(cl_int), "hooking edges");
  cl::Buffer hook_source = rt.allocate(slots * sizeof(cl_int), "hooking sources");
  cl::Buffer hook_target = rt.allocate(slots * sizeof(cl_int), "hooking targets");
  if (n > 0) {
    cc.run("cc_init_identity", cc.grid_stride(n), parent, out.hook_edge, count);
    if (edges > 0)
      cc.run("cc_hook_edges", cc.grid_stride(edges), source, target, parent, out.hook_edge,
             hook_source, static_cast<cl_int>(edges));
    cc.run("cc_compress", cc.grid_stride(n), parent, count);
    cc.run("cc_edge_targets", cc.items(n), out.hook_edge, target, hook_target, count);
  }
  pack_forest(rt, cc, n, hook_source, hook_target, out.components, profile);
  return out;
}

Components connectivity(Runtime& rt, const DeviceGraph& graph, Profile* profile) {
  const Phase phase{profile, "connectivity"};
  const std::size_t n = graph.vertices(), arcs = graph.arcs();
  Kernels cc(rt, "graph/connectivity.cl", csr_options(graph.wide_offsets()), phase);
  const std::size_t wg = cc.wg_size(), chunk = 8 * wg;
  require_csr_connectivity(rt, n, arcs, graph.wide_offsets(), wg);
  const cl_int count = static_cast<cl_int>(n);
  const std::size_t edge_bytes = graph.wide_offsets() ? 8 : 4;
  Components out;
  out.label = DeviceArray<vertex_t>(rt, n, "component labels");
  const cl::Buffer& parent = out.label.buffer();
  const std::size_t slots = std::max<std::size_t>(1, n);
  // The hooking records: per hooked vertex the edge's other end (a vertex id, whatever the arcs)
  cl::Buffer hook_target = rt.allocate(slots * sizeof(cl_int), "hooking targets");
  cl::Buffer hook_source = rt.allocate(slots * sizeof(cl_int), "hooking sources");
  if (n > 0) {
    // Work lists: medium rows (at most n) and chunks of CHUNK arcs of the large rows.
    const std::size_t large_slots = large_chunk_slots(arcs, chunk);
    cl::Buffer medium = rt.allocate(slots * sizeof(cl_int), "connectivity work list");
    cl::Buffer large_vertex = rt.allocate(large_slots * sizeof(cl_int), "connectivity work list");
    cl::Buffer large_first = rt.allocate(large_slots * edge_bytes, "connectivity work list");
    cl::Buffer counters = rt.allocate(2 * sizeof(cl_int), "connectivity counters");
    cl::Buffer giant = rt.allocate(sizeof(cl_int), "giant component");
    const Tuning& tuning = rt.tuning();
    const std::size_t samples = arcs >= tuning[knobs::connectivity_sample_degree] * n
                                    ? tuning[knobs::connectivity_samples]
                                    : 0;
    const Grid vertices = cc.grid_stride(n);
    cc.run("cc_init_csr", vertices, graph.row_offset(), graph.column(), parent, hook_target,
           hook_source, count);
    for (std::size_t k = 0; k < samples; ++k)
      cc.run("cc_sample", vertices, graph.row_offset(), graph.column(), parent, hook_target,
             hook_source, count, static_cast<cl_int>(k));
    if (samples > 0) {
      cc.run("cc_compress", vertices, parent, count);
      // a component holding an eighth of the samples is worth skipping
      cc.run("cc_find_giant", cc.groups(1), parent, giant, count, cl_int(1024 / 8));
    } else {
      fill(rt, giant, cl_int(-1), 1, phase);
    }
    fill(rt, counters, cl_int(0), 2, phase);
    cc.run("cc_hook_vertices", vertices, graph.row_offset(), graph.column(), parent, hook_target,
           hook_source, giant, medium, large_vertex, large_first, counters, count,
           static_cast<cl_int>(samples));
    const Grid all = cc.groups(rt.saturating_groups(wg));
    cc.run("cc_hook_teams", all, graph.row_offset(), graph.column(), parent, hook_target,
           hook_source, giant, medium, counters, static_cast<cl_int>(samples));
    cc.run("cc_hook_groups", all, graph.row_offset(), graph.column(), parent, hook_target,
           hook_source, giant, large_vertex, large_first, counters);
    cc.run("cc_compress", vertices, parent, count);
  }
  pack_forest(rt, cc, n, hook_source, hook_target, out, profile);
  return out;
}

DeviceArray<vertex_t> arc_sources(Runtime& runtime, const DeviceGraph& graph, const Phase& phase) {
  DeviceArray<vertex_t> source(runtime, graph.arcs(), "arc sources");
  Kernels cc(runtime, "graph/connectivity.cl", graph.offset_option(), phase);
  if (graph.arcs() > 0)
    cc.run("cc_arc_sources", cc.items(graph.arcs()), graph.row_offset(), source,
           static_cast<cl_int>(graph.vertices()), static_cast<cl_int>(graph.arcs()));
  return source;
}

cl_int first_cycle_edge(Runtime& rt, const cl::Buffer& hook_edge, std::size_t n,
                        std::size_t edges) {
  const Phase phase{nullptr, "check"};
  Kernels cc(rt, "graph/connectivity.cl", "", phase);
  cl::Buffer used = rt.allocate(edges, "cycle check");
  cl::Buffer first = rt.allocate(sizeof(cl_int), "cycle check");
  fill(rt, used, cl_char(0), edges, phase);
  cc.run("cc_mark_hooking", cc.items(n), hook_edge, used, static_cast<cl_int>(n));
  fill(rt, first, cl_int(INT_MAX), 1, phase);
  cc.run("cc_first_unused", cc.items(edges), used, first, static_cast<cl_int>(edges));
  return read_value<cl_int>(rt, first);
}

}  // namespace detail

Components connected_components(Runtime& runtime, std::size_t vertices, const cl::Buffer& source,
                                const cl::Buffer& target, std::size_t edges, Profile* profile) {
  detail::require_graph_indices(vertices, edges, "connected components of an edge list");
  return translate_device_errors("connected components", [&] {
    return detail::connectivity(runtime, vertices, source, target, edges, profile).components;
  });
}

void require_components_fit(Runtime& runtime, std::size_t vertices, std::uint64_t arcs) {
  const bool wide = DeviceGraph::needs_wide_offsets(arcs);
  const Kernels cc(runtime, "graph/connectivity.cl", detail::csr_options(wide), {});
  detail::require_csr_connectivity(runtime, vertices, arcs, wide, cc.wg_size());
}

Components connected_components(Runtime& runtime, const DeviceGraph& graph, Profile* profile) {
  return translate_device_errors("connected components",
                                 [&] { return detail::connectivity(runtime, graph, profile); });
}

}  // namespace treefix
