// Connected components by hooking and pointer jumping (kernels/graph/connectivity.cl).
#include "treefix/graph/connectivity.hpp"

#include <climits>
#include <string>

#include "graph/graph_detail.hpp"
#include "treefix/core/launch.hpp"

namespace treefix {
namespace detail {

void require_graph_indices(std::size_t vertices, std::size_t edges, const char* what) {
  if (vertices >= static_cast<std::size_t>(INT_MAX) ||
      edges >= static_cast<std::size_t>(INT_MAX / 2))
    throw CapacityError(std::string(what) + " of " + std::to_string(vertices) + " vertices and " +
                        std::to_string(edges) +
                        " edges: the device code uses 32-bit indices "
                        "(fewer than 2^31 - 1 vertices and 2^30 edges)");
}

Connectivity connectivity(Runtime& rt, std::size_t n, const cl::Buffer& source,
                          const cl::Buffer& target, std::size_t edges, Profile* profile) {
  const Phase phase{profile, "connectivity"};
  Kernels cc(rt, "graph/connectivity.cl", "", phase);
  const cl_int count = static_cast<cl_int>(n), edge_count = static_cast<cl_int>(edges);
  Connectivity out;
  out.components.label = DeviceArray<vertex_t>(rt, n, "component labels");
  cl::Buffer& label = out.components.label.buffer();
  cl::Buffer hook_to = rt.allocate(n * sizeof(cl_int), "hook targets");
  out.hook_edge = rt.allocate(n * sizeof(cl_int), "hooking edges");
  cl::Buffer flag = rt.allocate(sizeof(cl_int), "connectivity flag");
  cc.run("cc_init", cc.items(n), label, hook_to, out.hook_edge, count);
  for (;;) {
    fill(rt, flag, cl_int(0), 1, phase);
    cc.run("cc_hook", cc.items(edges), source, target, label, hook_to, out.hook_edge, flag,
           edge_count, cl_int(0));
    if (read_value<cl_int>(rt, flag) == 0) break;
    cc.run("cc_hook", cc.items(edges), source, target, label, hook_to, out.hook_edge, flag,
           edge_count, cl_int(1));
    cc.run("cc_apply", cc.items(n), label, hook_to, count);
    cc.run("cc_jump", cc.items(n), label, flag, count);  // one pass: the next round needs no roots
  }
  do {  // full compression: every label becomes the component's root
    fill(rt, flag, cl_int(0), 1, phase);
    cc.run("cc_jump", cc.items(n), label, flag, count);
  } while (read_value<cl_int>(rt, flag) != 0);
  // The hooking edges, packed: one per hooked vertex (n - components of them).
  cl::Buffer forest_source = rt.allocate(n * sizeof(cl_int), "spanning forest");
  cl::Buffer forest_target = rt.allocate(n * sizeof(cl_int), "spanning forest");
  fill(rt, flag, cl_int(0), 1, phase);
  cc.run("cc_forest", cc.items(n), out.hook_edge, source, target, forest_source, forest_target,
         flag, count);
  std::size_t forest_edges = static_cast<std::size_t>(read_value<cl_int>(rt, flag));
  out.components.count = n - forest_edges;
  out.components.forest_source = DeviceArray<vertex_t>(rt, forest_edges, "spanning forest");
  out.components.forest_target = DeviceArray<vertex_t>(rt, forest_edges, "spanning forest");
  if (forest_edges > 0) {
    rt.queue().enqueueCopyBuffer(forest_source, out.components.forest_source.buffer(), 0, 0,
                                 forest_edges * sizeof(cl_int));
    rt.queue().enqueueCopyBuffer(forest_target, out.components.forest_target.buffer(), 0, 0,
                                 forest_edges * sizeof(cl_int));
  }
  return out;
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

}  // namespace treefix
