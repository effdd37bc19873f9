// Random and degenerate binary trees for tests and benchmarks.
#include <algorithm>
#include <numeric>
#include <random>

#include "treefix/forest/forest.hpp"

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

}  // namespace treefix
