// PR-RST: rooted spanning forests by graft / re-root / shortcut rounds
// (kernels/graph/path_reversal.cl; the step-to-kernel map is in docs/design/rooting.md).
#include <algorithm>
#include <climits>
#include <cmath>
#include <utility>

#include "graph/graph_detail.hpp"
#include "graph/spanning_forest_tuning.hpp"
#include "treefix/core/launch.hpp"

namespace treefix::detail {

DeviceArray<vertex_t> path_reversal_forest(Runtime& rt, const DeviceGraph& graph,
                                           std::optional<vertex_t> root, Profile* profile) {
  const std::size_t n = graph.vertices(), arcs = graph.arcs();
  DeviceArray<vertex_t> out(rt, n, "parent array");
  if (n == 0) return out;
  const Phase phase{profile, "path-reversal"};
  Kernels pr(rt, "graph/path_reversal.cl", "", phase);
  const cl_int count = static_cast<cl_int>(n);
  // Levels of the jump table: 2^(levels - 1) >= n - 1, the deepest a tree can be.
  std::size_t levels = 1;
  while ((std::size_t{1} << (levels - 1)) < n) ++levels;
  const std::size_t bytes = n * sizeof(cl_int);
  cl::Buffer parent = rt.allocate(bytes, "PR-RST parents");
  cl::Buffer new_parent = rt.allocate(bytes, "PR-RST parents");
  cl::Buffer rep = rt.allocate(bytes, "PR-RST roots");
  cl::Buffer winner = rt.allocate(bytes, "PR-RST winners");
  cl::Buffer on_path = rt.allocate(bytes, "PR-RST paths");
  cl::Buffer link_to = rt.allocate(bytes, "PR-RST links");
  cl::Buffer jump = rt.allocate(levels * bytes, "PR-RST jump table");
  cl::Buffer changed = rt.allocate(levels * sizeof(cl_int), "PR-RST jump levels");
  cl::Buffer flag = rt.allocate(sizeof(cl_int), "PR-RST flag");
  DeviceArray<vertex_t> source = arc_sources(rt, graph, phase);
  const Grid vertices = pr.grid_stride(n);
  // Levels of the table built, and walked by the broadcast, per launch (Tuning).
  const std::size_t per_launch = std::clamp<std::size_t>(rt.tuning()[knobs::pr_levels_per_launch], 1, 6);

  // Pointer jumping over the current parents: the jump table and rep (every vertex's root).
  auto shortcut = [&] {
    rt.queue().enqueueCopyBuffer(parent, jump, 0, 0, bytes);
    fill(rt, changed, cl_int(0), levels, phase);
    fill(rt, changed, cl_int(1), 1, phase);
    if (levels == 1) rt.queue().enqueueCopyBuffer(parent, rep, 0, 0, bytes);
    for (std::size_t k = 1; k < levels; k += per_launch)
      pr.run("pr_jump", vertices, jump, rep, changed, count, static_cast<cl_int>(k),
             static_cast<cl_int>(std::min(per_launch, levels - k)));
  };
  // Re-roots every tree whose path start is marked in on_path (see the kernel file).
  auto reroot = [&] {
    for (std::size_t top = levels; top > 0;) {  // levels top-1 down to top-per_launch
      const std::size_t levels_now = std::min(per_launch, top);
      pr.run("pr_broadcast", vertices, jump, changed, on_path, count, static_cast<cl_int>(top - 1),
             static_cast<cl_int>(levels_now));
      top -= levels_now;
    }
    rt.queue().enqueueCopyBuffer(parent, new_parent, 0, 0, bytes);
    pr.run("pr_reverse", vertices, parent, new_parent, on_path, link_to, count);
    std::swap(parent, new_parent);
  };

  pr.run("pr_init", vertices, parent, rep, count);
  shortcut();
  for (int round = 1;; ++round) {
    fill(rt, flag, cl_int(0), 1, phase);
    fill(rt, winner, cl_int(INT_MAX), n, phase);
    if (arcs > 0)
      pr.run("pr_winner", pr.grid_stride(arcs), source, graph.column(), rep, winner, flag,
             static_cast<cl_int>(arcs), cl_int(round % 2));
    if (read_value<cl_int>(rt, flag) == 0) break;
    fill(rt, on_path, cl_int(0), n, phase);
    pr.run("pr_mark", vertices, source, graph.column(), rep, winner, on_path, link_to, count);
    reroot();
    shortcut();
  }
  // Every tree re-rooted at its smallest vertex, or at the chosen root.
  fill(rt, winner, cl_int(INT_MAX), n, phase);  // reused as want[root]
  pr.run("pr_smallest", vertices, rep, winner, count);
  if (root) {
    const cl_int tree = read_value<cl_int>(rt, rep, static_cast<std::size_t>(*root));
    const cl_int chosen = *root;
    rt.queue().enqueueWriteBuffer(winner, CL_TRUE, tree * sizeof(cl_int), sizeof(cl_int), &chosen);
  }
  fill(rt, on_path, cl_int(0), n, phase);
  pr.run("pr_mark_roots", vertices, parent, winner, on_path, link_to, count);
  reroot();
  pr.run("pr_output", vertices, parent, out, count);
  return out;
}

}  // namespace treefix::detail
