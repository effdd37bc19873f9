#pragma once
// DeviceArray<T>: n values of T in one device buffer. Data stays on the device between calls;
// transfers happen only through upload(), write() and download(), and are profiled when asked.
//
// Transfers of large arrays go through page-locked (pinned) staging memory where the device's
// the tuning says so (knob pinned_transfers): the host copies a chunk into one of two mapped
// CL_MEM_ALLOC_HOST_PTR buffers (on every host core) while the DMA of the previous chunk runs.
// Elsewhere, and for small arrays, the runtime copies straight from the caller's memory.
#include <cstddef>
#include <string>
#include <vector>

#include "treefix/core/host_memory.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix {

namespace detail {
// Blocking copies between host memory and `buffer` (from byte `offset`), staged as Tuning says;
// each DMA's event is recorded under "upload" / "download" in `profile`.
void write_buffer(Runtime& runtime, const cl::Buffer& buffer, const void* host, std::size_t bytes,
                  Profile* profile, std::size_t offset = 0);
void read_buffer(Runtime& runtime, const cl::Buffer& buffer, void* host, std::size_t bytes,
                 Profile* profile, std::size_t offset = 0);
// The concatenation of host pieces into `buffer` from byte 0 (files read into many buffers, sent
// as one array), staged as Tuning says: each staging chunk is filled from the pieces it overlaps
// on every core, so the bytes are copied once on the host, not gathered first.
struct HostPiece {
  const void* data;
  std::size_t bytes;
};
void write_buffer_gather(Runtime& runtime, const cl::Buffer& buffer,
                         const std::vector<HostPiece>& pieces, Profile* profile);
// The same with the staging chosen by the caller (the benchmark compares both).
enum class Staging { direct, pinned };
// Sets up what the first large transfer of a fresh Runtime would otherwise pay for inside the
// user's call (the page-locked staging slots, the first DMA each way); for a setup thread.
void warm_up_transfers(Runtime& runtime);
void write_buffer(Runtime& runtime, const cl::Buffer& buffer, const void* host, std::size_t bytes,
                  Profile* profile, std::size_t offset, Staging staging);
void read_buffer(Runtime& runtime, const cl::Buffer& buffer, void* host, std::size_t bytes,
                 Profile* profile, std::size_t offset, Staging staging);
}  // namespace detail

template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  // Uninitialised storage for n values (the buffer is never zero-sized, even for n = 0).
  DeviceArray(Runtime& runtime, std::size_t n, const std::string& what = "array")
      : buffer_(runtime.allocate(n * sizeof(T), what)), size_(n) {}

  // n values in the Runtime's workspace `slot` (Runtime::scratch): kept between calls, so that a
  // repeated call allocates nothing. Uninitialised, like a new array; one user of a slot at a
  // time.
  static DeviceArray workspace(Runtime& runtime, const std::string& slot, std::size_t n) {
    DeviceArray array;
    array.buffer_ = runtime.scratch(slot, n * sizeof(T));
    array.size_ = n;
    return array;
  }

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
    detail::write_buffer(runtime, buffer_, values.data(), size_ * sizeof(T), profile);
  }

  std::vector<T> download(Runtime& runtime, Profile* profile = nullptr) const {
    std::vector<T> values = prefaulted_vector<T>(size_);
    detail::read_buffer(runtime, buffer_, values.data(), size_ * sizeof(T), profile);
    return values;
  }

  // Values [offset, offset + count) copied from `host` (memory the caller owns: a NumPy array,
  // a mapped file), staged as the tuning says, blocking. The range must lie inside the array.
  void write_from(Runtime& runtime, const T* host, std::size_t count, std::size_t offset = 0,
                  Profile* profile = nullptr) {
    check_range("write_from", count, offset);
    if (count > 0)
      detail::write_buffer(runtime, buffer_, host, count * sizeof(T), profile,
                           offset * sizeof(T));
  }

  // Values [offset, offset + count) copied into `host` (room for count values), blocking.
  void read_into(Runtime& runtime, T* host, std::size_t count, std::size_t offset = 0,
                 Profile* profile = nullptr) const {
    check_range("read_into", count, offset);
    if (count > 0)
      detail::read_buffer(runtime, buffer_, host, count * sizeof(T), profile, offset * sizeof(T));
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  const cl::Buffer& buffer() const noexcept { return buffer_; }
  cl::Buffer& buffer() noexcept { return buffer_; }

 private:
  void check_range(const char* what, std::size_t count, std::size_t offset) const {
    if (offset > size_ || count > size_ - offset)
      throw InputError(std::string("DeviceArray::") + what + ": values [" +
                       std::to_string(offset) + ", " + std::to_string(offset) + " + " +
                       std::to_string(count) + ") of an array of " + std::to_string(size_));
  }

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
