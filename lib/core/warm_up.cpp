// The kernel cache built ahead, in parallel (treefix/core/warm_up.hpp).
#include "treefix/core/warm_up.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>

#include "treefix/core/parallel.hpp"

namespace treefix {

WarmUpSummary warm_up_in_parallel(
    const std::string& device_spec, const std::vector<WarmUpTask>& tasks, unsigned threads,
    const std::function<void(const std::string& name, double seconds)>& done) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  WarmUpSummary summary;
  summary.tasks = tasks.size();
  if (tasks.empty()) return summary;
  if (threads == 0) threads = host_threads();
  threads = static_cast<unsigned>(std::min<std::size_t>(std::max(1u, threads), tasks.size()));
  std::atomic<std::size_t> next{0};
  std::mutex mutex;  // guards failure, summary.programs and `done`
  std::exception_ptr failure;
  // Plain threads, not the host pool: each waits on the driver's compiler for seconds.
  auto work = [&](bool first) {
    try {
      Runtime runtime(device_spec);
      for (std::size_t i = next++; i < tasks.size(); i = first ? tasks.size() : next++) {
        const auto began = Clock::now();
        tasks[i].run(runtime);
        const double seconds = std::chrono::duration<double>(Clock::now() - began).count();
        std::lock_guard<std::mutex> lock(mutex);
        if (done) done(tasks[i].name, seconds);
      }
      std::lock_guard<std::mutex> lock(mutex);
      summary.programs += runtime.programs_built();
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!failure) failure = std::current_exception();
      next = tasks.size();  // the others stop after their task
    }
  };
  work(true);  // the first task alone: the others load what it built from the disk cache
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < threads && next < tasks.size(); ++t) workers.emplace_back(work, false);
  if (next < tasks.size()) work(false);
  for (auto& worker : workers) worker.join();
  if (failure) std::rethrow_exception(failure);
  summary.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return summary;
}

}  // namespace treefix
