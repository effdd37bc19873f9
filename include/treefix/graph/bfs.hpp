#pragma once
// Breadth-first search on the device: depth of every vertex from one or several sources, and a
// BFS parent for every reached vertex (a valid BFS tree: the parent of v is an in-neighbour of v
// one level up). Level-synchronous and work-efficient: each level expands a frontier slice of a
// queue into the next slice, with load-balanced neighbour gathering (see kernels/graph/bfs.cl): a
// work-group prefix sum over row lengths for short rows, whole-group sweeps for long rows, and a
// device-wide sweep for rows of `huge_degree` edges or more. The device decides each level
// (top-down, bottom-up, or, while the frontier is at most tuning knob bfs_small_frontier vertices,
// many levels in one work-group); the host enqueues launches in batches and reads the search's
// state once per batch, never per level.
//
//   treefix::Runtime rt;
//   treefix::Csr g = treefix::read_graph("web.mtx");
//   treefix::BfsResult r = treefix::bfs(rt, g, 0);      // r.depth[v] == -1: unreachable
#include <cstddef>
#include <string>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/graph/csr.hpp"
#include "treefix/graph/device_graph.hpp"

namespace treefix {

struct BfsOptions {
  std::size_t huge_degree = 0;  // rows with at least this many arcs use the device-wide sweep
                                // (0: 64 work-groups' worth; never below the work-group size)
  // Beamer's direction-optimising BFS: on undirected graphs, levels whose frontier's arcs exceed
  // 1/bottom_up_alpha of the arcs still unexplored run bottom-up (every unvisited vertex looks
  // for a parent in the frontier), until the frontier falls below 1/top_down_beta of all
  // vertices again (the device counts both). Ignored on directed graphs. On by default: 5x fewer
  // kernel milliseconds on Kronecker graphs on PoCL, no change on grids (treefix-bench bfs has
  // both).
  bool direction_optimizing = true;
  double bottom_up_alpha = 14, top_down_beta = 24;
  // Work-groups of each level's launch (0: enough to fill the device, Runtime::saturating_groups).
  // Groups without work return after reading the state; fewer groups cost less per level.
  std::size_t groups = 0;
  // Stop once the search has passed this many levels (0: search to the end): the result then
  // holds the levels searched so far and DeviceBfs::complete is false. Checked where the host
  // reads the search's state, so the search may run past it by one batch of launches (each launch
  // then runs at most this many levels).
  std::size_t max_levels = 0;
  Profile* profile = nullptr;  // receives every transfer and kernel ("bfs" phase for kernels)
};

// What a BFS leaves on the device: depth and parent per vertex (-1 where unreachable; -1 parent
// for sources), and the queue: every reached vertex in BFS order, level L being
// order[level_offset[L] .. level_offset[L + 1]).
struct DeviceBfs {
  DeviceArray<vertex_t> depth, parent, order;
  std::vector<std::size_t> level_offset;  // levels + 1 entries
  // vertices whose rows reached the device-wide path, and how many
  // grouped by level: level L's are huge[huge_offset[L] .. huge_offset[L + 1])
  DeviceArray<vertex_t> huge;
  std::vector<std::size_t> huge_offset;  // levels + 1 entries
  std::size_t huge_degree = 0;           // the threshold used
  std::size_t kernel_launches = 0;       // every kernel enqueued, initialisation included
  std::size_t bottom_up_levels = 0;      // levels expanded bottom-up (direction-optimising)
  // tuning knob bfs_grid_barrier was on but a work-group of that kernel waited too long (the device
  // did not keep every group resident): the search was run again without it.
  bool grid_barrier_gave_up = false;
  // false when BfsOptions::max_levels stopped the search before its end
  bool complete = true;
  std::size_t levels() const { return level_offset.empty() ? 0 : level_offset.size() - 1; }
  std::size_t reached() const { return level_offset.empty() ? 0 : level_offset.back(); }
};

// BFS from every vertex of `sources` (duplicates ignored; InputError for one out of range).
DeviceBfs bfs(Runtime& runtime, const DeviceGraph& graph, const std::vector<vertex_t>& sources,
              const BfsOptions& options = {});

struct BfsResult {
  std::vector<vertex_t> depth, parent;
  std::size_t levels = 0;  // number of non-empty levels (eccentricity of source + 1)
  std::size_t kernel_launches = 0;
  std::size_t bottom_up_levels = 0;
};

// Host convenience: upload, search from `source`, download.
BfsResult bfs(Runtime& runtime, const Csr& graph, vertex_t source, const BfsOptions& options = {});

// Sequential BFS (the tests' reference): depths, and parents (first discoverer in row order).
BfsResult bfs_reference(const Csr& graph, vertex_t source);

// The one check of a BFS tree (Graph500's): empty when depth/parent are a valid BFS from
// `sources`, else a sentence naming the first vertex at fault ("vertex 17: parent 4 is not a
// neighbour"). Valid: sources at depth 0 without parent; every other reached vertex's parent one
// level up with an arc to it; unreached vertices without parent; no arc from a reached vertex to
// one unreached or more than one level deeper (so the reached vertices are the sources'
// components and the depths are distances). No reference search is needed: one pass over the
// rows on all host cores. A partitioned graph's ranks each check their share
// (treefix/distributed/bfs.hpp).
std::string bfs_problem(const Csr& graph, const std::vector<vertex_t>& sources,
                        const std::vector<vertex_t>& depth, const std::vector<vertex_t>& parent);
// The same answer with the arcs read on the device, where `device` holds `graph` already:
// milliseconds where the host takes a second on a large graph. A fault found there is worded by
// the host check. Directed graphs and trees of 255 levels or more are checked on the host.
std::string bfs_problem(Runtime& runtime, const Csr& graph, const DeviceGraph& device,
                        const std::vector<vertex_t>& sources, const std::vector<vertex_t>& depth,
                        const std::vector<vertex_t>& parent, Profile* profile = nullptr);

// bfs_problem from `source`, and the depths equal to `expected_depth` (the reference's): the
// tests' and `treefix bfs --check`'s comparison.
std::string bfs_tree_problem(const Csr& graph, vertex_t source,
                             const std::vector<vertex_t>& expected_depth,
                             const std::vector<vertex_t>& depth,
                             const std::vector<vertex_t>& parent);

namespace detail {
// InputError "BFS source 9 outside 0..4 (the graph has 5 vertices)" for a source not in 0..n-1.
void require_bfs_sources(const std::vector<vertex_t>& sources, std::size_t n);
}  // namespace detail

}  // namespace treefix
