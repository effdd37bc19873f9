#pragma once
// The Euler tour of a rooted forest on the device (Defour & Marin's vector tree representation):
// vertex v is entered at open_pos[v] and left at close_pos[v] of a tour of 2n positions, and the
// positions open_pos[v]..close_pos[v] hold exactly the subtree of v. The host builds the same
// tour with build_euler_tour (treefix/treefix/tree.hpp), the reference.
//
//   device_euler_tour  parent array -> open/close positions on the device, identical to the
//                      host's (roots in increasing id, children in increasing id): sibling lists
//                      by a device sort, tour successors, list ranking (kernels/treefix/tour.cl).
#include <cstddef>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/primitives/listrank.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix {

// The Euler tour of a forest on the device. Positions are 32-bit when the tour (2n) fits in
// int32 and 64-bit otherwise; the kernels are compiled for whichever width the tour uses.
// Besides open/close it holds the tour map (tour_vertex[p] = v at v's open, ~v at its close),
// built on the device, which the fused kernels read.
class DeviceEulerTour {
 public:
  DeviceEulerTour() = default;
  // Uploads a host tour (profiled as "upload") and builds the map on the device.
  DeviceEulerTour(Runtime& runtime, const EulerTour& tour, Profile* profile = nullptr);
  // Adopts positions already on the device (int32, or int64 when wide_positions) and builds the
  // map.
  DeviceEulerTour(Runtime& runtime, std::size_t vertices, cl::Buffer open_pos, cl::Buffer close_pos,
                  bool wide_positions, Profile* profile = nullptr);
  // Whether a tour of n vertices needs 64-bit positions (2n > INT32_MAX): decided here only.
  static bool needs_wide_positions(std::size_t vertices);
  std::size_t size() const { return vertices_; }
  bool wide_positions() const { return wide_; }
  const cl::Buffer& open_pos() const { return open_pos_; }
  const cl::Buffer& close_pos() const { return close_pos_; }
  const cl::Buffer& tour_vertex() const { return tour_vertex_; }
  // The -D option that selects the position type in treefix.cl ("-DPOS_T=int" or long).
  const char* position_option() const { return wide_ ? "-DPOS_T=long" : "-DPOS_T=int"; }

 private:
  void build_map(Runtime& runtime, Profile* profile);
  std::size_t vertices_ = 0;
  bool wide_ = false;
  cl::Buffer open_pos_, close_pos_, tour_vertex_;
};

// Open/close positions of a forest whose parent array is on the device (n vertices, valid forest:
// the caller guarantees it, e.g. root_forest's output). Positions are int (2n < 2^31).
DeviceEulerTour device_euler_tour(Runtime& runtime, const cl::Buffer& parent, std::size_t n,
                                  const ListRankOptions& list_rank = {},
                                  Profile* profile = nullptr);
// The same from the host; validates the parent array first (InputError on a cycle or bad index).
DeviceEulerTour device_euler_tour(Runtime& runtime, const ParentArray& parent,
                                  const ListRankOptions& list_rank = {},
                                  Profile* profile = nullptr);

}  // namespace treefix
