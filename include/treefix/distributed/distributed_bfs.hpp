#pragma once
// Breadth-first search, connected components and BFS spanning forests of a graph split over the
// ranks of an MPI world (distributed_graph.hpp), each rank computing on its own device.
//
//   World world;
//   Runtime rt(world.device_spec());
//   LocalGraph g = kronecker_local_graph(world, 20);
//   DeviceLocalGraph dg(world, rt, g);                 // refused on every rank if a rank's share
//                                                      // does not fit its device
//   DistributedBfs r = distributed_bfs(world, rt, dg, {source});
//   std::vector<vertex_t> depth = gather(world, r.depth);   // whole on rank 0
//
// BFS is level-synchronous and direction-optimising (Beamer): a top-down level expands the
// rank's frontier on its device; arcs to other ranks' vertices leave as (target, parent) pairs,
// grouped by owner and exchanged through the host (pinned staging, no peer copies; ranks of one
// host meet in shared memory); a bottom-up level all-gathers the frontier as a bitmap (n bits on
// every device) and every unvisited vertex looks for a parent in it. A level whose pairs would
// outweigh the bitmap runs bottom-up (docs/distributed.md). Depths equal the single-device BFS's;
// parents are valid BFS parents (which of several is timing-dependent, as on one device).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/distributed/distributed_graph.hpp"

namespace treefix {

// A rank's rows on its device, as the kernels take them: DeviceLocalGraph::rows(), or with one
// rank the whole graph's DeviceGraph (treefix/graph/device_graph.hpp).
struct DeviceRows {
  cl::Buffer row_offset, column;
  bool wide_offsets = true;  // row offsets long, else int
};

// A rank's rows on its device: 64-bit row offsets, int32 global column ids.
struct DistributedBfs;
struct DistributedBfsOptions;

class DeviceLocalGraph {
 public:
  // Checks first, on every rank, that every rank's share fits its device (rows, BFS arrays and
  // bitmap, exchange buffers); CapacityError with the numbers of the first rank that does not.
  DeviceLocalGraph(const World& world, Runtime& runtime, const LocalGraph& graph,
                   Profile* profile = nullptr);
  ~DeviceLocalGraph();
  const LocalGraph& host() const { return *graph_; }
  const DeviceArray<std::int64_t>& row_offset() const { return row_offset_; }
  const DeviceArray<vertex_t>& column() const { return column_; }
  DeviceRows rows() const;

 private:
  friend DistributedBfs distributed_bfs(const World&, Runtime&, const DeviceLocalGraph&,
                                        const std::vector<vertex_t>&, const DistributedBfsOptions&);
  const LocalGraph* graph_;
  DeviceArray<std::int64_t> row_offset_;
  DeviceArray<vertex_t> column_;
  // The host buffers of the top-down exchange, kept from search to search: a level's pairs reach
  // tens of megabytes, whose first touch costs more than their copy.
  struct ExchangeBuffers;
  std::unique_ptr<ExchangeBuffers> exchange_;
};

// Device bytes a rank needs for `local_vertices` rows of `local_arcs` arcs in a graph of
// `vertices` (the check DeviceLocalGraph makes).
std::uint64_t distributed_device_bytes(std::size_t vertices, std::size_t local_vertices,
                                       std::uint64_t local_arcs);

struct DistributedBfsOptions {
  bool direction_optimizing = true;  // undirected graphs only, as on one device
  double bottom_up_alpha = 14, top_down_beta = 24;
  Profile* profile = nullptr;
};

// What one level cost, as rank 0 saw it (times are the slowest rank's).
struct BfsLevelStats {
  bool bottom_up = false;
  std::uint64_t frontier = 0;         // vertices expanded, all ranks
  std::uint64_t frontier_arcs = 0;    // their arcs
  std::uint64_t bytes_exchanged = 0;  // sent by all ranks (pairs or bitmap slices)
  double milliseconds = 0, exchange_milliseconds = 0;
};

struct DistributedBfs {
  std::vector<vertex_t> depth, parent;  // this rank's vertices; parent -1 for sources and unreached
  std::vector<BfsLevelStats> levels;
  std::uint64_t reached = 0;       // all ranks
  std::uint64_t reached_arcs = 0;  // arcs out of reached vertices, all ranks
  // The search, from the call to its last level on the slowest rank, before depths and parents
  // are copied to the host.
  double milliseconds = 0;
};

// BFS from every vertex of `sources` (global ids, the same list on every rank; InputError for one
// outside the graph).
DistributedBfs distributed_bfs(const World& world, Runtime& runtime, const DeviceLocalGraph& graph,
                               const std::vector<vertex_t>& sources,
                               const DistributedBfsOptions& options = {});

// This rank's vertices with depth >= 0 and the arcs out of them (TEPS count the reached
// component's edges), on all host cores.
struct ReachedCount {
  std::uint64_t vertices = 0, arcs = 0;
};
ReachedCount count_reached(const LocalGraph& graph, const std::vector<vertex_t>& depth);

// Empty when depth/parent (this rank's) are a valid BFS from `sources` on every rank: sources at
// depth 0 without parent; every other reached vertex's parent one level up with an arc to it;
// no arc from a reached vertex to one unreached or more than one level deeper (so depths are the
// distances). Else the first problem found, by rank order ("vertex 17: parent 4 is not ..."). The
// same answer on every rank. Needs every rank's depths on every rank (n int32 each).
std::string distributed_bfs_problem(const World& world, const LocalGraph& graph,
                                    const std::vector<vertex_t>& sources,
                                    const std::vector<vertex_t>& depth,
                                    const std::vector<vertex_t>& parent);

// The same answer as distributed_bfs_problem above, with the arcs read on the device: the fast
// check of Graph500 runs (milliseconds where the host takes about a second at Kronecker scale 26).
// Every vertex's depth is gathered in a byte (n bytes on every rank and device). When the device
// finds a fault, the host check above runs and words it. Directed graphs and trees of 255 levels or
// more are checked on the host.
std::string distributed_bfs_problem(const World& world, Runtime& runtime, const LocalGraph& graph,
                                    const DeviceRows& rows, const std::vector<vertex_t>& sources,
                                    const std::vector<vertex_t>& depth,
                                    const std::vector<vertex_t>& parent,
                                    Profile* profile = nullptr);

struct DistributedComponents {
  std::vector<vertex_t> label;  // this rank's vertices: the smallest vertex of their component
  std::uint64_t count = 0;      // components, all ranks
  // Label exchanges: one (each ghost asked and answered once); none when no arc crosses ranks.
  std::size_t merge_rounds = 0;
  std::uint64_t ghosts = 0;  // far ends of cut arcs whose labels were asked for, all ranks
  // Labels the cut arcs joined to others, all ranks (the pairs every rank links).
  std::uint64_t joined = 0;
  std::uint64_t bytes_exchanged = 0;  // sent by all ranks
  // This rank's phases: local components and ghosts (one pass over the rows), the exchange (ghost
  // ids and labels, the joined labels; host copies included), the merge (the cut arcs linked,
  // the joined labels linked, the final labels copied to the host).
  double local_milliseconds = 0, exchange_milliseconds = 0, merge_milliseconds = 0;
};

// Connected components (of the undirected graph: a directed arc joins its ends as an edge does),
// labels equal to the single-device connected_components'. On each rank's device, one pass over
// its rows joins the rank's vertices along the arcs between them (union-find: local components)
// and marks the far ends of its other arcs (ghosts, in an n-bit bitmap). Each rank asks the
// ghosts' owners for their labels (a local component's smallest vertex) in one all-to-all and is
// answered in another; a second pass over the rows links, in an n-entry union-find of labels, the
// label at each cut arc's near end with the far end's. The labels it joined, with their roots, are
// all-gathered and linked by every rank, after which each vertex's label is its local component's
// root: the component's smallest vertex. One exchange, whatever the graph; of an undirected
// graph's two arcs between ranks only one is linked. Device memory: the rows, 4n + n/8 bytes, 8
// per local vertex and 8 per ghost; CapacityError (every rank) before device work when a rank's
// share does not fit.
DistributedComponents distributed_components(const World& world, Runtime& runtime,
                                             const LocalGraph& graph, Profile* profile = nullptr);
// The same with the rows already on the device (the BFS's upload; nothing is uploaded again).
DistributedComponents distributed_components(const World& world, Runtime& runtime,
                                             const DeviceLocalGraph& graph,
                                             Profile* profile = nullptr);

// A rooted spanning forest by BFS trees, as the single-device rooted_spanning_forest with
// RstMethod::bfs: each tree rooted at its component's smallest vertex, except `root`'s (when
// given, >= 0), one multi-source BFS from all the roots. This rank's parents (-1 at the roots).
std::vector<vertex_t> distributed_bfs_forest(const World& world, Runtime& runtime,
                                             const LocalGraph& graph, vertex_t root,
                                             Profile* profile = nullptr);

}  // namespace treefix
