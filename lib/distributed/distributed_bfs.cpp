// Distributed direction-optimising BFS (distributed/distributed_bfs.hpp): the host side of
// kernels/distributed/bfs_distributed.cl, one level at a time, with the exchanges between levels.
#include "treefix/distributed/distributed_bfs.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>

#include "distributed/bfs_tuning.hpp"
#include "distributed/buckets.hpp"
#include "distributed/heavy_rows.hpp"
#include "distributed/vertex_bitmaps.hpp"
#include "treefix/core/host_memory.hpp"
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
// packed[at[r] .. at[r + 1]) go to rank r (packed: room for pairs.size() pairs).
void bucket_by_owner(const VertexPartition& partition, const std::vector<cl_int2>& pairs,
                     cl_int2* packed, std::vector<std::size_t>& at) {
  const Ranges pieces(pairs.size(), host_threads() * 2, 1 << 16);
  const auto owner = [&](const cl_int2& pair) { return partition.owner(pair.s[0]); };
  const auto each_pair = [&](std::size_t piece, auto&& visit) {
    for (std::size_t i = pieces.begin(piece); i < pieces.end(piece); ++i) visit(pairs[i]);
  };
  const detail::Buckets<cl_int2, decltype(owner), decltype(each_pair)> grouped(
      pieces, partition.ranks(), owner, each_pair);
  grouped.scatter(packed);
  at = grouped.start();
}

// Rows of more than kHeavyRowArcs arcs, which a bottom-up level may leave to work-groups.
std::size_t count_heavy_rows(const LocalGraph& g) {
  const Ranges ranges(g.local_vertices(), host_threads() * 4, 1 << 16);
  std::vector<std::size_t> partial(ranges.count, 0);
  parallel_for(ranges.count, [&](std::size_t piece) {
    for (std::size_t v = ranges.begin(piece); v < ranges.end(piece); ++v)
      partial[piece] += g.row_offset[v + 1] - g.row_offset[v] > std::int64_t(detail::kHeavyRowArcs);
  });
  std::size_t total = 0;
  for (std::size_t c : partial) total += c;
  return total;
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
  // The `count` pairs of a top-down level (in `remote` on this rank's device) to their targets'
  // owners; returns how many arrived, uploaded to `received`. `pairs_bound`: the most pairs a
  // rank sends in one level, as far as the direction rule knows (the same on every rank).
  // Collective.
  std::size_t exchange_pairs(const World& world, Runtime& runtime, const VertexPartition& partition,
                             const DeviceArray<cl_int2>& remote, std::size_t count,
                             std::size_t pairs_bound, DeviceArray<cl_int2>& received,
                             Profile* profile);

  // top-down, ranks of one host: each rank's pairs, grouped by owner, in its own segment of one
  // shared block behind a header of where each owner's group starts; the receiver uploads its
  // groups from there. MPI's copies between processes cost more than the pairs' two DMAs (a
  // level's pairs reach tens of megabytes). Made for `pairs_bound` pairs and its pages mapped
  // up front (a new block, mapped at first touch, cost a search milliseconds); grown, never
  // shrunk, should a level need more.
  std::unique_ptr<SharedHostBlock> shared_pairs;
  std::size_t pair_segment_bytes = 0;
  bool pairs_through_mpi = false;  // ranks on several hosts, or TREEFIX_MPI_SHARED=off
  // top-down, through MPI: the pairs read back, grouped by owner, received
  std::vector<cl_int2> pairs, packed;
  std::vector<char> incoming;
  // bottom-up: the whole frontier bitmap on the device, and on the host either shared by the
  // ranks of one host or one copy per rank (ranks on several hosts); made at the first
  // bottom-up level (MPI's shared window costs milliseconds to set up)
  DeviceArray<cl_uint> global_bits;
  std::unique_ptr<SharedHostBlock> shared_bits;
  std::vector<cl_uint> host_bits;
  // the rank's rows longer than kHeavyRowArcs: room for the bottom-up levels' list of them
  std::size_t heavy_rows = 0;
};

DeviceLocalGraph::~DeviceLocalGraph() = default;

std::size_t DeviceLocalGraph::ExchangeBuffers::exchange_pairs(
    const World& world, Runtime& runtime, const VertexPartition& partition,
    const DeviceArray<cl_int2>& remote, std::size_t count, std::size_t pairs_bound,
    DeviceArray<cl_int2>& received, Profile* profile) {
  const std::size_t ranks = static_cast<std::size_t>(world.size());
  const std::size_t me = static_cast<std::size_t>(world.rank());
  const std::size_t header_bytes = (ranks + 1) * sizeof(std::uint64_t);
  if (!pairs_through_mpi) {
    const std::size_t needed =
        header_bytes + static_cast<std::size_t>(world.max(std::int64_t(count))) * sizeof(cl_int2);
    if (needed > pair_segment_bytes) {
      // At most 256 MiB a rank up front (shared memory is often limited); more as levels need.
      const std::size_t first_size =
          pair_segment_bytes
              ? 0
              : header_bytes +
                    std::min<std::size_t>(pairs_bound, std::size_t(1) << 25) * sizeof(cl_int2);
      pair_segment_bytes =
          std::max({needed, 2 * pair_segment_bytes, first_size, std::size_t(1) << 16});
      shared_pairs.reset();  // collective, as is the new block
      shared_pairs = std::make_unique<SharedHostBlock>(world, pair_segment_bytes * ranks);
      pairs_through_mpi = shared_pairs->data() == nullptr;
      // This rank writes its segment and reads every other: all pages mapped now.
      if (!pairs_through_mpi)
        prefault_for_writing(shared_pairs->data(), pair_segment_bytes * ranks);
    }
  }
  if (pairs_through_mpi) {
    pairs.resize(count);
    if (count)
      detail::read_buffer(runtime, remote.buffer(), pairs.data(), count * sizeof(cl_int2), profile);
    std::vector<std::size_t> send_bytes(ranks, 0);
    const cl_int2* packed_pairs = pairs.data();
    if (ranks == 2) {  // every pair goes to the other rank
      send_bytes[1 - me] = count * sizeof(cl_int2);
    } else {
      std::vector<std::size_t> at;
      packed.resize(count);
      bucket_by_owner(partition, pairs, packed.data(), at);
      for (std::size_t r = 0; r < ranks; ++r) send_bytes[r] = (at[r + 1] - at[r]) * sizeof(cl_int2);
      packed_pairs = packed.data();
    }
    std::vector<std::size_t> received_bytes;
    world.all_to_all(reinterpret_cast<const char*>(packed_pairs), send_bytes, incoming,
                     received_bytes);
    const std::size_t arrived = incoming.size() / sizeof(cl_int2);
    reserve(runtime, received, std::max<std::size_t>(arrived, 1), "BFS pairs in");
    if (arrived)
      detail::write_buffer(runtime, received.buffer(), incoming.data(), incoming.size(), profile);
    return arrived;
  }
  char* const block = shared_pairs->data();
  auto segment_at = [&](std::size_t r) {
    return reinterpret_cast<std::uint64_t*>(block + r * pair_segment_bytes);
  };
  auto segment_pairs = [&](std::size_t r) {
    return reinterpret_cast<cl_int2*>(block + r * pair_segment_bytes + header_bytes);
  };
  std::uint64_t* const at = segment_at(me);
  if (ranks == 2) {  // every pair goes to the other rank: read straight into the segment
    if (count)
      detail::read_buffer(runtime, remote.buffer(), segment_pairs(me), count * sizeof(cl_int2),
                          profile);
    at[0] = 0;
    at[1] = me == 0 ? 0 : count;
    at[2] = count;
  } else {
    pairs.resize(count);
    if (count)
      detail::read_buffer(runtime, remote.buffer(), pairs.data(), count * sizeof(cl_int2), profile);
    std::vector<std::size_t> where;
    bucket_by_owner(partition, pairs, segment_pairs(me), where);
    std::copy(where.begin(), where.end(), at);
  }
  shared_pairs->publish();
  // This rank's group from every segment, one upload. No rank writes its segment again before
  // the level's closing sum, which it enters only after this upload has read the groups.
  std::vector<detail::HostPiece> pieces;
  std::size_t arrived = 0;
  for (std::size_t r = 0; r < ranks; ++r) {
    const std::uint64_t* their_at = segment_at(r);
    const std::size_t size = their_at[me + 1] - their_at[me];
    if (size) pieces.push_back({segment_pairs(r) + their_at[me], size * sizeof(cl_int2)});
    arrived += size;
  }
  reserve(runtime, received, std::max<std::size_t>(arrived, 1), "BFS pairs in");
  if (arrived) detail::write_buffer_gather(runtime, received.buffer(), pieces, profile);
  return arrived;
}

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
  DistributedBfs result;
  int current = 0;
  for (int level = 0; global_frontier > 0; ++level) {
    if (may_go_bottom_up) {
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
      const std::size_t incoming_pairs = host.exchange_pairs(
          world, runtime, g.partition, remote, count[1], pairs_bound, received, profile);
      bytes_sent = count[1] * sizeof(cl_int2);
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
        host.heavy_rows = count_heavy_rows(g);
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
      if (local_n) {
        reserve(runtime, heavy, std::max<std::size_t>(host.heavy_rows, 1), "BFS heavy rows");
        kernels.run("dbfs_bottom_up", kernels.grid_stride(local_n), graph.row_offset(),
                    graph.column(), global_bits, cl_uint(local_n), cl_uint(detail::kHeavyRowArcs),
                    heavy, depth, parent, next_depth, next, counts, next_arcs);
        // The long rows without a parent in their first arcs, a work-group each.
        if (host.heavy_rows)
          kernels.run("dbfs_bottom_up_heavy",
                      kernels.groups(std::min<std::size_t>(
                          host.heavy_rows, runtime.saturating_groups(kernels.wg_size()))),
                      graph.row_offset(), graph.column(), global_bits,
                      cl_uint(detail::kHeavyRowArcs), heavy, depth, parent, next_depth, next,
                      counts, next_arcs);
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
  const ReachedCount reached = count_reached(g, result.depth);
  totals = {reached.vertices, reached.arcs};
  world.sum_in_place(totals);
  result.reached = totals[0];
  result.reached_arcs = totals[1];
  return result;
}

}  // namespace treefix
