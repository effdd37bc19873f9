// Connected components and rooted spanning forests of a partitioned graph
// (distributed/connectivity.hpp): a world of one runs the single-device algorithms; several ranks
// the host side of kernels/distributed/components_distributed.cl. Local components and the ghosts
// (far ends of cut arcs) in one pass over the rank's rows on its device; the ghosts' labels asked
// of their owners and answered in one all-to-all each; the cut arcs linked on the device; the
// labels they joined all-gathered and linked on every rank alike.
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstring>

#include "distributed/components_tuning.hpp"
#include "distributed/vertex_bitmaps.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/distributed/bfs.hpp"
#include "treefix/distributed/connectivity.hpp"
#include "treefix/graph/connectivity.hpp"

namespace treefix {

namespace {

using detail::bitmap_words;

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Rows of at most kSmallRow arcs are walked by one work-item, of at most kTeamRow by a team
// (tuning knob distributed_components_team), longer ones in pieces of kChunk arcs by a
// work-group each (the kernels' -D options).
constexpr std::uint64_t kSmallRow = 16, kTeamRow = 512, kChunk = 2048;

// The pieces of rows longer than kTeamRow: at most one per kTeamRow arcs plus one per kChunk.
std::uint64_t piece_slots(std::uint64_t arcs) { return arcs / kTeamRow + arcs / kChunk + 1; }

// Device bytes of the merge besides the rows: the local forest and the teams' row list (8 per
// local vertex), the pieces' list (12 per piece), the ghost bitmap (n/8), the global forest (4n)
// and the ghosts with their labels (8 per ghost; ghosts are at most the other ranks' vertices
// and at most the rank's arcs).
std::uint64_t merge_device_bytes(const PartitionedGraph& g) {
  const std::uint64_t n = g.vertices, local_n = g.local_vertices(), arcs = g.local_arcs();
  const std::uint64_t ghosts = std::min<std::uint64_t>(n - local_n, arcs);
  return local_n * 8 + piece_slots(arcs) * 12 + bitmap_words(n) * 4 + n * 4 + ghosts * 8;
}

// Refused on every rank, with the numbers of the first rank that does not fit, when `extra` bytes
// on top of the merge's exceed the device (the rows are on it already).
void require_merge_fits(const World& world, Runtime& runtime, const PartitionedGraph& g,
                        const std::string& step = "", std::uint64_t extra = 0) {
  on_every_rank(world, [&] {
    runtime.require_fits("components: rank " + std::to_string(world.rank()) +
                             "'s share of a graph of " + std::to_string(g.vertices) +
                             " vertices and " + std::to_string(g.arcs) + " arcs (" +
                             std::to_string(g.local_vertices()) + " vertices, " +
                             std::to_string(g.local_arcs()) + " arcs" + step + ")",
                         merge_device_bytes(g) + extra,
                         std::max<std::uint64_t>({g.vertices * std::uint64_t{4}, extra}));
  });
}

// The set bits of a bitmap, in order (the ghosts' global ids, sorted, hence grouped by owner).
std::vector<vertex_t> set_bits(const std::vector<cl_uint>& bits) {
  const Ranges pieces(bits.size(), host_threads() * 4, 1 << 14);
  std::vector<std::size_t> at(pieces.count + 1, 0);
  parallel_for(pieces.count, [&](std::size_t p) {
    std::size_t count = 0;
    for (std::size_t w = pieces.begin(p); w < pieces.end(p); ++w)
      count += __builtin_popcount(bits[w]);
    at[p + 1] = count;
  });
  for (std::size_t p = 0; p < pieces.count; ++p) at[p + 1] += at[p];
  std::vector<vertex_t> ids(at.back());
  parallel_for(pieces.count, [&](std::size_t p) {
    std::size_t out = at[p];
    for (std::size_t w = pieces.begin(p); w < pieces.end(p); ++w)
      for (cl_uint word = bits[w]; word; word &= word - 1)
        ids[out++] = static_cast<vertex_t>(w * 32 + __builtin_ctz(word));
  });
  return ids;
}

template <class T>
std::vector<T> values_of(const std::vector<char>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

template <class T>
DeviceArray<T> upload_values(Runtime& runtime, const std::vector<T>& values, Profile* profile,
                             const char* what) {
  return values.empty() ? DeviceArray<T>(runtime, 0, what)
                        : DeviceArray<T>::upload(runtime, values, profile, what);
}

// The rank's vertices that are their component's label (its smallest vertex).
std::uint64_t count_roots(const std::vector<vertex_t>& label, std::int64_t first) {
  const Ranges ranges(label.size(), host_threads() * 4, 1 << 16);
  std::vector<std::uint64_t> roots(ranges.count, 0);
  parallel_for(ranges.count, [&](std::size_t piece) {
    for (std::size_t v = ranges.begin(piece); v < ranges.end(piece); ++v)
      roots[piece] += label[v] == first + static_cast<std::int64_t>(v);
  });
  std::uint64_t total = 0;
  for (std::uint64_t r : roots) total += r;
  return total;
}

}  // namespace

namespace detail {

PartitionedComponents partitioned_components(const World& world, Runtime& runtime,
                                             const PartitionedDeviceGraph& graph,
                                             Profile* profile) {
  const PartitionedGraph& g = graph.host();
  const DeviceGraph& rows = graph.rows();
  require_merge_fits(world, runtime, g);
  const std::size_t n = g.vertices, local_n = g.local_vertices();
  PartitionedComponents result;
  if (n == 0) return result;  // every rank alike
  const cl_int first = static_cast<cl_int>(g.begin()), undirected = g.undirected() ? 1 : 0;
  const Clock::time_point start = Clock::now();
  Kernels k(runtime, "distributed/components_distributed.cl",
            std::string(rows.offset_option()) + " -DSMALL_ROW=" + std::to_string(kSmallRow) +
                " -DTEAM_ROW=" + std::to_string(kTeamRow) + " -DCHUNK=" + std::to_string(kChunk),
            {profile, "components"});
  const cl_uint team = static_cast<cl_uint>(
      std::min(runtime.tuning()[knobs::distributed_components_team], k.wg_size()));
  const Grid all_groups = k.groups(runtime.saturating_groups(k.wg_size()));
  // The union-find of labels is allocated once ghosts are known to exist (pass 0 does not read
  // it).
  DeviceArray<vertex_t> local_parent(runtime, local_n, "local components"),
      team_rows(runtime, local_n, "row list"), global_parent(runtime, 0, "components forest");
  const std::size_t pieces = piece_slots(g.local_arcs());
  DeviceArray<vertex_t> piece_row(runtime, pieces, "row pieces");
  DeviceArray<cl_long> piece_first(runtime, pieces, "row pieces");  // EDGE_T: room for either
  DeviceArray<cl_uint> counts(runtime, 2, "row lists"),
      ghost_bits(runtime, bitmap_words(n), "ghosts");
  fill(runtime, counts.buffer(), cl_uint(0), 2, {profile, "components"});
  fill(runtime, ghost_bits.buffer(), cl_uint(0), ghost_bits.size(), {profile, "components"});
  // Pass 0 lists the long rows, pass 1 walks the same lists.
  auto walk = [&](cl_int pass) {
    if (local_n == 0) return;
    k.run("dcc_rows", k.grid_stride(local_n), rows.row_offset(), rows.column(), first,
          cl_uint(local_n), undirected, pass, cl_int(pass == 0), local_parent, global_parent,
          ghost_bits, team_rows, piece_row, piece_first, counts);
    k.run("dcc_teams", all_groups, rows.row_offset(), rows.column(), first, cl_uint(local_n),
          undirected, pass, local_parent, global_parent, ghost_bits, team_rows, counts, team);
    k.run("dcc_chunks", all_groups, rows.row_offset(), rows.column(), first, cl_uint(local_n),
          undirected, pass, local_parent, global_parent, ghost_bits, piece_row, piece_first,
          counts);
  };
  if (local_n) {
    k.run("dcc_identity", k.grid_stride(local_n), local_parent, cl_uint(local_n));
    walk(0);
    k.run("dcc_compress", k.grid_stride(local_n), local_parent, cl_uint(local_n));
  }
  runtime.queue().finish();
  result.local_milliseconds = ms_since(start);

  // The exchange: each ghost asked of its owner once, answered with its label once.
  Clock::time_point exchange_start = Clock::now();
  std::vector<cl_uint> bits = prefaulted_vector<cl_uint>(ghost_bits.size());
  ghost_bits.read_into(runtime, bits.data(), bits.size(), 0, profile);
  const std::vector<vertex_t> ghosts = set_bits(bits);
  bits = {};
  if (world.sum(ghosts.size()) == 0) {  // no cut arcs anywhere (a world of one): local is all
    if (local_n) result.label = local_parent.download(runtime, profile);
    const Ranges ranges(local_n, host_threads() * 4, 1 << 16);
    parallel_for(ranges.count, [&](std::size_t piece) {
      for (std::size_t v = ranges.begin(piece); v < ranges.end(piece); ++v)
        result.label[v] += first;
    });
    result.exchange_milliseconds = ms_since(exchange_start);
    result.count = world.sum(count_roots(result.label, first));
    return result;
  }
  result.merge_rounds = 1;
  std::vector<std::size_t> ask_bytes(world.size()), asked_bytes, answered_bytes;
  for (int r = 0; r < world.size(); ++r)
    ask_bytes[r] =
        sizeof(vertex_t) * (std::lower_bound(ghosts.begin(), ghosts.end(), g.partition.end(r)) -
                            std::lower_bound(ghosts.begin(), ghosts.end(), g.partition.begin(r)));
  const std::vector<vertex_t> asked = values_of<vertex_t>(
      world.all_to_all(reinterpret_cast<const char*>(ghosts.data()), ask_bytes, asked_bytes));
  std::vector<vertex_t> answers;
  require_merge_fits(world, runtime, g, ", answering " + std::to_string(asked.size()) + " ghosts",
                     asked.size() * 8);
  if (!asked.empty()) {
    const DeviceArray<vertex_t> asked_ids = upload_values(runtime, asked, profile, "ghosts asked");
    const DeviceArray<vertex_t> labels(runtime, asked.size(), "ghosts' labels");
    k.run("dcc_answer", k.grid_stride(asked.size()), local_parent, asked_ids, cl_uint(asked.size()),
          first, labels);
    answers = labels.download(runtime, profile);
  }
  const std::vector<vertex_t> ghost_label = values_of<vertex_t>(
      world.all_to_all(reinterpret_cast<const char*>(answers.data()), asked_bytes, answered_bytes));
  std::uint64_t bytes_sent = (ghosts.size() + asked.size()) * sizeof(vertex_t);
  global_parent = DeviceArray<vertex_t>(runtime, n, "components forest");
  k.run("dcc_identity", k.grid_stride(n), global_parent, cl_uint(n));
  if (!ghosts.empty()) {
    const DeviceArray<vertex_t> ids = upload_values(runtime, ghosts, profile, "ghosts");
    const DeviceArray<vertex_t> labels = upload_values(runtime, ghost_label, profile, "ghosts");
    k.run("dcc_point_ghosts", k.grid_stride(ghosts.size()), global_parent, ghost_bits, ids, labels,
          cl_uint(ghosts.size()));
  }
  result.exchange_milliseconds = ms_since(exchange_start);

  // The cut arcs link labels; the labels they hooked, with their roots, go to every rank.
  Clock::time_point merge_start = Clock::now();
  walk(1);
  DeviceArray<cl_uint> joined_count(runtime, 1, "labels joined");
  DeviceArray<cl_int2> joined(runtime, 0, "labels joined");
  fill(runtime, joined_count.buffer(), cl_uint(0), 1, {profile, "components"});
  k.run("dcc_joined", all_groups, global_parent, ghost_bits, cl_uint(n), cl_int(0), joined_count,
        joined);
  const std::size_t joined_here = joined_count.download(runtime, profile)[0];
  std::vector<cl_int2> mine;
  if (joined_here) {
    joined = DeviceArray<cl_int2>(runtime, joined_here, "labels joined");
    fill(runtime, joined_count.buffer(), cl_uint(0), 1, {profile, "components"});
    k.run("dcc_joined", all_groups, global_parent, ghost_bits, cl_uint(n), cl_int(1), joined_count,
          joined);
    mine = joined.download(runtime, profile);
  }
  result.merge_milliseconds = ms_since(merge_start);
  exchange_start = Clock::now();
  const std::vector<cl_int2> every = all_gather(world, mine);
  bytes_sent += mine.size() * sizeof(cl_int2) * (world.size() - 1);
  require_merge_fits(world, runtime, g,
                     ", linking " + std::to_string(every.size()) + " labels joined by all ranks",
                     every.size() * sizeof(cl_int2));
  const DeviceArray<cl_int2> pairs = upload_values(runtime, every, profile, "labels joined");
  result.exchange_milliseconds += ms_since(exchange_start);
  merge_start = Clock::now();
  if (!every.empty())
    k.run("dcc_link_pairs", k.grid_stride(every.size()), global_parent, pairs,
          cl_uint(every.size()));
  if (local_n) {
    k.run("dcc_final", k.grid_stride(local_n), local_parent, global_parent, first,
          cl_uint(local_n));
    result.label = local_parent.download(runtime, profile);
  }
  result.merge_milliseconds += ms_since(merge_start);

  std::vector<std::uint64_t> totals = {count_roots(result.label, first), ghosts.size(), bytes_sent};
  world.sum_in_place(totals);
  result.count = totals[0];
  result.ghosts = totals[1];
  result.bytes_exchanged = totals[2];
  result.joined = every.size();
  return result;
}

}  // namespace detail

PartitionedComponents connected_components(const World& world, Runtime& runtime,
                                           const PartitionedDeviceGraph& graph, Profile* profile) {
  if (world.size() > 1) return detail::partitioned_components(world, runtime, graph, profile);
  // One device: the single-device components, of the undirected graph (a directed graph's
  // arcs join their ends as the partitioned kernels join them).
  const Csr& rows = graph.host().rows;
  const Clock::time_point start = Clock::now();
  PartitionedComponents result;
  if (rows.undirected) {
    const Components cc = connected_components(runtime, graph.rows(), profile);
    result.label = cc.label.download(runtime, profile);
    result.count = cc.count;
  } else {
    const DeviceGraph symmetric(runtime, symmetrized(rows), profile);
    const Components cc = connected_components(runtime, symmetric, profile);
    result.label = cc.label.download(runtime, profile);
    result.count = cc.count;
  }
  result.local_milliseconds = ms_since(start);
  return result;
}

std::vector<vertex_t> rooted_spanning_forest(const World& world, Runtime& runtime,
                                             const PartitionedDeviceGraph& graph,
                                             const RstOptions& options) {
  const PartitionedGraph& g = graph.host();
  if (world.size() == 1) return rooted_spanning_forest(runtime, g.rows, graph.rows(), options);
  if (options.method != RstMethod::bfs && options.method != RstMethod::automatic)
    throw InputError(
        "a spanning forest over several ranks is made of BFS trees: give --method bfs");
  if (options.chosen) *options.chosen = RstMethod::bfs;
  const vertex_t root = options.root.value_or(-1);
  if (options.root && (root < 0 || static_cast<std::size_t>(root) >= g.vertices))
    throw InputError("root " + std::to_string(root) + " is not a vertex (there are " +
                     std::to_string(g.vertices) + ")");
  const PartitionedComponents cc = connected_components(world, runtime, graph, options.profile);
  const std::int64_t first = g.begin();
  const std::int64_t root_label =
      world.min(root >= first && root < g.end() ? cc.label[root - first] : LLONG_MAX);
  // The roots: every component's smallest vertex with arcs (isolated vertices stay roots without
  // a search), except in the root's component, where the root is.
  std::vector<vertex_t> local_roots;
  for (std::size_t v = 0; v < g.local_vertices(); ++v)
    if (cc.label[v] == first + static_cast<std::int64_t>(v) &&
        g.rows.row_offset[v + 1] > g.rows.row_offset[v] && cc.label[v] != root_label)
      local_roots.push_back(cc.label[v]);
  std::vector<vertex_t> roots = all_gather(world, local_roots);
  if (options.root) roots.push_back(root);
  BfsOptions search;
  search.profile = options.profile;
  return bfs(world, runtime, graph, roots, search).parent;
}

}  // namespace treefix
