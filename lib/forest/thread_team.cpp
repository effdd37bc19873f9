// A fixed team of host threads running one job after another (forest/thread_team.hpp).
#include "forest/thread_team.hpp"

#include <atomic>

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

void ThreadTeam::work(unsigned thread) {
  std::size_t seen = 0;
  for (;;) {
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
    std::lock_guard<std::mutex> lock(mutex_);
    if (--running_ == 0) finished_.notify_one();
  }
}

void ThreadTeam::run(const std::function<void(unsigned)>& job) {
  if (!workers_.empty()) {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &job;
    running_ = static_cast<unsigned>(workers_.size());
    ++generation_;
  }
  start_.notify_all();
  try {
    job(0);
  } catch (...) {
    record(std::current_exception());
  }
  std::unique_lock<std::mutex> lock(mutex_);
  finished_.wait(lock, [&] { return running_ == 0; });
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
