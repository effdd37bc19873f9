// Host builders of the linear spatial trees (kd-tree, octree, vp-tree) and Morton ordering.
#include "treefix/spatial/spatial.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "treefix/core/error.hpp"

namespace treefix {

PointSet PointSet::permuted(const std::vector<std::int32_t>& order) const {
  PointSet out(order.size(), dim);
  for (int k = 0; k < dim; ++k)
    for (std::size_t i = 0; i < order.size(); ++i) out.at(i, k) = at(order[i], k);
  return out;
}

namespace {

void check_points(const PointSet& points, const char* what) {
  if (points.dim < 1) throw InputError(std::string(what) + ": points need at least one dimension");
  if (points.n > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max() / 2))
    throw CapacityError(std::string(what) + ": " + std::to_string(points.n) +
                        " points exceed the 32-bit indices of the tree layout");
  for (float v : points.coord)
    if (!std::isfinite(v)) throw InputError(std::string(what) + ": a coordinate is not finite");
}

// Appends a node with no children and returns its number.
std::int32_t new_node(LinearTree& tree, std::int32_t first, std::int32_t count) {
  tree.first.push_back(first);
  tree.count.push_back(count);
  tree.child.insert(tree.child.end(), tree.arity, -1);
  return static_cast<std::int32_t>(tree.first.size() - 1);
}

// Moves the tree's points into tree order (point_index already holds the order).
void gather_points(LinearTree& tree, const PointSet& points) {
  tree.points = points.permuted(tree.point_index);
}

// ---- kd-tree --------------------------------------------------------------------------------

struct KdBuilder {
  const PointSet& pts;
  KdTree& tree;
  int leaf_size;
  std::vector<float> lo, hi;  // per node, dim-major per node while building: node*dim + k

  std::int32_t build(std::int32_t begin, std::int32_t end, int depth) {
    tree.height = std::max(tree.height, depth);
    std::int32_t node = new_node(tree, begin, 0);
    tree.split_dim.push_back(-1);
    tree.split_value.push_back(0.0f);
    int d = pts.dim;
    std::vector<float> nlo(d, std::numeric_limits<float>::infinity()),
        nhi(d, -std::numeric_limits<float>::infinity());
    for (std::int32_t i = begin; i < end; ++i)
      for (int k = 0; k < d; ++k) {
        float v = pts.at(tree.point_index[i], k);
        nlo[k] = std::min(nlo[k], v);
        nhi[k] = std::max(nhi[k], v);
      }
    lo.insert(lo.end(), nlo.begin(), nlo.end());
    hi.insert(hi.end(), nhi.begin(), nhi.end());
    if (end - begin <= leaf_size) {
      tree.count[node] = end - begin;
      return node;
    }
    int widest = 0;
    for (int k = 1; k < d; ++k)
      if (nhi[k] - nlo[k] > nhi[widest] - nlo[widest]) widest = k;
    std::int32_t mid = begin + (end - begin) / 2;
    auto less = [&](std::int32_t a, std::int32_t b) {
      float va = pts.at(a, widest), vb = pts.at(b, widest);
      return va < vb || (va == vb && a < b);
    };
    std::nth_element(tree.point_index.begin() + begin, tree.point_index.begin() + mid,
                     tree.point_index.begin() + end, less);
    tree.split_dim[node] = widest;
    tree.split_value[node] = pts.at(tree.point_index[mid], widest);
    std::int32_t left = build(begin, mid, depth + 1);
    std::int32_t right = build(mid, end, depth + 1);
    tree.child[2 * node] = left;
    tree.child[2 * node + 1] = right;
    return node;
  }
};

// ---- octree ---------------------------------------------------------------------------------

struct OctBuilder {
  const PointSet& pts;
  const std::vector<float>& masses;
  Octree& tree;
  int leaf_size, max_depth;

  std::int32_t build(std::int32_t begin, std::int32_t end, double cx, double cy, double cz,
                     double half, int depth) {
    tree.height = std::max(tree.height, depth);
    std::int32_t node = new_node(tree, begin, 0);
    double m = 0, mx = 0, my = 0, mz = 0;
    for (std::int32_t i = begin; i < end; ++i) {
      std::int32_t p = tree.point_index[i];
      double w = masses[p];
      m += w;
      mx += w * pts.at(p, 0);
      my += w * pts.at(p, 1);
      mz += w * pts.at(p, 2);
    }
    if (m > 0) {
      mx /= m; my /= m; mz /= m;
    } else {
      mx = cx; my = cy; mz = cz;
    }
    tree.centre_mass.insert(tree.centre_mass.end(),
                            {float(mx), float(my), float(mz), float(m)});
    tree.side.push_back(float(2 * half));
    if (end - begin <= leaf_size || depth >= max_depth) {
      tree.count[node] = end - begin;
      return node;
    }
    // Partition into the 8 octants (bit 0: x >= cx, bit 1: y, bit 2: z), stable by octant.
    auto octant = [&](std::int32_t p) {
      return (pts.at(p, 0) >= cx ? 1 : 0) | (pts.at(p, 1) >= cy ? 2 : 0) |
             (pts.at(p, 2) >= cz ? 4 : 0);
    };
    std::int32_t bounds[9];
    bounds[0] = begin;
    std::int32_t cursor = begin;
    for (int o = 0; o < 8; ++o) {
      auto it = std::stable_partition(tree.point_index.begin() + cursor,
                                      tree.point_index.begin() + end,
                                      [&](std::int32_t p) { return octant(p) == o; });
      cursor = static_cast<std::int32_t>(it - tree.point_index.begin());
      bounds[o + 1] = cursor;
    }
    double q = half / 2;
    for (int o = 0; o < 8; ++o) {
      if (bounds[o + 1] == bounds[o]) continue;
      std::int32_t c = build(bounds[o], bounds[o + 1], cx + ((o & 1) ? q : -q),
                             cy + ((o & 2) ? q : -q), cz + ((o & 4) ? q : -q), q, depth + 1);
      tree.child[8 * node + o] = c;
    }
    return node;
  }
};

// ---- vp-tree --------------------------------------------------------------------------------

struct VpBuilder {
  const PointSet& pts;
  VpTree& tree;
  int leaf_size;
  std::vector<float> dist;  // scratch: distance of point_index[i] to the current vantage point

  float distance(std::int32_t a, std::int32_t b) const {
    return std::sqrt(squared_distance(pts, a, pts, b));
  }

  // Points [begin, end) of point_index; parent vantage point pv (original index) or -1.
  std::int32_t build(std::int32_t begin, std::int32_t end, std::int32_t pv, int depth) {
    tree.height = std::max(tree.height, depth);
    std::int32_t node = new_node(tree, begin, 0);
    float plo = 0, phi = 0;
    if (pv >= 0) {
      plo = std::numeric_limits<float>::infinity();
      for (std::int32_t i = begin; i < end; ++i) {
        float d = distance(pv, tree.point_index[i]);
        plo = std::min(plo, d);
        phi = std::max(phi, d);
      }
    }
    tree.parent_vantage.push_back(pv);  // original index for now, tree position fixed later
    tree.parent_lo.push_back(plo);
    tree.parent_hi.push_back(phi);
    tree.mu.push_back(0.0f);
    if (end - begin <= leaf_size) {
      tree.count[node] = end - begin;
      return node;
    }
    // The vantage point: the point farthest from the range's first point (a cheap spread choice).
    std::int32_t far = begin;
    float far_d = -1;
    for (std::int32_t i = begin; i < end; ++i) {
      float d = distance(tree.point_index[begin], tree.point_index[i]);
      if (d > far_d) far_d = d, far = i;
    }
    std::swap(tree.point_index[begin], tree.point_index[far]);
    std::int32_t v = tree.point_index[begin];
    tree.count[node] = 1;
    std::int32_t lo = begin + 1, mid = lo + (end - lo) / 2;
    auto key = [&](std::int32_t p) { return distance(v, p); };
    std::nth_element(tree.point_index.begin() + lo, tree.point_index.begin() + mid,
                     tree.point_index.begin() + end, [&](std::int32_t a, std::int32_t b) {
                       float da = key(a), db = key(b);
                       return da < db || (da == db && a < b);
                     });
    tree.mu[node] = key(tree.point_index[mid]);
    std::int32_t inside = build(lo, mid, v, depth + 1);
    std::int32_t outside = build(mid, end, v, depth + 1);
    tree.child[2 * node] = inside;
    tree.child[2 * node + 1] = outside;
    return node;
  }
};

}  // namespace

KdTree build_kd_tree(const PointSet& points, int leaf_size) {
  check_points(points, "kd-tree");
  if (leaf_size < 1) throw InputError("kd-tree: leaf size must be at least 1");
  KdTree tree;
  tree.arity = 2;
  tree.point_index.resize(points.n);
  std::iota(tree.point_index.begin(), tree.point_index.end(), 0);
  KdBuilder b{points, tree, leaf_size, {}, {}};
  b.build(0, static_cast<std::int32_t>(points.n), 0);
  std::size_t nodes = tree.nodes();
  int d = points.dim;
  tree.box_lo.resize(nodes * d);
  tree.box_hi.resize(nodes * d);
  for (std::size_t v = 0; v < nodes; ++v)
    for (int k = 0; k < d; ++k) {
      tree.box_lo[k * nodes + v] = b.lo[v * d + k];
      tree.box_hi[k * nodes + v] = b.hi[v * d + k];
    }
  gather_points(tree, points);
  return tree;
}

Octree build_octree(const PointSet& bodies, const std::vector<float>& masses, int leaf_size,
                    int max_depth) {
  check_points(bodies, "octree");
  if (bodies.dim != 3) throw InputError("octree: bodies must have 3 coordinates");
  if (masses.size() != bodies.n) throw InputError("octree: one mass per body expected");
  if (leaf_size < 1 || max_depth < 0) throw InputError("octree: bad leaf size or depth limit");
  for (float m : masses)
    if (!std::isfinite(m) || m < 0) throw InputError("octree: masses must be finite and >= 0");
  Octree tree;
  tree.arity = 8;
  tree.point_index.resize(bodies.n);
  std::iota(tree.point_index.begin(), tree.point_index.end(), 0);
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
  b.build(0, static_cast<std::int32_t>(bodies.n), (lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2,
          (lo[2] + hi[2]) / 2, half, 0);
  gather_points(tree, bodies);
  tree.mass.resize(bodies.n);
  for (std::size_t i = 0; i < bodies.n; ++i) tree.mass[i] = masses[tree.point_index[i]];
  return tree;
}

VpTree build_vp_tree(const PointSet& points, int leaf_size) {
  check_points(points, "vp-tree");
  if (leaf_size < 1) throw InputError("vp-tree: leaf size must be at least 1");
  VpTree tree;
  tree.arity = 2;
  tree.point_index.resize(points.n);
  std::iota(tree.point_index.begin(), tree.point_index.end(), 0);
  VpBuilder b{points, tree, leaf_size, {}};
  b.build(0, static_cast<std::int32_t>(points.n), -1, 0);
  // Parent vantage points as tree positions (the inverse permutation).
  std::vector<std::int32_t> position(points.n);
  for (std::size_t i = 0; i < points.n; ++i) position[tree.point_index[i]] = std::int32_t(i);
  for (auto& pv : tree.parent_vantage)
    if (pv >= 0) pv = position[pv];
  gather_points(tree, points);
  return tree;
}

std::vector<std::int32_t> morton_order(const PointSet& points) {
  int dims = std::min(points.dim, 3);
  int bits = dims == 1 ? 30 : dims == 2 ? 16 : 10;
  std::vector<double> lo(dims, 0), scale(dims, 0);
  for (int k = 0; k < dims; ++k) {
    if (!points.n) break;
    double a = points.at(0, k), b = a;
    for (std::size_t i = 0; i < points.n; ++i) {
      a = std::min<double>(a, points.at(i, k));
      b = std::max<double>(b, points.at(i, k));
    }
    lo[k] = a;
    scale[k] = b > a ? ((1u << bits) - 1) / (b - a) : 0;
  }
  std::vector<std::uint64_t> code(points.n, 0);
  for (std::size_t i = 0; i < points.n; ++i) {
    std::uint64_t c = 0;
    std::uint32_t q[3] = {0, 0, 0};
    for (int k = 0; k < dims; ++k) q[k] = std::uint32_t((points.at(i, k) - lo[k]) * scale[k]);
    for (int b = bits - 1; b >= 0; --b)
      for (int k = 0; k < dims; ++k) c = (c << 1) | ((q[k] >> b) & 1u);
    code[i] = c;
  }
  std::vector<std::int32_t> order(points.n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::int32_t a, std::int32_t b) { return code[a] < code[b]; });
  return order;
}

}  // namespace treefix
