#pragma once
// Internal to the phylo module: the Euler tour its kernels read. They take tour positions as
// 32-bit ints (trees of up to 2^30 vertices), so every query checks the width here, once.
#include <string>

#include "treefix/core/error.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix::detail {

// The tree's Euler tour (built on first use); CapacityError "<what> <n> vertices: 64-bit tour
// positions are not supported" when its positions are 64-bit.
inline const DeviceEulerTour& narrow_tour(DeviceTree& tree, const char* what, Profile* profile) {
  const DeviceEulerTour& tour = tree.euler_tour(profile);
  if (tour.wide_positions())
    throw CapacityError(std::string(what) + " " + std::to_string(tree.size()) +
                        " vertices: 64-bit tour positions are not supported");
  return tour;
}

}  // namespace treefix::detail
