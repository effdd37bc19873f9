// The kd-tree, built on the host (median splits along the widest box side).
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

}  // namespace

KdTree build_kd_tree(const PointSet& points, int leaf_size) {
  KdTree tree;
  detail::start_tree(tree, points, 2, leaf_size, "kd-tree");
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

}  // namespace treefix
