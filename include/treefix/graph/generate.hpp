#pragma once
// Graph generators for tests and benchmarks. Deterministic for a given seed. Tree generators are
// in treefix/treefix/generate.hpp (same namespace).
#include <cstddef>
#include <cstdint>

#include "treefix/graph/csr.hpp"
#include "treefix/graph/graph_limits.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix {
class PhaseTimes;
}

namespace treefix::generate {

// Graphs are undirected: both arcs of every edge stored; no self loops, no duplicates.
// Kronecker / R-MAT graph of the Graph500 benchmark: 2^scale vertices (scale 0..30),
// edge_factor * 2^scale generated edges with quadrant probabilities a = 0.57, b = c = 0.19,
// d = 0.05, vertex labels scrambled by a bijection of [0, 2^scale) (so the high-degree vertices
// are not the low ids). Duplicates and self loops are removed, hence slightly fewer edges; a few
// vertices stay isolated, as in Graph500. Edge i is a pure function of (seed, i) (a counter-based
// hash, no generator state), so the graph is the same, byte for byte, whether one device builds
// it here or the ranks of a world build their shares (treefix/distributed/partitioned_graph.hpp).
// Built from the edge stream in rounds (treefix/graph/edge_stream.hpp) on all host cores; `phases`
// gets its steps. Both generators check the graph against `limits` (default: the host's
// available memory) before generating, like the readers.
Csr kronecker(unsigned scale, unsigned edge_factor, std::uint64_t seed,
              const GraphLimits& limits = {}, PhaseTimes* phases = nullptr);
// Edges [first, last) of the Kronecker stream of (scale, seed), on all host cores: what a rank of
// a partitioned build makes of its share.
void kronecker_edges(unsigned scale, std::uint64_t seed, std::uint64_t first, std::uint64_t last,
                     vertex_t* source, vertex_t* target);
// The host bytes one rank needs at the peak of building the Kronecker graph over `ranks` ranks.
std::uint64_t kronecker_host_bytes(unsigned scale, unsigned edge_factor, int ranks);
// rows x cols grid, each vertex joined to its 4 neighbours: road-like, diameter rows + cols - 2.
Csr grid2d(std::size_t rows, std::size_t cols, const GraphLimits& limits = {});
// A BFS spanning tree of the graph from `source` (host BFS; parents are the first discoverer in
// row order). Vertices not reachable from the source become roots of their own one-vertex trees,
// as in the parent output of `treefix bfs`.
ParentArray bfs_spanning_tree(const Csr& graph, vertex_t source);

}  // namespace treefix::generate
