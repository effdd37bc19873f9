// Interruption points and the interruptible wait for a queue (treefix/core/interrupt.hpp).
#include "treefix/core/interrupt.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "treefix/core/runtime.hpp"

namespace treefix {

namespace {
std::atomic<InterruptCheck> installed{nullptr};

// How wait_interruptibly polls the queue's marker: spinning for its first kSpinBeforeSleeping
// (most downloads follow a few short kernels), then sleeping between polls, each sleep twice the
// last up to kLongestSleep. The marker's completion callback is not used: NVIDIA's driver calls
// it milliseconds late (a Python BFS of a road network took 20 ms waiting for it, 4 ms with a
// plain blocking read), and the sleeps bound what a long wait adds to kLongestSleep while
// costing a core little.
constexpr std::chrono::microseconds kSpinBeforeSleeping{200};
constexpr std::chrono::microseconds kFirstSleep{10};
constexpr std::chrono::microseconds kLongestSleep{100};
}  // namespace

void set_interrupt_check(InterruptCheck check) { installed.store(check); }

void interruption_point() {
  const InterruptCheck check = installed.load(std::memory_order_acquire);
  if (check == nullptr) return;
  thread_local std::chrono::steady_clock::time_point last_check{};
  const auto now = std::chrono::steady_clock::now();
  if (now - last_check < kInterruptCheckInterval) return;
  last_check = now;
  check();
}

void wait_interruptibly(Runtime& runtime) {
  if (installed.load(std::memory_order_acquire) == nullptr) return;
  cl::Event marker;
  translate_device_errors("waiting for the device", [&] {
    runtime.queue().enqueueMarkerWithWaitList(nullptr, &marker);
    runtime.queue().flush();
  });
  auto done = [&] { return marker.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() <= CL_COMPLETE; };
  const auto spin_until = std::chrono::steady_clock::now() + kSpinBeforeSleeping;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= spin_until) break;
    std::this_thread::yield();
  }
  for (auto sleep = kFirstSleep; !done(); sleep = std::min(2 * sleep, kLongestSleep)) {
    interruption_point();  // may throw: the marker is only waited for, nothing is left to undo
    std::this_thread::sleep_for(sleep);
  }
}

}  // namespace treefix
