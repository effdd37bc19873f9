#pragma once
// Internal to the forest module: n values of a trivial type whose storage is not written when it
// is allocated (std::vector would zero it on the allocating thread), so that the threads that
// fill it take its page faults, each on its own part. For the reader's per-file scratch arrays:
// 10^5 files make megabytes of them.
#include <cstddef>
#include <memory>
#include <type_traits>

namespace treefix::detail {

template <class T>
class UnfilledArray {
  static_assert(std::is_trivially_default_constructible_v<T> && std::is_trivially_destructible_v<T>,
                "UnfilledArray holds trivial values only");

 public:
  UnfilledArray() = default;
  explicit UnfilledArray(std::size_t n) : values_(new T[n]), size_(n) {}  // default-initialised
  T& operator[](std::size_t i) { return values_[i]; }
  const T& operator[](std::size_t i) const { return values_[i]; }
  T* begin() { return values_.get(); }
  T* end() { return values_.get() + size_; }
  std::size_t size() const { return size_; }

 private:
  std::unique_ptr<T[]> values_;
  std::size_t size_ = 0;
};

}  // namespace treefix::detail
