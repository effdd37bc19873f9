// Barnes-Hut gravity on the device: the force traversal (kernels/spatial/ropes_nbody.clh) on a
// device octree, and the host conveniences over it.
#include "treefix/spatial/nbody.hpp"

#include <algorithm>
#include <cmath>

#include "treefix/primitives/detail/permute_rows.hpp"
#include "spatial/nbody_detail.hpp"
#include "treefix/core/error.hpp"

namespace treefix {
namespace detail {

void check_gravity(const GravityOptions& o) {
  if (!(o.theta >= 0) || !std::isfinite(o.theta))
    throw InputError("nbody: theta must be a finite number >= 0");
  if (!(o.eps >= 0) || !std::isfinite(o.eps))
    throw InputError("nbody: eps must be a finite number >= 0");
}

TraversalPieces gravity_pieces() {
  TraversalPieces pieces{"ropes-nbody", Runtime::expanded_source("spatial/ropes_nbody.clh"), "",
                         false};
  pieces.coherent = true;
  return pieces;
}

void gravity_traversal(Runtime& runtime, const DeviceOctree& tree, const cl::Buffer& query_body,
                       DeviceArray<float>& acc, Variant variant, const GravityOptions& options,
                       const cl::Buffer* overflow) {
  const std::size_t n = tree.bodies;
  const float theta2 = float(options.theta * options.theta);
  const float eps2 = float(options.eps * options.eps);
  run_traversal(
      runtime, gravity_pieces(), variant, tree.shape, n,
      [&](KernelArgs& args) {
        args(tree.child, tree.first, tree.count, tree.centre_mass, tree.side, cl_uint(n),
             tree.position, tree.mass, query_body, tree.frame, theta2, eps2, acc);
      },
      options.profile, options.stats, overflow);
}

void run_order_of_bodies(Runtime& runtime, const DeviceOctree& tree, bool sorted,
                         DeviceArray<std::int32_t>& query_body, Profile* profile) {
  const std::size_t n = tree.bodies;
  Permuter ints(runtime, "int", {profile, "traverse"});
  if (sorted) {
    ints.iota(n, query_body.buffer());
    return;
  }
  // body i of the input order sits at tree position p where body_index[p] = i
  DeviceArray<std::int32_t> positions(runtime, n, "tree positions");
  ints.iota(n, positions.buffer());
  ints.scatter_rows(n, 1, tree.body_index.buffer(), positions.buffer(), query_body.buffer());
}

}  // namespace detail

void accelerations(Runtime& runtime, const DeviceOctree& tree, DeviceArray<float>& acc,
                   const GravityOptions& options) {
  detail::check_gravity(options);
  const std::size_t n = tree.bodies;
  const bool sorted = choose_sort(options.sort, n);
  // Bodies left in the caller's order: a sample says whether that order is spatial (ropes.hpp).
  const Variant variant =
      choose_variant(runtime, options.variant, detail::gravity_pieces(), sorted, [&] {
        DeviceArray<std::int32_t> rows(runtime, std::max<std::size_t>(n, 1), "body order");
        if (n) detail::run_order_of_bodies(runtime, tree, false, rows, nullptr);
        return neighbour_spread(runtime, tree.position.buffer(), n, 3, n, lockstep_width(runtime),
                                &rows.buffer());
      });
  if (options.chosen) *options.chosen = variant;
  if (acc.size() < 3 * n) throw InputError("nbody: the acceleration array is too small");
  if (n == 0) {
    if (options.stats) *options.stats = {};
    return;
  }
  translate_device_errors("nbody", [&] {
    DeviceArray<std::int32_t> query_body(runtime, n, "body order");
    detail::run_order_of_bodies(runtime, tree, sorted, query_body, options.profile);
    if (!sorted) {
      detail::gravity_traversal(runtime, tree, query_body.buffer(), acc, variant, options);
      return;
    }
    DeviceArray<float> in_tree_order(runtime, 3 * n, "accelerations");
    detail::gravity_traversal(runtime, tree, query_body.buffer(), in_tree_order, variant, options);
    detail::Permuter(runtime, "float", {options.profile, "traverse"})
        .scatter_rows(n, 3, tree.body_index.buffer(), in_tree_order.buffer(), acc.buffer());
  });
}

std::vector<float> accelerations(Runtime& runtime, const Octree& tree,
                                 const GravityOptions& options) {
  detail::check_gravity(options);
  auto* p = options.profile;
  DeviceOctree device = DeviceOctree::upload(runtime, tree, p);
  // Uploaded, the tree's body_index is its point_index: the results come in the original order.
  DeviceArray<float> acc(runtime, 3 * tree.points.n, "accelerations");
  accelerations(runtime, device, acc, options);
  return acc.download(runtime, p);
}

std::vector<float> accelerations(Runtime& runtime, const Bodies& bodies,
                                 const GravityOptions& options) {
  detail::check_gravity(options);
  auto* p = options.profile;
  DeviceBodies device = DeviceBodies::upload(runtime, bodies, p);
  BuildOptions build{options.leaf_size, p};
  DeviceOctree tree =
      build_octree(runtime, DevicePoints{bodies.size(), 3, device.position}, device.mass, build);
  DeviceArray<float> acc(runtime, 3 * bodies.size(), "accelerations");
  accelerations(runtime, tree, acc, options);
  return acc.download(runtime, p);
}

}  // namespace treefix
