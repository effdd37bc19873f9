// Host parallel loops through OpenMP (treefix/core/parallel.hpp).
#include "treefix/core/parallel.hpp"

#include <cstring>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace treefix {

unsigned host_threads() {
#ifdef _OPENMP
  return static_cast<unsigned>(std::max(1, omp_get_max_threads()));
#else
  return std::max(1u, std::thread::hardware_concurrency());
#endif
}

void parallel_for(std::size_t count, const std::function<void(std::size_t)>& body) {
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const long long pieces = static_cast<long long>(count);
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (pieces > 1)
#endif
  for (long long i = 0; i < pieces; ++i) {
    try {
      body(static_cast<std::size_t>(i));
    } catch (...) {
      std::lock_guard<std::mutex> lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

void parallel_memcpy(void* to, const void* from, std::size_t bytes) {
  if (bytes == 0) return;  // an empty vector's data() may be null: memcpy(nullptr, ...) is UB
  const Ranges slices(bytes, host_threads(), std::size_t(1) << 18);
  parallel_for(slices.count, [&](std::size_t s) {
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
