#pragma once
// Tree and weight files of the treefix commands.
//   tree file:    n, then n parent indices (-1 for a root), whitespace-separated, '#' comments
//   weights file: n numbers, whitespace-separated (no count)
// Readers report problems as InputError "file:line: message".
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "treefix/treefix/tree.hpp"

namespace treefix {

ParentArray read_tree(const std::string& path);  // validates ranges and cycles
template <class T>
std::vector<T> read_weights(const std::string& path, std::size_t n);  // exactly n values
void write_tree(std::ostream& out, const ParentArray& parent);

}  // namespace treefix
