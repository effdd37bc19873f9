#pragma once
// Internal to the forest module: one RuleML document into a FlatTree (breadth-first), written
// while walking the pugixml DOM, with nothing allocated per node once the walker's vectors have
// grown. One walker serves both readers: the nested read_ruleml and the parallel
// read_ruleml_forest (one walker per thread, reused across files).
#include <pugixml.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "forest/flat_tree.hpp"

namespace treefix::detail {

// The bytes of file `name` (relative to the directory open as `directory_fd`; AT_FDCWD: a path)
// into bytes[0, returned length), read until the end. `bytes` keeps its size between calls, so
// that a thread reads file after file into one buffer. `path` names the file in messages
// (InputError "path: cannot open: ..."). listed_regular: a directory listing said the file is
// regular, so it is not checked with fstat unless it grows past 16 MiB.
std::size_t read_file_at(int directory_fd, const char* name, const std::string& path,
                         std::string& bytes, bool listed_regular);
// The whole file as `bytes` (checked: a regular file).
void read_file_bytes(const std::string& path, std::string& bytes);

class RuleMLWalker {
 public:
  // Parses a copy of `text` in place (`text` itself gives the line numbers of messages: parsing
  // in place writes into what it parses) and walks it into
  // `out`, whose labels view the walker's document until the next call. Then checks the tree
  // (check_flat_tree). InputError "name:line: element <...>: what is wrong".
  void read(std::string_view text, const std::string& name, FlatTree& out);

 private:
  std::string describe(std::size_t node, bool arc) const;
  std::string describe(pugi::xml_node element) const;
  [[noreturn]] void fail(pugi::xml_node element, const std::string& message) const;
  std::string_view label_text(pugi::xml_node element) const;
  // The next element child from `c` on (c itself when it is one); blank text and comments are
  // skipped, other text is an error of `parent`.
  pugi::xml_node element_from(pugi::xml_node parent, pugi::xml_node c) const;
  void read_term(std::size_t index, FlatTree& out);

  pugi::xml_document document_;
  std::string parsed_;                // the copy parsed in place; its capacity is kept
  std::vector<pugi::xml_node> term_;  // the <cterm> or <ind> element of each node
  std::string_view text_;
  const std::string* name_ = nullptr;
};

}  // namespace treefix::detail
