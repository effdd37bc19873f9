// The Graph500 check of a BFS tree (treefix/graph/bfs.hpp's bfs_problem, and the block check of
// graph/detail/bfs_check.hpp that each rank of a partitioned graph runs): on all host cores, or
// with the arcs read on the device (kernels/graph/bfs_check.cl) where the rows are there already.
#include <algorithm>
#include <type_traits>

#include "treefix/core/launch.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/graph/bfs.hpp"
#include "treefix/graph/detail/bfs_check.hpp"

namespace treefix {

namespace detail {

namespace {

inline int level_of(std::uint8_t stored) { return stored == kUnreachedLevel ? -1 : stored; }
inline int level_of(vertex_t stored) { return stored < 0 ? -1 : stored; }

// Pieces of the block's rows with about equal arcs (vertex ranges would give one piece the hubs).
std::vector<std::size_t> arc_balanced_pieces(const Csr& rows) {
  const std::size_t n = rows.vertices();
  const std::size_t pieces =
      std::max<std::size_t>(1, std::min<std::size_t>(host_threads() * 8, (n + 1023) / 1024));
  const std::int64_t arcs = rows.row_offset.empty() ? 0 : rows.row_offset.back();
  std::vector<std::size_t> start(pieces + 1, n);
  start[0] = 0;
  for (std::size_t i = 1; i < pieces; ++i) {
    const std::int64_t wanted =
        arcs / static_cast<std::int64_t>(pieces) * static_cast<std::int64_t>(i);
    start[i] = static_cast<std::size_t>(
        std::lower_bound(rows.row_offset.begin(), rows.row_offset.end() - 1, wanted) -
        rows.row_offset.begin());
  }
  return start;
}

constexpr std::int64_t kPrefetchArcs = 32;

template <class Level>
BlockCheck check_block(const Csr& rows, std::int64_t first, const std::vector<vertex_t>& sources,
                       const std::vector<vertex_t>& depth, const std::vector<vertex_t>& parent,
                       const std::vector<vertex_t>& all_depth, const std::vector<Level>& level) {
  const std::size_t n = rows.vertices(), vertices = all_depth.size();
  std::vector<char> is_source(n, 0);
  for (vertex_t s : sources)
    if (s >= first && s < first + static_cast<std::int64_t>(n)) is_source[s - first] = 1;
  const std::vector<std::size_t> start = arc_balanced_pieces(rows);
  const std::size_t pieces = start.size() - 1;
  std::vector<std::string> problems(pieces);
  std::vector<std::vector<ParentArc>> parent_arcs(rows.undirected ? 0 : pieces);
  parallel_for(pieces, [&](std::size_t piece) {
    std::string& problem = problems[piece];
    const std::int64_t arc_end = rows.row_offset[start[piece + 1]];
    for (std::size_t v = start[piece]; v < start[piece + 1] && problem.empty(); ++v) {
      const std::int64_t gv = first + static_cast<std::int64_t>(v);
      const vertex_t d = depth[v], p = parent[v];
      auto vertex = [gv] { return "vertex " + std::to_string(gv) + ": "; };  // when at fault
      if (is_source[v]) {
        if (d != 0 || p != -1) {
          problem = vertex() + "a source needs depth 0 and parent -1, has depth " +
                    std::to_string(d) + " and parent " + std::to_string(p);
          break;
        }
      } else if (d == -1) {
        // Unreached: its reached neighbours' checks find an arc into the unreached part.
        if (p != -1) problem = vertex() + "unreached but has parent " + std::to_string(p);
        continue;
      } else if (d <= 0 || p < 0 || static_cast<std::size_t>(p) >= vertices) {
        problem = vertex() + "depth " + std::to_string(d) + " with parent " + std::to_string(p) +
                  (d == 0 ? " (depth 0 but not a source)" : "");
        break;
      } else if (level_of(level[p]) != d - 1) {
        problem = vertex() + "depth " + std::to_string(d) + " but its parent " + std::to_string(p) +
                  " has depth " + std::to_string(all_depth[p]);
        break;
      } else if (!rows.undirected) {
        parent_arcs[piece].push_back({p, static_cast<vertex_t>(gv)});
      }
      // Every arc's far end reached, at most one level deeper: the reached vertices are closed
      // under arcs (the whole component of the sources, as every one chains up to a source
      // through its parents), and depths are distances.
      // Branch-free over the row (the common case: no problem); the row again for the message.
      bool parent_in_row = false, far = false;
      const auto deepest_neighbour = static_cast<std::make_unsigned_t<Level>>(d + 1);
      for (std::int64_t e = rows.row_offset[v]; e < rows.row_offset[v + 1]; ++e) {
        const vertex_t w = rows.column[e];
        // The far ends' levels are read at random places: asked for a few arcs ahead, across
        // rows, so that many reads are in flight.
        if (e + kPrefetchArcs < arc_end) __builtin_prefetch(&level[rows.column[e + kPrefetchArcs]]);
        // unreached (-1, or 255 in bytes) compares above every level as unsigned
        far |= static_cast<std::make_unsigned_t<Level>>(level[w]) > deepest_neighbour;
        parent_in_row |= w == p;
      }
      for (std::int64_t e = rows.row_offset[v]; far && e < rows.row_offset[v + 1]; ++e) {
        const vertex_t w = rows.column[e];
        const int dw = level_of(level[w]);
        if (dw < 0 || dw > d + 1) {  // (d - 1 and above: the reverse arc's check)
          problem = vertex() + "depth " + std::to_string(d) + " but its neighbour " +
                    std::to_string(w) +
                    (dw < 0 ? " is unreached" : " has depth " + std::to_string(all_depth[w]));
          break;
        }
      }
      // In an undirected graph the arc from the parent is the reverse of one in v's own row.
      if (problem.empty() && rows.undirected && !is_source[v] && !parent_in_row)
        problem = vertex() + "parent " + std::to_string(p) + " is not a neighbour";
    }
  });
  BlockCheck result;
  for (const std::string& p : problems)
    if (result.problem.empty()) result.problem = p;
  for (const auto& piece : parent_arcs)
    result.parent_arcs.insert(result.parent_arcs.end(), piece.begin(), piece.end());
  return result;
}

}  // namespace

vertex_t deepest(const std::vector<vertex_t>& depth) {
  const Ranges slices(depth.size(), host_threads() * 4, 1 << 16);
  std::vector<vertex_t> slice_deepest(slices.count, -1);
  parallel_for(slices.count, [&](std::size_t s) {
    for (std::size_t v = slices.begin(s); v < slices.end(s); ++v)
      slice_deepest[s] = std::max(slice_deepest[s], depth[v]);
  });
  return slice_deepest.empty() ? -1 : *std::max_element(slice_deepest.begin(), slice_deepest.end());
}

std::vector<std::uint8_t> byte_levels(const std::vector<vertex_t>& depth) {
  std::vector<std::uint8_t> level(depth.size());
  const Ranges slices(depth.size(), host_threads() * 4, 1 << 16);
  parallel_for(slices.count, [&](std::size_t s) {
    for (std::size_t v = slices.begin(s); v < slices.end(s); ++v)
      level[v] = depth[v] < 0 ? kUnreachedLevel : static_cast<std::uint8_t>(depth[v]);
  });
  return level;
}

BlockCheck check_bfs_block(const Csr& rows, std::int64_t first,
                           const std::vector<vertex_t>& sources, const std::vector<vertex_t>& depth,
                           const std::vector<vertex_t>& parent,
                           const std::vector<vertex_t>& all_depth) {
  if (deepest(all_depth) < kUnreachedLevel)
    return check_block(rows, first, sources, depth, parent, all_depth, byte_levels(all_depth));
  return check_block(rows, first, sources, depth, parent, all_depth, all_depth);
}

std::string check_parent_arcs(const Csr& rows, std::int64_t first,
                              const std::vector<ParentArc>& arcs) {
  for (const auto& [p, v] : arcs) {
    const vertex_t* row = rows.column.data() + rows.row_offset[p - first];
    const vertex_t* row_end = rows.column.data() + rows.row_offset[p - first + 1];
    if (!std::binary_search(row, row_end, v))
      return "vertex " + std::to_string(v) + ": parent " + std::to_string(p) + " has no arc to it";
  }
  return {};
}

std::size_t first_fault_on_device(Runtime& runtime, const DeviceGraph& rows, std::int64_t first,
                                  const std::vector<std::uint8_t>& levels,
                                  const std::vector<vertex_t>& sources,
                                  const std::vector<vertex_t>& depth,
                                  const std::vector<vertex_t>& parent, Profile* profile) {
  const std::size_t n = rows.vertices();
  if (n == 0) return 0;
  Kernels kernels(runtime, "graph/bfs_check.cl", rows.offset_option(), {profile, "check"});
  const auto device_level = DeviceArray<std::uint8_t>::upload(runtime, levels, profile, "levels");
  const auto device_depth = DeviceArray<vertex_t>::upload(runtime, depth, profile, "depths");
  const auto device_parent = DeviceArray<vertex_t>::upload(runtime, parent, profile, "parents");
  const std::vector<vertex_t> source_list = sources.empty() ? std::vector<vertex_t>{-1} : sources;
  const auto device_sources =
      DeviceArray<vertex_t>::upload(runtime, source_list, profile, "sources");
  DeviceArray<cl_uint> first_bad(runtime, 1, "first bad vertex"),
      heavy_count(runtime, 1, "heavy rows");
  DeviceArray<vertex_t> heavy(runtime, rows.arcs() / kWorkGroupRowArcs + 1, "heavy rows");
  fill(runtime, first_bad.buffer(), cl_uint(n), 1, {profile, "check"});
  fill(runtime, heavy_count.buffer(), cl_uint(0), 1, {profile, "check"});
  kernels.run("bfs_check_rows", kernels.grid_stride(n), rows.row_offset(), rows.column(),
              device_level, device_depth, device_parent, device_sources, cl_uint(sources.size()),
              cl_uint(n), cl_int(first), cl_uint(levels.size()), cl_uint(kWorkGroupRowArcs), heavy,
              heavy_count, first_bad);
  const std::size_t groups =
      std::min<std::size_t>(heavy.size(), runtime.saturating_groups(kernels.wg_size()));
  kernels.run("bfs_check_heavy", kernels.groups(groups), rows.row_offset(), rows.column(),
              device_level, device_depth, device_parent, device_sources, cl_uint(sources.size()),
              cl_int(first), heavy, heavy_count, first_bad);
  return first_bad.download(runtime, profile)[0];
}

}  // namespace detail

std::string bfs_problem(const Csr& graph, const std::vector<vertex_t>& sources,
                        const std::vector<vertex_t>& depth, const std::vector<vertex_t>& parent) {
  const std::size_t n = graph.vertices();
  if (depth.size() != n || parent.size() != n)
    return std::to_string(depth.size()) + " depths and " + std::to_string(parent.size()) +
           " parents for " + std::to_string(n) + " vertices";
  detail::BlockCheck check = detail::check_bfs_block(graph, 0, sources, depth, parent, depth);
  if (check.problem.empty() && !graph.undirected)
    check.problem = detail::check_parent_arcs(graph, 0, check.parent_arcs);
  return check.problem;
}

std::string bfs_problem(Runtime& runtime, const Csr& graph, const DeviceGraph& device,
                        const std::vector<vertex_t>& sources, const std::vector<vertex_t>& depth,
                        const std::vector<vertex_t>& parent, Profile* profile) {
  const std::size_t n = graph.vertices();
  if (depth.size() != n || parent.size() != n || !graph.undirected ||
      detail::deepest(depth) >= detail::kUnreachedLevel)
    return bfs_problem(graph, sources, depth, parent);
  const std::size_t fault = detail::first_fault_on_device(
      runtime, device, 0, detail::byte_levels(depth), sources, depth, parent, profile);
  if (fault >= n) return {};
  std::string problem = bfs_problem(graph, sources, depth, parent);  // words it
  return problem.empty() ? "the device check finds vertex " + std::to_string(fault) +
                               " at fault where the host check finds none"
                         : problem;
}

}  // namespace treefix
