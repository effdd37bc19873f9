// Distributed direction-optimising BFS (distributed/distributed_bfs.hpp): the host side of
// kernels/distributed/bfs_distributed.cl, one level at a time, with the exchanges between levels.
#include "treefix/distributed/distributed_bfs.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>

#include "distributed/heavy_rows.hpp"
#include "distributed/vertex_bitmaps.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/core/parallel.hpp"

namespace treefix {

namespace {

using detail::bitmap_words;

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

// The top-down level's (target, parent) pairs grouped by the target's owner, in parallel:
// packed[at[r] .. at[r + 1]) go to rank r (packed: a buffer kept between levels).
void bucket_by_owner(const VertexPartition& partition, const std::vector<cl_int2>& pairs,
                     std::vector<cl_int2>& packed, std::vector<std::size_t>& at) {
  const std::size_t ranks = static_cast<std::size_t>(partition.ranks());
  const Ranges pieces(pairs.size(), host_threads() * 2, 1 << 16);
  // count[piece * ranks + r]: piece's pairs for rank r, then where they start in `packed`
  std::vector<std::size_t> count(pieces.count * ranks, 0);
  parallel_for(pieces.count, [&](std::size_t piece) {
    for (std::size_t i = pieces.begin(piece); i < pieces.end(piece); ++i)
      ++count[piece * ranks + partition.owner(pairs[i].s[0])];
  });
  at.assign(ranks + 1, 0);
  std::size_t total = 0;
  for (std::size_t r = 0; r < ranks; ++r) {
    at[r] = total;
    for (std::size_t piece = 0; piece < pieces.count; ++piece) {
      const std::size_t c = count[piece * ranks + r];
      count[piece * ranks + r] = total;
      total += c;
    }
  }
  at[ranks] = total;
  packed.resize(pairs.size());
  parallel_for(pieces.count, [&](std::size_t piece) {
    for (std::size_t i = pieces.begin(piece); i < pieces.end(piece); ++i)
      packed[count[piece * ranks + partition.owner(pairs[i].s[0])]++] = pairs[i];
  });
}

}  // namespace

std::uint64_t distributed_device_bytes(std::size_t vertices, std::size_t local_vertices,
                                       std::uint64_t local_arcs) {
  // rows; depth, parent and two queues; the global frontier bitmap, the bitmap of vertices sent
  // to their owners, and this rank's slice of the frontier; the
  // exchange buffers of top-down levels, sized by the frontier's arcs: counted at an eighth of
  // the rank's arcs (8 bytes a pair), the most a direction-optimising BFS's top-down level has
  // on the graphs measured.
  return (local_vertices + 1) * 8 + local_arcs * 4 + local_vertices * 16 +
         bitmap_words(vertices) * 4 * 2 + bitmap_words(local_vertices) * 4 + local_arcs / 8 * 8 * 2;
}

ReachedCount count_reached(const LocalGraph& g, const std::vector<vertex_t>& depth) {
  const Ranges ranges(depth.size(), host_threads() * 4, 1 << 16);
  std::vector<ReachedCount> partial(ranges.count);
  parallel_for(ranges.count, [&](std::size_t piece) {
    ReachedCount c;
    for (std::size_t v = ranges.begin(piece); v < ranges.end(piece); ++v)
      if (depth[v] >= 0) {
        ++c.vertices;
        c.arcs += g.row_offset[v + 1] - g.row_offset[v];
      }
    partial[piece] = c;
  });
  ReachedCount total;
  for (const ReachedCount& c : partial) total.vertices += c.vertices, total.arcs += c.arcs;
  return total;
}

DeviceLocalGraph::DeviceLocalGraph(const World& world, Runtime& runtime, const LocalGraph& graph,
                                   Profile* profile)
    : graph_(&graph), exchange_(std::make_unique<ExchangeBuffers>()) {
  on_every_rank(world, [&] {
    runtime.require_fits(
        "rank " + std::to_string(world.rank()) + "'s share of a graph of " +
            std::to_string(graph.vertices) + " vertices and " + std::to_string(graph.arcs) +
            " arcs (" + std::to_string(graph.local_vertices()) + " vertices, " +
            std::to_string(graph.local_arcs()) + " arcs)",
        distributed_device_bytes(graph.vertices, graph.local_vertices(), graph.local_arcs()),
        std::max<std::uint64_t>(graph.local_arcs() * 4, bitmap_words(graph.vertices) * 4));
  });
  row_offset_ =
      DeviceArray<std::int64_t>::upload(runtime, graph.row_offset, profile, "row offsets");
  column_ = graph.column.empty()
                ? DeviceArray<vertex_t>(runtime, 0, "columns")
                : DeviceArray<vertex_t>::upload(runtime, graph.column, profile, "columns");
}

struct DeviceLocalGraph::ExchangeBuffers {
  // top-down: the pairs read back, grouped by owner, received
  std::vector<cl_int2> pairs, packed;
  std::vector<char> incoming;
  // bottom-up: the whole frontier bitmap on the device, and on the host either shared by the
  // ranks of one host or one copy per rank (ranks on several hosts); made at the first
  // bottom-up level (MPI's shared window costs milliseconds to set up)
  DeviceArray<cl_uint> global_bits;
  std::unique_ptr<SharedHostBlock> shared_bits;
  std::vector<cl_uint> host_bits;
};

DeviceLocalGraph::~DeviceLocalGraph() = default;

DeviceRows DeviceLocalGraph::rows() const { return {row_offset_.buffer(), column_.buffer(), true}; }

DistributedBfs distributed_bfs(const World& world, Runtime& runtime, const DeviceLocalGraph& graph,
                               const std::vector<vertex_t>& sources,
                               const DistributedBfsOptions& options) {
  const LocalGraph& g = graph.host();
  const std::size_t local_n = g.local_vertices(), n = g.vertices;
  const std::int64_t first = g.begin();
  for (vertex_t s : sources)
    if (s < 0 || static_cast<std::size_t>(s) >= n)
      throw InputError("BFS source " + std::to_string(s) + " is not a vertex (the graph has " +
                       std::to_string(n) + ")");
  Profile* profile = options.profile;
  const Clock::time_point search_start = Clock::now();
  Kernels kernels(runtime, "distributed/bfs_distributed.cl", "", {profile, "bfs"});

  // Sources: this rank's, once each, in the first queue; their depth 0 set on the device (no
  // host array of the rank's size to upload per search).
  std::vector<vertex_t> local_sources;
  for (vertex_t s : sources)
    if (s >= first && s < g.end()) local_sources.push_back(static_cast<vertex_t>(s - first));
  std::sort(local_sources.begin(), local_sources.end());
  local_sources.erase(std::unique(local_sources.begin(), local_sources.end()), local_sources.end());
  std::uint64_t frontier_arcs = 0;
  for (vertex_t s : local_sources) frontier_arcs += g.row_offset[s + 1] - g.row_offset[s];
  DeviceArray<vertex_t> depth(runtime, local_n, "BFS depths"),
      parent(runtime, local_n, "BFS parents");
  DeviceArray<vertex_t> queue[2] = {DeviceArray<vertex_t>(runtime, local_n, "BFS queue"),
                                    DeviceArray<vertex_t>(runtime, local_n, "BFS queue")};
  if (local_n) {
    fill(runtime, depth.buffer(), cl_int(-1), local_n, {profile, "bfs"});
    fill(runtime, parent.buffer(), cl_int(-1), local_n, {profile, "bfs"});
    if (!local_sources.empty()) {
      detail::write_buffer(runtime, queue[0].buffer(), local_sources.data(),
                           local_sources.size() * sizeof(vertex_t), profile);
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
  DeviceLocalGraph::ExchangeBuffers& host = *graph.exchange_;
  DeviceArray<cl_uint>& global_bits = host.global_bits;
  std::vector<std::size_t> bitmap_bytes(world.size());
  for (int r = 0; r < world.size(); ++r)
    bitmap_bytes[r] = bitmap_words(g.partition.end(r) - g.partition.begin(r)) * 4;

  std::vector<std::uint64_t> totals = {local_sources.size(), frontier_arcs};
  world.sum_in_place(totals);
  std::uint64_t frontier_size = local_sources.size(), global_frontier = totals[0];
  std::uint64_t global_frontier_arcs = totals[1], unexplored = g.arcs - totals[1];
  const bool may_go_bottom_up = options.direction_optimizing && g.undirected;
  bool bottom_up = false;
  DistributedBfs result;
  int current = 0;
  for (int level = 0; global_frontier > 0; ++level) {
    if (may_go_bottom_up) {
      if (!bottom_up && global_frontier_arcs > unexplored / options.bottom_up_alpha)
        bottom_up = true;
      else if (bottom_up && global_frontier < n / options.top_down_beta)
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
        kernels.run("dbfs_top_down", kernels.grid_stride(frontier_size), graph.row_offset(),
                    graph.column(), frontier, cl_uint(frontier_size), cl_int(first),
                    cl_uint(local_n), cl_uint(detail::kHeavyRowArcs), depth, parent, next_depth,
                    next, counts, next_arcs, remote, heavy, sent);
        // The long rows it listed, a work-group each; how many is read on the device.
        const std::size_t heavy_groups =
            std::min<std::size_t>(frontier_size, runtime.saturating_groups(kernels.wg_size()));
        kernels.run("dbfs_top_down_heavy", kernels.groups(heavy_groups), graph.row_offset(),
                    graph.column(), heavy, cl_int(first), cl_uint(local_n), depth, parent,
                    next_depth, next, counts, next_arcs, remote, sent);
      }
      // The expansion ends before the exchange's clock starts (the first download would wait
      // for it, counting the kernel as exchange).
      runtime.queue().finish();
      const Clock::time_point exchange_start = Clock::now();
      const std::vector<cl_uint> count = counts.download(runtime, profile);
      // The pairs, bucketed by their target's owner and exchanged all-to-all through the host.
      host.pairs.resize(count[1]);
      if (count[1])
        detail::read_buffer(runtime, remote.buffer(), host.pairs.data(), count[1] * sizeof(cl_int2),
                            profile);
      std::vector<std::size_t> send_bytes(world.size(), 0);
      const std::vector<cl_int2>* packed = &host.pairs;
      if (world.size() == 2) {  // every pair goes to the other rank
        send_bytes[1 - world.rank()] = count[1] * sizeof(cl_int2);
      } else {
        std::vector<std::size_t> at;
        bucket_by_owner(g.partition, host.pairs, host.packed, at);
        for (int r = 0; r < world.size(); ++r)
          send_bytes[r] = (at[r + 1] - at[r]) * sizeof(cl_int2);
        packed = &host.packed;
      }
      bytes_sent = count[1] * sizeof(cl_int2);
      std::vector<std::size_t> received_bytes;
      world.all_to_all(reinterpret_cast<const char*>(packed->data()), send_bytes, host.incoming,
                       received_bytes);
      const std::vector<char>& incoming = host.incoming;
      const std::size_t incoming_pairs = incoming.size() / sizeof(cl_int2);
      reserve(runtime, received, std::max<std::size_t>(incoming_pairs, 1), "BFS pairs in");
      if (incoming_pairs)
        detail::write_buffer(runtime, received.buffer(), incoming.data(), incoming.size(), profile);
      exchange_ms = ms_since(exchange_start);
      if (incoming_pairs)
        kernels.run("dbfs_claim", kernels.grid_stride(incoming_pairs), graph.row_offset(), received,
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
      const std::size_t total_bytes = bitmap_words(n) * 4;
      if (global_bits.size() == 0) {
        global_bits = DeviceArray<cl_uint>(runtime, bitmap_words(n), "frontier bitmap");
        // Ranks on one host meet in one shared block; across hosts each rank gathers a copy.
        host.shared_bits = std::make_unique<SharedHostBlock>(world, total_bytes);
        if (!host.shared_bits->data()) host.host_bits = prefaulted_vector<cl_uint>(bitmap_words(n));
      }
      const SharedHostBlock& shared_bits = *host.shared_bits;
      char* bits =
          shared_bits.data() ? shared_bits.data() : reinterpret_cast<char*>(host.host_bits.data());
      const std::size_t slice_at = static_cast<std::size_t>(first / 32) * 4;
      const std::size_t slice_bytes = bitmap_bytes[world.rank()], after = slice_at + slice_bytes;
      if (slice_bytes)
        detail::read_buffer(runtime, local_bits.buffer(), bits + slice_at, slice_bytes, profile);
      if (shared_bits.data())
        shared_bits.publish();
      else
        world.all_gather_bytes(bits + slice_at, slice_bytes, bits, bitmap_bytes);
      // The other ranks' slices go up; this rank's own is copied on the device.
      if (slice_at) detail::write_buffer(runtime, global_bits.buffer(), bits, slice_at, profile);
      if (after < total_bytes)
        detail::write_buffer(runtime, global_bits.buffer(), bits + after, total_bytes - after,
                             profile, after);
      if (slice_bytes)
        runtime.queue().enqueueCopyBuffer(local_bits.buffer(), global_bits.buffer(), 0, slice_at,
                                          slice_bytes);
      bytes_sent = slice_bytes * (world.size() - 1);
      exchange_ms = ms_since(exchange_start);
      if (local_n)
        kernels.run("dbfs_bottom_up", kernels.grid_stride(local_n), graph.row_offset(),
                    graph.column(), global_bits, cl_uint(local_n), depth, parent, next_depth, next,
                    counts, next_arcs);
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
    stats.bytes_exchanged = totals[2];
    stats.milliseconds = world.max(ms_since(start));
    stats.exchange_milliseconds = world.max(exchange_ms);
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
  const ReachedCount reached = count_reached(g, result.depth);
  totals = {reached.vertices, reached.arcs};
  world.sum_in_place(totals);
  result.reached = totals[0];
  result.reached_arcs = totals[1];
  return result;
}

}  // namespace treefix
