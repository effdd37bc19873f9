// Tree similarity on the device: one work-item per tree (kernels/forest/similarity.cl).
#include <sstream>
#include <string>

#include "forest/similarity_detail.hpp"
#include "treefix/core/device_array.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"

namespace treefix {

std::vector<float> similarity_device(Runtime& rt, const SemanticForest& reference,
                                     const SemanticForest& trees, const SimilarityParameters& p,
                                     Profile* profile) {
  const detail::PreparedReference r = detail::prepare_reference(reference, p);
  const std::size_t n = trees.size(), count = trees.trees();
  rt.require_fits("similarity of " + std::to_string(count) + " trees",
                  n * (6 * sizeof(std::int32_t) + 3 * sizeof(float)) +
                      (count + 1) * sizeof(std::int32_t) + count * sizeof(float),
                  n * sizeof(float));
  if (count == 0) return {};
  auto as_float = [](const std::vector<double>& values) {
    return std::vector<float>(values.begin(), values.end());
  };
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
  auto ref_against_leaf = up(as_float(r.against_leaf), "reference against a leaf");
  auto ref_unpaired_gain = up(as_float(r.unpaired_gain), "reference unpaired gains");
  auto ref_unpaired_loss = up(as_float(r.unpaired_loss), "reference unpaired losses");
  auto ref_tail_gain = up(as_float(r.tail_gain), "reference tail gains");
  auto ref_tail_loss = up(as_float(r.tail_loss), "reference tail losses");
  auto ref_children = up(r.children, "reference child counts");
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
  std::ostringstream options;
  options.precision(9);  // D as a float literal ("0.500000000f"; showpoint: never "0f")
  options << std::showpoint << "-DTHESIS=" << (p.definition == SimilarityDefinition::thesis ? 1 : 0)
          << " -DDEGRADATION=" << static_cast<float>(p.degradation) << "f"
          << " -DSQRT_ADJUSTMENT=" << (p.sqrt_adjustment ? 1 : 0);
  Kernels similarity(rt, "forest/similarity.cl", options.str(), {profile, "similarity"});
  translate_device_errors("tree similarity", [&] {
    similarity.run("similarity", similarity.items(count), static_cast<cl_int>(count),
                   static_cast<cl_int>(r.root), head, first, next, label, arc, weight, ref_first,
                   ref_next, ref_label, ref_arc, ref_weight, ref_against_leaf, ref_unpaired_gain,
                   ref_unpaired_loss, ref_tail_gain, ref_tail_loss, ref_children, match, sim, simp,
                   result);
  });
  return result.download(rt, profile);
}

}  // namespace treefix
