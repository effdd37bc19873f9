#pragma once
// Sequential CPU treefix: the reference of the tests and the baseline of the benchmarks.
// O(n): one top-down pass for rootfix, one bottom-up pass for leaffix, over a breadth-first
// order computed without recursion. Every operator (sum, xor, min, max) and value type.
#include <vector>

#include "treefix/core/types.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix::reference {

template <class T>
std::vector<T> rootfix(const ParentArray& parent, const std::vector<T>& weights, Op op,
                       bool exclusive = false);
template <class T>
std::vector<T> leaffix(const ParentArray& parent, const std::vector<T>& weights, Op op,
                       bool exclusive = false);

// The same over a precomputed top-down order (benchmarks time the pass alone).
template <class T>
std::vector<T> rootfix(const ParentArray& parent, const std::vector<vertex_t>& order,
                       const std::vector<T>& weights, Op op, bool exclusive);
template <class T>
std::vector<T> leaffix(const ParentArray& parent, const std::vector<vertex_t>& order,
                       const std::vector<T>& weights, Op op, bool exclusive);

}  // namespace treefix::reference
