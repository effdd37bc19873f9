// Tree similarity on the device: one work-item per tree (kernels/forest/similarity.cl).
#include <algorithm>
#include <sstream>
#include <string>

#include "forest/similarity_detail.hpp"
#include "treefix/core/device_array.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/forest/device_forest.hpp"

namespace treefix {

namespace {

// The trees' arrays on the device, however they got there.
struct TreesOnDevice {
  std::size_t count, n;
  const DeviceArray<std::int32_t>&bounds, &first_child, &next_sibling, &label, &arc;
  const DeviceArray<float>& weight;
};

// Reference tree 0 (its labels in the trees' ids) against every tree.
std::vector<float> run_similarity(Runtime& rt, const SemanticForest& reference,
                                  const TreesOnDevice& trees, const SimilarityParameters& p,
                                  Profile* profile) {
  const detail::PreparedReference r = detail::prepare_reference(reference, p);
  const std::size_t n = trees.n, count = trees.count;
  rt.require_fits("similarity of " + std::to_string(count) + " trees",
                  n * (6 * sizeof(std::int32_t) + 3 * sizeof(float)) +
                      (count + 1) * sizeof(std::int32_t) + count * sizeof(float),
                  n * sizeof(float));
  if (count == 0) return {};
  auto as_float = [](const std::vector<double>& values) {
    return std::vector<float>(values.begin(), values.end());
  };
  const auto& rs = reference.shape;
  auto up = [&](const auto& values, const char* what) {
    using T = typename std::decay_t<decltype(values)>::value_type;
    return DeviceArray<T>::upload(rt, values, profile, what);
  };
  auto ref_first = up(rs.first_child, "reference first children");
  auto ref_next = up(rs.next_sibling, "reference next siblings");
  auto ref_label = up(reference.label, "reference labels");
  auto ref_arc = up(reference.arc, "reference arcs");
  auto ref_weight = up(reference.weight, "reference weights");
  auto ref_against_leaf = up(as_float(r.against_leaf), "reference against a leaf");
  auto ref_unpaired_gain = up(as_float(r.unpaired_gain), "reference unpaired gains");
  auto ref_unpaired_loss = up(as_float(r.unpaired_loss), "reference unpaired losses");
  auto ref_tail_gain = up(as_float(r.tail_gain), "reference tail gains");
  auto ref_tail_loss = up(as_float(r.tail_loss), "reference tail losses");
  auto ref_children = up(r.children, "reference child counts");
  DeviceArray<std::int32_t> match(rt, n, "similarity match");
  DeviceArray<float> sim(rt, n, "similarity per node"), simp(rt, n, "simplicity per node");
  DeviceArray<float> result(rt, count, "similarity");
  std::ostringstream options;
  options.precision(9);  // D as a float literal ("0.500000000f"; showpoint: never "0f")
  options << std::showpoint << "-DTHESIS=" << (p.definition == SimilarityDefinition::thesis ? 1 : 0)
          << " -DDEGRADATION=" << static_cast<float>(p.degradation) << "f"
          << " -DSQRT_ADJUSTMENT=" << (p.sqrt_adjustment ? 1 : 0);
  Kernels similarity(rt, "forest/similarity.cl", options.str(), {profile, "similarity"});
  translate_device_errors("tree similarity", [&] {
    similarity.run("similarity", similarity.items(count), static_cast<cl_int>(count),
                   static_cast<cl_int>(r.root), trees.bounds, trees.first_child, trees.next_sibling,
                   trees.label, trees.arc, trees.weight, ref_first, ref_next, ref_label, ref_arc,
                   ref_weight, ref_against_leaf, ref_unpaired_gain, ref_unpaired_loss,
                   ref_tail_gain, ref_tail_loss, ref_children, match, sim, simp, result);
  });
  return result.download(rt, profile);
}

}  // namespace

std::vector<float> similarity_device(Runtime& rt, const SemanticForest& reference,
                                     const SemanticForest& trees, const SimilarityParameters& p,
                                     Profile* profile) {
  const auto& s = trees.shape;
  auto up = [&](const auto& values, const char* what) {
    using T = typename std::decay_t<decltype(values)>::value_type;
    return DeviceArray<T>::upload(rt, values, profile, what);
  };
  std::vector<vertex_t> bounds(s.head);  // trees + 1 entries: tree t is bounds[t] .. bounds[t+1]
  bounds.push_back(static_cast<vertex_t>(trees.size()));
  auto head = up(bounds, "tree bounds");
  auto first = up(s.first_child, "first children");
  auto next = up(s.next_sibling, "next siblings");
  auto label = up(trees.label, "labels");
  auto arc = up(trees.arc, "arcs");
  auto weight = up(trees.weight, "weights");
  return run_similarity(rt, reference,
                        {trees.trees(), trees.size(), head, first, next, label, arc, weight}, p,
                        profile);
}

std::vector<float> similarity_device(Runtime& rt, const SemanticForest& reference,
                                     const Interner& reference_labels,
                                     const DeviceSemanticForest& trees,
                                     const SimilarityParameters& p, Profile* profile) {
  // The reference's labels renumbered as the trees number them; a label no tree has gets an id
  // of its own below -1 (-1 is a root's missing arc), so it equals nothing in the trees.
  std::vector<std::int32_t> used;
  for (const auto* ids : {&reference.label, &reference.arc})
    for (std::int32_t id : *ids)
      if (id >= 0) used.push_back(id);
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  std::vector<std::string> names;
  names.reserve(used.size());
  for (std::int32_t id : used) names.push_back(reference_labels.name(id));
  std::vector<std::int32_t> ids = trees.label_ids(rt, names);
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] < 0) ids[i] = -2 - static_cast<std::int32_t>(i);
  SemanticForest renumbered = reference;
  for (auto* labels : {&renumbered.label, &renumbered.arc})
    for (std::int32_t& id : *labels)
      if (id >= 0) id = ids[std::lower_bound(used.begin(), used.end(), id) - used.begin()];
  return run_similarity(rt, renumbered,
                        {trees.trees, trees.nodes, trees.bounds, trees.first_child,
                         trees.next_sibling, trees.label, trees.arc, trees.weight},
                        p, profile);
}

}  // namespace treefix
