#pragma once
// Graph files: one entry point, read_graph, for every format, chosen by extension or by option.
// Text formats are parsed on all host cores (io/text_parse.hpp: the file mapped, cut at line
// starts, from_chars on every chunk) and malformed files fail with InputError "path:line: what".
// Binary formats load at memory speed. Before anything of a graph's size is allocated, the
// counts a header (or the largest id of an edge list) gives are compared with the file's size
// (a truncated file is refused) and with host and device memory (graph_limits.hpp). Self loops
// are dropped, duplicate arcs merged and rows sorted, whatever the format.
//
//   mtx     Matrix Market coordinate files: `%%MatrixMarket matrix coordinate F S` with field F
//           pattern | real | integer | complex and symmetry S general | symmetric |
//           skew-symmetric | hermitian; then "rows cols entries" and one "i j [value]" line per
//           entry, 1-based. Entry (i, j) is the arc i -> j; symmetric matrices store the lower
//           triangle, and both directions are added. The matrix must be square. Values are read
//           only to check them.
//   edges   edge list (SNAP style): "u v" pairs, 0-based ids, `#` or `%` starts a comment;
//           n = largest id + 1. Edges are undirected (both directions added) unless asked.
//   metis   METIS / DIMACS10 .graph: header "n m [fmt [ncon]]", then n lines, line i listing the
//           neighbours of vertex i (1-based), preceded by its size/weights and followed by edge
//           weights as fmt says; an empty line is a vertex without neighbours; `%` lines are
//           comments. The neighbour count must equal 2m; a file of fewer than n vertex lines is
//           refused (METIS's "premature end of input file").
//   npz     SciPy's scipy.sparse.save_npz of a square CSR matrix (zip of .npy members indices,
//           indptr, format, shape, data; stored or zlib-compressed); values ignored, int32 or
//           int64 indices. Unsorted rows, duplicates and explicit diagonals are accepted.
//   csr     our raw CSR binary (.csr), little-endian: a 64-byte header
//             bytes 0-7 magic "\x89TFXCSR\n", 8-11 version (1), 12-15 flags (bit 0: undirected),
//             16-23 vertices n, 24-31 arcs m, 32-35 offset width (8), 36-39 column width (4),
//             40-63 zero
//           then n + 1 row offsets (int64) and m column ids (int32); the file is exactly that long.
#include <ostream>
#include <string>

#include "treefix/core/names.hpp"
#include "treefix/graph/csr.hpp"
#include "treefix/graph/graph_limits.hpp"

namespace treefix {

class PhaseTimes;

enum class GraphFormat { automatic, mtx, edges, metis, npz, csr };
TREEFIX_ENUM_NAMES(GraphFormat, "graph format", {GraphFormat::automatic, "auto"},
                   {GraphFormat::mtx, "mtx"}, {GraphFormat::edges, "edges"},
                   {GraphFormat::metis, "metis", "graph"}, {GraphFormat::npz, "npz"},
                   {GraphFormat::csr, "csr"});
// The format a path's extension implies: .mtx -> mtx, .graph/.metis -> metis, .npz -> npz,
// .csr -> csr, anything else -> edges.
GraphFormat format_from_extension(const std::string& path);

struct GraphReadOptions {
  GraphFormat format = GraphFormat::automatic;
  bool edges_directed = false;   // edge lists: keep "u v" as the single arc u -> v
  GraphLimits limits;            // host memory, and the device the graph is for (capacity checks)
  PhaseTimes* phases = nullptr;  // receives the reading phases ("read: parse", "read: csr", ...)
};

Csr read_graph(const std::string& path, const GraphReadOptions& options = {});
Csr read_matrix_market(const std::string& path, const GraphReadOptions& options = {});
Csr read_edge_list(const std::string& path, const GraphReadOptions& options = {});
Csr read_metis(const std::string& path, const GraphReadOptions& options = {});
Csr read_npz_csr(const std::string& path, const GraphReadOptions& options = {});
Csr read_csr_binary(const std::string& path, const GraphReadOptions& options = {});

// A Matrix Market file's entries as stored: entry i is (row[i], column[i]) with value[i] (when
// asked for: the value, the real part of a complex one, 1 in pattern files). Nothing is sorted,
// merged or mirrored: symmetric files (and skew-symmetric, whose mirrored values are negated)
// stand for their entries and the mirror images. What the device path (graph/device_matrix.hpp)
// and `treefix mst` read.
struct MatrixEntries {
  std::size_t n = 0;
  bool symmetric = false, skew = false;
  std::vector<vertex_t> row, column;
  std::vector<double> value;
};
MatrixEntries read_matrix_market_entries(const std::string& path,
                                         const GraphReadOptions& options = {},
                                         bool values = false);

struct GraphWriteOptions {
  GraphFormat format = GraphFormat::automatic;  // automatic: by the output's extension
  bool compress = false;                        // npz: zlib-compressed members (savez_compressed)
};
// Writes the graph to `path` whole or not at all (io/output_file.hpp); "-" is standard output.
void write_graph(const std::string& path, const Csr& graph, const GraphWriteOptions& options = {});

// The writers: Matrix Market pattern general (every arc), 0-based edge list (every arc), METIS
// (undirected graphs only), SciPy CSR .npz (int32 indices, int32 or int64 indptr, bool data) and
// the raw CSR binary. Text is formatted on all host cores.
void write_matrix_market(std::ostream& out, const Csr& graph);
void write_edge_list(std::ostream& out, const Csr& graph);
void write_metis(std::ostream& out, const Csr& graph);
void write_npz_csr(std::ostream& out, const Csr& graph, bool compress);
void write_csr_binary(std::ostream& out, const Csr& graph);

}  // namespace treefix
