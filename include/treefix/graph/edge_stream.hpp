#pragma once
// Graphs built from an edge stream that can be made again, never held whole (the Kronecker
// generator, treefix/graph/generate.hpp): make_edges(first, last, source, target) writes edges
// [first, last), each endpoint below n, on the host cores as the maker sees fit. The stream is
// made twice, in rounds of up to 2^25 edges (at least eight rounds when the stream has 2^13 edges
// or more): once to count each vertex's arcs, once to place the arcs in their rows. The host
// holds the rows and one round; edge_stream_host_bytes gives the peak. A partitioned graph is
// built the same way, each rank making its share and sending arcs to their owners
// (treefix/distributed/partitioned_graph.hpp).
#include <cstddef>
#include <cstdint>
#include <functional>

#include "treefix/graph/csr.hpp"

namespace treefix {

class PhaseTimes;

using EdgeMaker = std::function<void(std::uint64_t first, std::uint64_t last, vertex_t* source,
                                     vertex_t* target)>;

// The CSR of the stream's `edges` edges over n vertices (both arcs of each when `undirected`),
// rows as csr_from_edges makes them. `phases`, when given, gets the time of each step (make
// edges, count arcs, place arcs, sort rows).
Csr csr_from_edge_stream(std::size_t n, std::uint64_t edges, bool undirected,
                         const EdgeMaker& make_edges, PhaseTimes* phases = nullptr);

// The host bytes one rank needs at the peak of building a graph of n vertices from `edges`
// edges over `ranks` ranks.
std::uint64_t edge_stream_host_bytes(std::size_t n, std::uint64_t edges, int ranks,
                                     bool undirected);

}  // namespace treefix
