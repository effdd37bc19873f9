// The Barnes-Hut octree built on the device (treefix/spatial/device_build.hpp): Morton order in
// one cube, radix tree, collapse into octree cells (kernels/spatial/octree_build.cl), masses and
// centres of mass level by level; and the transfers of octrees.
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

namespace {
// The frame's scale for positions whose largest magnitude is `largest` (kernels/spatial/morton.cl
// computes the same on the device).
float position_scale(double largest) {
  int e = 0;
  std::frexp(largest, &e);
  return e > 40 ? std::ldexp(1.0f, 40 - e) : 1.0f;
}

}  // namespace

DeviceOctree DeviceOctree::upload(Runtime& runtime, const Octree& t, Profile* p) {
  double largest = 0;
  for (float x : t.points.coord) largest = std::max(largest, std::abs(double(x)));
  const float s = position_scale(largest);
  std::vector<float> cm = t.centre_mass, side = t.side, frame(8, 0.0f);
  for (std::size_t v = 0; v < t.nodes(); ++v) {
    for (int k = 0; k < 3; ++k) cm[4 * v + k] = float(double(cm[4 * v + k]) * s);
    side[v] = float(double(side[v]) * s);
  }
  frame[0] = s;
  DeviceOctree d;
  d.shape = t.shape();
  d.bodies = t.points.n;
  d.child = DeviceArray<std::int32_t>::upload(runtime, t.child, p, "octree children");
  d.first = DeviceArray<std::int32_t>::upload(runtime, t.first, p, "octree leaves");
  d.count = DeviceArray<std::int32_t>::upload(runtime, t.count, p, "octree leaves");
  d.body_index = DeviceArray<std::int32_t>::upload(runtime, t.point_index, p, "body order");
  d.node_count = DeviceArray<std::int32_t>::upload(runtime, {static_cast<std::int32_t>(t.nodes())},
                                                   p, "octree size");
  d.centre_mass = DeviceArray<float>::upload(runtime, cm, p, "octree centres of mass");
  d.side = DeviceArray<float>::upload(runtime, side, p, "octree cell sides");
  d.position = DeviceArray<float>::upload(runtime, t.points.coord, p, "body positions");
  d.mass = DeviceArray<float>::upload(runtime, t.mass, p, "body masses");
  d.frame = DeviceArray<float>::upload(runtime, frame, p, "octree frame");
  return d;
}

Octree DeviceOctree::download(Runtime& runtime, Profile* p) const {
  Octree t;
  t.arity = 8;
  const std::size_t nodes = static_cast<std::size_t>(detail::head(runtime, node_count, 1, p)[0]);
  const float s = detail::head(runtime, frame, 1, p)[0];
  t.child = detail::head(runtime, child, 8 * nodes, p);
  t.first = detail::head(runtime, first, nodes, p);
  t.count = detail::head(runtime, count, nodes, p);
  t.centre_mass = detail::head(runtime, centre_mass, 4 * nodes, p);
  t.side = detail::head(runtime, side, nodes, p);
  for (std::size_t v = 0; v < nodes; ++v) {
    for (int k = 0; k < 3; ++k) t.centre_mass[4 * v + k] = float(t.centre_mass[4 * v + k] / s);
    t.side[v] = float(double(t.side[v]) / s);
  }
  t.points = PointSet(bodies, 3);
  t.points.coord = detail::head(runtime, position, 3 * bodies, p);
  t.mass = detail::head(runtime, mass, bodies, p);
  t.point_index = detail::head(runtime, body_index, bodies, p);
  // height: breadth-first from the root, level by level
  std::vector<std::int32_t> level =
      nodes ? std::vector<std::int32_t>{0} : std::vector<std::int32_t>{};
  t.height = -1;
  while (!level.empty()) {
    ++t.height;
    std::vector<std::int32_t> next;
    for (std::int32_t v : level)
      for (int c = 0; c < 8; ++c)
        if (t.child[8 * v + c] >= 0) next.push_back(t.child[8 * v + c]);
    level.swap(next);
  }
  t.height = std::max(t.height, 0);
  return t;
}

void build_octree(Runtime& runtime, const DevicePoints& bodies, const DeviceArray<float>& masses,
                  const BuildOptions& options, DeviceOctree& t) {
  if (bodies.dim != 3) throw InputError("octree: bodies must have 3 coordinates");
  if (masses.size() < bodies.n) throw InputError("octree: one mass per body expected");
  if (options.leaf_size < 1) throw InputError("octree: leaf size must be at least 1");
  if (bodies.n >= (std::size_t(1) << 30))
    throw CapacityError("octree: " + std::to_string(bodies.n) +
                        " bodies; a device build takes fewer than 2^30");
  const std::size_t n = bodies.n;
  Profile* profile = options.profile;
  t.bodies = n;
  t.shape = {8, device_octree_height, n ? 2 * n - 1 : 0};
  const std::size_t capacity = std::max<std::size_t>(1, t.shape.nodes);
  translate_device_errors("octree build", [&] {
    const Phase build_phase{profile, "build"};
    using detail::fit;
    fit(runtime, t.child, 8 * capacity, "octree children");
    fit(runtime, t.first, capacity, "octree leaves");
    fit(runtime, t.count, capacity, "octree leaves");
    fit(runtime, t.node_count, 1, "octree size");
    fit(runtime, t.centre_mass, 4 * capacity, "octree centres of mass");
    fit(runtime, t.side, capacity, "octree cell sides");
    fit(runtime, t.position, 3 * n, "body positions");
    fit(runtime, t.mass, n, "body masses");
    fit(runtime, t.body_index, n, "body order");
    if (n == 0) {
      fill(runtime, t.node_count.buffer(), cl_int(0), 1, build_phase);
      fit(runtime, t.frame, 8, "octree frame");
      fill(runtime, t.frame.buffer(), 1.0f, 8, build_phase);
      return;
    }
    const cl::Buffer code = detail::sort_along_morton_curve(runtime, bodies.coord.buffer(), n, 3,
                                                            true, t.frame, t.body_index, profile);
    detail::Permuter floats(runtime, "float", build_phase);
    floats.gather_columns(n, 3, t.body_index.buffer(), bodies.coord.buffer(), t.position.buffer());
    floats.gather_rows(n, 1, t.body_index.buffer(), masses.buffer(), t.mass.buffer());
    auto radix = detail::build_radix_tree(runtime, code, n, 63, profile);
    const std::string leaf = "-DCODE_BITS=63 -DLEAF=" + std::to_string(options.leaf_size);
    Kernels build(runtime, "spatial/octree_build.cl", leaf, build_phase);
    const std::size_t binary_nodes = 2 * n - 1, bytes = binary_nodes * sizeof(cl_int);
    const cl::Buffer flag = runtime.scratch("octree.flag", bytes);
    const cl::Buffer offsets = runtime.scratch("octree.offsets", bytes);
    const cl::Buffer octree_parent = runtime.scratch("octree.parent", bytes);
    const cl::Buffer level = runtime.scratch("octree.level", capacity * sizeof(cl_int));
    build.run("oct_flags", build.grid_stride(binary_nodes), cl_int(n), radix.parent, radix.prefix,
              radix.range_first, radix.range_last, flag, octree_parent);
    scan(runtime, ValueType::int32, Op::sum, ScanKind::exclusive, flag, offsets, binary_nodes,
         profile, "build", &t.node_count.buffer());
    fill(runtime, t.child.buffer(), cl_int(-1), 8 * capacity, build_phase);
    build.run("oct_write", build.grid_stride(binary_nodes), cl_int(n), radix.prefix,
              radix.range_first, radix.range_last, code, flag, offsets, octree_parent, t.frame,
              t.child, t.first, t.count, level, t.side);
    Kernels summary = build.in("summary");
    for (int l = device_octree_height; l >= 0; --l)
      summary.run("oct_summary", summary.grid_stride(capacity), cl_int(l), t.node_count, level,
                  t.child, t.first, t.count, cl_int(n), t.position, t.mass, t.frame, t.centre_mass);
  });
}

DeviceOctree build_octree(Runtime& runtime, const DevicePoints& bodies,
                          const DeviceArray<float>& masses, const BuildOptions& options) {
  DeviceOctree tree;
  build_octree(runtime, bodies, masses, options, tree);
  return tree;
}

}  // namespace treefix
