// Weighted tree similarity: reference recursion, CPU two-pass (threads), device kernel.
#include "treefix/forest/similarity.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <string_view>
#include <thread>

#include "treefix/core/device_array.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"

namespace treefix {

std::int32_t Interner::id(const std::string& name) {
  auto [it, inserted] = ids_.emplace(name, static_cast<std::int32_t>(names_.size()));
  if (inserted) names_.push_back(name);
  return it->second;
}

std::int32_t Interner::find(const std::string& name) const {
  auto it = ids_.find(name);
  return it == ids_.end() ? -1 : it->second;
}

namespace {

// Sibling arc labels must differ: pairwise for the usual few children, sorted otherwise.
void check_arcs(const SemanticTree& node, std::vector<std::string_view>& sorted_arcs) {
  if (node.arc_labels.size() != node.children.size() || node.weights.size() != node.children.size())
    throw InputError("semantic tree node '" + node.label + "': " +
                     std::to_string(node.children.size()) + " children, " +
                     std::to_string(node.arc_labels.size()) + " arc labels, " +
                     std::to_string(node.weights.size()) + " weights");
  const std::size_t k = node.arc_labels.size();
  bool repeated = false;
  if (k <= 8) {
    for (std::size_t i = 0; i < k && !repeated; ++i)
      for (std::size_t j = i + 1; j < k && !repeated; ++j)
        repeated = node.arc_labels[i] == node.arc_labels[j];
  } else {
    sorted_arcs.assign(node.arc_labels.begin(), node.arc_labels.end());
    std::sort(sorted_arcs.begin(), sorted_arcs.end());
    repeated = std::adjacent_find(sorted_arcs.begin(), sorted_arcs.end()) != sorted_arcs.end();
  }
  if (!repeated) return;
  std::set<std::string> seen;
  for (auto& a : node.arc_labels)
    if (!seen.insert(a).second)
      throw InputError("semantic tree node '" + node.label + "' has two arcs labelled '" + a +
                       "' (arc labels must differ among siblings)");
}

}  // namespace

SemanticForest build_semantic_forest(const std::vector<SemanticTree>& trees, Interner& interner) {
  // Breadth-first straight from the nested trees (they cannot hold cycles): the queue of each
  // tree is its range of the output, so no parent array or permutation is needed.
  std::size_t total = 0;
  {
    std::vector<const SemanticTree*> stack;
    for (auto& t : trees) stack.push_back(&t);
    while (!stack.empty()) {
      const SemanticTree* node = stack.back();
      stack.pop_back();
      ++total;
      for (auto& c : node->children) stack.push_back(&c);
    }
  }
  if (total > static_cast<std::size_t>(INT32_MAX))
    throw InputError("semantic forest: " + std::to_string(total) + " nodes, more than 2^31-1");
  SemanticForest f;
  LinearForest& s = f.shape;
  s.first_child.assign(total, -1);
  s.next_sibling.assign(total, -1);
  s.parent.assign(total, -1);
  s.original.resize(total);
  std::iota(s.original.begin(), s.original.end(), 0);
  f.label.resize(total);
  f.arc.assign(total, -1);
  f.weight.assign(total, 0.0f);
  std::vector<const SemanticTree*> node_at(total);
  std::vector<std::string_view> sorted_arcs;
  std::size_t next = 0;
  for (auto& tree : trees) {
    const std::size_t begin = next;
    s.head.push_back(static_cast<vertex_t>(next));
    node_at[next++] = &tree;
    for (std::size_t q = begin; q < next; ++q) {
      const SemanticTree& node = *node_at[q];
      check_arcs(node, sorted_arcs);
      f.label[q] = interner.id(node.label);
      for (std::size_t c = 0; c < node.children.size(); ++c) {
        const auto child = static_cast<vertex_t>(next);
        node_at[next++] = &node.children[c];
        s.parent[child] = static_cast<vertex_t>(q);
        if (c == 0) s.first_child[q] = child;
        else s.next_sibling[child - 1] = child;
        f.arc[child] = interner.id(node.arc_labels[c]);
        f.weight[child] = static_cast<float>(node.weights[c]);
      }
    }
    s.node_count.push_back(static_cast<vertex_t>(next - begin));
  }
  return f;
}

// --- the reference: the formula, recursively, on strings -----------------------------------------

namespace {

double adjust(double s, const SimilarityParameters& p) { return p.sqrt_adjustment ? std::sqrt(s) : s; }

double simplicity_reference(const SemanticTree& t, const SimilarityParameters& p) {
  if (t.leaf()) return 1.0;
  double sum = 0;
  for (std::size_t i = 0; i < t.children.size(); ++i)
    sum += t.weights[i] * simplicity_reference(t.children[i], p);
  return p.degradation * sum;
}

std::vector<std::size_t> arcs_by_label(const SemanticTree& t) {
  std::vector<std::size_t> index(t.children.size());
  std::iota(index.begin(), index.end(), 0);
  std::sort(index.begin(), index.end(),
            [&](std::size_t x, std::size_t y) { return t.arc_labels[x] < t.arc_labels[y]; });
  return index;
}

}  // namespace

double tree_similarity_reference(const SemanticTree& a, const SemanticTree& b,
                                 const SimilarityParameters& p) {
  if (a.label != b.label) return 0.0;
  if (a.leaf() && b.leaf()) return 1.0;
  auto ia = arcs_by_label(a), ib = arcs_by_label(b);
  auto missing = [&](const SemanticTree& t, std::size_t i) {
    return t.weights[i] / 2 * p.degradation * simplicity_reference(t.children[i], p);
  };
  double sum = 0;
  std::size_t x = 0, y = 0;
  while (x < ia.size() || y < ib.size()) {
    if (y == ib.size() || (x < ia.size() && a.arc_labels[ia[x]] < b.arc_labels[ib[y]])) {
      sum += missing(a, ia[x++]);
    } else if (x == ia.size() || b.arc_labels[ib[y]] < a.arc_labels[ia[x]]) {
      sum += missing(b, ib[y++]);
    } else {
      const std::size_t i = ia[x++], j = ib[y++];
      sum += (a.weights[i] + b.weights[j]) / 2 *
             adjust(tree_similarity_reference(a.children[i], b.children[j], p), p);
    }
  }
  return sum;
}

// --- CPU, two passes over breadth-first storage ---------------------------------------------------

namespace {

struct PreparedReference {
  vertex_t root = 0;
  std::vector<double> simplicity;  // S of each reference subtree
  std::vector<double> missing;     // per node: sum over its children of w/2 * D * S(child)
};

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
        sim[v] = ref.label[m] != f.label[v] ? 0.0
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
  const PreparedReference r = prepare_reference(reference, p);
  std::vector<double> result(trees.trees());
  std::vector<vertex_t> match(trees.size());
  std::vector<double> sim(trees.size()), simp(trees.size());
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(1, trees.trees())));
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

// --- device ------------------------------------------------------------------------------------

std::vector<float> similarity_device(Runtime& rt, const SemanticForest& reference,
                                     const SemanticForest& trees, const SimilarityParameters& p,
                                     Profile* profile) {
  const PreparedReference r = prepare_reference(reference, p);
  const std::size_t n = trees.size(), count = trees.trees();
  rt.require_fits("similarity of " + std::to_string(count) + " trees",
                  n * (6 * sizeof(std::int32_t) + 3 * sizeof(float)) + (count + 1) * sizeof(std::int32_t) + count * sizeof(float),
                  n * sizeof(float));
  if (count == 0) return {};
  std::vector<float> ref_simplicity(r.simplicity.begin(), r.simplicity.end());
  std::vector<float> ref_missing(r.missing.begin(), r.missing.end());
  const auto& rs = reference.shape;
  const auto& s = trees.shape;
  auto up = [&](const auto& values, const char* what) {
    using T = typename std::decay_t<decltype(values)>::value_type;
    return DeviceArray<T>::upload(rt, values, profile, what);
  };
  auto ref_first = up(rs.first_child, "reference first children");
  auto ref_next = up(rs.next_sibling, "reference next siblings");
  auto ref_label = up(reference.label, "reference labels");
  auto ref_arc = up(reference.arc, "reference arcs");
  auto ref_weight = up(reference.weight, "reference weights");
  auto ref_simp = up(ref_simplicity, "reference simplicity");
  auto ref_miss = up(ref_missing, "reference missing");
  std::vector<vertex_t> bounds(s.head);  // trees + 1 entries: tree t is bounds[t] .. bounds[t+1]
  bounds.push_back(static_cast<vertex_t>(n));
  auto head = up(bounds, "tree bounds");
  auto first = up(s.first_child, "first children");
  auto next = up(s.next_sibling, "next siblings");
  auto label = up(trees.label, "labels");
  auto arc = up(trees.arc, "arcs");
  auto weight = up(trees.weight, "weights");
  DeviceArray<std::int32_t> match(rt, n, "similarity match");
  DeviceArray<float> sim(rt, n, "similarity per node"), simp(rt, n, "simplicity per node");
  DeviceArray<float> result(rt, count, "similarity");
  const std::string options = "-DDEGRADATION=" + std::to_string(p.degradation) + "f" +
                              " -DSQRT_ADJUSTMENT=" + (p.sqrt_adjustment ? "1" : "0");
  Kernels similarity(rt, "forest/similarity.cl", options, {profile, "similarity"});
  translate_device_errors("tree similarity", [&] {
    similarity.run("similarity", similarity.items(count), static_cast<cl_int>(count),
                   static_cast<cl_int>(r.root), head, first, next, label, arc, weight, ref_first,
                   ref_next, ref_label, ref_arc, ref_weight, ref_simp, ref_miss, match, sim, simp,
                   result);
  });
  return result.download(rt, profile);
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
