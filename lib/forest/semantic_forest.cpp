// Semantic trees in the linear-forest layout: nested host trees in, through the same checks and
// layout as the RuleML reader (forest/flat_tree.hpp); and one tree back out.
#include <string>

#include "forest/flat_tree.hpp"
#include "treefix/core/error.hpp"
#include "treefix/forest/semantic_tree.hpp"

namespace treefix {

SemanticForest build_semantic_forest(const std::vector<SemanticTree>& trees, Interner& interner) {
  SemanticForest forest;
  detail::FlatTree flat;
  for (std::size_t t = 0; t < trees.size(); ++t) {
    detail::flatten(trees[t], flat);
    detail::check_flat_tree(flat, [&](std::size_t node, bool arc) {
      std::string where = "semantic tree " + std::to_string(t) + ": node '" +
                          std::string(flat.label[arc ? flat.parent[node] : node]) + "'";
      if (arc) where += ", arc '" + std::string(flat.arc[node]) + "'";
      return where;
    });
    detail::append_flat_tree(flat, interner, forest);
  }
  return forest;
}

SemanticTree semantic_tree_of(const SemanticForest& forest, const Interner& interner,
                              std::size_t t) {
  const LinearForest& s = forest.shape;
  if (t >= forest.trees())
    throw InputError("semantic forest: no tree " + std::to_string(t) + " (there are " +
                     std::to_string(forest.trees()) + ")");
  detail::FlatTree flat;
  const vertex_t root = s.head[t];
  for (vertex_t v = root; v < root + s.node_count[t]; ++v)
    flat.add(v == root ? -1 : s.parent[v] - root, interner.name(forest.label[v]),
             v == root ? std::string_view() : std::string_view(interner.name(forest.arc[v])),
             forest.weight[v]);
  return detail::nested_of_flat(flat);
}

}  // namespace treefix
