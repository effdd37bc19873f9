// The octree of Barnes-Hut, built on the host (cells split until leaf_size bodies).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "spatial/host_build.hpp"
#include "treefix/core/error.hpp"

namespace treefix {
namespace {

using detail::check_points;
using detail::gather_points;
using detail::new_node;

// Cells are built from an explicit stack (depth-first, children in octant order: the pre-order
// numbering of the recursive definition) so that coincident bodies may drive the depth to
// max_depth, a caller's number, without exhausting the call stack.
struct OctBuilder {
  const PointSet& pts;
  const std::vector<float>& masses;
  Octree& tree;
  int leaf_size, max_depth;

  struct Cell {
    std::int32_t begin, end;
    double cx, cy, cz, half;
    int depth;
    std::int32_t parent;
    int octant;
  };

  std::int32_t make_node(const Cell& c) {
    tree.height = std::max(tree.height, c.depth);
    std::int32_t node = new_node(tree, c.begin, 0);
    double m = 0, mx = 0, my = 0, mz = 0;
    for (std::int32_t i = c.begin; i < c.end; ++i) {
      std::int32_t p = tree.point_index[i];
      double w = masses[p];
      m += w;
      mx += w * pts.at(p, 0);
      my += w * pts.at(p, 1);
      mz += w * pts.at(p, 2);
    }
    if (m > 0) {
      mx /= m;
      my /= m;
      mz /= m;
    } else {
      mx = c.cx;
      my = c.cy;
      mz = c.cz;
    }
    tree.centre_mass.insert(tree.centre_mass.end(), {float(mx), float(my), float(mz), float(m)});
    tree.side.push_back(float(2 * c.half));
    if (c.parent >= 0) tree.child[8 * c.parent + c.octant] = node;
    return node;
  }

  void build(const Cell& root) {
    std::vector<Cell> stack{root};
    while (!stack.empty()) {
      const Cell c = stack.back();
      stack.pop_back();
      const std::int32_t node = make_node(c);
      if (c.end - c.begin <= leaf_size || c.depth >= max_depth) {
        tree.count[node] = c.end - c.begin;
        continue;
      }
      // Partition into the 8 octants (bit 0: x >= cx, bit 1: y, bit 2: z), stable by octant.
      auto octant = [&](std::int32_t p) {
        return (pts.at(p, 0) >= c.cx ? 1 : 0) | (pts.at(p, 1) >= c.cy ? 2 : 0) |
               (pts.at(p, 2) >= c.cz ? 4 : 0);
      };
      std::int32_t bounds[9];
      bounds[0] = c.begin;
      std::int32_t cursor = c.begin;
      for (int o = 0; o < 8; ++o) {
        auto it = std::stable_partition(tree.point_index.begin() + cursor,
                                        tree.point_index.begin() + c.end,
                                        [&](std::int32_t p) { return octant(p) == o; });
        cursor = static_cast<std::int32_t>(it - tree.point_index.begin());
        bounds[o + 1] = cursor;
      }
      const double q = c.half / 2;
      for (int o = 7; o >= 0; --o) {  // popped in octant order
        if (bounds[o + 1] == bounds[o]) continue;
        stack.push_back({bounds[o], bounds[o + 1], c.cx + ((o & 1) ? q : -q),
                         c.cy + ((o & 2) ? q : -q), c.cz + ((o & 4) ? q : -q), q, c.depth + 1, node,
                         o});
      }
    }
  }
};

}  // namespace

Octree build_octree(const PointSet& bodies, const std::vector<float>& masses, int leaf_size,
                    int max_depth) {
  if (bodies.dim != 3) throw InputError("octree: bodies must have 3 coordinates");
  if (masses.size() != bodies.n) throw InputError("octree: one mass per body expected");
  if (max_depth < 0) throw InputError("octree: bad depth limit");
  for (float m : masses)
    if (!std::isfinite(m) || m < 0) throw InputError("octree: masses must be finite and >= 0");
  Octree tree;
  detail::start_tree(tree, bodies, 8, leaf_size, "octree");
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k)
    if (bodies.n) {
      lo[k] = hi[k] = bodies.at(0, k);
      for (std::size_t i = 0; i < bodies.n; ++i) {
        lo[k] = std::min<double>(lo[k], bodies.at(i, k));
        hi[k] = std::max<double>(hi[k], bodies.at(i, k));
      }
    }
  double half = 0;
  for (int k = 0; k < 3; ++k) half = std::max(half, (hi[k] - lo[k]) / 2);
  half = half * 1.0001 + 1e-30;  // every body strictly inside the root cell
  OctBuilder b{bodies, masses, tree, leaf_size, max_depth};
  b.build({0, static_cast<std::int32_t>(bodies.n), (lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2,
           (lo[2] + hi[2]) / 2, half, 0, -1, 0});
  gather_points(tree, bodies);
  tree.mass.resize(bodies.n);
  for (std::size_t i = 0; i < bodies.n; ++i) tree.mass[i] = masses[tree.point_index[i]];
  return tree;
}

}  // namespace treefix
