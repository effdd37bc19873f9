#pragma once
// Graphs in compressed sparse row form. Undirected graphs store both directions of every edge.
// Every Csr the library makes has its rows sorted, without duplicates and without self loops.
// A Csr may also hold a block of a larger graph's rows (a rank's share of a partitioned graph,
// treefix/graph/partitioned_graph.hpp): row v is then vertex first + v and the column ids are the
// whole graph's; the functions that take `first` say so.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "treefix/treefix/tree.hpp"

namespace treefix {

struct Csr {
  std::vector<std::int64_t>
      row_offset;                // vertices + 1 entries; row v is column[row_offset[v]..[v+1])
  std::vector<vertex_t> column;  // neighbour ids
  bool undirected = false;       // every arc u -> v has its v -> u (enables bottom-up BFS)
  std::size_t vertices() const { return row_offset.empty() ? 0 : row_offset.size() - 1; }
  std::size_t edges() const { return column.size(); }  // directed edges (arcs)
  std::size_t degree(vertex_t v) const {
    return static_cast<std::size_t>(row_offset[v + 1] - row_offset[v]);
  }
};

// Builds the CSR of n vertices from arcs source[i] -> target[i], i < count (both directions when
// `undirected`). Self loops are dropped, duplicate arcs merged, every row sorted. On all host
// cores, as gapbs' BuildCSR and SquishCSR: degrees counted, a prefix sum, arcs scattered to
// their rows, each row sorted and the rows compacted; each thread counts and scatters the arcs of
// its own range of rows, so no atomics are needed. Throws InputError for an endpoint outside
// 0..n-1.
Csr csr_from_edges(std::size_t n, const vertex_t* source, const vertex_t* target, std::size_t count,
                   bool undirected);
Csr csr_from_edges(std::size_t n, const std::vector<vertex_t>& source,
                   const std::vector<vertex_t>& target, bool undirected);

// The undirected graph of `directed` (a Csr in the form above): every arc and its reverse, once
// each; `undirected` set. Equals csr_from_edges(n, sources, targets, true) of its arcs, built
// from the CSR on all host cores: its transpose (each thread fills a range of rows, in order, so
// they come sorted), then row v of both merged. Allocates, besides its input, at most 24 bytes
// per vertex and 16 per arc (the transpose, the rows with room for both, their sizes).
Csr symmetrized(const Csr& directed);

// Host bytes that csr_from_edges allocates at its peak, besides its input, for `arcs` arcs
// (count, or 2 count when undirected): what readers check before they start.
std::uint64_t csr_build_bytes(std::size_t n, std::uint64_t arcs);

// Brings rows filled in file order (METIS lines, a SciPy CSR, arcs placed as they came) to the
// form above: each row sorted, duplicates merged, self loops dropped (row v being vertex
// first + v), compacted in place, on all host cores. Does nothing to rows already so. Leaves
// `undirected` as it is.
void normalize_rows(Csr& graph, std::int64_t first = 0);

// Checks arrays a file handed over as they are (SciPy CSR, our raw CSR): row offsets from 0 to
// the column count and never decreasing, column ids in 0..n-1 (InputError "what: row offset 7
// ..." / "what: arc 12 goes to vertex 40, outside 0..9" for the first bad one); then brings rows
// to the library's form (normalize_rows) when they are not already. On all host cores.
void check_and_normalize(Csr& graph, const std::string& what);
// The same for a block of rows of a larger graph: rows [first_vertex, ...) of a graph of
// `graph_vertices` vertices, whose first arc is the whole graph's arc `first_arc`; messages give
// the whole graph's row and arc numbers. The caller checks the block's offsets against the whole.
struct RowBlock {
  std::int64_t first_vertex = 0;
  std::int64_t first_arc = 0;
  std::size_t graph_vertices = 0;
};
void check_and_normalize(Csr& rows, const std::string& what, const RowBlock& block);

// Whether every arc has its reverse, for rows sorted and without duplicates (as csr_from_edges
// leaves them; the lookups below need sorted rows): 64 arcs at random looked up first (a missing
// reverse answers at once), then one streaming pass on all host cores comparing keyed hash sums
// of the arcs and of their reverses, with a fresh random key per call (a non-symmetric graph
// passes with probability ~2^-128).
bool has_reverse_arcs(const Csr& graph);

// An order-independent hash of the graph's arcs (a sum of their keyed mixes, mod 2^64, plus the
// vertex count's): equal for equal graphs, and for a partitioned graph the same whatever the
// rank count (treefix/distributed/partitioned_graph.hpp). A fingerprint for comparing runs (its
// key is fixed), not a defence against crafted input.
std::uint64_t graph_hash(const Csr& graph);

// The graph of a forest: an arc from every vertex to each of its children (rows in increasing
// child order), so that a BFS from the roots visits the forest level by level.
Csr child_graph(const ParentArray& parent);

}  // namespace treefix
