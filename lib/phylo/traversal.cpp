// Traversal orders from the Euler tour (treefix/phylo/traversal.hpp; kernels/phylo/traversal.cl).
#include "treefix/phylo/traversal.hpp"

#include <string>

#include "compaction.hpp"
#include "narrow_tour.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/primitives/radix_sort.hpp"

namespace treefix {

namespace {
const DeviceEulerTour& narrow_tour(DeviceTree& tree, Profile* profile) {
  return detail::narrow_tour(tree, "traversal orders of", profile);
}
}  // namespace

DeviceArray<vertex_t> postorder(Runtime& runtime, DeviceTree& tree, Profile* profile) {
  const std::size_t n = tree.size();
  DeviceArray<vertex_t> order(runtime, n, "post-order");
  if (n == 0) return order;
  const DeviceEulerTour& tour = narrow_tour(tree, profile);
  Kernels kernels(runtime, "phylo/traversal.cl", "", {profile, "postorder"});
  kernels.run("traversal_postorder", kernels.items(n), tour.open_pos(), tour.close_pos(),
              tour.pre_rank(), cl_uint(n), order);
  return order;
}

DeviceArray<vertex_t> levelorder(Runtime& runtime, DeviceTree& tree, Profile* profile) {
  const std::size_t n = tree.size();
  DeviceArray<vertex_t> order(runtime, n, "level order");
  if (n == 0) return order;
  const DeviceEulerTour& tour = narrow_tour(tree, profile);
  const std::size_t deepest = tree.max_depth(profile);
  cl::Buffer key = runtime.allocate(n * sizeof(cl_uint), "depth keys");
  Kernels kernels(runtime, "phylo/traversal.cl", "", {profile, "levelorder"});
  kernels.run("traversal_depth_keys", kernels.items(n), tour.pre_order(), tour.open_pos(),
              cl_uint(n), key, order);
  radix_sort_by_key(runtime, key, order.buffer(), n, key_bits_for(deepest), false, profile);
  return order;
}

DeviceArray<vertex_t> tips(Runtime& runtime, DeviceTree& tree, Profile* profile) {
  const std::size_t n = tree.size();
  if (n == 0) return DeviceArray<vertex_t>(runtime, 0, "tips");
  cl::Buffer flag = runtime.allocate(n * sizeof(cl_int), "tip flags");
  cl::Buffer position = runtime.allocate((n + 1) * sizeof(cl_int), "tip positions");
  Kernels kernels(runtime, "phylo/traversal.cl", "", {profile, "tips"});
  kernels.run("traversal_tip_flags", kernels.items(n), tree.children().child_offset, cl_uint(n),
              flag);
  DeviceArray<vertex_t> all(runtime, n, "tips");
  const std::size_t count =
      detail::compact(runtime, flag, n, all.buffer(), position, nullptr, profile);
  DeviceArray<vertex_t> list(runtime, count, "tips");
  if (count)
    translate_device_errors("tips", [&] {
      runtime.queue().enqueueCopyBuffer(all.buffer(), list.buffer(), 0, 0,
                                        count * sizeof(vertex_t));
    });
  return list;
}

PreorderIntervals preorder_intervals(Runtime& runtime, DeviceTree& tree, Profile* profile) {
  const std::size_t n = tree.size();
  PreorderIntervals intervals{DeviceArray<vertex_t>(runtime, n, "subtree begins"),
                              DeviceArray<vertex_t>(runtime, n, "subtree ends")};
  if (n == 0) return intervals;
  const DeviceEulerTour& tour = narrow_tour(tree, profile);
  Kernels kernels(runtime, "phylo/traversal.cl", "", {profile, "intervals"});
  kernels.run("traversal_intervals", kernels.items(n), tour.open_pos(), tour.close_pos(),
              tour.pre_rank(), cl_uint(n), intervals.begin, intervals.end);
  return intervals;
}

}  // namespace treefix
