#pragma once
// A graph split over the ranks of an MPI world by vertex ranges (a 1-D partition): rank r owns
// vertices [first[r], first[r + 1]) and holds their out-arcs, with global target ids, as CSR rows.
// Range boundaries are multiples of 32 (except the last, n), so that each rank's slice of a
// vertex bitmap is whole 32-bit words and the ranks' slices concatenate into the global bitmap.
// Small graphs therefore leave the last ranks without vertices; the algorithms allow that.
//
//   World world;
//   LocalGraph g = read_local_graph(world, "web.csr");   // each rank reads its byte range
//   LocalGraph k = kronecker_local_graph(world, 26);     // the same graph for any rank count
//   std::uint64_t h = graph_hash(world, k);              // equal for 1, 2, 4 ranks
//
// Rows are sorted, without duplicates or self loops, as every Csr of the library. Row offsets are
// 64-bit (a rank's arcs pass 2^32 from scale 28 on); column ids are int32 (below 2^31 vertices).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "treefix/distributed/world.hpp"
#include "treefix/graph/csr.hpp"
#include "treefix/graph/graph_io.hpp"

namespace treefix {

class PhaseTimes;

struct VertexPartition {
  std::vector<std::int64_t> first;  // ranks + 1 entries, first[0] = 0, first[ranks] = n

  // n vertices in ranges of about n / ranks, boundaries rounded up to multiples of 32.
  static VertexPartition balanced(std::size_t n, int ranks);
  int ranks() const { return static_cast<int>(first.size()) - 1; }
  std::int64_t begin(int rank) const { return first[rank]; }
  std::int64_t end(int rank) const { return first[rank + 1]; }
  int owner(std::int64_t vertex) const;  // the rank whose range holds `vertex`
};

struct LocalGraph {
  std::size_t vertices = 0;  // of the whole graph
  std::uint64_t arcs = 0;    // of the whole graph
  bool undirected = false;   // every arc has its reverse (on its target's rank)
  VertexPartition partition;
  int rank = 0;
  std::vector<std::int64_t> row_offset;  // local vertices + 1 entries
  std::vector<vertex_t> column;          // global target ids

  std::int64_t begin() const { return partition.begin(rank); }
  std::int64_t end() const { return partition.end(rank); }
  std::size_t local_vertices() const { return static_cast<std::size_t>(end() - begin()); }
  std::size_t local_arcs() const { return column.size(); }
};

// This rank's slice of a graph every rank holds whole.
LocalGraph local_slice(const World& world, const Csr& whole);

// The local graph from arcs source[i] -> target[i] this rank happens to hold (any endpoints below
// n): each arc is sent to its source's owner (and, when `undirected`, its reverse to the target's
// owner), then rows are built as csr_from_edges builds them. InputError for an endpoint >= n.
LocalGraph local_graph_from_arcs(const World& world, std::size_t n, std::vector<vertex_t> source,
                                 std::vector<vertex_t> target, bool undirected);

// The local graph of an edge stream every rank can make again: make_edges(first, last, source,
// target) writes edges [first, last) of this rank's share (`edges_here` edges, each endpoint
// below n; made on the host cores as the maker sees fit). The stream is made twice, in rounds of
// up to 2^25 edges (at least eight rounds when the largest share has 2^13 edges or more): once to
// count each vertex's arcs (summed by its owner), once to send the arcs to their owners, who place
// them in their rows. The host holds the rows and one round, never the whole share's edges:
// edge_stream_host_bytes gives the peak per rank. `phases`, when given, gets this rank's time in
// each step (make edges, count arcs, bucket arcs, exchange, place arcs, sort rows).
using EdgeMaker = std::function<void(std::uint64_t first, std::uint64_t last, vertex_t* source,
                                     vertex_t* target)>;
LocalGraph local_graph_from_edge_stream(const World& world, std::size_t n, std::uint64_t edges_here,
                                        bool undirected, const EdgeMaker& make_edges,
                                        PhaseTimes* phases = nullptr);
std::uint64_t edge_stream_host_bytes(std::size_t n, std::uint64_t edges, int ranks,
                                     bool undirected);

// Sorts each local row, merges duplicates and drops self loops (rows read as a file gave them).
void normalize_local_rows(LocalGraph& graph);

// Whether every arc u -> v of the whole graph has its reverse v -> u (keyed hash sums of the arcs
// and of their reverses compared over all ranks; a non-symmetric graph passes with probability
// ~2^-64).
bool has_reverse_arcs(const World& world, const LocalGraph& graph);

// An order-independent hash of the whole graph's arcs (a sum of mixed (u, v) pairs over the
// ranks): equal for equal graphs whatever the rank count or partition.
std::uint64_t graph_hash(const World& world, const LocalGraph& graph);

// The graph of `path` (graph_io.hpp formats), this rank's share of it:
//   csr    each rank reads the header, its rows' offsets and its columns (pread of its ranges)
//   edges  each rank parses its byte range of the file (cut at line starts); n = largest id + 1
//          over all ranks; arcs sent to their owners
//   other  every rank reads the file whole and keeps its slice
// Refused (InputError) as the single-device readers refuse, on every rank.
LocalGraph read_local_graph(const World& world, const std::string& path,
                            const GraphReadOptions& options = {});

// Graph500's Kronecker graph: 2^scale vertices, edge_factor * 2^scale edges, initiator
// A = 0.57, B = C = 0.19, D = 0.05, vertex labels scrambled by a bijection, undirected (both
// arcs), self loops and duplicates removed. Edge i is a pure function of (seed, i) (a
// counter-based hash, no generator state), and rank r makes edges [i_r, i_{r+1}) of an even split:
// the same graph for any number of ranks. Not the graph of generate::kronecker (another stream).
// Built as local_graph_from_edge_stream builds (each edge made twice, never held whole).
LocalGraph kronecker_local_graph(const World& world, unsigned scale, unsigned edge_factor = 16,
                                 std::uint64_t seed = 1, PhaseTimes* phases = nullptr);
// The host bytes one rank needs at the peak of kronecker_local_graph over `ranks` ranks.
std::uint64_t kronecker_host_bytes(unsigned scale, unsigned edge_factor, int ranks);

// Writes the whole graph as the raw CSR binary (graph_io.hpp "csr"): every rank writes its rows'
// offsets and columns at their place in one file (rank 0 creates it and writes the header),
// through a temporary name renamed when every rank has written.
void write_local_graph_csr(const World& world, const LocalGraph& graph, const std::string& path);

}  // namespace treefix
