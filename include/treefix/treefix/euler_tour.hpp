#pragma once
// The Euler tour of a rooted forest on the device (Defour & Marin's vector tree representation):
// vertex v is entered at open_pos[v] and left at close_pos[v] of a tour of 2n positions, and the
// positions open_pos[v]..close_pos[v] hold exactly the subtree of v. The host builds the same
// tour with build_euler_tour (treefix/treefix/tree.hpp), the reference.
//
//   device_euler_tour  parent array -> open/close positions on the device, identical to the
//                      host's (roots in increasing id, children in increasing id), validating the
//                      parent array on the way: children grouped by parent with a stable radix
//                      sort (which also gives the child lists in CSR form), tour successors, list
//                      ranking, then one check that the list from the first root covers all 2n
//                      events (a cycle leaves some out). kernels/treefix/tour.cl.
//
// Besides open/close, a device tour holds the tour map (tour_vertex[p] = v at v's open, ~v at its
// close), which the fused treefix kernels read in order, and the pre-order of the forest
// (pre_order[i] = the i-th vertex opened, pre_rank its inverse; kernels/treefix/preorder.cl).
// Layout: with vertex ids shuffled (a random tree), gathering weights through the map touches
// memory at random. The preorder layout numbers the map by pre-order rank instead; a treefix call
// then permutes the weights into pre-order once, runs the scan on contiguous data, and permutes
// the results back (euler.cpp), with two permutations planned here
// (treefix/primitives/permutation.hpp). `automatic` takes it when consecutive pre-order vertices
// are mostly far apart in memory.
#include <cstddef>

#include "treefix/core/device_array.hpp"
#include "treefix/core/names.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/primitives/listrank.hpp"
#include "treefix/primitives/permutation.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix {

enum class TourLayout { automatic, vertex_ids, preorder };
TREEFIX_ENUM_NAMES(TourLayout, "tour layout", {TourLayout::automatic, "auto"},
                   {TourLayout::vertex_ids, "vertex-ids"}, {TourLayout::preorder, "preorder"});

// Children of every vertex on the device in CSR form (int32): the children of v are
// child[child_offset[v] .. child_offset[v + 1]), in increasing id; the roots, in increasing id,
// are the children of a virtual vertex n: child[child_offset[n] .. n). child_offset has n + 2
// entries.
struct DeviceChildLists {
  DeviceArray<std::int32_t> child_offset, child;
  // The -D option of the CSR kernels that read these offsets (primitives/csr.clh).
  static const char* offset_option() { return "-DEDGE_T=int"; }
};

class DeviceEulerTour {
 public:
  DeviceEulerTour() = default;
  // Uploads a host tour (profiled as "upload") and builds the map on the device.
  DeviceEulerTour(Runtime& runtime, const EulerTour& tour, Profile* profile = nullptr,
                  TourLayout layout = TourLayout::automatic);
  // Adopts positions already on the device (int32, or int64 when wide_positions) and builds the
  // map.
  DeviceEulerTour(Runtime& runtime, std::size_t vertices, cl::Buffer open_pos, cl::Buffer close_pos,
                  bool wide_positions, Profile* profile = nullptr,
                  TourLayout layout = TourLayout::automatic);
  // Whether a tour of n vertices needs 64-bit positions (2n > INT32_MAX): decided here only.
  static bool needs_wide_positions(std::size_t vertices);
  std::size_t size() const { return vertices_; }
  bool wide_positions() const { return wide_; }
  const cl::Buffer& open_pos() const { return open_pos_; }
  const cl::Buffer& close_pos() const { return close_pos_; }
  // The tour map: v / ~v (vertex_ids layout) or pre-order ranks i / ~i (preorder layout).
  const cl::Buffer& tour_vertex() const { return tour_vertex_; }
  bool preorder_layout() const { return preorder_; }
  const cl::Buffer& pre_order() const { return pre_order_; }  // rank -> vertex (n ints)
  const cl::Buffer& pre_rank() const { return pre_rank_; }    // vertex -> rank (n ints)
  // The preorder layout's permutations: values by vertex into pre-order, and back.
  const DevicePermutation& to_preorder() const { return to_preorder_; }
  const DevicePermutation& to_vertex_order() const { return to_vertex_order_; }
  // Consecutive pre-order vertices whose ids differ by more than kFarStep: what `automatic`
  // decides by (preorder layout above a quarter of n).
  std::size_t far_steps() const { return far_steps_; }
  static constexpr int kFarStep = 16;
  // The -D option that selects the position type in treefix.cl ("-DPOS_T=int" or long).
  const char* position_option() const { return wide_ ? "-DPOS_T=long" : "-DPOS_T=int"; }

  // The depth of the deepest vertex (0 for roots only; 0 for an empty forest), computed on the
  // device on first call (one short kernel) and kept.
  std::size_t max_depth(Runtime& runtime, Profile* profile = nullptr) const;

 private:
  void build_map(Runtime& runtime, Profile* profile, TourLayout layout);
  std::size_t vertices_ = 0, far_steps_ = 0;
  bool wide_ = false, preorder_ = false;
  mutable bool max_depth_known_ = false;
  mutable std::size_t max_depth_ = 0;
  cl::Buffer open_pos_, close_pos_, tour_vertex_, pre_order_, pre_rank_;
  DevicePermutation to_preorder_, to_vertex_order_;
};

struct TourOptions {
  ListRankOptions list_rank = {};
  TourLayout layout = TourLayout::automatic;
  Profile* profile = nullptr;
  // Receives the child lists (CSR) that the tour is built from, when not null.
  DeviceChildLists* children = nullptr;
  // The parent array is known to be a forest (validated before, or made as one): the range
  // check's read-back and the check that the tour is whole are left out.
  bool known_forest = false;
  // Wall time: "validate" up to the check that the tour is whole, "prepare" for the rest
  // (positions, map, layout).
  PhaseTimes* phases = nullptr;
};

// The Euler tour of the forest whose parent array (n int32 values, -1 for a root) is on the
// device. Validates it on the way: InputError "vertex 17 has parent 99, but there are 20
// vertices" for a parent out of range, "parent array has a cycle through vertex 5 (...)" for a
// cycle, as validate_parent_array says them (for a cycle the parent array is read back and the
// host names the vertex). Positions are int (n <= 2^30; CapacityError beyond).
DeviceEulerTour device_euler_tour(Runtime& runtime, const cl::Buffer& parent, std::size_t n,
                                  const TourOptions& options);
DeviceEulerTour device_euler_tour(Runtime& runtime, const cl::Buffer& parent, std::size_t n,
                                  const ListRankOptions& list_rank = {},
                                  Profile* profile = nullptr);
// The same from the host (the parent array is uploaded).
DeviceEulerTour device_euler_tour(Runtime& runtime, const ParentArray& parent,
                                  const ListRankOptions& list_rank = {},
                                  Profile* profile = nullptr);

}  // namespace treefix
