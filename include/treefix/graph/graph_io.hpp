#pragma once
// Graph file readers. Every reader streams the file through TokenStream (large chunked reads, no
// line-by-line iostreams), so a file of 10^8 edges takes seconds, and reports a malformed file as
// InputError "path:line: what is wrong". Self loops are dropped and duplicate edges merged.
//
//   mtx     Matrix Market coordinate files: `%%MatrixMarket matrix coordinate F S` with field F
//           pattern | real | integer and symmetry S general | symmetric | skew-symmetric; then
//           "rows cols entries" and one "i j [value]" line per entry, 1-based. Entry (i, j) is
//           the arc i -> j; symmetric matrices store the lower triangle, and both directions are
//           added. The matrix must be square. Values are read only to check them.
//   edges   plain edge list: one "u v" pair per line, 0-based ids, `#` or `%` starts a comment;
//           n = largest id + 1. Edges are undirected (both directions added) unless asked.
//   metis   METIS / DIMACS10 .graph: header "n m [fmt [ncon]]", then line i lists the neighbours
//           of vertex i (1-based), preceded by its size/weights and followed by edge weights as
//           fmt says; an empty line is a vertex without neighbours; `%` lines are comments. The
//           neighbour count must equal 2m.
#include <string>

#include "treefix/core/names.hpp"
#include "treefix/graph/csr.hpp"

namespace treefix {

enum class GraphFormat { automatic, mtx, edges, metis };
template <>
struct EnumNames<GraphFormat> {
  static constexpr const char* what = "graph format";
  static constexpr NameEntry<GraphFormat> entries[] = {{GraphFormat::automatic, "auto"},
                                                       {GraphFormat::mtx, "mtx"},
                                                       {GraphFormat::edges, "edges"},
                                                       {GraphFormat::metis, "metis", "graph"}};
};
// The format a path's extension implies: .mtx -> mtx, .graph/.metis -> metis, else edges.
GraphFormat format_from_extension(const std::string& path);

struct GraphReadOptions {
  GraphFormat format = GraphFormat::automatic;
  bool edges_directed = false;  // edge lists: keep "u v" as the single arc u -> v
};

Csr read_graph(const std::string& path, const GraphReadOptions& options = {});
Csr read_matrix_market(const std::string& path);
Csr read_edge_list(const std::string& path, bool directed = false);
Csr read_metis(const std::string& path);

// Writers (used by `treefix generate` for graphs and by the tests): Matrix Market pattern
// general (every arc) and a 0-based edge list (every arc).
void write_matrix_market(std::ostream& out, const Csr& graph);
void write_edge_list(std::ostream& out, const Csr& graph);

}  // namespace treefix
