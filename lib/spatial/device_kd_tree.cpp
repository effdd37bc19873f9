// The kd-style tree built on the device (treefix/spatial/device_build.hpp): Morton order, radix
// tree, collapse into leaf buckets (kernels/spatial/kd_build.cl), boxes level by level; and the
// transfers of point sets and kd-trees.
#include <algorithm>
#include <cmath>
#include <string>

#include "treefix/primitives/detail/permute_rows.hpp"
#include "spatial/morton.hpp"
#include "spatial/radix_tree.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/primitives/scan.hpp"
#include "treefix/spatial/device_build.hpp"

namespace treefix {

DevicePoints DevicePoints::upload(Runtime& runtime, const PointSet& points, Profile* profile) {
  for (float v : points.coord)
    if (!std::isfinite(v)) throw InputError("points: a coordinate is not finite");
  DevicePoints d;
  d.n = points.n;
  d.dim = points.dim;
  d.coord = DeviceArray<float>::upload(runtime, points.coord, profile, "points");
  return d;
}

PointSet DevicePoints::download(Runtime& runtime, Profile* profile) const {
  PointSet p(n, dim);
  p.coord = coord.download(runtime, profile);
  p.coord.resize(n * static_cast<std::size_t>(dim));
  return p;
}

namespace {

void check_build(std::size_t n, int dim, const BuildOptions& options, const char* what) {
  if (dim < 1) throw InputError(std::string(what) + ": points need at least one dimension");
  if (options.leaf_size < 1) throw InputError(std::string(what) + ": leaf size must be at least 1");
  if (n >= (std::size_t(1) << 30))
    throw CapacityError(std::string(what) + ": " + std::to_string(n) +
                        " points; a device build takes fewer than 2^30");
}
}  // namespace

DeviceKdTree DeviceKdTree::upload(Runtime& runtime, const KdTree& t, Profile* p) {
  DeviceKdTree d;
  d.shape = t.shape();
  d.points = t.points.n;
  d.dim = t.points.dim;
  d.child = DeviceArray<std::int32_t>::upload(runtime, t.child, p, "kd-tree children");
  d.first = DeviceArray<std::int32_t>::upload(runtime, t.first, p, "kd-tree leaves");
  d.count = DeviceArray<std::int32_t>::upload(runtime, t.count, p, "kd-tree leaves");
  d.split_dim = DeviceArray<std::int32_t>::upload(runtime, t.split_dim, p, "kd-tree splits");
  d.point_index = DeviceArray<std::int32_t>::upload(runtime, t.point_index, p, "kd-tree indices");
  d.box_lo = DeviceArray<float>::upload(runtime, t.box_lo, p, "kd-tree boxes");
  d.box_hi = DeviceArray<float>::upload(runtime, t.box_hi, p, "kd-tree boxes");
  d.split_value = DeviceArray<float>::upload(runtime, t.split_value, p, "kd-tree splits");
  d.data = DeviceArray<float>::upload(runtime, t.points.coord, p, "kd-tree points");
  return d;
}

KdTree DeviceKdTree::download(Runtime& runtime, Profile* p) const {
  KdTree t;
  const std::size_t nodes = shape.nodes;
  t.arity = 2;
  t.height = shape.height;
  t.child = detail::head(runtime, child, 2 * nodes, p);
  t.first = detail::head(runtime, first, nodes, p);
  t.count = detail::head(runtime, count, nodes, p);
  t.split_dim = detail::head(runtime, split_dim, nodes, p);
  t.split_value = detail::head(runtime, split_value, nodes, p);
  t.box_lo = detail::head(runtime, box_lo, nodes * dim, p);
  t.box_hi = detail::head(runtime, box_hi, nodes * dim, p);
  t.point_index = detail::head(runtime, point_index, points, p);
  t.points = PointSet(points, dim);
  t.points.coord = detail::head(runtime, data, points * dim, p);
  return t;
}

void build_kd_tree(Runtime& runtime, const DevicePoints& points, const BuildOptions& options,
                   DeviceKdTree& t) {
  check_build(points.n, points.dim, options, "kd-tree");
  const std::size_t n = points.n;
  const int dim = points.dim, leaf = options.leaf_size;
  Profile* profile = options.profile;
  t.points = n;
  t.dim = dim;
  t.shape = {2, 0, 1};
  translate_device_errors("kd-tree build", [&] {
    using detail::fit;
    const std::string build_options =
        detail::morton_options(dim, false) + " -DLEAF=" + std::to_string(leaf);
    Kernels build(runtime, "spatial/kd_build.cl", build_options, {profile, "build"});
    const std::size_t capacity = n > static_cast<std::size_t>(leaf) ? 2 * n - 1 : 1;
    fit(runtime, t.data, n * dim, "kd-tree points");
    fit(runtime, t.point_index, n, "kd-tree indices");
    fit(runtime, t.child, 2 * capacity, "kd-tree children");
    fit(runtime, t.first, capacity, "kd-tree leaves");
    fit(runtime, t.count, capacity, "kd-tree leaves");
    fit(runtime, t.split_dim, capacity, "kd-tree splits");
    fit(runtime, t.split_value, capacity, "kd-tree splits");
    const cl::Buffer depth = runtime.scratch("kd.depth", capacity * sizeof(cl_int));
    DeviceArray<float> frame;
    if (n > 0) {
      const cl::Buffer code = detail::sort_along_morton_curve(
          runtime, points.coord.buffer(), n, dim, false, frame, t.point_index, profile);
      detail::Permuter(runtime, "float", {profile, "build"})
          .gather_columns(n, dim, t.point_index.buffer(), points.coord.buffer(), t.data.buffer());
      if (n > static_cast<std::size_t>(leaf)) {
        auto radix =
            detail::build_radix_tree(runtime, code, n, detail::morton_bits(dim) * dim, profile);
        const cl::Buffer offsets = runtime.scratch("kd.offsets", (n - 1) * sizeof(cl_int));
        const cl::Buffer shape = runtime.scratch("kd.shape", 2 * sizeof(cl_uint));
        fill(runtime, shape, cl_uint(0), 2, {profile, "build"});
        build.run("kd_count", build.grid_stride(n - 1), cl_int(n), radix.left, radix.right,
                  radix.range_first, radix.range_last, offsets);
        scan(runtime, ValueType::int32, Op::sum, ScanKind::exclusive, offsets, offsets, n - 1,
             profile, "build", &shape);
        build.run("kd_write", build.grid_stride(n - 1), cl_int(n), radix.left, radix.right,
                  radix.parent, radix.prefix, radix.range_first, radix.range_last, offsets, t.data,
                  frame, t.child, t.first, t.count, depth, t.split_dim, t.split_value, shape);
        cl_uint counts[2];
        detail::read_buffer(runtime, shape, counts, sizeof counts, profile);
        t.shape.nodes = counts[0];
        t.shape.height = static_cast<int>(counts[1]);
      }
    }
    if (n <= static_cast<std::size_t>(leaf))
      build.run("kd_single_bucket", build.groups(1), cl_int(n), t.child, t.first, t.count, depth,
                t.split_dim, t.split_value);
    const std::size_t nodes = t.shape.nodes;
    fit(runtime, t.box_lo, nodes * dim, "kd-tree boxes");
    fit(runtime, t.box_hi, nodes * dim, "kd-tree boxes");
    Kernels boxes = build.in("summary");
    for (int level = t.shape.height; level >= 0; --level)
      boxes.run("kd_boxes", boxes.grid_stride(nodes), cl_int(level), cl_int(nodes), depth, t.child,
                t.first, t.count, cl_int(n), t.data, t.box_lo, t.box_hi);
  });
}

DeviceKdTree build_kd_tree(Runtime& runtime, const DevicePoints& points,
                           const BuildOptions& options) {
  DeviceKdTree tree;
  build_kd_tree(runtime, points, options, tree);
  return tree;
}

}  // namespace treefix
