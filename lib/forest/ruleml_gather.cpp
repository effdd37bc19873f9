// The parallel RuleML reader's pieces into one forest in name order (forest/ruleml_pieces.hpp):
// label ids, tree offsets (a prefix sum over slices), outputs allocated several at once, and every
// tree copied and renumbered by whichever thread is free. One pass over the nodes; nothing on one
// thread that grows with them.
#include <algorithm>
#include <limits>

#include "forest/name_order.hpp"
#include "forest/ruleml_pieces.hpp"
#include "forest/unfilled_array.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/core/parallel.hpp"

namespace treefix::detail {

namespace {

// Labels of the pieces not yet in `interner`, interned in lexicographic order; then each piece's
// ids as ids of `interner`.
std::vector<std::vector<std::int32_t>> intern_labels(const std::vector<RuleMLPiece>& pieces,
                                                     Interner& interner, unsigned threads) {
  std::vector<std::vector<std::string_view>> fresh_of(pieces.size());
  parallel_for(pieces.size(), threads, [&](std::size_t p) {
    const Interner& labels = pieces[p].labels;
    for (std::size_t id = 0; id < labels.size(); ++id) {
      const std::string& name = labels.name(static_cast<std::int32_t>(id));
      if (interner.find(name) < 0) fresh_of[p].push_back(name);
    }
  });
  std::vector<NameRef> fresh;
  for (const auto& names : fresh_of)
    for (std::string_view name : names)
      fresh.push_back({name.data(), static_cast<std::uint32_t>(name.size())});
  const std::vector<std::uint32_t> order = sorted_order(fresh.data(), fresh.size(), threads);
  for (std::size_t j = 0; j < order.size(); ++j)
    if (j == 0 || fresh[order[j]].view() != fresh[order[j - 1]].view())
      interner.id(fresh[order[j]].view());
  std::vector<std::vector<std::int32_t>> global_id(pieces.size());
  parallel_for(pieces.size(), threads, [&](std::size_t p) {
    const Interner& labels = pieces[p].labels;
    global_id[p].resize(labels.size());
    for (std::size_t id = 0; id < labels.size(); ++id)
      global_id[p][id] = interner.find(labels.name(static_cast<std::int32_t>(id)));
  });
  return global_id;
}

// Asks for the first cache lines of a tree's nodes ahead of their use.
void prefetch_nodes(const FileTree& tree) {
#if defined(__GNUC__)
  const char* const bytes = reinterpret_cast<const char*>(tree.nodes);
  const std::size_t size = std::min<std::size_t>(tree.size * sizeof(LinearNode), 1024);
  for (std::size_t b = 0; b < size; b += 64) __builtin_prefetch(bytes + b);
#else
  (void)tree;
#endif
}

}  // namespace

NamedSemanticForest gather_pieces(const std::vector<RuleMLPiece>& pieces, const FileTree* trees,
                                  const NameRef* names, const std::vector<std::uint32_t>& order,
                                  Interner& interner, unsigned threads) {
  const std::vector<std::vector<std::int32_t>> global_id = intern_labels(pieces, interner, threads);
  const std::size_t count = order.size();

  // node_offset[j]: the first node of output tree j; slices summed, then their sums scanned.
  const Ranges slices(count, threads);
  UnfilledArray<std::size_t> node_offset(count + 1);
  std::vector<std::size_t> slice_start(threads + 1, 0);
  run_on_threads(threads, [&](unsigned t) {
    if (t >= slices.count) return;
    std::size_t sum = 0;
    for (std::size_t j = slices.begin(t); j < slices.end(t); ++j) {
      node_offset[j] = sum;
      sum += trees[order[j]].size;
    }
    slice_start[t + 1] = sum;
  });
  for (unsigned t = 0; t < threads; ++t) slice_start[t + 1] += slice_start[t];
  run_on_threads(threads, [&](unsigned t) {
    if (t >= slices.count) return;
    for (std::size_t j = slices.begin(t); j < slices.end(t); ++j) node_offset[j] += slice_start[t];
  });
  const std::size_t nodes = slice_start[threads];
  node_offset[count] = nodes;
  if (nodes > static_cast<std::size_t>(std::numeric_limits<vertex_t>::max()))
    throw CapacityError("RuleML forest: " + std::to_string(nodes) + " nodes, more than 2^31-1");

  // The outputs, several allocated (and their pages mapped) at once: one thread would take the
  // page faults and the zeroing of all of them.
  NamedSemanticForest out;
  SemanticForest& f = out.forest;
  LinearForest& s = f.shape;
  std::vector<vertex_t>* const per_node[6] = {&s.first_child, &s.next_sibling, &s.parent,
                                              &s.original,    &f.label,        &f.arc};
  constexpr std::size_t vertex_arrays = 6;
  parallel_for(vertex_arrays + 4, threads, [&](std::size_t a) {
    if (a < vertex_arrays)
      *per_node[a] = prefaulted_vector<vertex_t>(nodes);
    else if (a == vertex_arrays)
      f.weight = prefaulted_vector<float>(nodes);
    else if (a == vertex_arrays + 1)
      s.head = prefaulted_vector<vertex_t>(count);
    else if (a == vertex_arrays + 2)
      s.node_count = prefaulted_vector<vertex_t>(count);
    else
      out.names.resize(count);
  });

  // Every tree copied, its links shifted to where it lands and its labels renumbered. Name order
  // jumps between chunks: the nodes of a tree a few ahead are asked for while this one is copied.
  constexpr std::size_t ahead = 4;
  const Ranges work(count, std::size_t(threads) * 8, 64);
  parallel_for(work.count, threads, [&](std::size_t r) {
    for (std::size_t j = work.begin(r); j < work.end(r); ++j) {
      if (j + ahead < work.end(r)) prefetch_nodes(trees[order[j + ahead]]);
      const FileTree& tree = trees[order[j]];
      const LinearNode* const node = tree.nodes;
      const std::vector<std::int32_t>& id = global_id[tree.piece];
      const auto n = static_cast<vertex_t>(tree.size);
      const auto head = static_cast<vertex_t>(node_offset[j]);
      const auto link = [head](vertex_t v) { return v < 0 ? v : v + head; };
      s.head[j] = head;
      s.node_count[j] = n;
      for (vertex_t v = 0; v < n; ++v) {
        const vertex_t to = head + v;
        s.first_child[to] = link(node[v].first_child);
        s.next_sibling[to] = link(node[v].next_sibling);
        s.parent[to] = link(node[v].parent);
        s.original[to] = to;
        f.label[to] = id[node[v].label];
        f.arc[to] = node[v].arc < 0 ? -1 : id[node[v].arc];
        f.weight[to] = node[v].weight;
      }
      out.names[j] = names[order[j]].view();
    }
  });
  return out;
}

}  // namespace treefix::detail
