// Writing Newick (treefix/newick.hpp): the tree's nodes with their names and branch lengths.
#include <charconv>
#include <cmath>
#include <ostream>

#include "treefix/treefix/newick.hpp"

namespace treefix {
namespace {

// A label as Newick reads it back: unquoted when it holds none of the delimiters, else in single
// quotes with its quotes doubled.
void put_label(std::string& out, std::string_view name) {
  const bool plain = name.find_first_of("()[]':;, \t\r\n") == std::string_view::npos;
  if (plain) {
    out += name;
    return;
  }
  out += '\'';
  for (char c : name) {
    if (c == '\'') out += '\'';
    out += c;
  }
  out += '\'';
}

void put_length(std::string& out, double length) {
  if (length == 0 && !std::signbit(length)) return;  // no length reads back as 0
  char text[32];
  char* end = std::to_chars(text, text + sizeof text, length).ptr;  // shortest round trip
  out += ':';
  out.append(text, static_cast<std::size_t>(end - text));
}

}  // namespace

void write_newick(std::ostream& out, const ParentArray& parent, const NodeNames* names,
                  const std::vector<double>* lengths) {
  const ChildLists tree = child_lists(parent);
  std::string text;
  // An explicit stack of (vertex, next child to write): any depth, no recursion.
  std::vector<std::pair<vertex_t, std::int64_t>> stack;
  auto close = [&](vertex_t v) {
    if (names && static_cast<std::size_t>(v) < names->size()) put_label(text, (*names)[v]);
    if (lengths) put_length(text, (*lengths)[v]);
  };
  for (vertex_t root : tree.roots) {
    stack.push_back({root, tree.child_offset[root]});
    if (tree.child_offset[root] < tree.child_offset[root + 1]) text += '(';
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      if (next < tree.child_offset[v + 1]) {
        if (next > tree.child_offset[v]) text += ',';
        const vertex_t child = tree.child[next++];
        stack.push_back({child, tree.child_offset[child]});
        if (tree.child_offset[child] < tree.child_offset[child + 1]) text += '(';
        continue;
      }
      if (tree.child_offset[v] < tree.child_offset[v + 1]) text += ')';
      close(v);
      stack.pop_back();
      if (text.size() > (std::size_t{1} << 20)) {
        out << text;
        text.clear();
      }
    }
    text += ";\n";
  }
  out << text;
}

}  // namespace treefix
