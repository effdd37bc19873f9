// The weighted similarity's reference: the formula, recursively, on the nested trees.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "forest/similarity_detail.hpp"

namespace treefix {

namespace {

using detail::adjust;

double simplicity_reference(const SemanticTree& t, const SimilarityParameters& p) {
  if (t.leaf()) return 1.0;
  double sum = 0;
  for (std::size_t i = 0; i < t.children.size(); ++i)
    sum += t.weights[i] * simplicity_reference(t.children[i], p);
  return p.degradation * sum;
}

std::vector<std::size_t> arcs_by_label(const SemanticTree& t) {
  std::vector<std::size_t> index(t.children.size());
  std::iota(index.begin(), index.end(), 0);
  std::sort(index.begin(), index.end(),
            [&](std::size_t x, std::size_t y) { return t.arc_labels[x] < t.arc_labels[y]; });
  return index;
}

}  // namespace

double tree_similarity_reference(const SemanticTree& a, const SemanticTree& b,
                                 const SimilarityParameters& p) {
  if (a.label != b.label) return 0.0;
  if (a.leaf() && b.leaf()) return 1.0;
  auto ia = arcs_by_label(a), ib = arcs_by_label(b);
  auto missing = [&](const SemanticTree& t, std::size_t i) {
    return t.weights[i] / 2 * p.degradation * simplicity_reference(t.children[i], p);
  };
  double sum = 0;
  std::size_t x = 0, y = 0;
  while (x < ia.size() || y < ib.size()) {
    if (y == ib.size() || (x < ia.size() && a.arc_labels[ia[x]] < b.arc_labels[ib[y]])) {
      sum += missing(a, ia[x++]);
    } else if (x == ia.size() || b.arc_labels[ib[y]] < a.arc_labels[ia[x]]) {
      sum += missing(b, ib[y++]);
    } else {
      const std::size_t i = ia[x++], j = ib[y++];
      sum += (a.weights[i] + b.weights[j]) / 2 *
             adjust(tree_similarity_reference(a.children[i], b.children[j], p), p);
    }
  }
  return sum;
}

}  // namespace treefix
