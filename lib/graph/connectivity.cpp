// Connected components by asynchronous union-find (kernels/graph/connectivity.cl): ECL-CC's
// initialisation and degree-split hooking, Afforest's sampling and giant-component skip.
#include "treefix/graph/connectivity.hpp"

#include <algorithm>
#include <climits>
#include <string>

#include "graph/connectivity_tuning.hpp"
#include "graph/graph_detail.hpp"
#include "treefix/core/launch.hpp"

namespace treefix {
namespace detail {

namespace {
constexpr std::size_t kTeam = 32;  // work-items per medium row (the kernels' TEAM)

// The hooking edges, packed into the components' spanning forest (phase "cc-forest"); the count
// of components.
void pack_forest(Runtime& rt, const Kernels& labels, std::size_t n, const cl::Buffer& hook_source,
                 const cl::Buffer& target, Connectivity& out, Profile* profile) {
  const Phase phase{profile, "cc-forest"};
  Kernels cc = labels.in(phase.name);
  cl::Buffer count = rt.allocate(sizeof(cl_int), "spanning forest size");
  cl::Buffer forest_source = rt.allocate(std::max<std::size_t>(1, n) * sizeof(cl_int),
                                         "spanning forest");
  cl::Buffer forest_target = rt.allocate(std::max<std::size_t>(1, n) * sizeof(cl_int),
                                         "spanning forest");
  fill(rt, count, cl_int(0), 1, phase);
  cc.run("cc_forest", cc.items(n), out.hook_edge, hook_source, target, forest_source,
         forest_target, count, static_cast<cl_int>(n));
  const std::size_t forest_edges = static_cast<std::size_t>(read_value<cl_int>(rt, count));
  out.components.count = n - forest_edges;
  out.components.forest_source = DeviceArray<vertex_t>(rt, forest_edges, "spanning forest");
  out.components.forest_target = DeviceArray<vertex_t>(rt, forest_edges, "spanning forest");
  if (forest_edges > 0) {
    rt.queue().enqueueCopyBuffer(forest_source, out.components.forest_source.buffer(), 0, 0,
                                 forest_edges * sizeof(cl_int));
    rt.queue().enqueueCopyBuffer(forest_target, out.components.forest_target.buffer(), 0, 0,
                                 forest_edges * sizeof(cl_int));
  }
}
}  // namespace

void require_graph_indices(std::size_t vertices, std::size_t edges, const char* what) {
  if (vertices >= static_cast<std::size_t>(INT_MAX) ||
      edges >= static_cast<std::size_t>(INT_MAX / 2))
    throw CapacityError(std::string(what) + " of " + std::to_string(vertices) + " vertices and " +
                        std::to_string(edges) +
                        " edges: the device code uses 32-bit indices (at most " +
                        std::to_string(INT_MAX - 1) + " vertices and " +
                        std::to_string(INT_MAX / 2 - 1) + " edges)");
}

Connectivity connectivity(Runtime& rt, std::size_t n, const cl::Buffer& source,
                          const cl::Buffer& target, std::size_t edges, Profile* profile) {
  const Phase phase{profile, "connectivity"};
  Kernels cc(rt, "graph/connectivity.cl", "", phase);
  const cl_int count = static_cast<cl_int>(n);
  Connectivity out;
  out.components.label = DeviceArray<vertex_t>(rt, n, "component labels");
  const cl::Buffer& parent = out.components.label.buffer();
  out.hook_edge = rt.allocate(std::max<std::size_t>(1, n) * sizeof(cl_int), "hooking edges");
  cl::Buffer hook_source =
      rt.allocate(std::max<std::size_t>(1, n) * sizeof(cl_int), "hooking sources");
  if (n > 0) {
    cc.run("cc_init_identity", cc.grid_stride(n), parent, out.hook_edge, count);
    if (edges > 0)
      cc.run("cc_hook_edges", cc.grid_stride(edges), source, target, parent, out.hook_edge,
             hook_source, static_cast<cl_int>(edges));
    cc.run("cc_compress", cc.grid_stride(n), parent, count);
  }
  pack_forest(rt, cc, n, hook_source, target, out, profile);
  return out;
}

Connectivity connectivity(Runtime& rt, const DeviceGraph& graph, Profile* profile) {
  const Phase phase{profile, "connectivity"};
  const std::size_t n = graph.vertices(), arcs = graph.arcs();
  const std::string options = std::string(graph.offset_option()) + " -DTEAM=" +
                              std::to_string(kTeam);
  Kernels cc(rt, "graph/connectivity.cl", options, phase);
  const std::size_t wg = cc.wg_size(), chunk = 8 * wg, medium_most = 11 * kTeam;
  const cl_int count = static_cast<cl_int>(n);
  const std::size_t edge_bytes = graph.wide_offsets() ? 8 : 4;
  Connectivity out;
  out.components.label = DeviceArray<vertex_t>(rt, n, "component labels");
  const cl::Buffer& parent = out.components.label.buffer();
  const std::size_t slots = std::max<std::size_t>(1, n);
  out.hook_edge = rt.allocate(slots * sizeof(cl_int), "hooking edges");
  cl::Buffer hook_source = rt.allocate(slots * sizeof(cl_int), "hooking sources");
  if (n > 0) {
    // Work lists: every row longer than SMALL_ROW is medium (at most n) or large (one entry per
    // chunk of CHUNK arcs: at most arcs / medium_most rows, plus arcs / chunk chunks).
    const std::size_t large_slots = arcs / medium_most + arcs / chunk + 1;
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
    cc.run("cc_init_csr", vertices, graph.row_offset(), graph.column(), parent, out.hook_edge,
           hook_source, count);
    for (std::size_t k = 0; k < samples; ++k)
      cc.run("cc_sample", vertices, graph.row_offset(), graph.column(), parent, out.hook_edge,
             hook_source, count, static_cast<cl_int>(k));
    if (samples > 0) {
      cc.run("cc_compress", vertices, parent, count);
      // a component holding an eighth of the samples is worth skipping
      cc.run("cc_find_giant", cc.groups(1), parent, giant, count, cl_int(1024 / 8));
    } else {
      fill(rt, giant, cl_int(-1), 1, phase);
    }
    fill(rt, counters, cl_int(0), 2, phase);
    cc.run("cc_hook_vertices", vertices, graph.row_offset(), graph.column(), parent,
           out.hook_edge, hook_source, giant, medium, large_vertex, large_first, counters, count,
           static_cast<cl_int>(samples));
    const Grid all = cc.groups(rt.saturating_groups(wg));
    cc.run("cc_hook_teams", all, graph.row_offset(), graph.column(), parent, out.hook_edge,
           hook_source, giant, medium, counters, static_cast<cl_int>(samples));
    cc.run("cc_hook_groups", all, graph.row_offset(), graph.column(), parent, out.hook_edge,
           hook_source, giant, large_vertex, large_first, counters);
    cc.run("cc_compress", vertices, parent, count);
  }
  pack_forest(rt, cc, n, hook_source, graph.column(), out, profile);
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
  detail::require_graph_indices(vertices, edges / 2, "connectivity");
  return translate_device_errors("connected components", [&] {
    return detail::connectivity(runtime, vertices, source, target, edges, profile).components;
  });
}

Components connected_components(Runtime& runtime, const DeviceGraph& graph, Profile* profile) {
  detail::require_graph_indices(graph.vertices(), graph.arcs() / 2 + 1, "connectivity");
  return translate_device_errors("connected components", [&] {
    return detail::connectivity(runtime, graph, profile).components;
  });
}

}  // namespace treefix
