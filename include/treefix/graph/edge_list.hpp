#pragma once
// Undirected edge lists: the input of root_forest (treefix/graph/rooting.hpp), and their reader.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "treefix/core/error.hpp"
#include "treefix/graph/graph_limits.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix {

// Edge i joins source[i] and target[i].
struct EdgeList {
  std::size_t vertices = 0;
  std::vector<vertex_t> source, target;
  std::size_t edges() const { return source.size(); }
};

// Bad edge lists name the offending edge; edge_index() lets a reader turn it into a file line.
class EdgeListError : public InputError {
 public:
  EdgeListError(std::size_t edge_index, const std::string& message)
      : InputError(message), edge_index_(edge_index) {}
  std::size_t edge_index() const noexcept { return edge_index_; }

 private:
  std::size_t edge_index_;
};

// Reads "u v" pairs, 0-based ids, '#' or '%' comments, on all host cores (the edge-list parser
// of graph_io.hpp, without merging anything: duplicates and self loops are the caller's to judge).
// vertices < 0: largest id + 1. Malformed or out-of-range ids fail with "path:line: ..."; lines[i]
// is the line of edge i. The forest is checked against `limits` (require_forest_fits) as soon as
// its size is known: before reading when `vertices` is given.
EdgeList read_edge_list_strict(const std::string& path, std::int64_t vertices = -1,
                               std::vector<std::size_t>* lines = nullptr,
                               const GraphLimits& limits = {});

class TextFile;
// The "u v" pairs of an edge-list text, as they stand (the parser of read_edge_list_strict and of
// the graph reader), on all host cores: a whole file, or the lines of one rank's byte range
// (TextFile's ranged constructor, its lines numbered where they stand in the file). Ids in
// 0..2^31-2; `vertices` is the largest id + 1 (0 without edges). InputError "path:line: ..." for
// the first bad line.
EdgeList parse_edge_list(const TextFile& text);

struct Csr;
// The undirected edges of a graph, each once as (u, v) with u < v: an arc without its reverse
// counts as the edge it names. What `treefix root` makes of a forest given in a graph format
// other than an edge list (.mtx, .graph, .npz, .csr).
EdgeList undirected_edges(const Csr& graph);

}  // namespace treefix
