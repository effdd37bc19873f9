#pragma once
// Tree generators (parent arrays; vertex 0 is the root unless said otherwise). Deterministic for a
// given seed.
#include <cstdint>

#include "treefix/treefix/tree.hpp"

namespace treefix::generate {

ParentArray star(std::size_t n);                                  // 0 is the parent of all others
ParentArray path(std::size_t n);                                  // parent[v] = v - 1
ParentArray caterpillar(std::size_t n, std::size_t spine);        // spine path, others leaves on it
ParentArray kary(std::size_t n, std::size_t k);                   // complete k-ary, heap order
ParentArray random_recursive(std::size_t n, std::uint64_t seed);  // parent[v] uniform in [0, v)
// A forest of `trees` random recursive trees whose vertex ids are shuffled (roots anywhere).
ParentArray random_forest(std::size_t n, std::size_t trees, std::uint64_t seed);
// Relabels the vertices of a forest by a random permutation (parents before children no more).
ParentArray shuffle_labels(const ParentArray& parent, std::uint64_t seed);
}  // namespace treefix::generate
