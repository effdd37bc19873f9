#pragma once
// Connected components and rooted spanning forests of a partitioned graph
// (treefix/distributed/partitioned_device_graph.hpp), the same entries for one device and for
// many: in a world of one the single-device algorithms run (treefix/graph/connectivity.hpp,
// spanning_forest.hpp).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "treefix/distributed/partitioned_device_graph.hpp"
#include "treefix/graph/spanning_forest.hpp"

namespace treefix {

struct PartitionedComponents {
  std::vector<vertex_t> label;  // this rank's vertices: the smallest vertex of their component
  std::uint64_t count = 0;      // components, all ranks
  // Several ranks: label exchanges, one (each ghost asked and answered once); none when no arc
  // crosses ranks.
  std::size_t merge_rounds = 0;
  std::uint64_t ghosts = 0;  // far ends of cut arcs whose labels were asked for, all ranks
  // Labels the cut arcs joined to others, all ranks (the pairs every rank links).
  std::uint64_t joined = 0;
  std::uint64_t bytes_exchanged = 0;  // sent by all ranks
  // This rank's phases: local components and ghosts (one pass over the rows), the exchange (ghost
  // ids and labels, the joined labels; host copies included), the merge (the cut arcs linked,
  // the joined labels linked, the final labels copied to the host). One device: all local.
  double local_milliseconds = 0, exchange_milliseconds = 0, merge_milliseconds = 0;
};

// Connected components (of the undirected graph: a directed arc joins its ends as an edge does),
// labels equal to the single-device connected_components'. Over several ranks, on each rank's
// device one pass over its rows joins the rank's vertices along the arcs between them
// (union-find: local components) and marks the far ends of its other arcs (ghosts, in an n-bit
// bitmap). Each rank asks the ghosts' owners for their labels (a local component's smallest
// vertex) in one all-to-all and is answered in another; a second pass over the rows links, in an
// n-entry union-find of labels, the label at each cut arc's near end with the far end's. The
// labels it joined, with their roots, are all-gathered and linked by every rank, after which each
// vertex's label is its local component's root: the component's smallest vertex. One exchange,
// whatever the graph. Device memory besides the rows: 4n + n/8 bytes, 8 per local vertex and 8
// per ghost; CapacityError (every rank) before device work when a rank's share does not fit.
PartitionedComponents connected_components(const World& world, Runtime& runtime,
                                           const PartitionedDeviceGraph& graph,
                                           Profile* profile = nullptr);

// A rooted spanning forest, this rank's parents (-1 at the roots): every tree rooted at its
// component's smallest vertex, except options.root's. A world of one takes every method of
// rooted_spanning_forest; over several ranks the forest is made of BFS trees (RstMethod::bfs, or
// automatic; InputError for the others): one multi-source BFS from every component's smallest
// vertex with arcs, or from the root in its component.
std::vector<vertex_t> rooted_spanning_forest(const World& world, Runtime& runtime,
                                             const PartitionedDeviceGraph& graph,
                                             const RstOptions& options = {});

namespace detail {
// The components over several ranks, which connected_components runs when the world has more
// than one; in a world of one it runs the partitioned kernels on the whole graph (the tests run
// it so).
PartitionedComponents partitioned_components(const World& world, Runtime& runtime,
                                             const PartitionedDeviceGraph& graph, Profile* profile);
}  // namespace detail

}  // namespace treefix
