// One semantic tree in breadth-first order: the checks, the linear layout, the nested form.
#include "forest/flat_tree.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "treefix/core/error.hpp"

namespace treefix::detail {

void FlatTree::clear() {
  label.clear();
  arc.clear();
  weight.clear();
  parent.clear();
}

void FlatTree::add(vertex_t parent_index, std::string_view node_label, std::string_view arc_label,
                   double arc_weight) {
  label.push_back(node_label);
  arc.push_back(arc_label);
  weight.push_back(arc_weight);
  parent.push_back(parent_index);
}

namespace {

std::string number(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

// Calls group(p, begin, end) for each node p with children, which are nodes [begin, end).
template <class Group>
void for_each_sibling_group(const FlatTree& tree, Group group) {
  const std::size_t n = tree.size();
  for (std::size_t begin = 1; begin < n;) {
    std::size_t end = begin + 1;
    while (end < n && tree.parent[end] == tree.parent[begin]) ++end;
    group(static_cast<std::size_t>(tree.parent[begin]), begin, end);
    begin = end;
  }
}

}  // namespace

void check_flat_tree(const FlatTree& tree, const DescribeNode& describe) {
  std::vector<std::size_t> by_arc;
  for_each_sibling_group(tree, [&](std::size_t p, std::size_t begin, std::size_t end) {
    double sum = 0;
    for (std::size_t c = begin; c < end; ++c) {
      const double w = tree.weight[c];
      if (!(std::isfinite(w) && w >= 0.0 && w <= 1.0))
        throw InputError(describe(c, true) + ": weight " + number(w) + " is outside [0, 1]");
      sum += w;
    }
    // Repeated arc labels: pairwise for the usual few children, sorted otherwise; the message
    // names the later of the two, as a reader going through the arcs in order would.
    std::size_t repeated = 0;
    if (end - begin <= 8) {
      for (std::size_t j = begin + 1; j < end && !repeated; ++j)
        for (std::size_t i = begin; i < j && !repeated; ++i)
          if (tree.arc[i] == tree.arc[j]) repeated = j;
    } else {
      by_arc.resize(end - begin);
      std::iota(by_arc.begin(), by_arc.end(), begin);
      std::stable_sort(by_arc.begin(), by_arc.end(),
                       [&](std::size_t x, std::size_t y) { return tree.arc[x] < tree.arc[y]; });
      for (std::size_t k = 1; k < by_arc.size(); ++k)
        if (tree.arc[by_arc[k]] == tree.arc[by_arc[k - 1]])
          repeated = std::min(repeated ? repeated : by_arc[k], by_arc[k]);
    }
    if (repeated)
      throw InputError(describe(repeated, true) + ": arc label '" +
                       std::string(tree.arc[repeated]) + "' repeats among siblings");
    if (std::fabs(sum - 1.0) > weight_tolerance)
      throw InputError(describe(p, false) + ": the weights of its " + std::to_string(end - begin) +
                       " arcs sum to " + number(sum) + ", not 1");
  });
}

void lay_out_flat_tree(const FlatTree& tree, Interner& interner, std::vector<LinearNode>& nodes) {
  const std::size_t base = nodes.size();
  nodes.resize(base + tree.size());
  LinearNode* const node = nodes.data() + base;
  node[0].label = interner.id(tree.label[0]);
  for_each_sibling_group(tree, [&](std::size_t p, std::size_t begin, std::size_t end) {
    double sum = 0;
    for (std::size_t c = begin; c < end; ++c) sum += tree.weight[c];
    node[p].first_child = static_cast<vertex_t>(begin);
    for (std::size_t c = begin; c < end; ++c) {
      LinearNode& v = node[c];
      v.parent = static_cast<vertex_t>(p);
      if (c + 1 < end) v.next_sibling = static_cast<vertex_t>(c + 1);
      v.label = interner.id(tree.label[c]);
      v.arc = interner.id(tree.arc[c]);
      // Renormalised so the similarity's premise (siblings sum to 1) holds exactly as far as
      // float allows; a group of zero weights cannot pass the check, so sum > 0.
      v.weight = static_cast<float>(tree.weight[c] / sum);
    }
  });
}

void append_flat_tree(const FlatTree& tree, Interner& interner, SemanticForest& forest) {
  LinearForest& s = forest.shape;
  const std::size_t base = s.parent.size(), n = tree.size();
  if (base + n > static_cast<std::size_t>(INT32_MAX))
    throw CapacityError("semantic forest: more than 2^31-1 nodes");
  std::vector<LinearNode> nodes;
  nodes.reserve(n);
  lay_out_flat_tree(tree, interner, nodes);
  const auto global = [base](vertex_t local) {
    return local < 0 ? local : static_cast<vertex_t>(base + local);
  };
  s.head.push_back(global(0));
  s.node_count.push_back(static_cast<vertex_t>(n));
  for (const LinearNode& v : nodes) {
    s.first_child.push_back(global(v.first_child));
    s.next_sibling.push_back(global(v.next_sibling));
    s.parent.push_back(global(v.parent));
    s.original.push_back(static_cast<vertex_t>(s.original.size()));
    forest.label.push_back(v.label);
    forest.arc.push_back(v.arc);
    forest.weight.push_back(v.weight);
  }
}

SemanticTree nested_of_flat(const FlatTree& tree) {
  const std::size_t n = tree.size();
  SemanticTree root{std::string(tree.label.at(0))};
  // Children vectors are reserved at their final size first, so the node pointers stay valid.
  std::vector<std::size_t> children(n, 0);
  for (std::size_t i = 1; i < n; ++i) ++children[tree.parent[i]];
  std::vector<SemanticTree*> node(n, nullptr);
  node[0] = &root;
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0)
      node[i] = &node[tree.parent[i]]->add_child(std::string(tree.arc[i]), tree.weight[i],
                                                 SemanticTree{std::string(tree.label[i])});
    node[i]->children.reserve(children[i]);
    node[i]->arc_labels.reserve(children[i]);
    node[i]->weights.reserve(children[i]);
  }
  return root;
}

void flatten(const SemanticTree& tree, FlatTree& out) {
  out.clear();
  std::vector<const SemanticTree*> queue = {&tree};
  out.add(-1, tree.label, {}, 0.0);
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const SemanticTree& node = *queue[q];
    if (node.arc_labels.size() != node.children.size() ||
        node.weights.size() != node.children.size())
      throw InputError("semantic tree node '" + node.label +
                       "': " + std::to_string(node.children.size()) + " children, " +
                       std::to_string(node.arc_labels.size()) + " arc labels, " +
                       std::to_string(node.weights.size()) + " weights");
    for (std::size_t c = 0; c < node.children.size(); ++c) {
      queue.push_back(&node.children[c]);
      out.add(static_cast<vertex_t>(q), node.children[c].label, node.arc_labels[c],
              node.weights[c]);
    }
  }
}

}  // namespace treefix::detail
