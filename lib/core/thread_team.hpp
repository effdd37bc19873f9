#pragma once
// Internal: a team of exactly `threads` host threads (the caller and threads - 1 workers,
// started once) that runs one job after another; between jobs the workers poll for 50 us, then
// sleep. Two users:
//  * the RuleML forest reader runs all its phases on one team: the producer/consumer parse, which
//    is no static loop, and then the name sort and the gather. Why not parallel_for (OpenMP,
//    host_threads() threads): a reader asked for one thread must run every phase on that one
//    thread (the one-thread baseline of `treefix-bench forest-pipeline` is this same code), and
//    the workers that parsed are already running when the later phases start;
//  * parallel_memcpy (the staging copies of transfers), whose workers must not keep the cores
//    busy while the driver starts the next DMA (core/parallel.cpp says why).
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace treefix::detail {

class ThreadTeam {
 public:
  explicit ThreadTeam(unsigned threads);  // 0: host_threads()
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // job(thread) once on every thread of the team (thread 0 is the caller), returning when every
  // call has returned; the first exception a call threw is then rethrown here.
  void run(const std::function<void(unsigned thread)>& job);

  // body(i) for every i in [0, count), pieces handed out one at a time to whichever thread is free
  // (uneven pieces balance); exceptions as run().
  void for_each(std::size_t count, const std::function<void(std::size_t)>& body);

 private:
  void work(unsigned thread);
  void stop();
  void record(std::exception_ptr failure);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_, finished_;
  const std::function<void(unsigned)>* job_ = nullptr;
  std::atomic<std::size_t> generation_{0};  // jobs started
  std::atomic<unsigned> running_{0};        // workers still in the current job
  bool stopping_ = false;
  std::exception_ptr failure_;
};

}  // namespace treefix::detail
