#pragma once
// The spatial module's paths for `treefix warmup` (treefix/core/warm_up.hpp): kd-tree builds and
// queries, and the octree's gravity, on a few 3-D points.
#include <vector>

#include "treefix/core/warm_up.hpp"

namespace treefix {
std::vector<WarmUpTask> spatial_warm_up_tasks();
}  // namespace treefix
