#pragma once
// Spatial trees for point-by-tree traversals (treefix/spatial/ropes.hpp), built on the host into a
// linear layout that the device reads as structure-of-arrays: what a truncation test reads lies in
// one array per field (boxes, centres of mass, distance bounds), child links in another, the points
// themselves in tree order so that a leaf is a contiguous range.
//
//   kd-tree       binary, median split on the widest dimension, bounding boxes per node
//   octree        8-ary, cubic cells, centre of mass and cell side per node (Barnes-Hut)
//   vp-tree       binary, vantage point per inner node, [lo, hi] distance from the parent's
//                 vantage point per node (so a node's truncation needs nothing from the stack)
//
// Nodes are numbered in depth-first preorder, root 0 (trees built on the device and downloaded:
// root 0, then in build order; device_build.hpp). `height` (edges on the longest root-to-leaf
// path) bounds every traversal stack: a rope stack never holds more than height*(arity-1)+1 nodes.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "treefix/spatial/points.hpp"

namespace treefix {

// What a traversal needs to know of a tree to size its stacks: arity, height (or a bound on it)
// and the number of nodes (or a bound). Host trees (LinearTree::shape) and device-built trees
// (treefix/spatial/device_build.hpp) both have one.
struct TreeShape {
  int arity = 2;
  int height = 0;
  std::size_t nodes = 0;
  // Entries a rope stack needs for this tree: height*(arity-1)+1.
  std::size_t stack_bound() const {
    return static_cast<std::size_t>(height) * static_cast<std::size_t>(arity - 1) + 1;
  }
};

// Common part of the linear trees.
struct LinearTree {
  int arity = 2;
  int height = 0;                         // edges on the longest root-to-leaf path
  std::vector<std::int32_t> child;        // child[node*arity + c]: child node, or -1
  std::vector<std::int32_t> first;        // points first[node] .. first[node]+count[node]-1 (tree
  std::vector<std::int32_t> count;        //   order) are processed when the node is visited
  std::vector<std::int32_t> point_index;  // tree position -> original point index
  PointSet points;                        // the points in tree order

  std::size_t nodes() const { return first.size(); }
  TreeShape shape() const { return {arity, height, nodes()}; }
  std::size_t stack_bound() const { return shape().stack_bound(); }
};

struct KdTree : LinearTree {
  std::vector<float> box_lo, box_hi;    // box_lo[k*nodes + node]: bounding box (truncation)
  std::vector<std::int32_t> split_dim;  // guidance: which side of the split a query lies on
  std::vector<float> split_value;       //   (-1 / 0 for leaves)
};
// Leaves hold at most leaf_size points; median splits make the height ceil(log2(n/leaf_size)).
KdTree build_kd_tree(const PointSet& points, int leaf_size = 8);

struct Octree : LinearTree {
  std::vector<float> centre_mass;  // (x, y, z, mass) of node: centre_mass[4*node + 0..3]
  std::vector<float> side;         // side length of the node's cubic cell
  std::vector<float> mass;         // body masses in tree order
};
// Bodies are points with dim == 3. Cells split until they hold at most leaf_size bodies or reach
// max_depth (coincident bodies), so the height is at most max_depth.
Octree build_octree(const PointSet& bodies, const std::vector<float>& masses, int leaf_size = 8,
                    int max_depth = 32);

struct VpTree : LinearTree {
  // An inner node's vantage point is its own point (count 1 at first[node]); its children hold
  // the points at distance <= mu (child 0, "inside") and >= mu (child 1, "outside").
  std::vector<float> mu;  // guidance: inside first when d(q, vantage) < mu
  std::vector<std::int32_t>
      parent_vantage;  // tree position of the parent's vantage point, -1 at root
  std::vector<float> parent_lo, parent_hi;  // min/max distance of the subtree's points to it
};
// Built on all host cores (parallel = false: on one thread, the same tree); see docs/design/spatial.md.
VpTree build_vp_tree(const PointSet& points, int leaf_size = 8, bool parallel = true);

}  // namespace treefix
