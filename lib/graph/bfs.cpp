// Level-synchronous BFS driven from the device: the host side of kernels/graph/bfs.cl,
// bfs_small.cl and bfs_grid.cl (the sequential reference and the checker: bfs_reference.cpp).
#include "treefix/graph/bfs.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "graph/bfs_tuning.hpp"
#include "treefix/core/device_array.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"

namespace treefix {

namespace {
// Fields of the device-side search state (kernels/graph/bfs_state.clh, S_*).
constexpr std::size_t kBegin = 0, kEnd = 1, kHugeBegin = 2, kHugeEnd = 3, kDepth = 4, kBottomUp = 5,
                      kDone = 7, kBottomUpLevels = 8, kFrontArcs = 9, kArcsSeen = 10,
                      kStateFields = 11;
constexpr std::size_t kMostPerBatch = 64;  // steps between two reads of the state

// The one-group kernel of narrow levels (kernels/graph/bfs_small.cl) and its local buffers.
struct SmallLevels {
  Kernels kernels;
  std::size_t capacity;  // frontier entries per chunk in local memory
  std::size_t entry_bytes;
};

// The grid-barrier kernel of medium levels (kernels/graph/bfs_grid.cl), where the tuning allows
// it: small groups, a few per compute unit, all of them resident.
struct GridLevels {
  Kernels kernels;
  std::size_t groups;
};

GridLevels grid_levels(Runtime& runtime, const DeviceGraph& graph, Profile* profile) {
  const Tuning& tuning = runtime.tuning();
  Kernels kernels(runtime, "graph/bfs_grid.cl", graph.offset_option(), {profile, "bfs"},
                  tuning[knobs::bfs_grid_group_size]);
  const std::size_t units = std::max<std::size_t>(1, runtime.description().compute_units);
  return {kernels, units * std::max<std::size_t>(1, tuning[knobs::bfs_grid_groups_per_unit])};
}

SmallLevels small_levels(Runtime& runtime, const DeviceGraph& graph, Profile* profile) {
  const std::size_t wish = runtime.tuning()[knobs::bfs_small_group_size];
  Kernels kernels(runtime, "graph/bfs_small.cl", graph.offset_option(), {profile, "bfs"}, wish);
  const std::size_t wg = kernels.wg_size();
  // Local memory: the kernel's own (a scan's wg uints, 3 x 32 counters) and two halves of
  // (vertex, first arc, row length) entries.
  const std::size_t own_bytes = 4 * (wg + 3 * 32 + 8);
  const std::size_t entry_bytes = 8 + (graph.wide_offsets() ? 8 : 4);
  const std::size_t local = runtime.description().local_mem_bytes;
  const std::size_t spare = local > own_bytes + 512 ? local - own_bytes - 512 : 0;
  std::size_t capacity = std::clamp<std::size_t>(spare / (2 * entry_bytes), 1, 4 * wg);
  if (const std::size_t most = runtime.tuning()[knobs::bfs_small_buffer])
    capacity = std::min(capacity, most);
  return {kernels, capacity, entry_bytes};
}

// One search; with_grid: the grid-barrier kernel takes the medium levels. Sets *aborted when a
// group of that kernel gave up waiting (the result is then not to be used).
DeviceBfs search_levels(Runtime& runtime, const DeviceGraph& graph,
                        const std::vector<vertex_t>& distinct, const BfsOptions& options,
                        bool with_grid, bool* aborted) {
  const std::size_t n = graph.vertices();
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
  // queue length, huge-list length, arcs of the vertices discovered (kernels/graph/bfs.cl)
  auto counters = DeviceArray<std::int32_t>::workspace(runtime, "bfs.counters", 3);
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
    if (distinct.empty()) return;

    const std::size_t sources = distinct.size();
    runtime.queue().enqueueWriteBuffer(queue.buffer(), CL_FALSE, 0, sources * sizeof(vertex_t),
                                       distinct.data());
    counters.write(runtime, std::vector<std::int32_t>{static_cast<std::int32_t>(sources), 0, 0},
                   profile);
    search.run("bfs_sources", search.items(sources), graph.row_offset(), depth, queue,
               static_cast<cl_int>(sources), counters, huge, huge_row);
    ++result.kernel_launches;

    // The search's state (kernels/graph/bfs_state.clh, S_*), double-buffered between launches,
    // and the level offsets, written on the device and read once at the end. Like every array of
    // the search but its results, they live in the Runtime's workspace: a repeated search
    // allocates only what it returns.
    SmallLevels small = small_levels(runtime, graph, profile);
    const bool may_go_bottom_up = options.direction_optimizing && graph.undirected();
    const Tuning& tuning = runtime.tuning();
    const bool first_bottom_up =
        may_go_bottom_up && sources > tuning[knobs::bfs_small_frontier] &&
        static_cast<double>(sources) > static_cast<double>(n - sources) / options.bottom_up_alpha;
    std::vector<std::int32_t> initial(kStateFields, 0);
    initial[kEnd] = static_cast<std::int32_t>(sources);
    initial[kBottomUp] = first_bottom_up;
    DeviceArray<std::int32_t> state[2] = {
        DeviceArray<std::int32_t>::workspace(runtime, "bfs.state0", kStateFields),
        DeviceArray<std::int32_t>::workspace(runtime, "bfs.state1", kStateFields)};
    state[0].write(runtime, initial, profile);
    auto level_end = DeviceArray<std::int32_t>::workspace(runtime, "bfs.level_end", n + 2);
    auto huge_end = DeviceArray<std::int32_t>::workspace(runtime, "bfs.huge_end", n + 2);
    auto finished = DeviceArray<std::int32_t>::workspace(runtime, "bfs.finished", 1);
    fill(runtime, finished.buffer(), cl_int(0), 1, {profile, "bfs"});
    fill(runtime, level_end.buffer(), cl_int(0), 1, {profile, "bfs"});
    fill(runtime, huge_end.buffer(), cl_int(0), 1, {profile, "bfs"});
    // level 0 ends after the sources; its huge rows were counted by bfs_sources
    runtime.queue().enqueueCopyBuffer(counters.buffer(), level_end.buffer(), 0, sizeof(cl_int),
                                      sizeof(cl_int));
    runtime.queue().enqueueCopyBuffer(counters.buffer(), huge_end.buffer(), sizeof(cl_int),
                                      sizeof(cl_int), sizeof(cl_int));
    runtime.queue().enqueueCopyBuffer(counters.buffer(), state[0].buffer(), sizeof(cl_int),
                                      kHugeEnd * sizeof(cl_int), sizeof(cl_int));
    for (std::size_t field : {kFrontArcs, kArcsSeen})
      runtime.queue().enqueueCopyBuffer(counters.buffer(), state[0].buffer(), 2 * sizeof(cl_int),
                                        field * sizeof(cl_int), sizeof(cl_int));
    const cl_uint all_arcs = static_cast<cl_uint>(std::min<std::size_t>(graph.arcs(), UINT32_MAX));

    const Grid grid =
        search.groups(options.groups ? options.groups : runtime.saturating_groups(wg));
    const cl_int small_frontier =
        static_cast<cl_int>(std::min<std::size_t>(tuning[knobs::bfs_small_frontier], INT32_MAX));
    const cl_uint small_arcs =
        static_cast<cl_uint>(std::min<std::size_t>(tuning[knobs::bfs_small_arcs], UINT32_MAX));
    const std::size_t level_cap = options.max_levels ? options.max_levels : INT32_MAX;
    const cl_int most_levels = static_cast<cl_int>(std::clamp<std::size_t>(
        std::min(tuning[knobs::bfs_small_levels], level_cap), 1, INT32_MAX));
    const LocalBytes vertices{2 * small.capacity * sizeof(cl_int)},
        firsts{2 * small.capacity * (small.entry_bytes - 8)},
        lengths{2 * small.capacity * sizeof(cl_uint)};
    const cl_float alpha = static_cast<cl_float>(options.bottom_up_alpha),
                   beta = static_cast<cl_float>(options.top_down_beta);
    // The grid-barrier kernel's barrier words and level counters (kernels/graph/bfs_grid.cl),
    // and the rows of the vertices it appends, beside the queue.
    std::optional<GridLevels> medium;
    DeviceArray<std::int32_t> sync;
    DeviceArray<std::int64_t> side_first;
    DeviceArray<std::uint32_t> side_length;
    cl_int grid_frontier = 0;
    cl_uint grid_arcs = 0;
    if (with_grid) {
      medium = grid_levels(runtime, graph, profile);
      sync = DeviceArray<std::int32_t>::workspace(runtime, "bfs.grid_barrier", 12);
      fill(runtime, sync.buffer(), cl_int(0), 12, {profile, "bfs"});
      // EDGE_T per queue slot: n 32-bit offsets fit in n / 2 + 1 int64
      side_first = DeviceArray<std::int64_t>::workspace(runtime, "bfs.queue_row_first",
                                                        graph.wide_offsets() ? n : n / 2 + 1);
      side_length = DeviceArray<std::uint32_t>::workspace(runtime, "bfs.queue_row_length", n);
      grid_frontier =
          static_cast<cl_int>(std::min<std::size_t>(tuning[knobs::bfs_grid_frontier], INT32_MAX));
      grid_arcs =
          static_cast<cl_uint>(std::min<std::size_t>(tuning[knobs::bfs_grid_arcs], UINT32_MAX));
    }
    // polls of a waiting group before it gives up
    const cl_int spin_limit = static_cast<cl_int>(tuning[knobs::bfs_grid_patience]);
    std::size_t current = 0;  // state[current] holds the latest state
    auto swap = [&] {
      ++result.kernel_launches;
      current = 1 - current;
    };
    std::vector<std::int32_t> latest(kStateFields, 0);
    // Steps of two or three launches (the one-group run of narrow levels, the grid-barrier run
    // of medium ones where used, then one level with every group; each passes the state on
    // when the level is not its own), in batches that double up to kMostPerBatch; the state is
    // read once per batch. Launches after the last level return at once.
    // The grid-barrier kernel is left out of a batch when the last state read was a level for
    // every group (bottom-up, huge rows or too wide): Kronecker graphs seldom come back to it,
    // and its launches would only pass. The other two then take medium levels (bfs_level).
    bool grid_turns = medium.has_value();
    for (std::size_t batch = 1;; batch = std::min(2 * batch, kMostPerBatch)) {
      const cl_int turn_frontier = grid_turns ? grid_frontier : 0;
      const cl_uint turn_arcs = grid_turns ? grid_arcs : 0;
      for (std::size_t i = 0; i < batch; ++i) {
        small.kernels.run("bfs_small_levels", small.kernels.groups(1), graph.row_offset(),
                          graph.column(), depth, parent, queue, counters, huge, state[current],
                          state[1 - current], level_end, huge_end, static_cast<cl_int>(n),
                          small_frontier, small_arcs, turn_frontier, turn_arcs,
                          cl_int(may_go_bottom_up), alpha, beta, huge_row, all_arcs, most_levels,
                          static_cast<cl_int>(small.capacity), vertices, firsts, lengths);
        swap();
        if (grid_turns) {
          medium->kernels.run("bfs_grid_levels", medium->kernels.groups(medium->groups),
                              graph.row_offset(), graph.column(), depth, parent, queue, counters,
                              huge, state[current], state[1 - current], level_end, huge_end, sync,
                              side_first, side_length, static_cast<cl_int>(n), small_frontier,
                              small_arcs, grid_frontier, grid_arcs, cl_int(may_go_bottom_up), alpha,
                              beta, huge_row, all_arcs, most_levels, spin_limit);
          swap();
        }
        search.run("bfs_level", grid, graph.row_offset(), graph.column(), depth, parent, queue,
                   counters, huge, state[current], state[1 - current], level_end, huge_end,
                   finished, static_cast<cl_int>(n), small_frontier, small_arcs, turn_frontier,
                   turn_arcs, cl_int(may_go_bottom_up), alpha, beta, huge_row, all_arcs);
        swap();
      }
      latest = state[current].download(runtime, profile);
      if (latest[kDone]) break;
      if (options.max_levels && static_cast<std::size_t>(latest[kDepth]) >= options.max_levels) {
        result.complete = false;
        break;
      }
      grid_turns = medium && !latest[kBottomUp] && latest[kHugeEnd] == latest[kHugeBegin] &&
                   latest[kEnd] - latest[kBegin] <= grid_frontier &&
                   static_cast<cl_uint>(latest[kFrontArcs]) <= grid_arcs;
    }
    if (medium && sync.download(runtime, profile)[2]) {
      *aborted = true;
      return;
    }
    const std::size_t levels = static_cast<std::size_t>(latest[kDepth]);
    result.bottom_up_levels = static_cast<std::size_t>(latest[kBottomUpLevels]);
    std::vector<std::int32_t> offsets(levels + 1), huge_offsets(levels + 1);  // the used prefix
    level_end.read_into(runtime, offsets.data(), offsets.size(), 0, profile);
    huge_end.read_into(runtime, huge_offsets.data(), huge_offsets.size(), 0, profile);
    result.level_offset.assign(offsets.begin(), offsets.end());
    result.huge_offset.assign(huge_offsets.begin(), huge_offsets.end());
  });
  return result;
}
}  // namespace

DeviceBfs bfs(Runtime& runtime, const DeviceGraph& graph, const std::vector<vertex_t>& sources,
              const BfsOptions& options) {
  const std::size_t n = graph.vertices();
  detail::require_bfs_sources(sources, n);
  std::vector<vertex_t> distinct = sources;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  bool aborted = false;
  if (runtime.tuning()[knobs::bfs_grid_barrier]) {
    DeviceBfs result = search_levels(runtime, graph, distinct, options, true, &aborted);
    if (!aborted) return result;
  }
  // the portable kernels alone (and after a grid-barrier search that could not keep its groups
  // resident: every vertex is searched again)
  DeviceBfs result = search_levels(runtime, graph, distinct, options, false, &aborted);
  result.grid_barrier_gave_up = runtime.tuning()[knobs::bfs_grid_barrier];
  return result;
}

BfsResult bfs(Runtime& runtime, const Csr& graph, vertex_t source, const BfsOptions& options) {
  detail::require_bfs_sources({source}, graph.vertices());
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

}  // namespace treefix
