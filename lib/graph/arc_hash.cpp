// Keyed sums over a graph's arcs, on the host and on the device (graph/detail/arc_hash.hpp): the
// symmetry test and the graph hash of csr.hpp, the device's symmetry test of device_matrix.hpp.
#include "treefix/graph/detail/arc_hash.hpp"

#include <algorithm>
#include <random>

#include "graph/graph_detail.hpp"
#include "treefix/core/device_array.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/mix.hpp"
#include "treefix/core/parallel.hpp"

namespace treefix {

namespace detail {

ArcKey ArcKey::fresh() {
  std::random_device entropy;
  ArcKey key;
  for (std::uint64_t& lane : key.lane) lane = (std::uint64_t(entropy()) << 32) ^ entropy();
  return key;
}

ArcSums arc_sums(const Csr& rows, std::int64_t first, const ArcKey& key, bool reverses) {
  ArcSums total;
  if (rows.vertices() == 0) return total;
  // A streaming pass on all cores, in pieces of about equal rows plus arcs (a hub's row would
  // leave one thread with most of the work).
  const std::vector<std::size_t> pieces = balanced_rows(rows.row_offset);
  std::vector<ArcSums> partial(pieces.size() - 1);
  parallel_for(pieces.size() - 1, [&](std::size_t p) {
    ArcSums sums;
    for (std::size_t v = pieces[p]; v < pieces[p + 1]; ++v) {
      const std::uint64_t u = static_cast<std::uint64_t>(first + static_cast<std::int64_t>(v));
      for (std::int64_t e = rows.row_offset[v]; e < rows.row_offset[v + 1]; ++e) {
        const std::uint64_t w = static_cast<std::uint32_t>(rows.column[e]);
        const std::uint64_t arc = (u << 32) | w, reverse = (w << 32) | u;
        for (int lane = 0; lane < 2; ++lane) {
          sums.forward[lane] += mix64(arc ^ key.lane[lane]);
          if (reverses) sums.reverse[lane] += mix64(reverse ^ key.lane[lane]);
        }
      }
    }
    partial[p] = sums;
  });
  for (const ArcSums& sums : partial)
    for (int lane = 0; lane < 2; ++lane) {
      total.forward[lane] += sums.forward[lane];
      total.reverse[lane] += sums.reverse[lane];
    }
  return total;
}

ArcSums arc_sums(Runtime& runtime, const DeviceGraph& rows, std::int64_t first, const ArcKey& key,
                 Profile* profile) {
  ArcSums total;
  const std::size_t arcs = rows.arcs();
  if (arcs == 0) return total;
  return translate_device_errors("arc sums", [&] {
    Kernels k(runtime, "graph/normalise.cl", rows.offset_option(), {profile, "normalise"});
    const Grid grid = k.grid_stride(arcs);
    DeviceArray<std::uint64_t> sums(runtime, 4 * (grid.global / grid.local), "arc sums");
    k.run("arc_sums", grid, rows.row_offset(), rows.column(), static_cast<cl_int>(rows.vertices()),
          rows.offset(arcs), static_cast<cl_long>(first), static_cast<cl_ulong>(key.lane[0]),
          static_cast<cl_ulong>(key.lane[1]), sums);
    const std::vector<std::uint64_t> group = sums.download(runtime, profile);
    for (std::size_t g = 0; g < group.size(); g += 4)
      for (int lane = 0; lane < 2; ++lane) {
        total.forward[lane] += group[g + lane];
        total.reverse[lane] += group[g + 2 + lane];
      }
    return total;
  });
}

std::uint64_t arc_hash_sum(const Csr& rows, std::int64_t first) {
  return arc_sums(rows, first, ArcKey{}, false).forward[0];
}

}  // namespace detail

bool has_reverse_arcs(const Csr& g) {
  // The arc set equals its reverse exactly when the keyed sums over the arcs and over the
  // reversed arcs agree (rows hold no duplicates, so the arcs are a set): a streaming pass
  // instead of a binary search per arc (several cache misses each: 11 s on one core for
  // Kronecker-21's 63.5M arcs). The key is fresh for every call, so no file can be crafted to
  // collide; two lanes leave a chance of about 2^-128 of calling a non-symmetric graph symmetric.
  const std::size_t n = g.vertices();
  if (n == 0) return true;
  const detail::ArcKey key = detail::ArcKey::fresh();
  // A few arcs at random first, each looked up in its target's row: one without its reverse
  // settles it in microseconds (most directed graphs, edge lists giving some edges one way).
  if (!g.column.empty()) {
    std::mt19937_64 pick(key.lane[0] ^ key.lane[1]);
    for (int sample = 0; sample < 64; ++sample) {
      const std::size_t e = pick() % g.column.size();
      const auto from =
          std::upper_bound(g.row_offset.begin(), g.row_offset.end(), static_cast<std::int64_t>(e)) -
          g.row_offset.begin() - 1;
      const vertex_t to = g.column[e];
      if (!std::binary_search(g.column.begin() + g.row_offset[to],
                              g.column.begin() + g.row_offset[to + 1], static_cast<vertex_t>(from)))
        return false;
    }
  }
  return detail::arc_sums(g, 0, key, true).symmetric();
}

std::uint64_t graph_hash(const Csr& graph) {
  return detail::arc_hash_sum(graph, 0) + mix64(graph.vertices());  // mod 2^64
}

}  // namespace treefix
