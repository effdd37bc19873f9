// The kd-style tree built on the device (treefix/spatial/device_build.hpp): Morton order, radix
// tree, collapse into leaf buckets (kernels/spatial/kd_build.cl), boxes level by level; and the
// transfers of point sets and kd-trees, for float and double coordinates.
#include <algorithm>
#include <cmath>
#include <string>

#include "treefix/primitives/detail/permute_rows.hpp"
#include "spatial/morton.hpp"
#include "spatial/radix_tree.hpp"
#include "spatial/real_type.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/primitives/scan.hpp"
#include "treefix/spatial/device_build.hpp"

namespace treefix {

namespace {

template <class To, class From>
std::vector<To> converted(const std::vector<From>& values) {
  if constexpr (std::is_same_v<To, From>) {
    return values;
  } else {
    std::vector<To> out(values.size());
    parallel_for_ranges(values.size(), 1 << 16, 0, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) out[i] = static_cast<To>(values[i]);
    });
    return out;
  }
}

void check_build(std::size_t n, int dim, const BuildOptions& options, const char* what) {
  if (dim < 1) throw InputError(std::string(what) + ": points need at least one dimension");
  if (options.leaf_size < 1) throw InputError(std::string(what) + ": leaf size must be at least 1");
  if (n >= (std::size_t(1) << 30))
    throw CapacityError(std::string(what) + ": " + std::to_string(n) +
                        " points; a device build takes fewer than 2^30");
}

}  // namespace

template <class Real>
BasicDevicePoints<Real> BasicDevicePoints<Real>::upload(Runtime& runtime, const PointSet& points,
                                                        Profile* profile) {
  for (float v : points.coord)
    if (!std::isfinite(v)) throw InputError("points: a coordinate is not finite");
  BasicDevicePoints d;
  d.n = points.n;
  d.dim = points.dim;
  d.coord = DeviceArray<Real>::upload(runtime, converted<Real>(points.coord), profile, "points");
  return d;
}

template <class Real>
PointSet BasicDevicePoints<Real>::download(Runtime& runtime, Profile* profile) const {
  PointSet p(n, dim);
  std::vector<Real> values = coord.download(runtime, profile);
  values.resize(n * static_cast<std::size_t>(dim));
  p.coord = converted<float>(values);
  return p;
}

template <class Real>
BasicDevicePoints<Real> BasicDevicePoints<Real>::upload_rows(Runtime& runtime, const Real* rows,
                                                             std::size_t n, int dim,
                                                             const std::string& what,
                                                             Profile* profile) {
  if (dim < 1 || dim > 16)
    throw InputError(what + ": points of " + std::to_string(dim) +
                     " coordinates; 1 to 16 are supported");
  BasicDevicePoints d;
  d.n = n;
  d.dim = dim;
  const std::size_t values = n * static_cast<std::size_t>(dim);
  d.coord = DeviceArray<Real>(runtime, values, what);
  if (n == 0) return d;
  translate_device_errors(what.c_str(), [&] {
    auto rows_on_device = DeviceArray<Real>::workspace(runtime, "points.rows", values);
    rows_on_device.write_from(runtime, rows, values, 0, profile);
    auto flag = DeviceArray<cl_int>::workspace(runtime, "points.flag", 1);
    fill(runtime, flag.buffer(), cl_int(0), 1, {profile, "upload"});
    Kernels points(runtime, "spatial/kd_points.cl", detail::real_options<Real>(runtime, "points"),
                   {profile, "upload"});
    points.run("rows_to_columns", points.grid_stride(n), cl_uint(n), cl_uint(dim), rows_on_device,
               d.coord, flag);
    if (read_value<cl_int>(runtime, flag.buffer()))
      throw InputError(what + " must be finite, check for nan or inf values");
  });
  return d;
}

template <class Real>
BasicDeviceKdTree<Real> BasicDeviceKdTree<Real>::upload(Runtime& runtime, const KdTree& t,
                                                        Profile* p) {
  BasicDeviceKdTree d;
  d.shape = t.shape();
  d.points = t.points.n;
  d.dim = t.points.dim;
  d.child = DeviceArray<std::int32_t>::upload(runtime, t.child, p, "kd-tree children");
  d.first = DeviceArray<std::int32_t>::upload(runtime, t.first, p, "kd-tree leaves");
  d.count = DeviceArray<std::int32_t>::upload(runtime, t.count, p, "kd-tree leaves");
  d.split_dim = DeviceArray<std::int32_t>::upload(runtime, t.split_dim, p, "kd-tree splits");
  d.point_index = DeviceArray<std::int32_t>::upload(runtime, t.point_index, p, "kd-tree indices");
  d.box_lo = DeviceArray<Real>::upload(runtime, converted<Real>(t.box_lo), p, "kd-tree boxes");
  d.box_hi = DeviceArray<Real>::upload(runtime, converted<Real>(t.box_hi), p, "kd-tree boxes");
  d.split_value =
      DeviceArray<Real>::upload(runtime, converted<Real>(t.split_value), p, "kd-tree splits");
  d.data = DeviceArray<Real>::upload(runtime, converted<Real>(t.points.coord), p, "kd-tree points");
  return d;
}

template <class Real>
KdTree BasicDeviceKdTree<Real>::download(Runtime& runtime, Profile* p) const {
  KdTree t;
  const std::size_t nodes = shape.nodes;
  t.arity = 2;
  t.height = shape.height;
  t.child = detail::head(runtime, child, 2 * nodes, p);
  t.first = detail::head(runtime, first, nodes, p);
  t.count = detail::head(runtime, count, nodes, p);
  t.split_dim = detail::head(runtime, split_dim, nodes, p);
  t.split_value = converted<float>(detail::head(runtime, split_value, nodes, p));
  t.box_lo = converted<float>(detail::head(runtime, box_lo, nodes * dim, p));
  t.box_hi = converted<float>(detail::head(runtime, box_hi, nodes * dim, p));
  t.point_index = detail::head(runtime, point_index, points, p);
  t.points = PointSet(points, dim);
  t.points.coord = converted<float>(detail::head(runtime, data, points * dim, p));
  return t;
}

template <class Real>
void BasicDeviceKdTree<Real>::root_box(Runtime& runtime, std::vector<Real>& lo,
                                       std::vector<Real>& hi) const {
  lo.assign(points ? dim : 0, Real(0));
  hi.assign(points ? dim : 0, Real(0));
  if (points == 0) return;
  // box_lo[k * nodes + 0]: one value a coordinate, strided; read them one by one (dim <= 16).
  for (int k = 0; k < dim; ++k) {
    lo[k] = read_value<Real>(runtime, box_lo.buffer(), k * shape.nodes);
    hi[k] = read_value<Real>(runtime, box_hi.buffer(), k * shape.nodes);
  }
}

template <class Real>
KdTreeNodes<Real> download_nodes(Runtime& runtime, const BasicDeviceKdTree<Real>& tree) {
  KdTreeNodes<Real> n;
  const std::size_t nodes = tree.shape.nodes;
  n.child = detail::head(runtime, tree.child, 2 * nodes, nullptr);
  n.first = detail::head(runtime, tree.first, nodes, nullptr);
  n.count = detail::head(runtime, tree.count, nodes, nullptr);
  n.split_dim = detail::head(runtime, tree.split_dim, nodes, nullptr);
  n.split_value = detail::head(runtime, tree.split_value, nodes, nullptr);
  n.point_index = detail::head(runtime, tree.point_index, tree.points, nullptr);
  return n;
}

template <class Real>
void build_kd_tree(Runtime& runtime, const BasicDevicePoints<Real>& points,
                   const BuildOptions& options, BasicDeviceKdTree<Real>& t) {
  check_build(points.n, points.dim, options, "kd-tree");
  const std::size_t n = points.n;
  const int dim = points.dim, leaf = options.leaf_size;
  Profile* profile = options.profile;
  t.points = n;
  t.dim = dim;
  t.shape = {2, 0, 1};
  translate_device_errors("kd-tree build", [&] {
    using detail::fit;
    Kernels build(runtime, "spatial/kd_build.cl", detail::real_options<Real>(runtime, "kd-tree"),
                  {profile, "build"});
    const std::size_t capacity = n > static_cast<std::size_t>(leaf) ? 2 * n - 1 : 1;
    fit(runtime, t.data, n * dim, "kd-tree points");
    fit(runtime, t.point_index, n, "kd-tree indices");
    fit(runtime, t.child, 2 * capacity, "kd-tree children");
    fit(runtime, t.first, capacity, "kd-tree leaves");
    fit(runtime, t.count, capacity, "kd-tree leaves");
    fit(runtime, t.split_dim, capacity, "kd-tree splits");
    fit(runtime, t.split_value, capacity, "kd-tree splits");
    const cl::Buffer depth = runtime.scratch("kd.depth", capacity * sizeof(cl_int));
    bool one_bucket = n <= static_cast<std::size_t>(leaf);
    DeviceArray<Real> frame;
    if (n > 0) {
      const cl::Buffer code = detail::sort_along_morton_curve(
          runtime, points.coord.buffer(), n, dim, false, frame, t.point_index, profile);
      detail::Permuter(runtime, detail::real_bits_type<Real>(), {profile, "build"})
          .gather_columns(n, dim, t.point_index.buffer(), points.coord.buffer(), t.data.buffer());
      if (!one_bucket) {
        const int bits = detail::morton_bits(dim);
        auto radix = detail::build_radix_tree(runtime, code, n, bits * dim, profile);
        // run[j] <= a: the range [a, j] holds one repeated point (read only when together).
        const int together = options.equal_points_together ? 1 : 0;
        const cl::Buffer run =
            runtime.scratch("kd.run", together ? n * sizeof(cl_int) : sizeof(cl_int));
        if (together) {
          build.run("kd_runs", build.grid_stride(n), cl_int(n), cl_int(dim), t.data, run);
          scan(runtime, ValueType::int32, Op::max, ScanKind::inclusive, run, run, n, profile,
               "build");
        }
        const cl::Buffer offsets = runtime.scratch("kd.offsets", (n - 1) * sizeof(cl_int));
        const auto shape = DeviceArray<cl_uint>::workspace(runtime, "kd.shape", 2);
        fill(runtime, shape.buffer(), cl_uint(0), 2, {profile, "build"});
        build.run("kd_count", build.grid_stride(n - 1), cl_int(n), cl_int(leaf), cl_int(together),
                  radix.left, radix.right, radix.range_first, radix.range_last, run, offsets);
        scan(runtime, ValueType::int32, Op::sum, ScanKind::exclusive, offsets, offsets, n - 1,
             profile, "build", &shape.buffer());
        build.run("kd_write", build.grid_stride(n - 1), cl_int(n), cl_int(leaf), cl_int(together),
                  cl_uint(dim), cl_uint(bits), radix.left, radix.right, radix.parent, radix.prefix,
                  radix.range_first, radix.range_last, run, offsets, t.data, frame, t.child,
                  t.first, t.count, depth, t.split_dim, t.split_value, shape);
        cl_uint counts[2];
        shape.read_into(runtime, counts, 2, 0, profile);
        t.shape.nodes = counts[0];
        t.shape.height = static_cast<int>(counts[1]);
        one_bucket = counts[0] == 0;  // the root holds one repeated point
        if (one_bucket) t.shape = {2, 0, 1};
      }
    }
    if (one_bucket)
      build.run("kd_single_bucket", build.groups(1), cl_int(n), t.child, t.first, t.count, depth,
                t.split_dim, t.split_value);
    const std::size_t nodes = t.shape.nodes;
    fit(runtime, t.box_lo, nodes * dim, "kd-tree boxes");
    fit(runtime, t.box_hi, nodes * dim, "kd-tree boxes");
    Kernels boxes = build.in("summary");
    for (int level = t.shape.height; level >= 0; --level)
      boxes.run("kd_boxes", boxes.grid_stride(nodes), cl_int(level), cl_int(nodes), cl_int(dim),
                depth, t.child, t.first, t.count, cl_int(n), t.data, t.box_lo, t.box_hi);
  });
}

template <class Real>
BasicDeviceKdTree<Real> build_kd_tree(Runtime& runtime, const BasicDevicePoints<Real>& points,
                                      const BuildOptions& options) {
  BasicDeviceKdTree<Real> tree;
  build_kd_tree(runtime, points, options, tree);
  return tree;
}

#define TREEFIX_DEVICE_KD_TREE(Real)                                                         \
  template struct BasicDevicePoints<Real>;                                                   \
  template struct BasicDeviceKdTree<Real>;                                                   \
  template KdTreeNodes<Real> download_nodes(Runtime&, const BasicDeviceKdTree<Real>&);       \
  template void build_kd_tree(Runtime&, const BasicDevicePoints<Real>&, const BuildOptions&, \
                              BasicDeviceKdTree<Real>&);                                     \
  template BasicDeviceKdTree<Real> build_kd_tree(Runtime&, const BasicDevicePoints<Real>&,   \
                                                 const BuildOptions&);
TREEFIX_DEVICE_KD_TREE(float)
TREEFIX_DEVICE_KD_TREE(double)
#undef TREEFIX_DEVICE_KD_TREE

}  // namespace treefix
