// Host parallel loops through OpenMP (treefix/core/parallel.hpp).
#include "treefix/core/parallel.hpp"

#include "core/thread_team.hpp"

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

namespace {

// The copies run on a team of their own, whose workers sleep between copies (after a 50 us poll).
// OpenMP's threads keep spinning for a while after each region (libgomp's default waiting):
// between the staging copies of a transfer, while the calling thread waits for the previous
// chunk's DMA, 15 spinning threads took the cores that the driver's own threads need to start the
// next one (`treefix rootfix` with .npy at 2^24 on the H100: upload 38 ms with the default
// waiting, 6 ms with OMP_WAIT_POLICY=passive; bench/README.md). One caller at a time: another
// (a second thread, or a copy inside a job of the team) copies through OpenMP as before.
std::mutex copy_team_mutex;

detail::ThreadTeam& copy_team() {
  static detail::ThreadTeam team(0);
  return team;
}

}  // namespace

void parallel_copies(std::size_t count, const std::function<void(std::size_t)>& copy) {
  if (count <= 1) {
    if (count) copy(0);
    return;
  }
  std::unique_lock<std::mutex> alone(copy_team_mutex, std::try_to_lock);
  if (alone) return copy_team().for_each(count, copy);
  parallel_for(count, copy);
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
