#pragma once
// Weighted tree similarity (after Bhavsar, Boley and Yang, "A weighted-tree similarity algorithm
// for multi-agent systems in e-business environments"): node-labelled, arc-labelled, arc-weighted
// trees; one reference tree against N trees; a similarity in [0, 1] per tree.
//
// The formula (docs/forest.md states it with examples). For trees t, t' with roots r, r':
//   sim(t, t') = 0                                 if label(r) != label(r')
//              = 1                                 if labels are equal and both roots are leaves
//              = sum over arc labels a present under both roots:
//                    (w_a + w'_a) / 2 * A(sim(t_a, t'_a))
//              + sum over arc labels a present under one root only (weight w, subtree u):
//                    w / 2 * D * S(u)
// where A(s) = s (the adjustment function; identity by default), D = 0.5 (degradation factor of
// a missing subtree), and the simplicity S of a tree is
//   S(leaf) = 1,   S(u) = D * sum over arcs of u: w * S(child).
// Arcs are paired by label (the paper merges the arcs of both nodes in lexicographic label
// order; with labels unique among siblings this is the same pairing). Sibling weights sum to 1,
// so identical trees give 1 and every result lies in [0, 1].
//
// Strings are interned to integer ids (Interner) before anything reaches the device; the device
// computes with float, the CPU with double.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "treefix/core/runtime.hpp"
#include "treefix/forest/semantic_tree.hpp"

namespace treefix {

struct SimilarityParameters {
  double degradation = 0.5;      // D
  bool sqrt_adjustment = false;  // A(s) = sqrt(s) instead of s
};

// The reference: recursion on the host trees, straight from the formula (strings, double).
// Recursion depth = tree height; meant for tests and small inputs.
double tree_similarity_reference(const SemanticTree& a, const SemanticTree& b,
                                 const SimilarityParameters& parameters = {});

// Reference tree 0 of `reference` against every tree of `trees`, on the CPU without recursion
// (two passes over breadth-first storage), `threads` std::threads (0 = hardware concurrency).
std::vector<double> similarity_cpu(const SemanticForest& reference, const SemanticForest& trees,
                                   const SimilarityParameters& parameters = {},
                                   unsigned threads = 1);

// The same on the device, one work-item per tree (float). Timings under "upload", "similarity",
// "download" when profile is given.
std::vector<float> similarity_device(Runtime& runtime, const SemanticForest& reference,
                                     const SemanticForest& trees,
                                     const SimilarityParameters& parameters = {},
                                     Profile* profile = nullptr);

// Indices of `scores` sorted by score, highest first, ties by name (names[i] of tree i).
std::vector<std::size_t> rank_by_similarity(const std::vector<double>& scores,
                                            const std::vector<std::string>& names);

}  // namespace treefix
