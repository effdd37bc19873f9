#pragma once
// Semantic trees (node-labelled, arc-labelled, arc-weighted: the trees of tree similarity,
// treefix/forest/similarity.hpp) on the host, and in the linear-forest layout for the device.
// Strings are interned to integer ids (Interner) before anything reaches the device.
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "treefix/forest/forest.hpp"

namespace treefix {

// A semantic tree on the host: a node label and labelled, weighted arcs to children (in order).
struct SemanticTree {
  std::string label;
  std::vector<std::string> arc_labels;  // one per child
  std::vector<double> weights;          // one per child; siblings sum to 1
  std::vector<SemanticTree> children;
  bool leaf() const { return children.empty(); }
};

// String <-> id, ids dense from 0 in first-seen order.
class Interner {
 public:
  std::int32_t id(const std::string& name);
  std::int32_t find(const std::string& name) const;  // -1 when absent
  const std::string& name(std::int32_t id) const { return names_.at(id); }
  std::size_t size() const { return names_.size(); }

 private:
  std::unordered_map<std::string, std::int32_t> ids_;
  std::vector<std::string> names_;
};

// Semantic trees as a linear forest plus payload arrays (structure of arrays, indexed by node).
struct SemanticForest {
  LinearForest shape;               // breadth-first per tree; original[i] = i
  std::vector<std::int32_t> label;  // node label id
  std::vector<std::int32_t> arc;    // label id of the arc from the parent (-1 for a root)
  std::vector<float> weight;        // weight of that arc (0 for a root)
  std::size_t trees() const { return shape.trees(); }
  std::size_t size() const { return shape.size(); }
};

// Interns labels into `interner` (share one interner between the reference and the trees).
// Checks each tree: InputError when sibling arc labels repeat or arrays disagree in length.
SemanticForest build_semantic_forest(const std::vector<SemanticTree>& trees, Interner& interner);

}  // namespace treefix
