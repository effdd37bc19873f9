#pragma once
// Vertices on the command line and in files of the phylogenetic commands (lca, unifrac,
// convert --prune/--reroot): a vertex is a name of a Newick tree, or an id. A token that is a
// name of the tree is that vertex (names win over ids: a tip named "3" is the tip); else a
// decimal id below n; else an error naming the file and line (or the option) and the token.
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "treefix/treefix/tree_io.hpp"

namespace treefix::cli {

class TreeVertices {
 public:
  explicit TreeVertices(const TreeInput& tree) : TreeVertices(tree.parent.size(), tree.names) {}
  TreeVertices(std::size_t vertices, const NodeNames& names);
  // The vertex `token` names; `where` starts the message ("pairs.txt:3", "--reroot").
  vertex_t operator()(std::string_view token, const std::string& where) const;

 private:
  std::size_t vertices_;
  std::unordered_map<std::string_view, vertex_t> by_name_;  // -1: a name of several vertices
};

// Every vertex token of a text file (white space between them, '#' comments), on all host
// cores, in file order.
std::vector<vertex_t> read_vertices(const std::string& path, const TreeVertices& vertices);

// What the phylogenetic commands weigh paths by: the n values of `weights_file` (--weights) when
// one is named, else the tree's branch lengths, or edge counts for a tree without them (1 for
// every vertex but a root).
std::vector<double> branch_lengths_of(const TreeInput& tree, const std::string& weights_file = "");

}  // namespace treefix::cli
