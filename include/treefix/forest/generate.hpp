#pragma once
// Forest generators for tests and benchmarks: random and degenerate binary trees, random semantic
// trees. Deterministic for a given seed.
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "treefix/forest/forest.hpp"
#include "treefix/forest/semantic_tree.hpp"

namespace treefix {

// Random binary trees of n nodes (local links), for tests and benchmarks. Deterministic per seed.
BinaryTreeLinks random_binary_tree(std::size_t n, std::uint64_t seed);
// Degenerate shapes: a path of left children, of right children, or alternating (zigzag).
BinaryTreeLinks binary_path(std::size_t n, int shape /* 0 left, 1 right, 2 zigzag */);

// Random semantic trees like the thesis' test data: height at most max_height (edges), up to
// max_children children, node labels from small alphabets ("r0".. for roots, "n0".. otherwise),
// distinct arc labels per node from "a0".., sibling weights in thousandths summing to exactly 1.
struct SemanticTreeShape {
  int max_height = 4;
  int max_children = 3;
  int root_labels = 2;
  int node_labels = 4;
  int arc_labels = 5;  // >= max_children
};
// One tree. CapacityError when it grows beyond what host memory holds (possible with large
// heights and fan-outs: the expected size grows like (max_children / 2)^max_height).
SemanticTree random_semantic_tree(std::mt19937_64& rng, const SemanticTreeShape& shape = {});
// Trees of one shape, one at a time, the same as random_semantic_trees(count, seed, shape) gives:
// host memory is read once, when it is made (reading it costs tens of microseconds, more than a
// small tree takes to grow), and each tree is bounded by what was free then.
class SemanticTreeSource {
 public:
  explicit SemanticTreeSource(std::uint64_t seed, const SemanticTreeShape& shape = {});
  SemanticTree next();

 private:
  std::mt19937_64 rng_;
  SemanticTreeShape shape_;
  std::uint64_t most_nodes_;
};
// `count` trees, all in memory: refused with the numbers (CapacityError) when their expected
// size exceeds host memory.
std::vector<SemanticTree> random_semantic_trees(std::size_t count, std::uint64_t seed,
                                                const SemanticTreeShape& shape = {});

// The expected number of nodes of one random tree of the shape (a double: it can exceed any
// integer type, and is +inf when it exceeds double). InputError for an inconsistent shape.
double expected_semantic_tree_nodes(const SemanticTreeShape& shape);
// Host bytes per node of a SemanticTree (for memory estimates).
constexpr std::size_t semantic_tree_node_bytes = 160;
// CapacityError "N random semantic trees (height <= H, <= C children per node, about X nodes
// expected) need ... MiB of host memory, but the host has ..." when they would not fit.
void require_host_memory_for(std::size_t count, const SemanticTreeShape& shape);

}  // namespace treefix
