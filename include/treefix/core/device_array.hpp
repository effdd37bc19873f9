#pragma once
// DeviceArray<T>: n values of T in one device buffer. Data stays on the device between calls;
// transfers happen only through upload() and download(), and are profiled when asked.
#include <cstddef>
#include <string>
#include <vector>

#include "treefix/core/runtime.hpp"

namespace treefix {

template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  // Uninitialised storage for n values (the buffer is never zero-sized, even for n = 0).
  DeviceArray(Runtime& runtime, std::size_t n, const std::string& what = "array")
      : buffer_(runtime.allocate(n * sizeof(T), what)), size_(n) {}

  static DeviceArray upload(Runtime& runtime, const std::vector<T>& values,
                            Profile* profile = nullptr, const std::string& what = "array") {
    DeviceArray array(runtime, values.size(), what);
    array.write(runtime, values, profile);
    return array;
  }

  void write(Runtime& runtime, const std::vector<T>& values, Profile* profile = nullptr) {
    if (values.size() != size_)
      throw InputError("DeviceArray::write: " + std::to_string(values.size()) +
                       " values for an array of " + std::to_string(size_));
    if (size_ == 0) return;
    translate_device_errors("upload", [&] {
      cl::Event done;
      runtime.queue().enqueueWriteBuffer(buffer_, CL_TRUE, 0, size_ * sizeof(T), values.data(),
                                         nullptr, &done);
      if (profile) profile->record("upload", done);
    });
  }

  std::vector<T> download(Runtime& runtime, Profile* profile = nullptr) const {
    std::vector<T> values(size_);
    if (size_ == 0) return values;
    translate_device_errors("download", [&] {
      cl::Event done;
      runtime.queue().enqueueReadBuffer(buffer_, CL_TRUE, 0, size_ * sizeof(T), values.data(),
                                        nullptr, &done);
      if (profile) profile->record("download", done);
    });
    return values;
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  const cl::Buffer& buffer() const noexcept { return buffer_; }
  cl::Buffer& buffer() noexcept { return buffer_; }

 private:
  cl::Buffer buffer_;
  std::size_t size_ = 0;
};

// One value at `index` of a device buffer of T, read synchronously (for counters and messages).
template <class T>
T read_value(Runtime& runtime, const cl::Buffer& buffer, std::size_t index = 0) {
  T value{};
  translate_device_errors("reading a value back", [&] {
    runtime.queue().enqueueReadBuffer(buffer, CL_TRUE, index * sizeof(T), sizeof(T), &value);
  });
  return value;
}

}  // namespace treefix
