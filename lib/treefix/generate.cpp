// Tree generators.
#include "treefix/treefix/generate.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"

namespace treefix::generate {

namespace {
// Refuses a size beyond 32-bit ids, or one whose `arrays` arrays of n vertex ids (the result and
// the generator's work arrays) the host cannot hold, before any is allocated.
void check_size(std::size_t n, std::uint64_t arrays = 1) {
  if (n > static_cast<std::size_t>(INT32_MAX))
    throw InputError("a tree of " + std::to_string(n) + " vertices exceeds 2^31-1 vertices");
  require_host_memory(bytes_for(n, arrays * sizeof(vertex_t)),
                      "a tree of " + std::to_string(n) + " vertices");
}
}  // namespace

ParentArray star(std::size_t n) {
  check_size(n);
  ParentArray p(n, 0);
  if (n) p[0] = -1;
  return p;
}

ParentArray path(std::size_t n) {
  check_size(n);
  ParentArray p(n);
  for (std::size_t v = 0; v < n; ++v) p[v] = static_cast<vertex_t>(v) - 1;
  return p;
}

ParentArray caterpillar(std::size_t n, std::size_t spine) {
  check_size(n);
  spine = std::max<std::size_t>(1, std::min(spine, n));
  ParentArray p(n);
  for (std::size_t v = 0; v < n; ++v) {
    if (v < spine)
      p[v] = static_cast<vertex_t>(v) - 1;  // the spine path
    else
      p[v] = static_cast<vertex_t>((v - spine) % spine);  // legs spread on it
  }
  return p;
}

ParentArray kary(std::size_t n, std::size_t k) {
  check_size(n);
  if (k == 0) throw InputError("a k-ary tree needs k >= 1");
  ParentArray p(n);
  for (std::size_t v = 0; v < n; ++v) p[v] = v == 0 ? -1 : static_cast<vertex_t>((v - 1) / k);
  return p;
}

ParentArray random_recursive(std::size_t n, std::uint64_t seed) {
  check_size(n);
  std::mt19937_64 rng(seed);
  ParentArray p(n);
  for (std::size_t v = 0; v < n; ++v)
    p[v] = v == 0
               ? -1
               : static_cast<vertex_t>(std::uniform_int_distribution<std::size_t>(0, v - 1)(rng));
  return p;
}

ParentArray random_binary(std::size_t n, std::uint64_t seed) {
  check_size(n, 2);  // the tree and its open tips
  if (n % 2 == 0)
    throw InputError("a binary tree has an odd number of vertices (2 tips - 1), not " +
                     std::to_string(n));
  std::mt19937_64 rng(seed);
  ParentArray p(n);
  p[0] = -1;
  std::vector<vertex_t> tips{0};  // the tips so far, in any order (removed by swapping)
  tips.reserve(n / 2 + 1);
  for (std::size_t v = 1; v < n; v += 2) {
    const std::size_t pick = std::uniform_int_distribution<std::size_t>(0, tips.size() - 1)(rng);
    const vertex_t split = tips[pick];
    p[v] = p[v + 1] = split;
    tips[pick] = static_cast<vertex_t>(v);
    tips.push_back(static_cast<vertex_t>(v + 1));
  }
  return p;
}

std::vector<double> branch_lengths(const ParentArray& parent, std::uint64_t seed) {
  const std::size_t n = parent.size();
  require_host_memory(bytes_for(n, sizeof(double)), std::to_string(n) + " branch lengths");
  std::mt19937_64 rng(seed);
  std::exponential_distribution<double> length(1.0);
  std::vector<double> lengths(n);
  for (std::size_t v = 0; v < n; ++v) lengths[v] = parent[v] < 0 ? 0.0 : length(rng);
  return lengths;
}

NodeNames tip_names(const ParentArray& parent) {
  const std::size_t n = parent.size();
  std::vector<char> has_child(n, 0);
  for (vertex_t p : parent)
    if (p >= 0) has_child[static_cast<std::size_t>(p)] = 1;
  NodeNames names;
  names.reserve(n);
  std::size_t tips = 0;
  for (std::size_t v = 0; v < n; ++v) {
    names.add();
    if (!has_child[v]) names.append(v, "t" + std::to_string(++tips));
  }
  return names;
}

ParentArray shuffle_labels(const ParentArray& parent, std::uint64_t seed) {
  const std::size_t n = parent.size();
  check_size(n, 2);  // the labels and the result
  std::vector<vertex_t> label(n);
  std::iota(label.begin(), label.end(), 0);
  std::mt19937_64 rng(seed);
  std::shuffle(label.begin(), label.end(), rng);
  ParentArray out(n);
  for (std::size_t v = 0; v < n; ++v) out[label[v]] = parent[v] == -1 ? -1 : label[parent[v]];
  return out;
}

ParentArray random_forest(std::size_t n, std::size_t trees, std::uint64_t seed) {
  check_size(n, 3);  // the forest, then its labels and the shuffled copy
  trees = std::max<std::size_t>(1, std::min(trees, std::max<std::size_t>(n, 1)));
  std::mt19937_64 rng(seed);
  ParentArray p(n);
  // vertices 0..trees-1 are roots; every later vertex joins a uniform earlier vertex
  for (std::size_t v = 0; v < n; ++v)
    p[v] = v < trees
               ? -1
               : static_cast<vertex_t>(std::uniform_int_distribution<std::size_t>(0, v - 1)(rng));
  return shuffle_labels(p, seed ^ 0x9e3779b97f4a7c15ull);
}

}  // namespace treefix::generate
