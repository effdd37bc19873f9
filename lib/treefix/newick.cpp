// Newick trees, parsed with an explicit stack (treefix/treefix/newick.hpp).
#include "treefix/treefix/newick.hpp"

#include <algorithm>
#include <climits>
#include <cstring>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/io/text_io.hpp"
#include "treefix/io/text_parse.hpp"

namespace treefix {

namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}
// Characters that end an unquoted label or a length.
bool is_delimiter(char c) { return std::strchr("()[]':;,", c) != nullptr || c == '\0'; }

class NewickParser {
 public:
  NewickParser(std::string_view text, const std::string& name, bool keep_names)
      : text_(text), name_(name), keep_names_(keep_names) {}

  NewickTree parse() {
    // Every node follows a '(' or a ',' or starts a tree: that many nodes at most.
    const std::size_t bound =
        1 + static_cast<std::size_t>(std::count(text_.begin(), text_.end(), '(')) +
        static_cast<std::size_t>(std::count(text_.begin(), text_.end(), ',')) +
        static_cast<std::size_t>(std::count(text_.begin(), text_.end(), ';'));
    require_host_memory(bytes_for(bound, sizeof(vertex_t) + sizeof(double) + sizeof(vertex_t)),
                        name_ + ": a Newick tree of up to " + std::to_string(bound) + " nodes");
    tree_.parent.reserve(bound);
    tree_.length.reserve(bound);
    if (keep_names_) tree_.names.reserve(bound);
    skip_blank();
    if (at_ == text_.size()) fail(at_, "no tree: the file holds no Newick text");
    while (at_ < text_.size()) {
      parse_tree();
      skip_blank();
    }
    return std::move(tree_);
  }

 private:
  [[noreturn]] void fail(std::size_t offset, const std::string& what) const {
    const std::size_t line =
        1 + static_cast<std::size_t>(
                std::count(text_.begin(), text_.begin() + std::min(offset, text_.size()), '\n'));
    throw InputError(name_ + ": byte " + std::to_string(offset) + " (line " + std::to_string(line) +
                     "): " + what);
  }
  std::string shown(std::size_t offset) const {  // a few characters of the text, for messages
    std::string piece(text_.substr(offset, 20));
    for (char& c : piece)
      if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    return "'" + piece + "'";
  }

  // White space and [comments].
  void skip_blank() {
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (is_blank(c)) {
        ++at_;
      } else if (c == '[') {
        const std::size_t close = text_.find(']', at_ + 1);
        if (close == std::string_view::npos) fail(at_, "unterminated [comment]");
        at_ = close + 1;
      } else {
        return;
      }
    }
  }

  vertex_t new_node() {
    if (tree_.parent.size() >= static_cast<std::size_t>(INT32_MAX))
      throw CapacityError(name_ + ": more than 2^31-1 nodes");
    tree_.parent.push_back(open_.empty() ? -1 : open_.back());
    tree_.length.push_back(0);
    if (keep_names_) tree_.names.add();
    return static_cast<vertex_t>(tree_.parent.size() - 1);
  }

  // [name] [':' length] of node v.
  void label_and_length(vertex_t v) {
    skip_blank();
    if (at_ < text_.size() && text_[at_] == '\'') {
      const std::size_t start = at_++;
      for (;;) {
        const std::size_t quote = text_.find('\'', at_);
        if (quote == std::string_view::npos) fail(start, "unterminated quoted label");
        if (keep_names_) tree_.names.append(v, text_.substr(at_, quote - at_));
        at_ = quote + 1;
        if (at_ < text_.size() && text_[at_] == '\'') {  // '' inside quotes is one quote
          if (keep_names_) tree_.names.append(v, "'");
          ++at_;
          continue;
        }
        break;
      }
    } else {
      const std::size_t start = at_;
      while (at_ < text_.size() && !is_blank(text_[at_]) && !is_delimiter(text_[at_])) ++at_;
      if (keep_names_) tree_.names.append(v, text_.substr(start, at_ - start));
    }
    skip_blank();
    if (at_ < text_.size() && text_[at_] == ':') {
      ++at_;
      skip_blank();
      const std::size_t start = at_;
      while (at_ < text_.size() && !is_blank(text_[at_]) && !is_delimiter(text_[at_])) ++at_;
      const std::string_view token = text_.substr(start, at_ - start);
      if (token.empty()) fail(start, "a branch length is missing after ':'");
      double length = 0;
      if (const char* problem = parse_value(token, length); *problem)
        fail(start, "branch length '" + std::string(token.substr(0, 40)) + "' " + problem);
      tree_.length[v] = length;
    }
  }

  // One tree, up to and including its ';'.
  void parse_tree() {
    skip_blank();
    if (at_ < text_.size() && text_[at_] == ';')
      fail(at_, "an empty tree (';' with nothing before it)");
    for (;;) {
      // At the start of a subtree: '(' opens an internal node, anything else is a leaf.
      skip_blank();
      if (at_ < text_.size() && text_[at_] == '(') {
        open_.push_back(new_node());
        open_at_.push_back(at_);
        ++at_;
        continue;
      }
      label_and_length(new_node());
      // After a subtree: ',' starts a sibling, ')' closes the innermost node, ';' ends the tree.
      for (;;) {
        skip_blank();
        if (at_ == text_.size()) {
          if (!open_.empty())
            fail(open_at_.back(), "unbalanced parentheses: this '(' is never closed");
          fail(at_, "missing ';' at the end of the tree");
        }
        const char c = text_[at_];
        if (c == ',') {
          if (open_.empty()) fail(at_, "',' outside parentheses (a missing '(' or ';'?)");
          ++at_;
          break;
        }
        if (c == ')') {
          if (open_.empty()) fail(at_, "unbalanced parentheses: ')' without a '('");
          ++at_;
          const vertex_t closed = open_.back();
          open_.pop_back();
          open_at_.pop_back();
          label_and_length(closed);
          continue;
        }
        if (c == ';') {
          if (!open_.empty())
            fail(at_, "unbalanced parentheses: ';' while " + std::to_string(open_.size()) +
                          " '(' are open");
          ++at_;
          return;
        }
        fail(at_, "unexpected " + shown(at_) + " where ',', ')' or ';' belongs");
      }
    }
  }

  std::string_view text_;
  const std::string& name_;
  bool keep_names_;
  std::size_t at_ = 0;
  NewickTree tree_;
  std::vector<vertex_t> open_;        // internal nodes whose ')' is still to come
  std::vector<std::size_t> open_at_;  // where their '(' is
};

}  // namespace

NewickTree parse_newick(std::string_view text, const std::string& name, bool keep_names) {
  constexpr std::size_t kParallelFrom = std::size_t{1} << 20;  // bytes: below, one core is as quick
  if (text.size() >= kParallelFrom)
    if (std::optional<NewickTree> tree = parse_newick_in_parallel(text, name, keep_names))
      return std::move(*tree);
  return NewickParser(text, name, keep_names).parse();
}

NewickTree read_newick(const std::string& path, bool keep_names) {
  TextFile file(path);
  return parse_newick(file.text(), path, keep_names);
}

}  // namespace treefix
