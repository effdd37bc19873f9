// Forest generators: random and degenerate binary trees, random semantic trees.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <set>
#include <string>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/forest/generate.hpp"

namespace treefix {

BinaryTreeLinks random_binary_tree(std::size_t n, std::uint64_t seed) {
  // Insert each node at a random free child slot of the tree built so far.
  BinaryTreeLinks t{std::vector<vertex_t>(n, -1), std::vector<vertex_t>(n, -1)};
  std::mt19937_64 rng(seed);
  std::vector<std::pair<vertex_t, int>> free_slots;
  if (n) free_slots = {{0, 0}, {0, 1}};
  for (std::size_t v = 1; v < n; ++v) {
    std::uniform_int_distribution<std::size_t> pick(0, free_slots.size() - 1);
    const std::size_t k = pick(rng);
    auto [p, side] = free_slots[k];
    free_slots[k] = free_slots.back();
    free_slots.pop_back();
    (side ? t.right : t.left)[p] = static_cast<vertex_t>(v);
    free_slots.emplace_back(static_cast<vertex_t>(v), 0);
    free_slots.emplace_back(static_cast<vertex_t>(v), 1);
  }
  // Shuffle local labels so the root is not always node 0.
  std::vector<vertex_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  BinaryTreeLinks s{std::vector<vertex_t>(n, -1), std::vector<vertex_t>(n, -1)};
  for (std::size_t v = 0; v < n; ++v) {
    s.left[perm[v]] = t.left[v] < 0 ? -1 : perm[t.left[v]];
    s.right[perm[v]] = t.right[v] < 0 ? -1 : perm[t.right[v]];
  }
  return s;
}

BinaryTreeLinks binary_path(std::size_t n, int shape) {
  BinaryTreeLinks t{std::vector<vertex_t>(n, -1), std::vector<vertex_t>(n, -1)};
  for (std::size_t v = 0; v + 1 < n; ++v) {
    const bool right = shape == 1 || (shape == 2 && v % 2 == 1);
    (right ? t.right : t.left)[v] = static_cast<vertex_t>(v + 1);
  }
  return t;
}

namespace {

void check_shape(const SemanticTreeShape& shape) {
  if (shape.arc_labels < shape.max_children || shape.max_children < 1 || shape.max_height < 0 ||
      shape.root_labels < 1 || shape.node_labels < 1)
    throw InputError(
        "random semantic trees: inconsistent shape (arc labels must be at least the "
        "children per node, alphabets non-empty)");
}

std::string approx(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

std::string describe(const SemanticTreeShape& shape) {
  return "height <= " + std::to_string(shape.max_height) +
         ", <= " + std::to_string(shape.max_children) + " children per node";
}

}  // namespace

void require_host_memory_for(std::size_t count, const SemanticTreeShape& shape) {
  const double expected = expected_semantic_tree_nodes(shape) * static_cast<double>(count);
  const double bytes = expected * semantic_tree_node_bytes;
  require_host_memory(bytes < 1.8e19 ? static_cast<std::uint64_t>(bytes) : UINT64_MAX,
                      std::to_string(count) + " random semantic tree" + (count == 1 ? "" : "s") +
                          " (" + describe(shape) + ", about " + approx(expected) +
                          " nodes expected)");
}

double expected_semantic_tree_nodes(const SemanticTreeShape& shape) {
  check_shape(shape);
  // Below the root a node has uniform 0..C children, the root 1..C (while height remains):
  // E(0) = 1, E(h) = 1 + C/2 E(h - 1); the root: 1 + (1 + C)/2 E(H - 1).
  const double c = shape.max_children;
  double below = 1;
  for (int h = 1; h < shape.max_height; ++h) below = 1 + c / 2 * below;
  return shape.max_height == 0 ? 1.0 : 1 + (1 + c) / 2 * below;
}

namespace {

// One tree of the (checked) shape; CapacityError past most_nodes: the size is random, and a
// tree must stop before it outgrows the host rather than after.
SemanticTree grow_semantic_tree(std::mt19937_64& rng, const SemanticTreeShape& shape,
                                std::uint64_t most_nodes) {
  std::uint64_t nodes = 1;
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  SemanticTree tree;
  tree.label = "r" + std::to_string(uniform(0, shape.root_labels - 1));
  std::vector<std::pair<SemanticTree*, int>> pending = {{&tree, 0}};
  std::vector<int> arcs(shape.arc_labels);
  while (!pending.empty()) {
    auto [node, depth] = pending.back();
    pending.pop_back();
    if (depth >= shape.max_height) continue;
    const int k = uniform(depth == 0 ? 1 : 0, shape.max_children);
    if (k == 0) continue;
    nodes += static_cast<std::uint64_t>(k);
    if (nodes > most_nodes)
      throw CapacityError("random semantic tree (" + describe(shape) + "): more than " +
                          std::to_string(most_nodes) + " nodes, " +
                          std::to_string(most_nodes * semantic_tree_node_bytes >> 20) +
                          " MiB, what host memory holds (expected size: " +
                          approx(expected_semantic_tree_nodes(shape)) + " nodes)");
    // k distinct arc labels; weights: k - 1 distinct cut points in 1..999 (thousandths).
    for (int i = 0; i < shape.arc_labels; ++i) arcs[i] = i;
    std::shuffle(arcs.begin(), arcs.end(), rng);
    std::vector<int> chosen(arcs.begin(), arcs.begin() + k);
    std::sort(chosen.begin(), chosen.end());
    std::set<int> cuts;
    while (static_cast<int>(cuts.size()) < k - 1) cuts.insert(uniform(1, 999));
    std::vector<int> bounds = {0};
    bounds.insert(bounds.end(), cuts.begin(), cuts.end());
    bounds.push_back(1000);
    node->children.resize(k);
    for (int i = 0; i < k; ++i) {
      node->arc_labels.push_back("a" + std::to_string(chosen[i]));
      node->weights.push_back((bounds[i + 1] - bounds[i]) / 1000.0);
      node->children[i].label = "n" + std::to_string(uniform(0, shape.node_labels - 1));
    }
    for (int i = 0; i < k; ++i) pending.emplace_back(&node->children[i], depth + 1);
  }
  return tree;
}

}  // namespace

SemanticTree random_semantic_tree(std::mt19937_64& rng, const SemanticTreeShape& shape) {
  require_host_memory_for(1, shape);
  return grow_semantic_tree(rng, shape, host_memory_available_bytes() / semantic_tree_node_bytes);
}

SemanticTreeSource::SemanticTreeSource(std::uint64_t seed, const SemanticTreeShape& shape)
    : rng_(seed), shape_(shape) {
  require_host_memory_for(1, shape);
  most_nodes_ = host_memory_available_bytes() / semantic_tree_node_bytes;
}

SemanticTree SemanticTreeSource::next() { return grow_semantic_tree(rng_, shape_, most_nodes_); }

std::vector<SemanticTree> random_semantic_trees(std::size_t count, std::uint64_t seed,
                                                const SemanticTreeShape& shape) {
  require_host_memory_for(count, shape);
  SemanticTreeSource source(seed, shape);
  std::vector<SemanticTree> trees;
  trees.reserve(count);
  for (std::size_t i = 0; i < count; ++i) trees.push_back(source.next());
  return trees;
}

}  // namespace treefix
