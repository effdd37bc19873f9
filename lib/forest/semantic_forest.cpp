// Semantic trees in the linear-forest layout: label interning, arc checks, breadth-first build.
#include "treefix/forest/semantic_tree.hpp"

#include <algorithm>
#include <numeric>
#include <set>
#include <string_view>

#include "treefix/core/error.hpp"

namespace treefix {

std::int32_t Interner::id(const std::string& name) {
  auto [it, inserted] = ids_.emplace(name, static_cast<std::int32_t>(names_.size()));
  if (inserted) names_.push_back(name);
  return it->second;
}

std::int32_t Interner::find(const std::string& name) const {
  auto it = ids_.find(name);
  return it == ids_.end() ? -1 : it->second;
}

namespace {

// Sibling arc labels must differ: pairwise for the usual few children, sorted otherwise.
void check_arcs(const SemanticTree& node, std::vector<std::string_view>& sorted_arcs) {
  if (node.arc_labels.size() != node.children.size() || node.weights.size() != node.children.size())
    throw InputError("semantic tree node '" + node.label +
                     "': " + std::to_string(node.children.size()) + " children, " +
                     std::to_string(node.arc_labels.size()) + " arc labels, " +
                     std::to_string(node.weights.size()) + " weights");
  const std::size_t k = node.arc_labels.size();
  bool repeated = false;
  if (k <= 8) {
    for (std::size_t i = 0; i < k && !repeated; ++i)
      for (std::size_t j = i + 1; j < k && !repeated; ++j)
        repeated = node.arc_labels[i] == node.arc_labels[j];
  } else {
    sorted_arcs.assign(node.arc_labels.begin(), node.arc_labels.end());
    std::sort(sorted_arcs.begin(), sorted_arcs.end());
    repeated = std::adjacent_find(sorted_arcs.begin(), sorted_arcs.end()) != sorted_arcs.end();
  }
  if (!repeated) return;
  std::set<std::string> seen;
  for (auto& a : node.arc_labels)
    if (!seen.insert(a).second)
      throw InputError("semantic tree node '" + node.label + "' has two arcs labelled '" + a +
                       "' (arc labels must differ among siblings)");
}

}  // namespace

SemanticForest build_semantic_forest(const std::vector<SemanticTree>& trees, Interner& interner) {
  // Breadth-first straight from the nested trees (they cannot hold cycles): the queue of each
  // tree is its range of the output, so no parent array or permutation is needed.
  std::size_t total = 0;
  {
    std::vector<const SemanticTree*> stack;
    for (auto& t : trees) stack.push_back(&t);
    while (!stack.empty()) {
      const SemanticTree* node = stack.back();
      stack.pop_back();
      ++total;
      for (auto& c : node->children) stack.push_back(&c);
    }
  }
  if (total > static_cast<std::size_t>(INT32_MAX))
    throw InputError("semantic forest: " + std::to_string(total) + " nodes, more than 2^31-1");
  SemanticForest f;
  LinearForest& s = f.shape;
  s.first_child.assign(total, -1);
  s.next_sibling.assign(total, -1);
  s.parent.assign(total, -1);
  s.original.resize(total);
  std::iota(s.original.begin(), s.original.end(), 0);
  f.label.resize(total);
  f.arc.assign(total, -1);
  f.weight.assign(total, 0.0f);
  std::vector<const SemanticTree*> node_at(total);
  std::vector<std::string_view> sorted_arcs;
  std::size_t next = 0;
  for (auto& tree : trees) {
    const std::size_t begin = next;
    s.head.push_back(static_cast<vertex_t>(next));
    node_at[next++] = &tree;
    for (std::size_t q = begin; q < next; ++q) {
      const SemanticTree& node = *node_at[q];
      check_arcs(node, sorted_arcs);
      f.label[q] = interner.id(node.label);
      for (std::size_t c = 0; c < node.children.size(); ++c) {
        const auto child = static_cast<vertex_t>(next);
        node_at[next++] = &node.children[c];
        s.parent[child] = static_cast<vertex_t>(q);
        if (c == 0)
          s.first_child[q] = child;
        else
          s.next_sibling[child - 1] = child;
        f.arc[child] = interner.id(node.arc_labels[c]);
        f.weight[child] = static_cast<float>(node.weights[c]);
      }
    }
    s.node_count.push_back(static_cast<vertex_t>(next - begin));
  }
  return f;
}

}  // namespace treefix
