// Reused blocks for large results (result_blocks.hpp).
#include "result_blocks.hpp"

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <new>

namespace treefix::python {
namespace {

// Arrays smaller than this come from NumPy (malloc reuses their memory already).
constexpr std::size_t kReuseFromBytes = std::size_t{4} << 20;
// Freed blocks kept for reuse at most: two 2^26-element double arrays, enough for a loop that
// holds one result while the next is computed.
constexpr std::size_t kCachedBytesLimit = std::size_t{1} << 30;
constexpr std::size_t kAlignment = std::size_t{2} << 20;  // whole large pages

class BlockCache {
 public:
  // A block of `bytes`, and whether its pages are fresh (never written).
  std::pair<void*, bool> take(std::size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const auto it = free_.find(bytes);
      if (it != free_.end()) {
        void* block = it->second;
        free_.erase(it);
        cached_ -= bytes;
        return {block, false};
      }
    }
    const std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    void* block = std::aligned_alloc(kAlignment, rounded);
    if (block == nullptr) throw std::bad_alloc();
    return {block, true};
  }

  void give_back(void* block, std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    // Over the bound, the oldest size class goes first: the newest sizes are the likeliest reused.
    while (cached_ + bytes > kCachedBytesLimit && !free_.empty()) {
      const auto oldest = free_.begin();
      cached_ -= oldest->first;
      std::free(oldest->second);
      free_.erase(oldest);
    }
    if (bytes > kCachedBytesLimit) {
      std::free(block);
      return;
    }
    free_.emplace(bytes, block);
    cached_ += bytes;
  }

  std::size_t cached() {
    std::lock_guard<std::mutex> lock(mutex_);
    return cached_;
  }

  void release() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [bytes, block] : free_) std::free(block);
    free_.clear();
    cached_ = 0;
  }

 private:
  std::mutex mutex_;
  std::multimap<std::size_t, void*> free_;
  std::size_t cached_ = 0;
};

// Never destroyed: arrays may outlive every other static object of the module.
BlockCache& cache() {
  static BlockCache& blocks = *new BlockCache();
  return blocks;
}

struct Block {
  void* data;
  std::size_t bytes;
};

}  // namespace

ResultArray uninitialised_array(const py::dtype& dtype, const std::vector<py::ssize_t>& shape) {
  std::size_t count = 1;
  for (const py::ssize_t extent : shape) count *= static_cast<std::size_t>(extent);
  const std::size_t bytes = count * static_cast<std::size_t>(dtype.itemsize());
  if (bytes < kReuseFromBytes) return {py::array(dtype, shape), true};
  const auto [data, fresh] = cache().take(bytes);
  auto block = std::make_unique<Block>(Block{data, bytes});
  struct GiveBack {  // until the capsule owns the block, an exception gives it back here
    std::unique_ptr<Block>& block;
    ~GiveBack() {
      if (block) cache().give_back(block->data, block->bytes);
    }
  } guard{block};
  py::capsule owner(block.get(), [](void* pointer) {
    std::unique_ptr<Block> given(static_cast<Block*>(pointer));
    cache().give_back(given->data, given->bytes);
  });
  block.release();
  return {py::array(dtype, shape, data, owner), fresh};
}

std::size_t cached_result_bytes() { return cache().cached(); }

void release_cached_results() { cache().release(); }

}  // namespace treefix::python
