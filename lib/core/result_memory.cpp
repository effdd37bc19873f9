// Large result blocks, reused and returned (treefix/core/result_memory.hpp).
#include "treefix/core/result_memory.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <new>

#include "treefix/core/host_memory.hpp"
#include "treefix/core/parallel.hpp"

namespace treefix {
namespace {

constexpr std::size_t kLargePage = std::size_t{2} << 20;
// Pieces of the background mapping: whole large pages, enough of them to spread over the pool.
constexpr std::size_t kMapPieceBytes = std::size_t{8} << 20;

std::size_t mapped_bytes(std::size_t bytes) { return (bytes + kLargePage - 1) / kLargePage * kLargePage; }

// A mapping of whole large pages starting on a large-page boundary (so that the kernel may back
// it with huge pages): a larger one, trimmed at both ends.
void* map_block(std::size_t bytes) {
  const std::size_t size = mapped_bytes(bytes);
  void* raw = ::mmap(nullptr, size + kLargePage, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kLargePage - 1) / kLargePage * kLargePage;
  if (aligned > start) ::munmap(raw, aligned - start);
  const std::uintptr_t end = start + size + kLargePage;
  if (end > aligned + size) ::munmap(reinterpret_cast<void*>(aligned + size), end - aligned - size);
  return reinterpret_cast<void*>(aligned);
}

void unmap_block(void* data, std::size_t bytes) { ::munmap(data, mapped_bytes(bytes)); }

class BlockCache {
 public:
  void* take(std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = kept_.find(bytes);
    if (it == kept_.end()) return nullptr;
    void* block = it->second;
    kept_.erase(it);
    cached_ -= bytes;
    return block;
  }

  void give_back(void* block, std::size_t bytes) {
    if (bytes > kResultCacheLimitBytes) return unmap_block(block, bytes);
    std::lock_guard<std::mutex> lock(mutex_);
    // Over the bound, the oldest size class goes first: the newest sizes are the likeliest reused.
    while (cached_ + bytes > kResultCacheLimitBytes && !kept_.empty()) {
      const auto oldest = kept_.begin();
      cached_ -= oldest->first;
      unmap_block(oldest->second, oldest->first);
      kept_.erase(oldest);
    }
    kept_.emplace(bytes, block);
    cached_ += bytes;
  }

  std::size_t cached() {
    std::lock_guard<std::mutex> lock(mutex_);
    return cached_;
  }

  void release() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [bytes, block] : kept_) unmap_block(block, bytes);
    kept_.clear();
    cached_ = 0;
  }

 private:
  std::mutex mutex_;
  std::multimap<std::size_t, void*> kept_;
  std::size_t cached_ = 0;
};

// Never destroyed: results may outlive every other static object (a Python array freed at exit).
BlockCache& cache() {
  static BlockCache& blocks = *new BlockCache();
  return blocks;
}

}  // namespace

ResultMemory take_result_memory(std::size_t bytes) {
  if (void* kept = cache().take(bytes)) return {kept, bytes, false};
  require_host_memory(mapped_bytes(bytes), "a result of " + mib_text(bytes));
  return {map_block(bytes), bytes, true};
}

void give_back_result_memory(void* data, std::size_t bytes) {
  if (data) cache().give_back(data, bytes);
}

std::size_t cached_result_bytes() { return cache().cached(); }

void release_cached_results() { cache().release(); }

BackgroundMapping::BackgroundMapping(void* data, std::size_t bytes)
    : stop_(std::make_shared<std::atomic<bool>>(false)) {
  char* const start = static_cast<char*>(data);
  done_ = std::async(std::launch::async, [start, bytes, stop = stop_] {
    const std::size_t pieces = (bytes + kMapPieceBytes - 1) / kMapPieceBytes;
    parallel_for(pieces, [=](std::size_t piece) {
      if (stop->load(std::memory_order_relaxed)) return;
      const std::size_t begin = piece * kMapPieceBytes;
      prefault_for_writing(start + begin, std::min(kMapPieceBytes, bytes - begin));
    });
  });
}

BackgroundMapping::~BackgroundMapping() {
  if (!done_.valid()) return;
  stop_->store(true);
  done_.wait();
}

}  // namespace treefix
