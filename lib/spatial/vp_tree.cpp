// The vantage-point tree, built on the host.
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

VpTree build_vp_tree(const PointSet& points, int leaf_size) {
  VpTree tree;
  detail::start_tree(tree, points, 2, leaf_size, "vp-tree");
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

}  // namespace treefix
