#pragma once
// Host parallelism for the work around the kernels (parsing, formatting, preparation): loops
// over independent pieces on every host core. OpenMP does the threading: it comes with the
// compiler (libgomp on Debian and Ubuntu), needs no other package, and its static schedule
// fits loops whose pieces cost about the same (chunks of a file, slices of an array).
// Without OpenMP the loops run sequentially, with the same results.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace treefix {

// Threads the host loops use: $OMP_NUM_THREADS, else the hardware's.
unsigned host_threads();

// body(i) for i in [0, count), in parallel; count pieces of similar cost. The first exception a
// body throws is rethrown on the calling thread once every piece has run.
void parallel_for(std::size_t count, const std::function<void(std::size_t)>& body);

// Splits [0, n) into about `pieces` contiguous ranges, at most one per `grain` elements:
// range i is [range_begin(i), range_begin(i + 1)).
struct Ranges {
  std::size_t n = 0, count = 0;
  Ranges(std::size_t total, std::size_t pieces, std::size_t grain = 1)
      : n(total),
        count(std::max<std::size_t>(1,
                                    std::min(pieces, (total + std::max<std::size_t>(1, grain) - 1) /
                                                         std::max<std::size_t>(1, grain)))) {}
  std::size_t begin(std::size_t i) const { return n * i / count; }
  std::size_t end(std::size_t i) const { return n * (i + 1) / count; }
};

// memcpy on all host cores (a slice each): copies out of mapped files at memory speed.
void parallel_memcpy(void* to, const void* from, std::size_t bytes);

// copy(i) for every i in [0, count), handed to whichever host thread is free, on the threads
// parallel_memcpy copies on (they sleep between calls, where OpenMP's spin: core/parallel.cpp).
// For copies between a transfer's DMAs (treefix/core/device_array.hpp); `copy` must not throw.
void parallel_copies(std::size_t count, const std::function<void(std::size_t)>& copy);

// In-place exclusive prefix sum of values[0 .. count) on all host cores (a sum per slice, a
// sequential scan of the slice sums, a pass adding them back); returns the total.
std::int64_t exclusive_sum(std::int64_t* values, std::size_t count);

}  // namespace treefix
