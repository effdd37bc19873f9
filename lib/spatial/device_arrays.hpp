#pragma once
// Internal to the spatial module: device arrays that are reused across builds (fit) and read
// back in part (head).
#include <cstddef>
#include <vector>

#include "treefix/core/device_array.hpp"

namespace treefix::detail {

// Resizes `array` to hold at least n values when it does not (its contents are then lost).
template <class T>
void fit(Runtime& runtime, DeviceArray<T>& array, std::size_t n, const char* what) {
  if (!array.buffer()() || array.size() < n) array = DeviceArray<T>(runtime, n, what);
}

// The first `count` values of an array that may be larger (reused) than what it holds.
template <class T>
std::vector<T> head(Runtime& runtime, const DeviceArray<T>& array, std::size_t count,
                    Profile* profile) {
  std::vector<T> values = array.download(runtime, profile);
  values.resize(count);
  return values;
}

}  // namespace treefix::detail
