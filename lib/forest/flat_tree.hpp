#pragma once
// Internal to the forest module: one semantic tree in breadth-first order, as the readers see it
// before it joins a SemanticForest. Labels are views into storage the caller keeps alive (a
// parsed document, a nested tree). Every path into a SemanticForest (RuleML files, nested host
// trees) goes through the same checks (check_flat_tree) and the same layout (append_flat_tree),
// and the nested form is built from it (nested_of_flat), so the rules live in one place.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "treefix/forest/semantic_tree.hpp"

namespace treefix::detail {

// Node 0 is the root; the children of a node are consecutive and in order; parents come before
// their children (breadth-first), so parent[i] < i and parent is non-decreasing from node 1 on.
struct FlatTree {
  std::vector<std::string_view> label;  // node label
  std::vector<std::string_view> arc;    // label of the arc from the parent ("" for the root)
  std::vector<double> weight;           // weight of that arc (0 for the root)
  std::vector<vertex_t> parent;         // local parent index, -1 for the root
  std::size_t size() const { return label.size(); }
  void clear();
  void add(vertex_t parent_index, std::string_view node_label, std::string_view arc_label,
           double arc_weight);
};

// Where node i is, for messages: describe(i, false) names the node, describe(i, true) the arc
// into it ("file:4: element <_r n=\"Make\" w=\"0.3\">"); the check appends ": what is wrong".
using DescribeNode = std::function<std::string(std::size_t node, bool arc)>;

// InputError when a weight is not a finite number in [0, 1], sibling arc labels repeat, or the
// weights of a node's arcs do not sum to 1 within weight_tolerance.
void check_flat_tree(const FlatTree& tree, const DescribeNode& describe);

// One node of a tree in the linear layout, its links local to its tree (the root is 0; -1: none).
// A tree's nodes side by side: the parallel RuleML reader keeps each file's tree in this form
// until it is gathered, one contiguous run per tree.
struct LinearNode {
  vertex_t first_child = -1, next_sibling = -1, parent = -1;
  std::int32_t label = 0, arc = -1;  // ids in the interner; no arc into the root
  float weight = 0;                  // renormalised: a node's arcs sum to 1
};

// Appends the tree's nodes (checked) to `nodes`: labels interned into `interner` (the root's
// label, then each node's label and arc in order), sibling weights renormalised to sum to 1.
void lay_out_flat_tree(const FlatTree& tree, Interner& interner, std::vector<LinearNode>& nodes);

// The same appended to `forest`, links global. Allocation is amortised growth of the arrays only.
void append_flat_tree(const FlatTree& tree, Interner& interner, SemanticForest& forest);

// The nested form, weights as given.
SemanticTree nested_of_flat(const FlatTree& tree);

// Breadth-first views of a nested tree (which must outlive `out`).
void flatten(const SemanticTree& tree, FlatTree& out);

}  // namespace treefix::detail
