#pragma once
// Internal to the forest module: what the CPU and device similarity share.
#include <algorithm>
#include <cmath>
#include <vector>

#include "treefix/forest/similarity.hpp"

namespace treefix::detail {

// A(s): the adjustment of a child pair's similarity.
inline double adjust(double s, const SimilarityParameters& p) {
  return p.sqrt_adjustment ? std::sqrt(s) : s;
}

// A node's similarity from the sums of its terms' gains (the formula) and losses (each term's
// share minus its gain; gain + loss = 1 when weights sum to 1): the gain while it is at most 1/2,
// else 1 - loss, clamped to [0, 1]. Both sums have small relative error, so the result has a
// small relative error near 0 (which sqrt adjustment magnifies) and near 1: identical trees
// (every loss exactly 0) give exactly 1, and trees with no pair in common exactly 0.
inline double similarity_of(double gain, double loss) {
  return std::clamp(gain <= 0.5 ? gain : 1.0 - loss, 0.0, 1.0);
}

// The reference tree's per-node values, computed once for any number of compared trees.
struct PreparedReference {
  vertex_t root = 0;
  // Per node u: S(u) (weighted) or P(u) (thesis).
  std::vector<double> simplicity;
  // Per node u: the similarity of a leaf with u's label against u (weighted S(u)/2, thesis P(u)).
  std::vector<double> against_leaf;
  // Per node r (as a child): gain and loss when r has no partner (unpaired()).
  std::vector<double> unpaired_gain, unpaired_loss;
  // Per node r: the same summed over r and its later siblings (thesis: the reference children
  // beyond the compared node's last child).
  std::vector<double> tail_gain, tail_loss;
  std::vector<vertex_t> children;  // per node: number of children
};
PreparedReference prepare_reference(const SemanticForest& ref, const SimilarityParameters& p);

// Simplicity of node v from its children's (S or P), given v's arc weight; children(v) calls
// f(child) for each child. Shared by the reference preparation and the CPU pass.
template <class Children>
double simplicity_of(bool leaf, double arc_weight, const SimilarityParameters& p,
                     Children children) {
  const bool thesis = p.definition == SimilarityDefinition::thesis;
  if (leaf) return thesis ? p.degradation * arc_weight : 1.0;
  double sum = 0;
  int count = 0;
  children([&](double child_weight, double child_simplicity) {
    sum += thesis ? child_simplicity : child_weight * child_simplicity;
    ++count;
  });
  return thesis ? sum / count : p.degradation * sum;
}

// Gain and loss of a child (arc weight w, simplicity s) that has no partner: weighted
// w/2 D S and w/2 (1 - D S); thesis w Q and w (1/2 - Q), Q = D for a leaf, else P.
struct Terms {
  double gain = 0, loss = 0;
};
inline Terms unpaired(bool leaf, double w, double s, const SimilarityParameters& p) {
  if (p.definition == SimilarityDefinition::thesis) {
    const double q = leaf ? p.degradation : s;
    return {w * q, w * (0.5 - q)};
  }
  return {w / 2 * (p.degradation * s), w / 2 * (1.0 - p.degradation * s)};
}

// A leaf with u's label against u (u has children).
inline double against_leaf(double simplicity, const SimilarityParameters& p) {
  return p.definition == SimilarityDefinition::thesis ? simplicity : simplicity / 2;
}

}  // namespace treefix::detail
