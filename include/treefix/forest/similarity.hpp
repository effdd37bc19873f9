#pragma once
// Tree similarity of node-labelled, arc-labelled, arc-weighted trees: one reference tree against
// N trees, a similarity in [0, 1] per tree. Two definitions (docs/forests.md states both, worked
// on the Car example, and says where each departs from its source):
//
// weighted (the default; Bhavsar, Boley and Yang, "A weighted-tree similarity algorithm for
// multi-agent systems in e-business environments"). For trees t, t' with roots r, r':
//   sim = 0                                  if label(r) != label(r')
//       = 1                                  if the labels are equal and both roots are leaves
//       = S(u) / 2                           if one root is a leaf and the other, u, is not
//       = sum over arc labels a under both roots:   (w_a + w'_a) / 2 * A(sim(t_a, t'_a))
//       + sum over arc labels a under one root only (weight w, subtree u):  w / 2 * D * S(u)
//   S(leaf) = 1,  S(u) = D * sum over arcs of u: w * S(child)          (simplicity)
// Arcs are paired by label.
//
// thesis (Y. Lu, "Tree structured data processing on GPUs", UNB 2014: the walk of Fig. 2.7 and
// the simplicity of Fig. 2.8, read literally, each pair combined by the rule of the thesis'
// reference [17], the weighted definition's paper; its gaps filled as docs/forests.md says).
// Children are paired by position:
//   sim = 0 / 1 as above;  P(u) if one root is a leaf and the other, u, is not
//       = sum over positions i present under both roots: (w_i + w'_i) / 2 * A(sim(t_i, t'_i))
//       + sum over children c present under one root only (weight w): w * Q(c)
//   P(leaf reached by an arc of weight w) = D * w,  P(u) = mean over u's children of P(child)
//   Q(leaf) = D,  Q(u) = P(u)
//
// Both: A(s) = s (default) or sqrt(s), D = 0.5 (degradation). Sibling weights are renormalised
// to sum to 1 (SemanticForest), so that every result lies in [0, 1]. Each node's value is summed
// twice, as the formula's gains and as the losses (each term's share minus its gain, which add up
// to 1 - gains): the gain while it is at most 1/2, else 1 - loss, clamped to [0, 1] against
// rounding. So identical trees give exactly 1 (every loss is exactly 0), trees with no pair in
// common exactly 0, and values near either end keep a small relative error (sqrt adjustment
// magnifies absolute errors near 0). The thesis definition needs D <= 0.5 (an unpaired leaf must
// not score above its share); weighted needs D in [0, 1].
//
// Strings are interned to integer ids (Interner) before anything reaches the device; the device
// computes with float, the CPU with double.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "treefix/core/names.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/forest/semantic_tree.hpp"

namespace treefix {

struct DeviceSemanticForest;  // treefix/forest/device_forest.hpp

enum class SimilarityDefinition { weighted, thesis };
TREEFIX_ENUM_NAMES(SimilarityDefinition, "similarity definition",
                   {SimilarityDefinition::weighted, "weighted"},
                   {SimilarityDefinition::thesis, "thesis"});

struct SimilarityParameters {
  SimilarityDefinition definition = SimilarityDefinition::weighted;
  double degradation = 0.5;      // D
  bool sqrt_adjustment = false;  // A(s) = sqrt(s) instead of s
};
// InputError when D is outside the definition's range.
void check_similarity_parameters(const SimilarityParameters& parameters);

// The reference: the definition as written, on the nested host trees (strings, double), pairing
// arcs by sorted labels (weighted) or by position (thesis). Evaluated with an explicit stack, so
// any depth works; meant for tests and small inputs.
double tree_similarity_reference(const SemanticTree& a, const SemanticTree& b,
                                 const SimilarityParameters& parameters = {});

// Reference tree 0 of `reference` against every tree of `trees`, on the CPU without recursion
// (two passes over breadth-first storage), on `threads` host threads (0 = all: host_threads()).
std::vector<double> similarity_cpu(const SemanticForest& reference, const SemanticForest& trees,
                                   const SimilarityParameters& parameters = {},
                                   unsigned threads = 1);

// The same on the device, one work-item per tree (float). Timings under "upload", "similarity",
// "download" when profile is given.
std::vector<float> similarity_device(Runtime& runtime, const SemanticForest& reference,
                                     const SemanticForest& trees,
                                     const SimilarityParameters& parameters = {},
                                     Profile* profile = nullptr);
// The same against a forest already on the device (read there: treefix/forest/device_forest.hpp);
// the reference's label ids are `reference_labels`', translated into the forest's.
std::vector<float> similarity_device(Runtime& runtime, const SemanticForest& reference,
                                     const Interner& reference_labels,
                                     const DeviceSemanticForest& trees,
                                     const SimilarityParameters& parameters = {},
                                     Profile* profile = nullptr);

// Ranking as the command line prints it: similarities rounded to millionths (0 .. 1000000,
// the six printed decimals), highest first, equal values by index (trees read from a directory
// are in name order, so ties go by name). A two-pass radix sort: O(N), stable.
template <class T>
std::vector<std::uint32_t> to_millionths(const std::vector<T>& similarities);
std::vector<std::size_t> rank_by_millionths(const std::vector<std::uint32_t>& millionths);

}  // namespace treefix
