#pragma once
// Sequential CPU treefix: the reference of the tests and the baseline of the benchmarks.
// O(n): one top-down pass for rootfix, one bottom-up pass for leaffix, over an order computed
// without recursion (parent_first_order for rootfix, level_order for leaffix: tree.hpp). The
// result is the same along any top-down order whose reverse meets each vertex's children in
// decreasing id (for leaffix), the breadth-first order too. Every operator (sum, xor, min, max)
// and value type.
// Floating-point sums with the accurate precision (the default) are carried in double (float
// weights) or double-word pairs (double weights): within 5·u·S of the exact sum for fewer than
// 2^31 terms (precision.hpp); the fast precision sums in the weight type.
#include <vector>

#include "treefix/core/types.hpp"
#include "treefix/treefix/precision.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix::reference {

template <class T>
std::vector<T> rootfix(const ParentArray& parent, const std::vector<T>& weights, Op op,
                       bool exclusive = false, Precision precision = Precision::accurate);
template <class T>
std::vector<T> leaffix(const ParentArray& parent, const std::vector<T>& weights, Op op,
                       bool exclusive = false, Precision precision = Precision::accurate);

// The same over a precomputed top-down order (benchmarks time the pass alone).
template <class T>
std::vector<T> rootfix(const ParentArray& parent, const std::vector<vertex_t>& order,
                       const std::vector<T>& weights, Op op, bool exclusive,
                       Precision precision = Precision::accurate);
template <class T>
std::vector<T> leaffix(const ParentArray& parent, const std::vector<vertex_t>& order,
                       const std::vector<T>& weights, Op op, bool exclusive,
                       Precision precision = Precision::accurate);

}  // namespace treefix::reference
