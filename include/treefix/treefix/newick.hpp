#pragma once
// Newick trees (phylogenies): "((A:1.5,B:2)C:0.5,D:3)root;".
//
//   NewickTree t = read_newick("birds.nwk", /*names=*/true);
//   t.parent   parent array: vertices numbered in pre-order as the nodes appear in the text (the
//              root is 0, children follow in their written order); several trees (one ';'
//              each) make a forest
//   t.length   branch lengths, the default weights: 0 where none is written; the root's own
//              length counts when it is written ("...)root:0.1;")
//   t.names    node names ("" for an unnamed node), kept when asked for
//
// Accepted: quoted labels ('it''s' is "it's"; inside quotes anything goes), [comments] anywhere
// between tokens, white space and newlines anywhere between tokens, multifurcations, unary nodes
// "((A))", lengths in any form std::from_chars reads (1e-3, -0.5), through the number policy of
// parse_value (finite). Unquoted labels are kept as written (underscores stay underscores).
// Refused, with the byte offset and line: unbalanced parentheses, a missing ';', a bad or missing
// length after ':', text where a delimiter is expected, an unterminated quote or comment, an empty
// file. The parser keeps an explicit stack: any depth, no recursion. A large text without quotes
// or comments is read on all host cores (each chunk twice: counts, then ids, parents, lengths and
// names), with the same result; the sequential pass reports anything malformed.
#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "treefix/treefix/tree.hpp"

namespace treefix {

// Names of the vertices of a tree, one string each, kept in one buffer (a name is a span of it).
class NodeNames {
 public:
  NodeNames() = default;
  // Names found in place: name v is text.substr(span[v].first, span[v].second).
  NodeNames(std::string text, std::vector<std::pair<std::size_t, std::size_t>> span)
      : text_(std::move(text)), span_(std::move(span)) {}
  std::size_t size() const { return span_.size(); }
  bool empty() const { return span_.empty(); }
  std::string_view operator[](std::size_t v) const {
    return std::string_view(text_).substr(span_[v].first, span_[v].second);
  }
  void add() { span_.push_back({0, 0}); }  // a vertex, unnamed so far
  void reserve(std::size_t names) { span_.reserve(names); }
  // Appends a piece to v's name; v's pieces must arrive one after another (a quoted label comes
  // in pieces between its doubled quotes).
  void append(std::size_t v, std::string_view piece) {
    if (span_[v].second == 0) span_[v].first = text_.size();
    text_ += piece;
    span_[v].second = text_.size() - span_[v].first;
  }

 private:
  std::string text_;
  std::vector<std::pair<std::size_t, std::size_t>> span_;  // (start, length) in text_
};

struct NewickTree {
  ParentArray parent;
  std::vector<double> length;
  NodeNames names;  // empty unless asked for
};

// Parses Newick text; `name` (the file) starts every message: "t.nwk: byte 17 (line 1): ...".
NewickTree parse_newick(std::string_view text, const std::string& name, bool keep_names = false);

// The same tree read on all host cores, for a text without quoted labels or comments: the text
// cut into chunks of about `chunk_bytes` just before a ',', each read twice (its nodes counted;
// then ids, parents, lengths and name spans written), with one pass over the chunks in between
// that gives each its first id, depth and the open nodes it closes. nullopt when the text has
// quotes or comments or is not well formed: parse_newick reads it then, and says what is wrong.
// parse_newick calls it first for a text of 1 MiB or more.
std::optional<NewickTree> parse_newick_in_parallel(std::string_view text, const std::string& name,
                                                   bool keep_names = false,
                                                   std::size_t chunk_bytes = std::size_t{1} << 18);
NewickTree read_newick(const std::string& path, bool keep_names = false);

// Writes a forest as Newick, one tree (one ';') a line, children in increasing id order: node
// names from `names` (quoted when they hold a delimiter) and branch lengths from `lengths` (a zero
// length is left out: it reads back as 0), each when given. read_newick gives the same tree back,
// its vertices renumbered in pre-order. `parent` must be a valid forest.
void write_newick(std::ostream& out, const ParentArray& parent, const NodeNames* names = nullptr,
                  const std::vector<double>* lengths = nullptr);

}  // namespace treefix
