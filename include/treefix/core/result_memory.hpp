#pragma once
// Host memory for large results, reused while a program replaces its results and returned to the
// operating system when asked (the Python module's result arrays are made here).
//
// Why: a fresh 64 MiB array is a fresh mapping whose 16,384 pages the kernel zeroes on their
// first write: on a GPU host that is as long as the whole device call of a 2^24 rootfix. A loop
// that computes into new arrays and drops the old ones gets, from its second call on, a block
// whose pages are already mapped. Blocks are mappings of their own (mmap, whole 2 MiB pages), so
// a block freed or released goes back to the operating system at once, whatever the sizes that
// came and went (a block from the C heap would stay resident behind the others).
//
// Policy: blocks are kept for reuse up to kResultCacheLimitBytes, handed out only for the same
// size, the oldest size dropped first; release_cached_results() unmaps every kept block. Results
// smaller than kResultReuseFromBytes are not worth it (the C heap reuses small memory already).
#include <atomic>
#include <cstddef>
#include <future>
#include <memory>

namespace treefix {

constexpr std::size_t kResultReuseFromBytes = std::size_t{4} << 20;
constexpr std::size_t kResultCacheLimitBytes = std::size_t{1} << 30;

struct ResultMemory {
  void* data = nullptr;
  std::size_t bytes = 0;
  bool fresh = false;  // never written: worth mapping ahead (map_in_background)
};

// A block of `bytes` (>= kResultReuseFromBytes): a kept one of that size, else a new mapping,
// after require_host_memory (CapacityError with the numbers when the host cannot give it).
ResultMemory take_result_memory(std::size_t bytes);
// Gives a block from take_result_memory back: kept for reuse, or unmapped beyond the limit.
void give_back_result_memory(void* data, std::size_t bytes);

// Bytes of the kept blocks, and unmapping them all.
std::size_t cached_result_bytes();
void release_cached_results();

// Maps the pages of [data, data + bytes) for writing (prefault_for_writing) on the host pool, in
// the background, while the device computes what will be written there. Its destructor waits
// for the mapping, after asking the pieces not yet begun to stay undone (an interrupted call
// leaves at once).
class BackgroundMapping {
 public:
  BackgroundMapping() = default;
  BackgroundMapping(void* data, std::size_t bytes);
  BackgroundMapping(const BackgroundMapping&) = delete;
  BackgroundMapping& operator=(const BackgroundMapping&) = delete;
  ~BackgroundMapping();

 private:
  std::shared_ptr<std::atomic<bool>> stop_;
  std::future<void> done_;
};

}  // namespace treefix
