// BFS of a partitioned graph (distributed/bfs.hpp): a world of one runs the single-device search;
// several ranks the host side of kernels/distributed/bfs_distributed.cl, one level at a time,
// with the exchanges between levels.
#include "treefix/distributed/bfs.hpp"

#include <algorithm>
#include <chrono>

#include "distributed/bfs_tuning.hpp"
#include "distributed/level_exchange.hpp"
#include "distributed/vertex_bitmaps.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/graph/detail/bfs_check.hpp"

namespace treefix {

namespace {

using detail::bitmap_words;
using detail::kWorkGroupRowArcs;

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// A device array grown (never shrunk) to hold at least `count` values.
template <class T>
void reserve(Runtime& runtime, DeviceArray<T>& array, std::size_t count, const char* what) {
  if (array.size() < count || array.buffer()() == nullptr)
    array = DeviceArray<T>(runtime, std::max<std::size_t>(count, array.size() * 2), what);
}

// Rows of more than kWorkGroupRowArcs arcs, which a bottom-up level may leave to work-groups.
std::size_t count_heavy_rows(const Csr& rows) {
  const Ranges ranges(rows.vertices(), host_threads() * 4, 1 << 16);
  std::vector<std::size_t> partial(ranges.count, 0);
  parallel_for(ranges.count, [&](std::size_t piece) {
    for (std::size_t v = ranges.begin(piece); v < ranges.end(piece); ++v)
      partial[piece] +=
          rows.row_offset[v + 1] - rows.row_offset[v] > std::int64_t(kWorkGroupRowArcs);
  });
  std::size_t total = 0;
  for (std::size_t c : partial) total += c;
  return total;
}

// The whole graph on one device: the single-device search, timed as a partitioned one is.
PartitionedBfs single_device_bfs(Runtime& runtime, const PartitionedDeviceGraph& graph,
                                 const std::vector<vertex_t>& sources, const BfsOptions& options) {
  const Clock::time_point start = Clock::now();
  DeviceBfs searched = bfs(runtime, graph.rows(), sources, options);
  runtime.queue().finish();
  PartitionedBfs result;
  result.milliseconds = ms_since(start);
  result.depth = searched.depth.download(runtime, options.profile);
  result.parent = searched.parent.download(runtime, options.profile);
  result.reached = searched.reached();
  result.reached_arcs = count_reached(graph.host().rows, result.depth).arcs;
  return result;
}

}  // namespace

PartitionedBfs bfs(const World& world, Runtime& runtime, const PartitionedDeviceGraph& graph,
                   const std::vector<vertex_t>& sources, const BfsOptions& options) {
  if (world.size() == 1) return single_device_bfs(runtime, graph, sources, options);
  return detail::partitioned_bfs(world, runtime, graph, sources, options);
}

namespace detail {

PartitionedBfs partitioned_bfs(const World& world, Runtime& runtime,
                               const PartitionedDeviceGraph& graph,
                               const std::vector<vertex_t>& sources, const BfsOptions& options) {
  const PartitionedGraph& g = graph.host();
  const DeviceGraph& rows = graph.rows();
  const std::size_t local_n = g.local_vertices(), n = g.vertices;
  const std::int64_t first = g.begin();
  require_bfs_sources(sources, n);
  Profile* profile = options.profile;
  const Clock::time_point search_start = Clock::now();
  Kernels kernels(runtime, "distributed/bfs_distributed.cl", rows.offset_option(),
                  {profile, "bfs"});

  // Sources: this rank's, once each, in the first queue; their depth 0 set on the device (no
  // host array of the rank's size to upload per search).
  std::vector<vertex_t> local_sources;
  for (vertex_t s : sources)
    if (s >= first && s < g.end()) local_sources.push_back(static_cast<vertex_t>(s - first));
  std::sort(local_sources.begin(), local_sources.end());
  local_sources.erase(std::unique(local_sources.begin(), local_sources.end()), local_sources.end());
  std::uint64_t frontier_arcs = 0;
  for (vertex_t s : local_sources) frontier_arcs += g.rows.row_offset[s + 1] - g.rows.row_offset[s];
  DeviceArray<vertex_t> depth(runtime, local_n, "BFS depths"),
      parent(runtime, local_n, "BFS parents");
  DeviceArray<vertex_t> queue[2] = {DeviceArray<vertex_t>(runtime, local_n, "BFS queue"),
                                    DeviceArray<vertex_t>(runtime, local_n, "BFS queue")};
  if (local_n) {
    fill(runtime, depth.buffer(), cl_int(-1), local_n, {profile, "bfs"});
    fill(runtime, parent.buffer(), cl_int(-1), local_n, {profile, "bfs"});
    if (!local_sources.empty()) {
      queue[0].write_from(runtime, local_sources.data(), local_sources.size(), 0, profile);
      kernels.run("dbfs_sources", kernels.grid_stride(local_sources.size()), queue[0],
                  cl_uint(local_sources.size()), depth);
    }
  }
  // claimed vertices, remote pairs, rows of the top-down expansion left to work-groups
  DeviceArray<cl_uint> counts(runtime, 3, "BFS counts");
  DeviceArray<cl_ulong> next_arcs(runtime, 1, "BFS frontier arcs");
  DeviceArray<cl_int2> remote, received;
  DeviceArray<vertex_t> heavy;
  DeviceArray<cl_uint> local_bits(runtime, bitmap_words(local_n), "frontier bitmap slice");
  // Vertices already sent to their owners, or known reached: a top-down level sends each remote
  // target once per search, not once per arc (a Kronecker level's frontier reaches the same
  // remote vertices through millions of arcs).
  DeviceArray<cl_uint> sent(runtime, bitmap_words(n), "BFS vertices sent");
  if (n) fill(runtime, sent.buffer(), cl_uint(0), sent.size(), {profile, "bfs"});
  LevelExchange& exchange = graph.exchange();
  DeviceArray<cl_uint>& global_bits = exchange.device_bits;
  std::vector<std::size_t> bitmap_bytes(world.size());
  for (int r = 0; r < world.size(); ++r)
    bitmap_bytes[r] = bitmap_words(g.partition.end(r) - g.partition.begin(r)) * 4;

  std::vector<std::uint64_t> totals = {local_sources.size(), frontier_arcs};
  world.sum_in_place(totals);
  std::uint64_t frontier_size = local_sources.size(), global_frontier = totals[0];
  std::uint64_t global_frontier_arcs = totals[1], unexplored = g.arcs - totals[1];
  const bool may_go_bottom_up = options.direction_optimizing && g.undirected();
  // Frontier arcs past which a level's pairs would outweigh its bitmap (bfs_tuning.cpp); the
  // share of arcs that leave a rank is (ranks - 1) / ranks on a partition that ignores locality.
  const std::size_t bitmaps = runtime.tuning()[knobs::distributed_bottom_up_exchange];
  const double remote_share = 1.0 - 1.0 / world.size();
  const double pair_heavy_arcs =
      bitmaps && world.size() > 1
          ? bitmaps * double(bitmap_words(n)) * 4 / sizeof(cl_int2) / remote_share
          : 1e300;
  // A rank sends each remote vertex once a search, and under the rule no top-down level's
  // frontier has more than pair_heavy_arcs arcs.
  const std::size_t pairs_bound =
      static_cast<std::size_t>(std::min<double>(pair_heavy_arcs, double(n - local_n)));
  bool bottom_up = false;
  PartitionedBfs result;
  int current = 0;
  for (int level = 0; global_frontier > 0; ++level) {
    if (may_go_bottom_up) {  // BfsOptions' rule, and the exchange's own (pair_heavy_arcs)
      if (!bottom_up && (global_frontier_arcs > unexplored / options.bottom_up_alpha ||
                         double(global_frontier_arcs) > pair_heavy_arcs))
        bottom_up = true;
      else if (bottom_up && global_frontier < n / options.top_down_beta &&
               double(global_frontier_arcs) <= pair_heavy_arcs)
        bottom_up = false;
    }
    const Clock::time_point start = Clock::now();
    double exchange_ms = 0;
    std::uint64_t bytes_sent = 0;
    fill(runtime, counts.buffer(), cl_uint(0), 3, {profile, "bfs"});
    fill(runtime, next_arcs.buffer(), cl_ulong(0), 1, {profile, "bfs"});
    const DeviceArray<vertex_t>& frontier = queue[current];
    const DeviceArray<vertex_t>& next = queue[1 - current];
    const cl_int next_depth = level + 1;
    if (!bottom_up) {
      reserve(runtime, remote, std::max<std::uint64_t>(frontier_arcs, 1), "BFS pairs out");
      reserve(runtime, heavy, std::max<std::uint64_t>(frontier_size, 1), "BFS heavy rows");
      if (frontier_size) {
        kernels.run("dbfs_top_down", kernels.grid_stride(frontier_size), rows.row_offset(),
                    rows.column(), frontier, cl_uint(frontier_size), cl_int(first),
                    cl_uint(local_n), cl_uint(kWorkGroupRowArcs), depth, parent, next_depth, next,
                    counts, next_arcs, remote, heavy, sent);
        // The long rows it listed, a work-group each; how many is read on the device.
        const std::size_t heavy_groups =
            std::min<std::size_t>(frontier_size, runtime.saturating_groups(kernels.wg_size()));
        kernels.run("dbfs_top_down_heavy", kernels.groups(heavy_groups), rows.row_offset(),
                    rows.column(), heavy, cl_int(first), cl_uint(local_n), depth, parent,
                    next_depth, next, counts, next_arcs, remote, sent);
      }
      // The expansion ends before the exchange's clock starts (the first download would wait
      // for it, counting the kernel as exchange).
      runtime.queue().finish();
      const Clock::time_point exchange_start = Clock::now();
      const std::vector<cl_uint> count = counts.download(runtime, profile);
      const std::size_t incoming_pairs = exchange.exchange_pairs(
          world, runtime, g.partition, remote, count[1], pairs_bound, received, profile);
      bytes_sent = count[1] * sizeof(cl_int2);
      exchange_ms = ms_since(exchange_start);
      if (incoming_pairs)
        kernels.run("dbfs_claim", kernels.grid_stride(incoming_pairs), rows.row_offset(), received,
                    cl_uint(incoming_pairs), cl_int(first), depth, parent, next_depth, next, counts,
                    next_arcs);
    } else {
      // The frontier as a bitmap: this rank's slice marked on its device, read into the host's
      // copy of the whole bitmap (shared by the ranks of one host, else all-gathered), the other
      // ranks' slices written back.
      if (local_n) {
        fill(runtime, local_bits.buffer(), cl_uint(0), local_bits.size(), {profile, "bfs"});
        if (frontier_size)
          kernels.run("dbfs_mark", kernels.grid_stride(frontier_size), frontier,
                      cl_uint(frontier_size), local_bits);
      }
      runtime.queue().finish();  // as above: the marking is not exchange
      const Clock::time_point exchange_start = Clock::now();
      const std::size_t words = bitmap_words(n);
      if (global_bits.size() == 0) {
        global_bits = DeviceArray<cl_uint>(runtime, words, "frontier bitmap");
        exchange.heavy_rows = static_cast<std::int64_t>(count_heavy_rows(g.rows));
      }
      const std::size_t heavy_rows = static_cast<std::size_t>(exchange.heavy_rows);
      bool shared = false;
      cl_uint* bits = reinterpret_cast<cl_uint*>(exchange.frontier_bits(world, words * 4, shared));
      const std::size_t slice_at = static_cast<std::size_t>(first / 32);
      const std::size_t slice_words = bitmap_bytes[world.rank()] / 4,
                        after = slice_at + slice_words;
      if (slice_words) local_bits.read_into(runtime, bits + slice_at, slice_words, 0, profile);
      if (shared)
        exchange.publish_frontier_bits();
      else
        world.all_gather_bytes(bits + slice_at, slice_words * 4, bits, bitmap_bytes);
      // The other ranks' slices go up; this rank's own is copied on the device.
      if (slice_at) global_bits.write_from(runtime, bits, slice_at, 0, profile);
      if (after < words)
        global_bits.write_from(runtime, bits + after, words - after, after, profile);
      if (slice_words)
        runtime.queue().enqueueCopyBuffer(local_bits.buffer(), global_bits.buffer(), 0,
                                          slice_at * 4, slice_words * 4);
      bytes_sent = slice_words * 4 * (world.size() - 1);
      exchange_ms = ms_since(exchange_start);
      if (local_n) {
        reserve(runtime, heavy, std::max<std::size_t>(heavy_rows, 1), "BFS heavy rows");
        kernels.run("dbfs_bottom_up", kernels.grid_stride(local_n), rows.row_offset(),
                    rows.column(), global_bits, cl_uint(local_n), cl_uint(kWorkGroupRowArcs), heavy,
                    depth, parent, next_depth, next, counts, next_arcs);
        // The long rows without a parent in their first arcs, a work-group each.
        if (heavy_rows)
          kernels.run("dbfs_bottom_up_heavy",
                      kernels.groups(std::min<std::size_t>(
                          heavy_rows, runtime.saturating_groups(kernels.wg_size()))),
                      rows.row_offset(), rows.column(), global_bits, cl_uint(kWorkGroupRowArcs),
                      heavy, depth, parent, next_depth, next, counts, next_arcs);
      }
      kernels.run("dbfs_known", kernels.grid_stride(global_bits.size()), global_bits,
                  cl_uint(global_bits.size()), sent);
    }
    const std::vector<cl_uint> count = counts.download(runtime, profile);
    const std::vector<cl_ulong> arcs = next_arcs.download(runtime, profile);
    frontier_size = count[0];
    frontier_arcs = arcs[0];
    totals = {frontier_size, frontier_arcs, bytes_sent};
    world.sum_in_place(totals);
    BfsLevelStats stats;
    stats.bottom_up = bottom_up;
    stats.frontier = global_frontier;
    stats.frontier_arcs = global_frontier_arcs;
    stats.bytes_exchanged = totals[2];
    std::vector<double> slowest = {ms_since(start), exchange_ms};
    world.max_in_place(slowest);
    stats.milliseconds = slowest[0];
    stats.exchange_milliseconds = slowest[1];
    result.levels.push_back(stats);
    global_frontier = totals[0];
    global_frontier_arcs = totals[1];
    unexplored -= std::min(unexplored, global_frontier_arcs);
    current = 1 - current;
  }
  runtime.queue().finish();
  result.milliseconds = world.max(ms_since(search_start));
  result.depth = depth.download(runtime, profile);
  result.parent = parent.download(runtime, profile);
  const ReachedCount reached = count_reached(g.rows, result.depth);
  totals = {reached.vertices, reached.arcs};
  world.sum_in_place(totals);
  result.reached = totals[0];
  result.reached_arcs = totals[1];
  return result;
}

}  // namespace detail

}  // namespace treefix
