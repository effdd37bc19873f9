#pragma once
// The host executor: every host-parallel loop of the library (parsing, formatting, preparation,
// the CPU baselines, the staging copies of transfers) runs on one persistent pool of threads.
//
// Thread count, decided here once: set_host_threads (the CLI's --threads), else
// $TREEFIX_THREADS, else $OMP_NUM_THREADS (its first number, for compatibility), else the
// hardware's. The pool starts its threads when first needed and keeps them; between loops they
// poll for 50 us (the next phase of a reader often follows at once) and then sleep.
//
// Every call splits its work into tasks; the calling thread runs tasks too, and idle pool
// threads join it. So a call never waits for a thread that is busy elsewhere: calls from several
// threads at once share the pool, and a call made from inside a task runs inline on that thread
// (no deadlock, no oversubscription). Tasks are handed out in any order: a loop that combines
// floating-point partial results must fix its partition (Ranges of a count that does not depend
// on the thread count) and combine the pieces in index order afterwards.
//
// Exceptions: every task runs even when one throws; the first exception thrown is rethrown on the
// calling thread when all have finished, and the pool stays usable.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace treefix {

// Threads the host loops use (see above); at least 1.
unsigned host_threads();
// Chooses the count for every later call (the CLI's --threads); 0 goes back to the environment's.
void set_host_threads(unsigned threads);
// The count the environment asks for ($TREEFIX_THREADS, $OMP_NUM_THREADS, the hardware's);
// InputError for a malformed $TREEFIX_THREADS.
unsigned environment_host_threads();
// The most threads a count may name (TREEFIX_THREADS, --threads).
constexpr unsigned kMaxHostThreads = 4096;

// body(i) for i in [0, count), on up to host_threads() threads (or `threads`; 0 = host_threads()).
void parallel_for(std::size_t count, const std::function<void(std::size_t)>& body);
void parallel_for(std::size_t count, unsigned threads,
                  const std::function<void(std::size_t)>& body);

// body(begin, end) over [0, items) in pieces of `grain` items, handed to whichever of up to
// `threads` threads is free (0 = host_threads()): loops whose items cost unevenly.
void parallel_for_ranges(std::size_t items, std::size_t grain, unsigned threads,
                         const std::function<void(std::size_t begin, std::size_t end)>& body);

// job(t) once for every t in [0, threads): a team of `threads` slots for work that is no static
// loop (a producer in slot 0 and consumers pulling from it; per-slot partial results). Slots run
// concurrently when pool threads are free, else one after another, so a slot may wait for work
// that slot 0 publishes but never for a slot numbered after it.
void run_on_threads(unsigned threads, const std::function<void(unsigned slot)>& job);

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

// memcpy on all host threads (a slice each): copies out of mapped files at memory speed.
void parallel_memcpy(void* to, const void* from, std::size_t bytes);

// copy(i) for every i in [0, count), handed to whichever host thread is free. For copies between a
// transfer's DMAs (treefix/core/device_array.hpp): the pool's threads sleep soon after, leaving
// the cores to the driver's threads that start the next DMA; `copy` must not throw.
void parallel_copies(std::size_t count, const std::function<void(std::size_t)>& copy);

// In-place exclusive prefix sum of values[0 .. count) on all host threads (a sum per slice, a
// sequential scan of the slice sums, a pass adding them back); returns the total. Integers: the
// result does not depend on the slices.
std::int64_t exclusive_sum(std::int64_t* values, std::size_t count);

}  // namespace treefix
