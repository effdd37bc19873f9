// The pool of host threads behind every host loop (core/host_pool.hpp,
// treefix/core/parallel.hpp).
//
// A call publishes a job (its tasks, an atomic cursor, a bound on helpers) and works on it at
// once; idle pool threads take the job from the open list and claim tasks from the same cursor.
// The caller never waits for a helper to start, only for helpers that joined to finish their
// tasks, so a call makes progress however busy the pool is: calls from several threads share it,
// and none can deadlock another.
#include "core/host_pool.hpp"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace treefix::detail {
namespace {

// Set on pool threads and on a caller while it runs its tasks: a loop started there runs inline.
thread_local bool inside_task = false;

// Waits up to 50 us for done() by polling, then returns whether it came. A phase of a reader
// lasts a fraction of a millisecond and the next one follows at once: a thread asleep on a
// condition variable would add a wake-up (tens of microseconds on a virtual machine) to each.
template <class Done>
bool spin_until(Done done) {
  constexpr auto spin_time = std::chrono::microseconds(50);
  const auto until = std::chrono::steady_clock::now() + spin_time;
  for (unsigned polls = 1;; ++polls) {
    if (done()) return true;
    if (polls % 64 == 0 && std::chrono::steady_clock::now() > until) return false;
  }
}

struct Job {
  const std::function<void(std::size_t)>* task = nullptr;
  std::size_t tasks = 0, block = 1;
  std::atomic<std::size_t> next_block{0};
  unsigned helpers_wanted = 0, helpers_joined = 0;  // under the pool's mutex
  std::atomic<unsigned> helpers_running{0};
  std::mutex mutex;  // guards failure; the last helper notifies `finished` under it
  std::condition_variable finished;
  std::exception_ptr failure;

  // Claims blocks of tasks until none is left.
  void drain() {
    for (;;) {
      const std::size_t first = next_block.fetch_add(1, std::memory_order_relaxed) * block;
      if (first >= tasks) return;
      const std::size_t last = std::min(tasks, first + block);
      for (std::size_t i = first; i < last; ++i) {
        try {
          (*task)(i);
        } catch (...) {
          std::lock_guard<std::mutex> lock(mutex);
          if (!failure) failure = std::current_exception();
        }
      }
    }
  }
};

class HostPool {
 public:
  // Never destroyed: a loop may run while static objects are torn down at exit, and the threads
  // only sleep.
  static HostPool& instance() {
    static std::once_flag registered;
    std::call_once(registered, [] {
      // A forked child has none of the pool's threads (and maybe a lock one of them held): it
      // starts a pool of its own, the parent's is left.
      ::pthread_atfork(nullptr, nullptr, [] { current = nullptr; });
    });
    HostPool* pool = current.load(std::memory_order_acquire);
    if (pool == nullptr) {
      static std::mutex making;
      std::lock_guard<std::mutex> lock(making);
      pool = current.load();
      if (pool == nullptr) current.store(pool = new HostPool);
    }
    return *pool;
  }

  void run(Job& job) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      grow(job.helpers_wanted);
      open_.push_back(&job);
      open_count_.fetch_add(1, std::memory_order_release);
    }
    if (job.helpers_wanted == 1)
      wake_.notify_one();
    else
      wake_.notify_all();
    inside_task = true;
    job.drain();
    inside_task = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);  // no helper joins after this
      const auto open = std::find(open_.begin(), open_.end(), &job);
      if (open != open_.end()) {
        open_.erase(open);
        open_count_.fetch_sub(1, std::memory_order_release);
      }
    }
    if (!spin_until([&] { return job.helpers_running.load(std::memory_order_acquire) == 0; })) {
      std::unique_lock<std::mutex> lock(job.mutex);
      job.finished.wait(lock, [&] { return job.helpers_running.load() == 0; });
    }
    // The last helper may still hold the job's mutex (it notifies under it): wait for it before
    // the job goes out of scope.
    std::lock_guard<std::mutex> lock(job.mutex);
  }

 private:
  // Enough threads for `helpers` at once (under mutex_). Threads are kept: the counts a process
  // asks for rarely change.
  void grow(unsigned helpers) {
    while (workers_.size() < helpers) workers_.emplace_back([this] { work(); });
  }

  void work() {
    inside_task = true;
    for (;;) {
      spin_until([&] { return open_count_.load(std::memory_order_acquire) != 0; });
      Job* job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return !open_.empty(); });
        job = open_.front();
        if (++job->helpers_joined == job->helpers_wanted) {
          open_.pop_front();
          open_count_.fetch_sub(1, std::memory_order_release);
        }
        job->helpers_running.fetch_add(1, std::memory_order_relaxed);
      }
      job->drain();
      std::lock_guard<std::mutex> lock(job->mutex);
      if (job->helpers_running.fetch_sub(1, std::memory_order_acq_rel) == 1)
        job->finished.notify_one();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job*> open_;  // jobs that more helpers may join
  std::atomic<std::size_t> open_count_{0};
  std::vector<std::thread> workers_;
  static std::atomic<HostPool*> current;
};

std::atomic<HostPool*> HostPool::current{nullptr};

}  // namespace

void run_tasks(std::size_t tasks, std::size_t block, unsigned threads,
               const std::function<void(std::size_t)>& task) {
  if (tasks == 0) return;
  block = std::max<std::size_t>(1, block);
  const std::size_t blocks = (tasks + block - 1) / block;
  Job job;
  job.task = &task;
  job.tasks = tasks;
  job.block = block;
  if (threads <= 1 || blocks <= 1 || inside_task) {
    job.drain();  // inline, with the same exception rule
  } else {
    job.helpers_wanted = static_cast<unsigned>(std::min<std::size_t>(threads, blocks) - 1);
    HostPool::instance().run(job);
  }
  if (job.failure) std::rethrow_exception(job.failure);
}

}  // namespace treefix::detail
