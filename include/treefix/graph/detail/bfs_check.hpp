#pragma once
// The Graph500 check of a BFS tree over a block of rows (treefix/graph/bfs.hpp's bfs_problem on
// one device; a partitioned graph's ranks each check their own block:
// treefix/distributed/bfs.hpp). Row v of `rows` is vertex first + v.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "treefix/core/runtime.hpp"
#include "treefix/graph/csr.hpp"
#include "treefix/graph/device_graph.hpp"

namespace treefix::detail {

// Rows of more arcs than this are taken by a work-group each, the others by one work-item, in
// the check's kernel and the partitioned BFS's (a Kronecker hub's million arcs would keep one
// work-item, and the level waiting for it, busy for tens of milliseconds).
constexpr std::size_t kWorkGroupRowArcs = 256;

// Levels as the arc checks read them, one per arc at a random place: a byte each where the
// deepest level is below 255 (a quarter of the memory traffic; BFS trees of small-world graphs
// are a few levels deep), 255 for unreached.
constexpr std::uint8_t kUnreachedLevel = 255;
std::vector<std::uint8_t> byte_levels(const std::vector<vertex_t>& depth);
// The largest entry (-1 for none), on all host cores.
vertex_t deepest(const std::vector<vertex_t>& depth);

struct ParentArc {
  vertex_t parent, child;
};

struct BlockCheck {
  std::string problem;                 // the block's first, empty when none
  std::vector<ParentArc> parent_arcs;  // directed graphs: each reached vertex's parent arc, to
                                       // be looked up in the parent's row (check_parent_arcs)
};

// The checks of the block's vertices against every vertex's depth (all_depth, the whole graph's):
// sources at depth 0 without parent; every other reached vertex's parent one level up (and, in an
// undirected graph, in its row); unreached vertices without parent; no arc from a reached vertex
// to one unreached or more than one level deeper. On all host cores.
BlockCheck check_bfs_block(const Csr& rows, std::int64_t first,
                           const std::vector<vertex_t>& sources, const std::vector<vertex_t>& depth,
                           const std::vector<vertex_t>& parent,
                           const std::vector<vertex_t>& all_depth);

// Empty when every arc parent -> child of `arcs` (parents in this block) exists.
std::string check_parent_arcs(const Csr& rows, std::int64_t first,
                              const std::vector<ParentArc>& arcs);

// The same checks as check_bfs_block for an undirected graph, with the block's rows on the
// device (`levels`: every vertex's, byte_levels): the block's smallest vertex at fault, as a
// local index, or rows.vertices() when none is. The host check words a fault.
std::size_t first_fault_on_device(Runtime& runtime, const DeviceGraph& rows, std::int64_t first,
                                  const std::vector<std::uint8_t>& levels,
                                  const std::vector<vertex_t>& sources,
                                  const std::vector<vertex_t>& depth,
                                  const std::vector<vertex_t>& parent, Profile* profile);

}  // namespace treefix::detail
