#pragma once
// Breadth-first search of a partitioned graph (treefix/distributed/partitioned_device_graph.hpp),
// each rank searching its share on its device; the same entry for one device and for many, with
// the single-device options (treefix/graph/bfs.hpp's BfsOptions: one direction rule).
//
//   World world;
//   Runtime rt(world.device_spec());
//   PartitionedGraph g = generate::kronecker(world, 20);
//   PartitionedDeviceGraph dg(world, rt, g);
//   PartitionedBfs r = bfs(world, rt, dg, {source});
//   std::vector<vertex_t> depth = gather(world, r.depth);   // whole on rank 0
//
// In a world of one the single-device search runs (treefix/graph/bfs.hpp). Over several ranks
// the search is level-synchronous and direction-optimising (Beamer): a top-down level expands the
// rank's frontier on its device; arcs to other ranks' vertices leave as (target, parent) pairs,
// grouped by owner and exchanged through the host (pinned staging, no peer copies; ranks of one
// host meet in shared memory); a bottom-up level all-gathers the frontier as a bitmap (n bits on
// every device) and every unvisited vertex looks for a parent in it. Beside the single-device
// rule, a level whose pairs would outweigh the bitmap runs bottom-up (tuning row
// distributed_bottom_up_exchange; docs/distributed.md). Depths equal the single-device BFS's;
// parents are valid BFS parents (which of several is timing-dependent, as on one device).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "treefix/distributed/partitioned_device_graph.hpp"
#include "treefix/graph/bfs.hpp"

namespace treefix {

// What one level of a search over several ranks cost, as rank 0 saw it (times are the slowest
// rank's).
struct BfsLevelStats {
  bool bottom_up = false;
  std::uint64_t frontier = 0;         // vertices expanded, all ranks
  std::uint64_t frontier_arcs = 0;    // their arcs
  std::uint64_t bytes_exchanged = 0;  // sent by all ranks (pairs or bitmap slices)
  double milliseconds = 0, exchange_milliseconds = 0;
};

struct PartitionedBfs {
  std::vector<vertex_t> depth, parent;  // this rank's vertices; parent -1 for sources and unreached
  // Several ranks: each level's cost (one device decides its levels itself: empty).
  std::vector<BfsLevelStats> levels;
  std::uint64_t reached = 0;       // all ranks
  std::uint64_t reached_arcs = 0;  // arcs out of reached vertices, all ranks
  // The search, from the call to its last level on the slowest rank, before depths and parents
  // are copied to the host.
  double milliseconds = 0;
};

// BFS from every vertex of `sources` (global ids, the same list on every rank; InputError for one
// outside the graph). Over several ranks the options taken are direction_optimizing, the rule's
// bottom_up_alpha and top_down_beta, and profile; a world of one takes them all.
PartitionedBfs bfs(const World& world, Runtime& runtime, const PartitionedDeviceGraph& graph,
                   const std::vector<vertex_t>& sources, const BfsOptions& options = {});

// bfs_problem (treefix/graph/bfs.hpp) of a partitioned search: the same answer on every rank,
// the first problem found by rank order. Each rank checks its own vertices and their arcs against
// every vertex's depth (all-gathered, n int32 on every rank); a directed graph's parent arcs are
// looked up on the parents' ranks.
std::string bfs_problem(const World& world, const PartitionedGraph& graph,
                        const std::vector<vertex_t>& sources, const std::vector<vertex_t>& depth,
                        const std::vector<vertex_t>& parent);
// The same with the arcs read on the devices (the rows are there already): milliseconds where the
// host takes about a second at Kronecker scale 26. Every vertex's depth is gathered in a byte (n
// bytes on every rank and device). A fault found there is worded by the host check; directed
// graphs and trees of 255 levels or more are checked on the host.
std::string bfs_problem(const World& world, Runtime& runtime, const PartitionedDeviceGraph& graph,
                        const std::vector<vertex_t>& sources, const std::vector<vertex_t>& depth,
                        const std::vector<vertex_t>& parent, Profile* profile = nullptr);

namespace detail {
// The search over several ranks, which bfs runs when the world has more than one; in a world of
// one it searches the whole graph with the partitioned kernels (the tests run it so).
PartitionedBfs partitioned_bfs(const World& world, Runtime& runtime,
                               const PartitionedDeviceGraph& graph,
                               const std::vector<vertex_t>& sources, const BfsOptions& options);
}  // namespace detail

}  // namespace treefix
