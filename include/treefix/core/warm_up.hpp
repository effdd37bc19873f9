#pragma once
// Building the kernel cache ahead of use: every program a path of the library takes, compiled
// once (on a CPU device, seconds each) and kept in the disk cache (TREEFIX_CACHE_DIR), so that
// no later call waits for a compiler. `treefix warmup` and treefix.warmup() run it; `cmake
// --install` can too (TREEFIX_WARM_UP_ON_INSTALL).
//
// Each module lists its paths as tasks (tiny calls that build what real calls build:
// treefix/treefix/treefix.hpp, treefix/graph/warm_up.hpp, treefix/spatial/warm_up.hpp;
// treefix/warm_up.hpp gathers them). The runner gives each of `threads` host threads a Runtime
// of its own (a driver compiles one program on one core; several Runtimes compile in parallel,
// into the one disk cache).
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "treefix/core/runtime.hpp"

namespace treefix {

struct WarmUpTask {
  std::string name;                   // "rootfix and leaffix, float64"
  std::function<void(Runtime&)> run;  // tiny calls; may skip what the device lacks (fp64)
};

struct WarmUpSummary {
  std::size_t tasks = 0;
  std::size_t programs = 0;  // built or loaded from the disk cache, over every Runtime
  double seconds = 0;
};

// Runs every task on Runtimes made for `device_spec` ("" = the default device), `threads` at a
// time (0: the host threads, at most the tasks); the first task alone before the others, so that
// what they share (the tree preparation's programs, the scans) is compiled once; `done(name, seconds)` after each (from the
// thread that ran it, one at a time). The first task's failure is thrown once all have ended.
WarmUpSummary warm_up_in_parallel(
    const std::string& device_spec, const std::vector<WarmUpTask>& tasks, unsigned threads = 0,
    const std::function<void(const std::string& name, double seconds)>& done = {});

}  // namespace treefix
