#pragma once
// The graph module's paths for `treefix warmup` (treefix/core/warm_up.hpp): BFS, connected
// components and the rooted spanning forests, each on a tiny graph.
#include <vector>

#include "treefix/core/warm_up.hpp"

namespace treefix {
std::vector<WarmUpTask> graph_warm_up_tasks();
}  // namespace treefix
