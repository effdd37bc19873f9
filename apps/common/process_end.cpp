// The end of a `treefix` process (process_end.hpp).
#include "process_end.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace treefix::cli {
namespace {

// TREEFIX_TEAR_DOWN_AT_EXIT: a build that ends the usual way, to measure what the teardown costs.
#if defined(__SANITIZE_ADDRESS__) || defined(TREEFIX_TEAR_DOWN_AT_EXIT)
constexpr bool kTearDown = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kTearDown = true;
#else
constexpr bool kTearDown = false;
#endif
#else
constexpr bool kTearDown = false;
#endif

std::mutex kept_mutex;
// Never destroyed by static destruction: end_process decides what is torn down.
std::vector<std::unique_ptr<Runtime>>& kept() {
  static auto* runtimes = new std::vector<std::unique_ptr<Runtime>>;
  return *runtimes;
}
std::vector<std::thread>& teardowns() {
  static auto* threads = new std::vector<std::thread>;
  return *threads;
}

}  // namespace

void tear_down_beside(std::unique_ptr<Runtime> runtime) {
  if (!runtime) return;
  std::lock_guard<std::mutex> lock(kept_mutex);
  teardowns().emplace_back([doomed = std::move(runtime)]() mutable { doomed.reset(); });
}

std::atomic<bool> shared{false};
std::map<std::string, Runtime*>& shared_by_spec() {
  static auto* runtimes = new std::map<std::string, Runtime*>;
  return *runtimes;
}

void share_runtimes() { shared = true; }
bool runtimes_shared() { return shared; }

Runtime& kept_runtime(const std::string& device_spec) {
  if (shared) {
    std::lock_guard<std::mutex> lock(kept_mutex);
    if (auto found = shared_by_spec().find(device_spec); found != shared_by_spec().end())
      return *found->second;
  }
  auto runtime = std::make_unique<Runtime>(device_spec);  // outside the lock: it takes a while
  std::lock_guard<std::mutex> lock(kept_mutex);
  kept().push_back(std::move(runtime));
  if (shared) shared_by_spec()[device_spec] = kept().back().get();
  return *kept().back();
}

void end_process(int code) {
  for (std::thread& teardown : teardowns()) teardown.join();
  if (kTearDown) {
    kept().clear();
    delete &kept();
    std::exit(code);
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}

}  // namespace treefix::cli
