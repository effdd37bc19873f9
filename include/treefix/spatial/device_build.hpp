#pragma once
// Spatial trees built on the device from points already there: no host pass over the points and
// no copy of them to the host. The steps (lib/spatial/README.md lists their files):
//   frame    bounding box by a two-stage reduction, and the scale s that keeps every |x * s|
//            below 2^40 (kernels/spatial/morton.cl)
//   codes    Morton codes of the quantised coordinates: 63 bits for 3 coordinates (21 each),
//            min(21, 63 / dim) bits a coordinate otherwise
//   sort     the codes with the point indices: our radix sort (two 32-bit passes over the key
//            halves) or Boost.Compute's sort_by_key (tuning knob boost_key_sort)
//   build    the binary radix tree of the sorted codes (Karras 2012; ties told apart by position),
//            then collapsed: into a kd-style tree with leaf buckets, or into an octree
//   summary  bottom-up, level by level: kd boxes, octree masses and centres of mass
// The results use the layouts of the rope-stack traversals (treefix/spatial/trees.hpp, arrays as
// there), so knn, correlation_counts and accelerations run on them unchanged. Node numbers: root
// 0, otherwise in build order (not pre-order). Kernels are recorded under the phases "frame",
// "codes", "sort", "build" and "summary" of options.profile.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/spatial/trees.hpp"

namespace treefix {

// n points of `dim` coordinates on the device, structure of arrays (coord[k*n + i]), as PointSet.
// Real: float (DevicePoints, the trees and queries of neighbours.hpp and the n-body) or double
// (DevicePoints64, the exact searches of kd_search.hpp).
template <class Real>
struct BasicDevicePoints {
  std::size_t n = 0;
  int dim = 0;
  DeviceArray<Real> coord;
  // Refuses non-finite coordinates (InputError).
  static BasicDevicePoints upload(Runtime& runtime, const PointSet& points,
                                  Profile* profile = nullptr);
  PointSet download(Runtime& runtime, Profile* profile = nullptr) const;
  // n points of dim coordinates given as rows (rows[i * dim + k], as a C-ordered NumPy array of
  // shape (n, dim) holds them): copied to the device as they are and turned into columns there.
  // A value that is not finite: InputError "<what> must be finite, check for nan or inf values".
  static BasicDevicePoints upload_rows(Runtime& runtime, const Real* rows, std::size_t n, int dim,
                                       const std::string& what = "points",
                                       Profile* profile = nullptr);
};
using DevicePoints = BasicDevicePoints<float>;
using DevicePoints64 = BasicDevicePoints<double>;

struct BuildOptions {
  int leaf_size = 8;
  Profile* profile = nullptr;
  // Equal points are never split, as in cKDTree: a set of one repeated point is one leaf, however
  // many times it is repeated (leaves may then hold more than leaf_size points).
  bool equal_points_together = false;
};

// A kd-tree on the device, in the arrays of KdTree (box_lo[k*nodes + node], points in tree
// order). Built on the device, its splits follow the Morton code bits (a cell boundary per
// inner node, the coordinate split_dim; -1 where equal codes are split by position), its boxes
// are the exact bounds of the points below. height is exact. Coordinates, boxes and split values
// are of type Real.
template <class Real>
struct BasicDeviceKdTree {
  TreeShape shape;  // arity 2
  std::size_t points = 0;
  int dim = 0;
  DeviceArray<std::int32_t> child, first, count, split_dim, point_index;
  DeviceArray<Real> box_lo, box_hi, split_value, data;

  static BasicDeviceKdTree upload(Runtime& runtime, const KdTree& tree, Profile* profile = nullptr);
  KdTree download(Runtime& runtime, Profile* profile = nullptr) const;
  // The root's box: the smallest and largest value of each coordinate (lo[k], hi[k]); empty for
  // an empty tree. One small read.
  void root_box(Runtime& runtime, std::vector<Real>& lo, std::vector<Real>& hi) const;
};
using DeviceKdTree = BasicDeviceKdTree<float>;
using DeviceKdTree64 = BasicDeviceKdTree<double>;

// The nodes of a device kd-tree on the host, for views of its structure (Python's tree).
template <class Real>
struct KdTreeNodes {
  std::vector<std::int32_t> child, first, count, split_dim, point_index;
  std::vector<Real> split_value;
};
template <class Real>
KdTreeNodes<Real> download_nodes(Runtime& runtime, const BasicDeviceKdTree<Real>& tree);

// Throws InputError for no dimension or a leaf size < 1, CapacityError past 2^30 points.
// Reads two numbers back (node count and height) to size the boxes and the traversal stacks.
// Programs: one per coordinate type (the dimension and leaf size are arguments).
template <class Real>
BasicDeviceKdTree<Real> build_kd_tree(Runtime& runtime, const BasicDevicePoints<Real>& points,
                                      const BuildOptions& options = {});
// The same into `tree`, reusing its arrays where large enough.
template <class Real>
void build_kd_tree(Runtime& runtime, const BasicDevicePoints<Real>& points,
                   const BuildOptions& options, BasicDeviceKdTree<Real>& tree);

// The Barnes-Hut octree on the device, in the arrays of Octree, except that centres of mass and
// cell sides are in units of the frame's scale s (frame[0]: positions times s; 1 unless some
// |x| >= 2^40) and that the number of nodes stays on the device (node_count[0]; shape.nodes is
// the capacity, 2n - 1). shape.height is the bound 21 (21 cell levels below the root). Building
// it reads nothing back.
struct DeviceOctree {
  TreeShape shape;  // arity 8
  std::size_t bodies = 0;
  DeviceArray<std::int32_t> child, first, count, body_index, node_count;
  DeviceArray<float> centre_mass, side;  // (x, y, z, mass) per node, scaled; side, scaled
  DeviceArray<float> position, mass;     // the bodies in tree order (structure of arrays)
  DeviceArray<float> frame;              // frame[0] = s

  // Uploads a host octree (scaling its centres and sides).
  static DeviceOctree upload(Runtime& runtime, const Octree& tree, Profile* profile = nullptr);
  // The nodes in use, unscaled; height computed on the host.
  Octree download(Runtime& runtime, Profile* profile = nullptr) const;
};
constexpr int device_octree_height = 21;

// bodies: dim 3; masses: n values >= 0 (not checked on the device).
DeviceOctree build_octree(Runtime& runtime, const DevicePoints& bodies,
                          const DeviceArray<float>& masses, const BuildOptions& options = {});
// The same into `tree`, whose arrays are reused where large enough (a time loop alternates two
// trees: no allocation per step). The bodies must not live in `tree`'s own arrays.
void build_octree(Runtime& runtime, const DevicePoints& bodies, const DeviceArray<float>& masses,
                  const BuildOptions& options, DeviceOctree& tree);

}  // namespace treefix
