// OpenCL and fork(): a child forked after its parent set up a device is refused at once
// (core/process_fork.hpp).
#include "core/process_fork.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <string>

#include "treefix/core/error.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix {
namespace {
std::atomic<long> device_process{0};  // the process that set up OpenCL; 0: none yet
std::atomic<bool> forked{false};      // this process is a fork of one that had

void in_forked_child() {
  if (device_process.load() != 0) forked.store(true);
}
}  // namespace

bool forked_after_device_setup() { return forked.load(std::memory_order_relaxed); }

namespace detail {

void note_device_setup() {
  static std::once_flag registered;
  std::call_once(registered, [] { ::pthread_atfork(nullptr, nullptr, in_forked_child); });
  long none = 0;
  device_process.compare_exchange_strong(none, static_cast<long>(::getpid()));
}

void refuse_after_fork(const char* what) {
  if (!forked.load(std::memory_order_relaxed)) return;
  throw Error(std::string(what) + ": this process is a fork of process " +
              std::to_string(device_process.load()) +
              ", which had set up the OpenCL device; a driver does not survive fork() (the "
              "child's first device call would wait for ever). Use the device in a process "
              "started afresh (Python: multiprocessing's 'spawn' or 'forkserver' start method), "
              "or fork before the first device call");
}

}  // namespace detail
}  // namespace treefix
