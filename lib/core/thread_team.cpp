// A fixed team of host threads running one job after another (core/thread_team.hpp).
#include "core/thread_team.hpp"

#include <atomic>
#include <chrono>

#include "treefix/core/parallel.hpp"

namespace treefix::detail {

ThreadTeam::ThreadTeam(unsigned threads) {
  if (threads == 0) threads = host_threads();
  workers_.reserve(threads - 1);
  try {
    for (unsigned t = 1; t < threads; ++t) workers_.emplace_back([this, t] { work(t); });
  } catch (...) {
    stop();  // join those that started
    throw;
  }
}

ThreadTeam::~ThreadTeam() { stop(); }

void ThreadTeam::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  start_.notify_all();
  for (std::thread& w : workers_)
    if (w.joinable()) w.join();
  workers_.clear();
}

void ThreadTeam::record(std::exception_ptr failure) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!failure_) failure_ = std::move(failure);
}

namespace {

// Waits up to spin_time for done() by polling, then returns whether it came. A phase of the
// reader lasts a fraction of a millisecond and the next one follows at once: a thread asleep on
// a condition variable would add a wake-up (tens of microseconds on a virtual machine) to each.
template <class Done>
bool spin_until(Done done) {
  constexpr auto spin_time = std::chrono::microseconds(50);
  const auto until = std::chrono::steady_clock::now() + spin_time;
  for (unsigned polls = 1;; ++polls) {
    if (done()) return true;
    if (polls % 64 == 0 && std::chrono::steady_clock::now() > until) return false;
  }
}

}  // namespace

void ThreadTeam::work(unsigned thread) {
  std::size_t seen = 0;
  for (;;) {
    spin_until([&] { return generation_.load(std::memory_order_acquire) != seen; });
    const std::function<void(unsigned)>* job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      job = job_;
    }
    try {
      (*job)(thread);
    } catch (...) {
      record(std::current_exception());
    }
    if (running_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(mutex_);  // the caller tests running_ under it
      finished_.notify_one();
    }
  }
}

void ThreadTeam::run(const std::function<void(unsigned)>& job) {
  if (!workers_.empty()) {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &job;
    running_.store(static_cast<unsigned>(workers_.size()), std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
  }
  start_.notify_all();
  try {
    job(0);
  } catch (...) {
    record(std::current_exception());
  }
  if (!spin_until([&] { return running_.load(std::memory_order_acquire) == 0; })) {
    std::unique_lock<std::mutex> lock(mutex_);
    finished_.wait(lock, [&] { return running_.load(std::memory_order_acquire) == 0; });
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (failure_) {
    std::exception_ptr failure = std::move(failure_);
    failure_ = nullptr;
    std::rethrow_exception(failure);
  }
}

void ThreadTeam::for_each(std::size_t count, const std::function<void(std::size_t)>& body) {
  std::atomic<std::size_t> next{0};
  run([&](unsigned) {
    for (std::size_t i = next++; i < count; i = next++) body(i);
  });
}

}  // namespace treefix::detail
