// Weighted similarity on the CPU: two passes over breadth-first storage per tree, on threads;
// and the ranking of results.
#include <algorithm>
#include <numeric>
#include <string>
#include <thread>

#include "forest/similarity_detail.hpp"
#include "treefix/core/error.hpp"

namespace treefix {
namespace detail {

PreparedReference prepare_reference(const SemanticForest& ref, const SimilarityParameters& p) {
  if (ref.trees() != 1)
    throw InputError("similarity: the reference must be one tree, not " +
                     std::to_string(ref.trees()));
  PreparedReference r;
  const auto& s = ref.shape;
  r.root = s.head[0];
  r.simplicity.assign(s.size(), 1.0);
  r.missing.assign(s.size(), 0.0);
  for (std::size_t v = s.size(); v-- > 0;) {  // reverse breadth-first: children first
    if (s.first_child[v] < 0) continue;
    double sum = 0, missing = 0;
    for (vertex_t c = s.first_child[v]; c >= 0; c = s.next_sibling[c]) {
      sum += ref.weight[c] * r.simplicity[c];
      missing += ref.weight[c] / 2.0 * p.degradation * r.simplicity[c];
    }
    r.simplicity[v] = p.degradation * sum;
    r.missing[v] = missing;
  }
  return r;
}

}  // namespace detail

namespace {

using detail::adjust;
using detail::PreparedReference;

// Similarity of tree t; match/sim/simp are node-indexed workspaces (only t's range is touched).
double similarity_of_tree(const SemanticForest& ref, const PreparedReference& r,
                          const SemanticForest& f, std::size_t t, const SimilarityParameters& p,
                          std::vector<vertex_t>& match, std::vector<double>& sim,
                          std::vector<double>& simp) {
  const auto& s = f.shape;
  const vertex_t root = s.head[t], end = root + s.node_count[t];
  if (f.label[root] != ref.label[r.root]) return 0.0;
  // Top-down: pair each node with the reference node at the same arc-label path, when the
  // parents are paired and carry equal labels.
  match[root] = r.root;
  for (vertex_t v = root + 1; v < end; ++v) {
    const vertex_t parent = s.parent[v], mp = match[parent];
    vertex_t m = -1;
    if (mp >= 0 && ref.label[mp] == f.label[parent])
      for (vertex_t c = ref.shape.first_child[mp]; c >= 0; c = ref.shape.next_sibling[c])
        if (ref.arc[c] == f.arc[v]) {
          m = c;
          break;
        }
    match[v] = m;
  }
  // Bottom-up: simplicity of every subtree, similarity of every paired node.
  for (vertex_t v = end; v-- > root;) {
    const vertex_t m = match[v];
    if (s.first_child[v] < 0) {
      simp[v] = 1.0;
      if (m >= 0)
        sim[v] = ref.label[m] != f.label[v]     ? 0.0
                 : ref.shape.first_child[m] < 0 ? 1.0
                                                : r.missing[m];
      continue;
    }
    double simp_sum = 0;
    for (vertex_t c = s.first_child[v]; c >= 0; c = s.next_sibling[c])
      simp_sum += f.weight[c] * simp[c];
    simp[v] = p.degradation * simp_sum;
    if (m < 0) continue;
    if (ref.label[m] != f.label[v]) {
      sim[v] = 0.0;
      continue;
    }
    double sum = r.missing[m];
    for (vertex_t c = s.first_child[v]; c >= 0; c = s.next_sibling[c]) {
      const vertex_t mc = match[c];
      if (mc >= 0) {
        sum += (f.weight[c] + ref.weight[mc]) / 2.0 * adjust(sim[c], p);
        sum -= ref.weight[mc] / 2.0 * p.degradation * r.simplicity[mc];
      } else {
        sum += f.weight[c] / 2.0 * p.degradation * simp[c];
      }
    }
    sim[v] = sum;
  }
  return sim[root];
}

}  // namespace

std::vector<double> similarity_cpu(const SemanticForest& reference, const SemanticForest& trees,
                                   const SimilarityParameters& p, unsigned threads) {
  const PreparedReference r = detail::prepare_reference(reference, p);
  std::vector<double> result(trees.trees());
  std::vector<vertex_t> match(trees.size());
  std::vector<double> sim(trees.size()), simp(trees.size());
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(
      std::min<std::size_t>(threads, std::max<std::size_t>(1, trees.trees())));
  auto work = [&](std::size_t begin, std::size_t end) {
    for (std::size_t t = begin; t < end; ++t)
      result[t] = similarity_of_tree(reference, r, trees, t, p, match, sim, simp);
  };
  if (threads <= 1) {
    work(0, trees.trees());
    return result;
  }
  std::vector<std::thread> pool;
  const std::size_t per = (trees.trees() + threads - 1) / threads;
  for (unsigned k = 0; k < threads; ++k) {
    const std::size_t begin = std::min(trees.trees(), k * per);
    const std::size_t end = std::min(trees.trees(), begin + per);
    pool.emplace_back(work, begin, end);  // trees own disjoint node ranges of the workspaces
  }
  for (auto& th : pool) th.join();
  return result;
}

std::vector<std::size_t> rank_by_similarity(const std::vector<double>& scores,
                                            const std::vector<std::string>& names) {
  if (names.size() != scores.size())
    throw InputError("rank_by_similarity: " + std::to_string(scores.size()) + " scores for " +
                     std::to_string(names.size()) + " names");
  std::vector<std::size_t> index(scores.size());
  std::iota(index.begin(), index.end(), 0);
  std::sort(index.begin(), index.end(), [&](std::size_t a, std::size_t b) {
    if (scores[a] != scores[b]) return scores[a] > scores[b];
    return names[a] < names[b];
  });
  return index;
}

}  // namespace treefix
