#pragma once
// Partitioned graphs (treefix/graph/partitioned_graph.hpp: each rank's rows as a Csr, a vertex
// partition) made by the ranks of an MPI world together: sliced from a whole graph, built from
// arcs sent to their owners or from an edge stream, read from one file by byte ranges, written to
// one file. Every function is collective (every rank calls it) and fails on every rank alike.
// In a world of one the single-device builders and readers run.
//
//   World world;
//   PartitionedGraph g = read_partitioned_graph(world, "web.csr");  // each rank its byte range
//   PartitionedGraph k = generate::kronecker(world, 26);  // the graph generate::kronecker makes
//   std::uint64_t h = graph_hash(world, k);               // equal for 1, 2, 4 ranks
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "treefix/distributed/world.hpp"
#include "treefix/graph/edge_stream.hpp"
#include "treefix/graph/graph_io.hpp"
#include "treefix/graph/partitioned_graph.hpp"

namespace treefix {

class PhaseTimes;
class Runtime;

// This rank's share of a graph every rank holds whole (rows brought to the library's form).
PartitionedGraph partition_graph(const World& world, const Csr& whole);

// The partitioned graph of arcs source[i] -> target[i] this rank happens to hold (any endpoints
// below n): each arc is sent to its source's owner (and, when `undirected`, its reverse to the
// target's owner), then rows are built as csr_from_edges builds them. InputError for an endpoint
// >= n.
PartitionedGraph partitioned_graph_from_arcs(const World& world, std::size_t n,
                                             std::vector<vertex_t> source,
                                             std::vector<vertex_t> target, bool undirected);

// The partitioned graph of an edge stream (treefix/graph/edge_stream.hpp) of which this rank
// makes `edges_here` edges: in the first pass each vertex's arcs are counted and summed by its
// owner, in the second the arcs go to their owners, who place them in their rows. The host holds
// the rows and one round (edge_stream_host_bytes). `phases`, when given, gets this rank's time in
// each step (make edges, count arcs, bucket arcs, exchange, place arcs, sort rows).
PartitionedGraph partitioned_graph_from_edge_stream(const World& world, std::size_t n,
                                                    std::uint64_t edges_here, bool undirected,
                                                    const EdgeMaker& make_edges,
                                                    PhaseTimes* phases = nullptr);

// Whether every arc u -> v of the whole graph has its reverse v -> u: has_reverse_arcs's keyed
// sums (a fresh key drawn by rank 0) added over the ranks.
bool has_reverse_arcs(const World& world, const PartitionedGraph& graph);

// graph_hash (treefix/graph/csr.hpp) of the whole graph: equal for equal graphs whatever the rank
// count or partition, and to graph_hash of the graph on one device.
std::uint64_t graph_hash(const World& world, const PartitionedGraph& graph);

// The graph of `path` (graph_io.hpp formats), this rank's share of it:
//   csr    each rank reads the header, its rows' offsets and its columns (read by byte range)
//   edges  each rank parses the lines starting in its byte range of the file; n = largest id + 1
//          over all ranks; arcs sent to their owners
//   other  every rank reads the file whole and keeps its share (also compressed edge lists)
// In a world of one, read_graph. Refused (InputError) as the single-device readers refuse.
PartitionedGraph read_partitioned_graph(const World& world, const std::string& path,
                                        const GraphReadOptions& options = {});

// Writes the whole graph as the raw CSR binary (graph_io.hpp "csr"): every rank writes its rows'
// offsets and columns at their place in one file, PATH.partial until every rank has written, then
// renamed; nothing is left behind on failure or a signal (treefix/io/ranged_file.hpp).
void write_partitioned_graph(const World& world, const PartitionedGraph& graph,
                             const std::string& path);

// CapacityError on every rank, before anything is generated, unless the Kronecker graph of this
// scale and edge factor fits: the shares of this host's ranks in its memory (their rows and one
// round of the edge stream each) and, with a device, every rank's share there (the rows, at most
// 2 * EF * 2^S arcs split evenly, and a search's arrays: partitioned_device_bytes; one rank: the
// whole graph as the single-device search holds it).
void require_kronecker_fits(const World& world, const Runtime* device, unsigned scale,
                            unsigned edge_factor);

namespace generate {

// Graph500's Kronecker graph (treefix/graph/generate.hpp), each rank making edges
// [i_r, i_{r+1}) of an even split of the stream: the same graph as generate::kronecker on one
// device, byte for byte, for any rank count. Built as partitioned_graph_from_edge_stream builds.
PartitionedGraph kronecker(const World& world, unsigned scale, unsigned edge_factor = 16,
                           std::uint64_t seed = 1, PhaseTimes* phases = nullptr);

}  // namespace generate

}  // namespace treefix
