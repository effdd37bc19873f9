// Level-synchronous BFS on the device (kernels/graph/bfs.cl), its host reference and its checker.
#include "treefix/graph/bfs.hpp"

#include <algorithm>

#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"

namespace treefix {

DeviceBfs bfs(Runtime& runtime, const DeviceGraph& graph, const std::vector<vertex_t>& sources,
              const BfsOptions& options) {
  const std::size_t n = graph.vertices();
  std::vector<vertex_t> distinct = sources;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  for (vertex_t s : distinct)
    if (s < 0 || static_cast<std::size_t>(s) >= n)
      throw InputError("BFS source " + std::to_string(s) + " outside 0.." + std::to_string(n) +
                       "-1 (the graph has " + std::to_string(n) + " vertices)");

  Profile* profile = options.profile;
  Kernels search(runtime, "graph/bfs.cl", graph.offset_option(), {profile, "bfs"});
  const std::size_t wg = search.wg_size();
  const std::size_t huge_degree = std::max(wg, options.huge_degree ? options.huge_degree : 64 * wg);
  const Offset huge_row = graph.offset(huge_degree);

  DeviceBfs result;
  result.depth = DeviceArray<vertex_t>(runtime, n, "BFS depths");
  result.parent = DeviceArray<vertex_t>(runtime, n, "BFS parents");
  result.order = DeviceArray<vertex_t>(runtime, n, "BFS queue");
  const std::size_t huge_capacity = std::min(n, graph.arcs() / huge_degree) + 1;
  result.huge = DeviceArray<vertex_t>(runtime, huge_capacity, "BFS huge-row list");
  DeviceArray<std::int32_t> counters(runtime, 2, "BFS counters");
  result.huge_degree = huge_degree;
  result.level_offset.push_back(0);
  result.huge_offset.push_back(0);
  if (n == 0) return result;

  translate_device_errors("bfs", [&] {
    const auto& depth = result.depth;
    const auto& parent = result.parent;
    const auto& queue = result.order;
    const auto& huge = result.huge;
    search.run("bfs_reset", search.grid_stride(n), depth, parent, static_cast<cl_int>(n));
    ++result.kernel_launches;

    std::size_t queue_lo = 0, queue_hi = distinct.size(), huge_lo = 0, huge_hi = 0;
    if (!distinct.empty()) {
      runtime.queue().enqueueWriteBuffer(queue.buffer(), CL_FALSE, 0,
                                         distinct.size() * sizeof(vertex_t), distinct.data());
      std::vector<std::int32_t> initial = {static_cast<std::int32_t>(distinct.size()), 0};
      counters.write(runtime, initial, profile);
      search.run("bfs_sources", search.items(distinct.size()), graph.row_offset(), depth, queue,
                 static_cast<cl_int>(distinct.size()), counters, huge, huge_row);
      ++result.kernel_launches;
      huge_hi = static_cast<std::size_t>(counters.download(runtime, profile)[1]);
      result.level_offset.push_back(queue_hi);
      result.huge_offset.push_back(huge_hi);
    }

    const bool may_go_bottom_up = options.direction_optimizing && graph.undirected();
    bool going_bottom_up = false;
    std::size_t previous_count = 0;
    for (int next_depth = 1; queue_hi > queue_lo; ++next_depth) {
      const std::size_t count = queue_hi - queue_lo;
      if (may_go_bottom_up) {  // Beamer's switch, on vertex counts (known without a reduction)
        const std::size_t unvisited = n - queue_hi;
        if (!going_bottom_up)
          going_bottom_up = count > previous_count &&
                            static_cast<double>(count) > unvisited / options.bottom_up_alpha;
        else
          going_bottom_up =
              !(count < previous_count && static_cast<double>(count) < n / options.top_down_beta);
      }
      previous_count = count;
      if (going_bottom_up) {
        search.run("bfs_bottom_up", search.grid_stride(n), graph.row_offset(), graph.column(),
                   depth, parent, queue, counters, huge, huge_row,
                   static_cast<cl_int>(next_depth - 1), static_cast<cl_int>(n));
        ++result.kernel_launches;
        ++result.bottom_up_levels;
      } else {
        search.run("bfs_expand", search.grid_stride(count), graph.row_offset(), graph.column(),
                   depth, parent, queue, static_cast<cl_int>(queue_lo), static_cast<cl_int>(count),
                   counters, huge, huge_row, static_cast<cl_int>(next_depth));
        ++result.kernel_launches;
        if (huge_hi > huge_lo) {
          search.run("bfs_expand_huge", search.groups(runtime.saturating_groups(wg)),
                     graph.row_offset(), graph.column(), depth, parent, queue, counters, huge,
                     static_cast<cl_int>(huge_lo), static_cast<cl_int>(huge_hi - huge_lo), huge_row,
                     static_cast<cl_int>(next_depth));
          ++result.kernel_launches;
        }
      }
      auto totals = counters.download(runtime, profile);
      queue_lo = queue_hi;
      queue_hi = static_cast<std::size_t>(totals[0]);
      huge_lo = huge_hi;
      huge_hi = static_cast<std::size_t>(totals[1]);
      if (queue_hi > queue_lo) {
        result.level_offset.push_back(queue_hi);
        result.huge_offset.push_back(huge_hi);
      }
    }
  });
  return result;
}

BfsResult bfs(Runtime& runtime, const Csr& graph, vertex_t source, const BfsOptions& options) {
  if (source < 0 || static_cast<std::size_t>(source) >= graph.vertices())
    throw InputError("BFS source " + std::to_string(source) + " outside 0.." +
                     std::to_string(graph.vertices()) + "-1 (the graph has " +
                     std::to_string(graph.vertices()) + " vertices)");
  DeviceGraph device_graph(runtime, graph, options.profile);
  DeviceBfs searched = bfs(runtime, device_graph, {source}, options);
  BfsResult result;
  result.depth = searched.depth.download(runtime, options.profile);
  result.parent = searched.parent.download(runtime, options.profile);
  result.levels = searched.levels();
  result.kernel_launches = searched.kernel_launches;
  result.bottom_up_levels = searched.bottom_up_levels;
  return result;
}

BfsResult bfs_reference(const Csr& graph, vertex_t source) {
  const std::size_t n = graph.vertices();
  if (source < 0 || static_cast<std::size_t>(source) >= n)
    throw InputError("BFS source " + std::to_string(source) + " outside 0.." + std::to_string(n) +
                     "-1");
  BfsResult r;
  r.depth.assign(n, -1);
  r.parent.assign(n, -1);
  std::vector<vertex_t> queue;
  queue.reserve(n);
  queue.push_back(source);
  r.depth[source] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    vertex_t v = queue[head];
    for (std::int64_t e = graph.row_offset[v]; e < graph.row_offset[v + 1]; ++e) {
      vertex_t u = graph.column[e];
      if (r.depth[u] == -1) {
        r.depth[u] = r.depth[v] + 1;
        r.parent[u] = v;
        queue.push_back(u);
      }
    }
  }
  r.levels = queue.empty() ? 0 : static_cast<std::size_t>(r.depth[queue.back()]) + 1;
  return r;
}

std::string bfs_tree_problem(const Csr& graph, vertex_t source,
                             const std::vector<vertex_t>& expected_depth,
                             const std::vector<vertex_t>& depth,
                             const std::vector<vertex_t>& parent) {
  const std::size_t n = graph.vertices();
  if (depth.size() != n || parent.size() != n || expected_depth.size() != n)
    return "arrays of " + std::to_string(depth.size()) + "/" + std::to_string(parent.size()) +
           " entries for " + std::to_string(n) + " vertices";
  // arc p -> v exists for v's claimed parent p: mark while sweeping every row once, O(m)
  std::vector<char> parent_is_neighbour(n, 0);
  for (std::size_t p = 0; p < n; ++p)
    for (std::int64_t e = graph.row_offset[p]; e < graph.row_offset[p + 1]; ++e)
      if (parent[graph.column[e]] == static_cast<vertex_t>(p))
        parent_is_neighbour[graph.column[e]] = 1;
  for (std::size_t v = 0; v < n; ++v) {
    std::string at = "vertex " + std::to_string(v) + ": ";
    if (depth[v] != expected_depth[v])
      return at + "depth " + std::to_string(depth[v]) + ", expected " +
             std::to_string(expected_depth[v]);
    vertex_t p = parent[v];
    if (static_cast<vertex_t>(v) == source || depth[v] == -1) {
      if (p != -1) return at + "parent " + std::to_string(p) + ", expected -1";
      continue;
    }
    if (p < 0 || static_cast<std::size_t>(p) >= n)
      return at + "parent " + std::to_string(p) + " out of range";
    if (depth[p] != depth[v] - 1)
      return at + "parent " + std::to_string(p) + " is at depth " + std::to_string(depth[p]) +
             ", not " + std::to_string(depth[v] - 1);
    if (!parent_is_neighbour[v]) return at + "parent " + std::to_string(p) + " is not a neighbour";
  }
  return {};
}

}  // namespace treefix
