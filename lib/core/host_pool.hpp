#pragma once
// Internal: the one pool of host threads behind treefix/core/parallel.hpp.
#include <cstddef>
#include <functional>

namespace treefix::detail {

// task(i) for every i in [0, tasks), claimed `block` indices at a time by the calling thread and
// by up to `threads` - 1 pool threads that are free; returns when every task has run, rethrowing
// the first exception one threw. Inside a task (or with one thread) it runs inline.
void run_tasks(std::size_t tasks, std::size_t block, unsigned threads,
               const std::function<void(std::size_t)>& task);

}  // namespace treefix::detail
