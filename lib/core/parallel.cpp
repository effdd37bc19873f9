// Host parallel loops through OpenMP (treefix/core/parallel.hpp).
#include "treefix/core/parallel.hpp"

#include <exception>
#include <mutex>
#include <thread>

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

}  // namespace treefix
