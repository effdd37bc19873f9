#pragma once
// Semantic trees (node-labelled, arc-labelled, arc-weighted: the trees of tree similarity,
// treefix/forest/similarity.hpp) on the host, and in the linear-forest layout for the device.
// Strings are interned to integer ids (Interner) before anything reaches the device.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "treefix/forest/forest.hpp"

namespace treefix {

// A semantic tree on the host: a node label and labelled, weighted arcs to children (in order).
// Copying, destroying and comparing walk the tree with explicit stacks, so a chain of a million
// nested nodes is as safe as a flat tree (the compiler-generated versions would recurse once per
// level). Moving is cheap and never recurses.
struct SemanticTree {
  std::string label;
  std::vector<std::string> arc_labels;  // one per child
  std::vector<double> weights;          // one per child; siblings sum to 1
  std::vector<SemanticTree> children;

  SemanticTree() = default;
  explicit SemanticTree(std::string node_label) : label(std::move(node_label)) {}
  SemanticTree(const SemanticTree& other);
  SemanticTree(SemanticTree&& other) noexcept = default;
  SemanticTree& operator=(const SemanticTree& other);
  SemanticTree& operator=(SemanticTree&& other) noexcept = default;  // old nodes: ~SemanticTree
  ~SemanticTree();

  bool leaf() const { return children.empty(); }
  // Appends a child under an arc; returns it (a reference into `children`: adding another child
  // may move it).
  SemanticTree& add_child(std::string arc_label, double weight, SemanticTree child);
};

// Same labels, arcs, weights (exactly) and shape.
bool operator==(const SemanticTree& a, const SemanticTree& b);
inline bool operator!=(const SemanticTree& a, const SemanticTree& b) { return !(a == b); }

// Nodes of the tree (iteratively).
std::size_t node_count(const SemanticTree& tree);

// String <-> id, ids dense from 0 in first-seen order. Looking up a string_view allocates
// nothing (readers intern straight from the parsed document): an open-addressing table of ids,
// probed by each name's hash, with no node per entry to chase.
class Interner {
 public:
  std::int32_t id(std::string_view name);
  std::int32_t find(std::string_view name) const;  // -1 when absent
  const std::string& name(std::int32_t id) const { return names_.at(id); }
  std::size_t size() const { return names_.size(); }

 private:
  struct Slot {
    std::uint32_t hash;  // of the name: most mismatches end here
    std::int32_t id;     // -1: free
  };
  std::size_t slot_of(std::string_view name, std::uint32_t hash) const;  // its slot or a free one
  void grow();

  std::deque<std::string> names_;  // never relocates: name() references stay valid
  std::vector<Slot> slots_;        // a power of two, at most half full
};

// Semantic trees as a linear forest plus payload arrays (structure of arrays, indexed by node).
// Sibling weights are renormalised to sum to 1 (the readers accept sums within weight_tolerance
// of 1, treefix/forest/ruleml.hpp), so that every similarity lies in [0, 1].
struct SemanticForest {
  LinearForest shape;               // breadth-first per tree; original[i] = i
  std::vector<std::int32_t> label;  // node label id
  std::vector<std::int32_t> arc;    // label id of the arc from the parent (-1 for a root)
  std::vector<float> weight;        // weight of that arc (0 for a root)
  std::size_t trees() const { return shape.trees(); }
  std::size_t size() const { return shape.size(); }
};

constexpr double weight_tolerance = 1e-3;  // |sum of sibling weights - 1| allowed

// Interns labels into `interner` (share one interner between the reference and the trees).
// Checks each tree: InputError when sibling arc labels repeat, a weight is not a finite number in
// [0, 1], sibling weights do not sum to 1 within weight_tolerance, or arrays disagree in length.
SemanticForest build_semantic_forest(const std::vector<SemanticTree>& trees, Interner& interner);

// Tree t of a forest as a nested host tree (labels from `interner`, weights as stored).
SemanticTree semantic_tree_of(const SemanticForest& forest, const Interner& interner,
                              std::size_t t);

}  // namespace treefix
