#pragma once
// Forest files: text formats for linear and binary forests ('#' starts a comment). Readers
// report problems as InputError "file:line: ...".
#include <ostream>
#include <string>

#include "treefix/forest/forest.hpp"

namespace treefix {

// Forest file: the number of trees, then for each tree its vertex count n and n parent indices
// (local to the tree, -1 for its root). '#' starts a comment. InputError "file:line: ...".
LinearForest read_linear_forest(const std::string& path);
void write_linear_forest(std::ostream& out, const LinearForest& forest);

// Binary forest file: the number of trees, then per tree n and n lines "left right".
BinaryForest read_binary_forest(const std::string& path);

}  // namespace treefix
