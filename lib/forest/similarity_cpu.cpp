// Tree similarity on the CPU: two passes over breadth-first storage per tree, trees spread over
// host threads; and the ranking of results.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "forest/similarity_detail.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"

namespace treefix {
namespace detail {

PreparedReference prepare_reference(const SemanticForest& ref, const SimilarityParameters& p) {
  check_similarity_parameters(p);
  if (ref.trees() != 1)
    throw InputError("similarity: the reference must be one tree, not " +
                     std::to_string(ref.trees()));
  PreparedReference r;
  const auto& s = ref.shape;
  const std::size_t n = s.size();
  r.root = s.head[0];
  r.simplicity.assign(n, 0.0);
  r.against_leaf.assign(n, 0.0);
  for (auto* a : {&r.unpaired_gain, &r.unpaired_loss, &r.tail_gain, &r.tail_loss})
    a->assign(n, 0.0);
  r.children.assign(n, 0);
  for (std::size_t v = n; v-- > 0;) {  // reverse breadth-first: children first
    const bool leaf = s.first_child[v] < 0;
    r.simplicity[v] = simplicity_of(leaf, ref.weight[v], p, [&](auto&& f) {
      for (vertex_t c = s.first_child[v]; c >= 0; c = s.next_sibling[c]) {
        f(ref.weight[c], r.simplicity[c]);
        ++r.children[v];
      }
    });
    r.against_leaf[v] = leaf ? 1.0 : against_leaf(r.simplicity[v], p);
    if (s.parent[v] >= 0) {
      const Terms alone = unpaired(leaf, ref.weight[v], r.simplicity[v], p);
      r.unpaired_gain[v] = alone.gain;
      r.unpaired_loss[v] = alone.loss;
    }
    const vertex_t next = s.next_sibling[v];  // later siblings come later: already done
    r.tail_gain[v] = r.unpaired_gain[v] + (next >= 0 ? r.tail_gain[next] : 0.0);
    r.tail_loss[v] = r.unpaired_loss[v] + (next >= 0 ? r.tail_loss[next] : 0.0);
  }
  return r;
}

}  // namespace detail

namespace {

using detail::PreparedReference;

// Node-indexed workspaces of one thread, sized to the largest tree it meets (indices local).
struct Workspace {
  std::vector<vertex_t> match;
  std::vector<double> sim, simp;
  void fit(std::size_t nodes) {
    if (match.size() < nodes) {
      match.resize(nodes);
      sim.resize(nodes);
      simp.resize(nodes);
    }
  }
};

// Similarity of tree t against the reference.
double similarity_of_tree(const SemanticForest& ref, const PreparedReference& r,
                          const SemanticForest& f, std::size_t t, const SimilarityParameters& p,
                          Workspace& w) {
  const auto& s = f.shape;
  const auto& rs = ref.shape;
  const vertex_t root = s.head[t], count = s.node_count[t];
  if (f.label[root] != ref.label[r.root]) return 0.0;
  const bool thesis = p.definition == SimilarityDefinition::thesis;
  w.fit(static_cast<std::size_t>(count));
  vertex_t* match = w.match.data() - root;  // indexed by global node
  double* sim = w.sim.data() - root;
  double* simp = w.simp.data() - root;
  // Top-down: the partner of each child of a node paired with an equal label: the reference
  // child with the same arc label (weighted), or at the same position (thesis).
  match[root] = r.root;
  for (vertex_t v = root; v < root + count; ++v) {
    const vertex_t m = match[v];
    const bool paired = m >= 0 && ref.label[m] == f.label[v];
    vertex_t partner = paired ? rs.first_child[m] : -1;
    for (vertex_t c = s.first_child[v]; c >= 0; c = s.next_sibling[c]) {
      if (thesis) {
        match[c] = partner;
        if (partner >= 0) partner = rs.next_sibling[partner];
      } else {
        vertex_t found = -1;
        for (vertex_t x = partner; x >= 0; x = rs.next_sibling[x])
          if (ref.arc[x] == f.arc[c]) {
            found = x;
            break;
          }
        match[c] = found;
      }
    }
  }
  // Bottom-up: simplicity of every subtree, similarity of every paired node as 1 - losses.
  for (vertex_t v = root + count; v-- > root;) {
    const vertex_t first = s.first_child[v], m = match[v];
    const bool leaf = first < 0;
    simp[v] = detail::simplicity_of(leaf, f.weight[v], p, [&](auto&& add) {
      for (vertex_t c = first; c >= 0; c = s.next_sibling[c]) add(f.weight[c], simp[c]);
    });
    if (m < 0) continue;
    const bool ref_leaf = rs.first_child[m] < 0;
    if (ref.label[m] != f.label[v]) {
      sim[v] = 0.0;
    } else if (leaf || ref_leaf) {
      sim[v] = leaf ? r.against_leaf[m] : detail::against_leaf(simp[v], p);
    } else {
      double gain = 0, loss = 0;
      vertex_t paired = 0, last_partner = -1;
      for (vertex_t c = first; c >= 0; c = s.next_sibling[c]) {
        const vertex_t mc = match[c];
        if (mc >= 0) {
          const double share = (f.weight[c] + ref.weight[mc]) / 2, a = detail::adjust(sim[c], p);
          gain += share * a;
          loss += share * (1.0 - a);
          ++paired;
          last_partner = mc;
        } else {
          const auto alone = detail::unpaired(s.first_child[c] < 0, f.weight[c], simp[c], p);
          gain += alone.gain;
          loss += alone.loss;
        }
      }
      // Reference children without a partner.
      if (thesis) {  // pairs are a prefix: the reference children after the last partner
        const vertex_t beyond = rs.next_sibling[last_partner];  // both have children: >= 0
        if (beyond >= 0) {
          gain += r.tail_gain[beyond];
          loss += r.tail_loss[beyond];
        }
      } else if (paired < r.children[m]) {
        for (vertex_t x = rs.first_child[m]; x >= 0; x = rs.next_sibling[x]) {
          bool found = false;
          for (vertex_t c = first; c >= 0 && !found; c = s.next_sibling[c]) found = match[c] == x;
          if (!found) {
            gain += r.unpaired_gain[x];
            loss += r.unpaired_loss[x];
          }
        }
      }
      sim[v] = detail::similarity_of(gain, loss);
    }
  }
  return sim[root];
}

}  // namespace

std::vector<double> similarity_cpu(const SemanticForest& reference, const SemanticForest& trees,
                                   const SimilarityParameters& p, unsigned threads) {
  const PreparedReference r = detail::prepare_reference(reference, p);
  std::vector<double> result(trees.trees());
  if (threads == 0) threads = host_threads();
  const Ranges ranges(trees.trees(), threads);
  auto work = [&](std::size_t k) {
    Workspace w;
    for (std::size_t t = ranges.begin(k); t < ranges.end(k); ++t)
      result[t] = similarity_of_tree(reference, r, trees, t, p, w);
  };
  parallel_for(ranges.count, threads, work);  // one range runs on this thread
  return result;
}

template <class T>
std::vector<std::uint32_t> to_millionths(const std::vector<T>& similarities) {
  std::vector<std::uint32_t> out(similarities.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double s = std::clamp(static_cast<double>(similarities[i]), 0.0, 1.0);
    out[i] = static_cast<std::uint32_t>(std::llround(s * 1e6));
  }
  return out;
}
template std::vector<std::uint32_t> to_millionths(const std::vector<float>&);
template std::vector<std::uint32_t> to_millionths(const std::vector<double>&);

std::vector<std::size_t> rank_by_millionths(const std::vector<std::uint32_t>& millionths) {
  // Least-significant-digit radix sort of 1000000 - value (20 bits) in two stable passes of
  // 10 bits: highest first, equal values in index order.
  constexpr std::uint32_t top = 1000000, bits = 10, buckets = 1u << bits;
  const std::size_t n = millionths.size();
  for (std::size_t i = 0; i < n; ++i)
    if (millionths[i] > top)
      throw InputError("rank_by_millionths: value " + std::to_string(millionths[i]) + " at " +
                       std::to_string(i) + " exceeds 1000000");
  std::vector<std::size_t> order(n), swap(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  for (std::uint32_t shift = 0; shift < 2 * bits; shift += bits) {
    std::array<std::size_t, buckets + 1> start{};
    auto digit = [&](std::size_t i) { return ((top - millionths[i]) >> shift) & (buckets - 1); };
    for (std::size_t i = 0; i < n; ++i) ++start[digit(i) + 1];
    for (std::size_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
    for (std::size_t i : order) swap[start[digit(i)]++] = i;
    order.swap(swap);
  }
  return order;
}

}  // namespace treefix
