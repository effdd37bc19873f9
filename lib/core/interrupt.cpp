// Interruption points and the interruptible wait for a queue (treefix/core/interrupt.hpp).
#include "treefix/core/interrupt.hpp"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "treefix/core/runtime.hpp"

namespace treefix {

namespace {
std::atomic<InterruptCheck> installed{nullptr};

// How long wait_interruptibly polls the queue's marker before it sleeps until the marker's
// callback: a short wait then costs no callback's latency, a long one no core.
constexpr std::chrono::microseconds kPollBeforeSleeping{2000};

// The marker's completion, shared by the waiting thread and the OpenCL callback (which may come
// after the waiter has left, interrupted).
struct Completion {
  std::mutex mutex;
  std::condition_variable done_changed;
  bool done = false;
};

void CL_CALLBACK mark_complete(cl_event, cl_int, void* data) {
  std::unique_ptr<std::shared_ptr<Completion>> owner(static_cast<std::shared_ptr<Completion>*>(data));
  Completion& completion = **owner;
  {
    std::lock_guard<std::mutex> lock(completion.mutex);
    completion.done = true;
  }
  completion.done_changed.notify_all();
}
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
  // Short waits are polled first: most downloads follow a few short kernels (a loop reading one
  // flag a step reads many times), and an event callback comes from the driver's own thread, at
  // the driver's pace. Longer waits sleep until the callback, passing interruption points.
  const auto poll_until = std::chrono::steady_clock::now() + kPollBeforeSleeping;
  while (marker.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() > CL_COMPLETE) {
    if (std::chrono::steady_clock::now() >= poll_until) break;
    std::this_thread::yield();
  }
  if (marker.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() <= CL_COMPLETE) return;
  auto completion = std::make_shared<Completion>();
  auto* for_callback = new std::shared_ptr<Completion>(completion);
  if (marker.setCallback(CL_COMPLETE, mark_complete, for_callback) != CL_SUCCESS) {
    delete for_callback;
    return;  // the blocking call that follows waits uninterrupted
  }
  std::unique_lock<std::mutex> lock(completion->mutex);
  while (!completion->done_changed.wait_for(lock, kInterruptCheckInterval,
                                            [&] { return completion->done; })) {
    lock.unlock();
    interruption_point();  // may throw: the callback still owns its share of `completion`
    lock.lock();
  }
}

}  // namespace treefix
