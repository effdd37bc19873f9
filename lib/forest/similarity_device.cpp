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
  const auto& rs = reference.shape;
  const auto& s = trees.shape;
  // Every buffer is a workspace the Runtime keeps between calls (ranking forest after forest
  // creates none), and every array goes up in one write_buffers: the small ones without a wait
  // each, the large ones staged with one array's copy overlapping the previous one's DMA. The host
  // arrays below live until it returns; the buffers it writes are the Runtime's own (scratch),
  // which stay where they are.
  std::vector<detail::HostToDevice> uploads;
  auto up = [&](const char* slot, const auto& values) -> const cl::Buffer& {
    const std::size_t bytes = values.size() * sizeof(values[0]);
    const cl::Buffer& buffer = rt.scratch(slot, bytes);
    uploads.push_back({&buffer, values.data(), bytes});
    return buffer;
  };
  auto as_float = [](const std::vector<double>& values) {
    return std::vector<float>(values.begin(), values.end());
  };
  const std::vector<float> against_leaf = as_float(r.against_leaf),
                           unpaired_gain = as_float(r.unpaired_gain),
                           unpaired_loss = as_float(r.unpaired_loss),
                           tail_gain = as_float(r.tail_gain), tail_loss = as_float(r.tail_loss);
  std::vector<vertex_t> bounds(s.head);  // trees + 1 entries: tree t is bounds[t] .. bounds[t+1]
  bounds.push_back(static_cast<vertex_t>(n));
  const cl::Buffer& ref_first = up("similarity.reference_first_child", rs.first_child);
  const cl::Buffer& ref_next = up("similarity.reference_next_sibling", rs.next_sibling);
  const cl::Buffer& ref_label = up("similarity.reference_label", reference.label);
  const cl::Buffer& ref_arc = up("similarity.reference_arc", reference.arc);
  const cl::Buffer& ref_weight = up("similarity.reference_weight", reference.weight);
  const cl::Buffer& ref_against_leaf = up("similarity.reference_against_leaf", against_leaf);
  const cl::Buffer& ref_unpaired_gain = up("similarity.reference_unpaired_gain", unpaired_gain);
  const cl::Buffer& ref_unpaired_loss = up("similarity.reference_unpaired_loss", unpaired_loss);
  const cl::Buffer& ref_tail_gain = up("similarity.reference_tail_gain", tail_gain);
  const cl::Buffer& ref_tail_loss = up("similarity.reference_tail_loss", tail_loss);
  const cl::Buffer& ref_children = up("similarity.reference_children", r.children);
  const cl::Buffer& head = up("similarity.bounds", bounds);
  const cl::Buffer& first = up("similarity.first_child", s.first_child);
  const cl::Buffer& next = up("similarity.next_sibling", s.next_sibling);
  const cl::Buffer& label = up("similarity.label", trees.label);
  const cl::Buffer& arc = up("similarity.arc", trees.arc);
  const cl::Buffer& weight = up("similarity.weight", trees.weight);
  detail::write_buffers(rt, uploads, profile);
  const auto match = DeviceArray<std::int32_t>::workspace(rt, "similarity.match", n);
  const auto sim = DeviceArray<float>::workspace(rt, "similarity.per_node", n);
  const auto simp = DeviceArray<float>::workspace(rt, "similarity.simplicity", n);
  const auto result = DeviceArray<float>::workspace(rt, "similarity.result", count);
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
