// Rooting an unrooted forest on the device (kernels/graph/rooting.cl): checks, arcs sorted by
// source, tour successors, list ranking, parents.
#include "treefix/graph/rooting.hpp"

#include <algorithm>
#include <climits>
#include <map>
#include <string>

#include "graph/graph_detail.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/primitives/sort.hpp"

namespace treefix {
namespace detail {

namespace {
std::string edge_text(Runtime& rt, const cl::Buffer& source, const cl::Buffer& target, cl_int e) {
  return "edge " + std::to_string(e) + " (" + std::to_string(read_value<cl_int>(rt, source, e)) +
         " " + std::to_string(read_value<cl_int>(rt, target, e)) + ")";
}
}  // namespace

DeviceArray<vertex_t> root_forest(Runtime& rt, std::size_t n, const cl::Buffer& source,
                                  const cl::Buffer& target, std::size_t edges,
                                  const RootingOptions& options,
                                  const DeviceArray<vertex_t>* labels) {
  require_graph_indices(n, edges, "rooting a forest");
  Profile* profile = options.profile;
  Kernels rooting(rt, "graph/rooting.cl", "", {profile, "tour"});
  Kernels check = rooting.in("check");
  const cl_int count = static_cast<cl_int>(n), edge_count = static_cast<cl_int>(edges);
  const std::size_t arcs = 2 * edges;
  const cl_int arc_count = static_cast<cl_int>(arcs);
  cl::Buffer flag = rt.allocate(sizeof(cl_int), "rooting flag");

  if (!labels) {  // ids in range, no self loops
    fill(rt, flag, cl_int(INT_MAX), 1, {profile, "check"});
    check.run("root_check_edges", check.items(edges), source, target, flag, count, edge_count);
    cl_int bad = read_value<cl_int>(rt, flag);
    if (bad != INT_MAX) {
      cl_int u = read_value<cl_int>(rt, source, bad), v = read_value<cl_int>(rt, target, bad);
      if (u == v)
        throw EdgeListError(
            bad, edge_text(rt, source, target, bad) + " is a self loop: a forest has none");
      throw EdgeListError(bad, edge_text(rt, source, target, bad) + " names a vertex outside 0.." +
                                   std::to_string(static_cast<std::int64_t>(n) - 1) + " (" +
                                   std::to_string(n) + " vertices)");
    }
  }

  // Arcs grouped by source (sorted by (source, target)).
  cl::Buffer key = rt.allocate(arcs * sizeof(cl_ulong), "arc keys");
  cl::Buffer arc = rt.allocate(arcs * sizeof(cl_int), "arcs");
  rooting.run("root_make_arcs", rooting.items(edges), source, target, key, arc, edge_count);
  sort_by_key<cl_ulong>(rt, key, arc, arcs, false);
  cl::Buffer position = rt.allocate(arcs * sizeof(cl_int), "arc positions");
  cl::Buffer first_arc = rt.allocate(n * sizeof(cl_int), "first arcs");
  fill(rt, flag, cl_int(INT_MAX), 1, {profile, "tour"});
  rooting.run("root_arc_index", rooting.items(arcs), key, arc, position, first_arc, flag,
              arc_count);
  if (!labels) {
    cl_int repeat = read_value<cl_int>(rt, flag);
    if (repeat != INT_MAX) {
      cl_int a = read_value<cl_int>(rt, arc, repeat - 1) / 2,
             b = read_value<cl_int>(rt, arc, repeat) / 2;
      cl_int later = std::max(a, b), earlier = std::min(a, b);
      throw EdgeListError(later, edge_text(rt, source, target, later) + " repeats " +
                                     edge_text(rt, source, target, earlier));
    }
  }

  Components components;
  const DeviceArray<vertex_t>* label = labels;
  if (!labels) {
    Connectivity cc = connectivity(rt, n, source, target, edges, profile);
    components = std::move(cc.components);
    if (edges != n - components.count) {
      cl_int e = first_cycle_edge(rt, cc.hook_edge, n, edges);
      throw EdgeListError(
          e, edge_text(rt, source, target, e) + " closes a cycle: the edges are not a forest (" +
                 std::to_string(edges) + " edges, but a forest on " + std::to_string(n) +
                 " vertices with " + std::to_string(components.count) +
                 (components.count == 1 ? " tree has " : " trees has ") +
                 std::to_string(n - components.count) + ")");
    }
    label = &components.label;
  }

  // Roots: root_of[label] = the chosen root of that tree; -1 (default) is the label itself, the
  // tree's smallest vertex.
  cl::Buffer root_of = rt.allocate(n * sizeof(cl_int), "roots");
  fill(rt, root_of, cl_int(-1), n, {profile, "tour"});
  std::map<vertex_t, vertex_t> chosen;  // label -> root
  for (vertex_t r : options.roots) {
    if (r < 0 || static_cast<std::size_t>(r) >= n)
      throw InputError("root " + std::to_string(r) + " is not a vertex (there are " +
                       std::to_string(n) + ")");
    vertex_t tree = read_value<vertex_t>(rt, label->buffer(), r);
    auto [it, fresh] = chosen.emplace(tree, r);
    if (!fresh && it->second != r)
      throw InputError("roots " + std::to_string(it->second) + " and " + std::to_string(r) +
                       " are in the same tree; name at most one root per tree");
    rt.queue().enqueueWriteBuffer(root_of, CL_TRUE, tree * sizeof(cl_int), sizeof(cl_int), &r);
  }

  DeviceArray<vertex_t> parent(rt, n, "parent array");
  fill(rt, parent.buffer(), cl_int(-1), n, {profile, "parent"});
  if (arcs == 0) return parent;
  cl::Buffer succ = rt.allocate(arcs * sizeof(cl_int), "tour successors");
  rooting.run("root_successor", rooting.items(arcs), key, arc, position, first_arc, *label, root_of,
              succ, arc_count);
  cl::Buffer rank = rt.allocate(arcs * sizeof(cl_int), "tour ranks");
  ListRankOptions ranking = options.list_rank;
  ranking.profile = profile;
  list_rank(rt, succ, rank, arcs, ranking);
  rooting.in("parent").run("root_parent", rooting.items(arcs), key, arc, position, rank, parent,
                           arc_count);
  return parent;
}

}  // namespace detail

DeviceArray<vertex_t> root_forest(Runtime& runtime, std::size_t vertices,
                                  const DeviceArray<vertex_t>& source,
                                  const DeviceArray<vertex_t>& target,
                                  const RootingOptions& options) {
  if (source.size() != target.size())
    throw InputError("root_forest: " + std::to_string(source.size()) + " sources but " +
                     std::to_string(target.size()) + " targets");
  return translate_device_errors("rooting a forest", [&] {
    return detail::root_forest(runtime, vertices, source.buffer(), target.buffer(), source.size(),
                               options, nullptr);
  });
}

ParentArray root_forest(Runtime& runtime, const EdgeList& forest, const RootingOptions& options) {
  detail::require_graph_indices(forest.vertices, forest.edges(), "rooting a forest");
  auto source = DeviceArray<vertex_t>::upload(runtime, forest.source, options.profile, "edges");
  auto target = DeviceArray<vertex_t>::upload(runtime, forest.target, options.profile, "edges");
  return root_forest(runtime, forest.vertices, source, target, options)
      .download(runtime, options.profile);
}

}  // namespace treefix
