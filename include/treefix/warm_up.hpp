#pragma once
// Every module's warm-up tasks, in one list: what `treefix warmup` and treefix.warmup() build
// (treefix/core/warm_up.hpp runs them).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "treefix/core/warm_up.hpp"
#include "treefix/graph/warm_up.hpp"
#include "treefix/spatial/warm_up.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix {

// The modules whose tasks the list holds, by name.
inline const std::vector<std::string>& warm_up_modules() {
  static const std::vector<std::string> names = {"treefix", "graph", "spatial"};
  return names;
}

// The tasks of `modules` (names of warm_up_modules(); empty: all), treefix's first: its first
// task, the device tree, runs alone before the others (warm_up_in_parallel).
inline std::vector<WarmUpTask> library_warm_up_tasks(const std::vector<std::string>& modules = {}) {
  const auto wanted = [&](const char* name) {
    return modules.empty() || std::find(modules.begin(), modules.end(), name) != modules.end();
  };
  std::vector<WarmUpTask> tasks;
  const std::pair<const char*, std::vector<WarmUpTask> (*)()> lists[] = {
      {"treefix", &treefix_warm_up_tasks},
      {"graph", &graph_warm_up_tasks},
      {"spatial", &spatial_warm_up_tasks}};
  for (const auto& [name, list] : lists)
    if (wanted(name))
      for (WarmUpTask& task : list()) tasks.push_back(std::move(task));
  return tasks;
}

}  // namespace treefix
