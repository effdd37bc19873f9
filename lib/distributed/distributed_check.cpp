// The check of a distributed BFS (distributed/distributed_bfs.hpp), after Graph500's validation:
// every rank checks its vertices and their arcs against everybody's depths, in one pass over its
// rows on all host cores. In an undirected graph the arc to a vertex's parent is also in the
// vertex's own row (its reverse), so the pass finds it there; a directed graph's parent arcs are
// sent to the parent's rank, where the arc is stored.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "treefix/core/parallel.hpp"
#include "treefix/distributed/distributed_bfs.hpp"

namespace treefix {

namespace {

struct ParentArc {
  vertex_t parent, child;
  bool operator<(const ParentArc& other) const {
    return parent != other.parent ? parent < other.parent : child < other.child;
  }
};

// The first problem (by rank) any rank found, on every rank; empty when none did.
std::string first_problem(const World& world, const std::string& problem) {
  try {
    world.agree_on_error(problem);
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

// Depths of every vertex as the arc checks read them, one per arc at a random place: in bytes when
// the deepest level allows (a quarter of the memory traffic and more of it in the host's caches;
// BFS trees of small-world graphs are a few levels deep), else as they are. -1: unreached.
constexpr std::uint8_t kUnreachedByte = 255;
inline int level_of(std::uint8_t stored) { return stored == kUnreachedByte ? -1 : stored; }
inline int level_of(vertex_t stored) { return stored < 0 ? -1 : stored; }

// Pieces of this rank's rows with about equal arcs (vertex ranges would give one piece the hubs).
std::vector<std::size_t> arc_balanced_pieces(const LocalGraph& g) {
  const std::size_t local_n = g.local_vertices();
  const std::size_t pieces =
      std::max<std::size_t>(1, std::min<std::size_t>(host_threads() * 8, (local_n + 1023) / 1024));
  const std::int64_t arcs = g.row_offset.empty() ? 0 : g.row_offset.back();
  std::vector<std::size_t> start(pieces + 1, local_n);
  start[0] = 0;
  for (std::size_t i = 1; i < pieces; ++i) {
    const std::int64_t wanted =
        arcs / static_cast<std::int64_t>(pieces) * static_cast<std::int64_t>(i);
    start[i] = static_cast<std::size_t>(
        std::lower_bound(g.row_offset.begin(), g.row_offset.end() - 1, wanted) -
        g.row_offset.begin());
  }
  return start;
}

struct LocalCheck {
  std::string problem;                 // the first this rank found, empty when none
  std::vector<ParentArc> parent_arcs;  // directed graphs: arcs to check on the parent's rank
};

constexpr std::int64_t kPrefetchArcs = 32;

template <class Level>
LocalCheck check_local_vertices(const LocalGraph& g, const std::vector<vertex_t>& sources,
                                const std::vector<vertex_t>& depth,
                                const std::vector<vertex_t>& parent,
                                const std::vector<vertex_t>& all_depth,
                                const std::vector<Level>& level) {
  const std::int64_t first = g.begin();
  const std::size_t local_n = g.local_vertices();
  std::vector<char> is_source(local_n, 0);
  for (vertex_t s : sources)
    if (s >= first && s < g.end()) is_source[s - first] = 1;
  const std::vector<std::size_t> start = arc_balanced_pieces(g);
  const std::size_t pieces = start.size() - 1;
  std::vector<std::string> problems(pieces);
  std::vector<std::vector<ParentArc>> parent_arcs(g.undirected ? 0 : pieces);
  parallel_for(pieces, [&](std::size_t piece) {
    std::string& problem = problems[piece];
    const std::int64_t arc_end = g.row_offset[start[piece + 1]];
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
      } else if (d <= 0 || p < 0 || static_cast<std::size_t>(p) >= g.vertices) {
        problem = vertex() + "depth " + std::to_string(d) + " with parent " + std::to_string(p) +
                  (d == 0 ? " (depth 0 but not a source)" : "");
        break;
      } else if (level_of(level[p]) != d - 1) {
        problem = vertex() + "depth " + std::to_string(d) + " but its parent " + std::to_string(p) +
                  " has depth " + std::to_string(all_depth[p]);
        break;
      } else if (!g.undirected) {
        parent_arcs[piece].push_back({p, static_cast<vertex_t>(gv)});
      }
      // Every arc's far end reached, at most one level deeper: the reached vertices are closed
      // under arcs (the whole component of the sources, as every one chains up to a source
      // through its parents), and depths are distances.
      // Branch-free over the row (the common case: no problem); the row again for the message.
      bool parent_in_row = false, far = false;
      const auto deepest_neighbour = static_cast<std::make_unsigned_t<Level>>(d + 1);
      for (std::int64_t e = g.row_offset[v]; e < g.row_offset[v + 1]; ++e) {
        const vertex_t w = g.column[e];
        // The far ends' levels are read at random places: asked for a few arcs ahead, across
        // rows, so that many reads are in flight.
        if (e + kPrefetchArcs < arc_end) __builtin_prefetch(&level[g.column[e + kPrefetchArcs]]);
        // unreached (-1, or 255 in bytes) compares above every level as unsigned
        far |= static_cast<std::make_unsigned_t<Level>>(level[w]) > deepest_neighbour;
        parent_in_row |= w == p;
      }
      for (std::int64_t e = g.row_offset[v]; far && e < g.row_offset[v + 1]; ++e) {
        const vertex_t w = g.column[e];
        const int dw = level_of(level[w]);
        if (dw < 0 || dw > d + 1) {  // (d - 1 and above: the reverse arc's check)
          problem = vertex() + "depth " + std::to_string(d) + " but its neighbour " +
                    std::to_string(w) +
                    (dw < 0 ? " is unreached" : " has depth " + std::to_string(all_depth[w]));
          break;
        }
      }
      if (problem.empty() && g.undirected && !is_source[v] && !parent_in_row)
        problem = vertex() + "parent " + std::to_string(p) + " is not a neighbour";
    }
  });
  LocalCheck result;
  for (const std::string& p : problems)
    if (result.problem.empty()) result.problem = p;
  for (const auto& piece : parent_arcs)
    result.parent_arcs.insert(result.parent_arcs.end(), piece.begin(), piece.end());
  return result;
}

// Parent arcs p -> v of a directed graph, checked on the rank holding p's row; "" when all exist.
std::string check_parent_arcs(const World& world, const LocalGraph& g,
                              std::vector<ParentArc> arcs) {
  std::sort(arcs.begin(), arcs.end());  // by parent: grouped by the parent's owner
  std::vector<std::size_t> send_bytes(world.size(), 0), received_bytes;
  for (const auto& a : arcs) send_bytes[g.partition.owner(a.parent)] += sizeof a;
  const std::vector<char> incoming =
      world.all_to_all(reinterpret_cast<const char*>(arcs.data()), send_bytes, received_bytes);
  std::vector<ParentArc> to_check(incoming.size() / sizeof(ParentArc));
  if (!incoming.empty()) std::memcpy(to_check.data(), incoming.data(), incoming.size());
  const std::int64_t first = g.begin();
  for (const auto& [p, v] : to_check) {
    const vertex_t* row = g.column.data() + g.row_offset[p - first];
    const vertex_t* row_end = g.column.data() + g.row_offset[p - first + 1];
    if (!std::binary_search(row, row_end, v))
      return "vertex " + std::to_string(v) + ": parent " + std::to_string(p) + " has no arc to it";
  }
  return {};
}

}  // namespace

std::string distributed_bfs_problem(const World& world, const LocalGraph& g,
                                    const std::vector<vertex_t>& sources,
                                    const std::vector<vertex_t>& depth,
                                    const std::vector<vertex_t>& parent) {
  std::string size_problem;
  if (depth.size() != g.local_vertices() || parent.size() != g.local_vertices())
    size_problem = "rank " + std::to_string(world.rank()) + " has " + std::to_string(depth.size()) +
                   " depths and " + std::to_string(parent.size()) + " parents for " +
                   std::to_string(g.local_vertices()) + " vertices";
  if (world.any(!size_problem.empty())) return first_problem(world, size_problem);
  // Everybody's depths (a world of one has them already).
  std::vector<vertex_t> gathered;
  if (world.size() > 1) gathered = all_gather(world, depth);
  const std::vector<vertex_t>& all_depth = world.size() > 1 ? gathered : depth;
  const std::size_t n = all_depth.size();
  const Ranges slices(n, host_threads() * 4, 1 << 16);
  std::vector<vertex_t> deepest(slices.count, -1);
  parallel_for(slices.count, [&](std::size_t s) {
    for (std::size_t v = slices.begin(s); v < slices.end(s); ++v)
      deepest[s] = std::max(deepest[s], all_depth[v]);
  });
  LocalCheck local;
  if (*std::max_element(deepest.begin(), deepest.end()) < kUnreachedByte) {
    std::vector<std::uint8_t> level(n);
    parallel_for(slices.count, [&](std::size_t s) {
      for (std::size_t v = slices.begin(s); v < slices.end(s); ++v)
        level[v] = all_depth[v] < 0 ? kUnreachedByte : static_cast<std::uint8_t>(all_depth[v]);
    });
    local = check_local_vertices(g, sources, depth, parent, all_depth, level);
  } else {
    local = check_local_vertices(g, sources, depth, parent, all_depth, all_depth);
  }
  std::string problem = local.problem;
  if (!g.undirected) {  // every rank takes part in the exchange, whatever it found
    const std::string arc_problem = check_parent_arcs(world, g, std::move(local.parent_arcs));
    if (problem.empty()) problem = arc_problem;
  }
  return first_problem(world, problem);
}

}  // namespace treefix
