#pragma once
// Internal to the forest module: what the CPU and device similarity share.
#include <cmath>
#include <vector>

#include "treefix/forest/similarity.hpp"

namespace treefix::detail {

// A(s): the adjustment of a child pair's similarity.
inline double adjust(double s, const SimilarityParameters& p) {
  return p.sqrt_adjustment ? std::sqrt(s) : s;
}

// The reference tree's per-node values, computed once for any number of compared trees.
struct PreparedReference {
  vertex_t root = 0;
  std::vector<double> simplicity;  // S of each reference subtree
  std::vector<double> missing;     // per node: sum over its children of w/2 * D * S(child)
};
PreparedReference prepare_reference(const SemanticForest& ref, const SimilarityParameters& p);

}  // namespace treefix::detail
