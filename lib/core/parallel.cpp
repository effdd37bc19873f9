// The host executor's entry points and its thread count (treefix/core/parallel.hpp); the pool
// itself is core/host_pool.cpp.
#include "treefix/core/parallel.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "core/host_pool.hpp"
#include "treefix/core/error.hpp"

namespace treefix {
namespace {

std::atomic<unsigned> chosen_threads{0};  // set_host_threads; 0: the environment's

// A count of threads from text, or 0 when it is not one ("4", " 16 "; OMP_NUM_THREADS may also
// be a list for nested levels, "8,2": its first number).
unsigned count_of(const char* text, bool list) {
  const char* p = text;
  while (*p == ' ' || *p == '\t') ++p;
  unsigned long value = 0;
  const char* digits = p;
  while (*p >= '0' && *p <= '9' && value <= kMaxHostThreads)
    value = value * 10 + unsigned(*p++ - '0');
  if (p == digits) return 0;
  while (*p == ' ' || *p == '\t') ++p;
  if (*p != '\0' && !(list && *p == ',')) return 0;
  return value <= kMaxHostThreads ? static_cast<unsigned>(value) : 0;
}

}  // namespace

unsigned environment_host_threads() {
  if (const char* text = std::getenv("TREEFIX_THREADS"); text && *text) {
    const unsigned count = count_of(text, false);
    if (count == 0)
      throw InputError(std::string("environment variable TREEFIX_THREADS='") + text +
                       "': expected a positive integer of at most " +
                       std::to_string(kMaxHostThreads));
    return count;
  }
  // OpenMP's variable, for scripts written when the loops ran on OpenMP; a value OpenMP would
  // ignore is ignored here too.
  if (const char* text = std::getenv("OMP_NUM_THREADS"); text && *text)
    if (const unsigned count = count_of(text, true)) return count;
  return std::max(1u, std::thread::hardware_concurrency());
}

unsigned host_threads() {
  if (const unsigned chosen = chosen_threads.load(std::memory_order_relaxed)) return chosen;
  return environment_host_threads();
}

void set_host_threads(unsigned threads) {
  if (threads > kMaxHostThreads)
    throw InputError("--threads " + std::to_string(threads) + ": at most " +
                     std::to_string(kMaxHostThreads));
  chosen_threads.store(threads, std::memory_order_relaxed);
}

void parallel_for(std::size_t count, const std::function<void(std::size_t)>& body) {
  parallel_for(count, 0, body);
}

void parallel_for(std::size_t count, unsigned threads,
                  const std::function<void(std::size_t)>& body) {
  if (count == 0) return;
  if (threads == 0) threads = host_threads();
  // Blocks of indices: a loop over millions of vertices claims a few at a time, not each one.
  const std::size_t block = std::max<std::size_t>(1, count / (std::size_t(threads) * 8));
  detail::run_tasks(count, block, threads, body);
}

void parallel_for_ranges(std::size_t items, std::size_t grain, unsigned threads,
                         const std::function<void(std::size_t, std::size_t)>& body) {
  grain = std::max<std::size_t>(1, grain);
  const std::size_t pieces = (items + grain - 1) / grain;
  detail::run_tasks(pieces, 1, threads ? threads : host_threads(), [&](std::size_t piece) {
    body(piece * grain, std::min(items, (piece + 1) * grain));
  });
}

void run_on_threads(unsigned threads, const std::function<void(unsigned)>& job) {
  detail::run_tasks(std::max(1u, threads), 1, std::max(1u, threads),
                    [&](std::size_t slot) { job(static_cast<unsigned>(slot)); });
}

void parallel_copies(std::size_t count, const std::function<void(std::size_t)>& copy) {
  detail::run_tasks(count, 1, host_threads(), copy);
}

void parallel_memcpy(void* to, const void* from, std::size_t bytes) {
  if (bytes == 0) return;  // an empty vector's data() may be null: memcpy(nullptr, ...) is UB
  const Ranges slices(bytes, host_threads(), std::size_t(1) << 18);
  parallel_copies(slices.count, [&](std::size_t s) {
    std::memcpy(static_cast<char*>(to) + slices.begin(s),
                static_cast<const char*>(from) + slices.begin(s), slices.end(s) - slices.begin(s));
  });
}

std::int64_t exclusive_sum(std::int64_t* values, std::size_t count) {
  const Ranges slices(count, host_threads(), std::size_t(1) << 16);
  std::vector<std::int64_t> slice_sum(slices.count + 1, 0);
  parallel_for(slices.count, [&](std::size_t s) {
    std::int64_t sum = 0;
    for (std::size_t i = slices.begin(s); i < slices.end(s); ++i) sum += values[i];
    slice_sum[s + 1] = sum;
  });
  for (std::size_t s = 0; s < slices.count; ++s) slice_sum[s + 1] += slice_sum[s];
  parallel_for(slices.count, [&](std::size_t s) {
    std::int64_t running = slice_sum[s];
    for (std::size_t i = slices.begin(s); i < slices.end(s); ++i) {
      const std::int64_t value = values[i];
      values[i] = running;
      running += value;
    }
  });
  return slice_sum[slices.count];
}

}  // namespace treefix
