#pragma once
// Host memory limits: readers and generators compare what they are about to allocate (from a
// header's counts, the largest id of an edge list, a generator's parameters) with the host's
// memory and refuse before allocating, with the numbers, instead of thrashing or being killed.
// The device side is Runtime::require_fits.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace treefix {

// Physical memory of the host in bytes.
std::uint64_t host_memory_bytes();

// CapacityError "what needs X MiB of host memory, but the host has Y MiB" when bytes exceed the
// host's physical memory.
void require_host_memory(std::uint64_t bytes, const std::string& what);

// bytes = count * item_bytes, saturating instead of overflowing (for checks on untrusted counts).
std::uint64_t bytes_for(std::uint64_t count, std::uint64_t item_bytes);

// Maps the pages of [data, data + bytes) ahead of their first write, in large pages where the
// kernel allows, without writing them (Linux madvise; elsewhere, or on older kernels, nothing).
// Why: a fresh 64 MiB vector costs 16,384 page faults on its first write, ~50 ms on a virtual
// machine's single thread, longer than the device work of a 2^24 treefix.
void prefault_for_writing(void* data, std::size_t bytes);

// std::vector<T>(n, value), its pages mapped by prefault_for_writing before it is filled.
template <class T>
std::vector<T> prefaulted_vector(std::size_t n, const T& value = T()) {
  std::vector<T> values;
  values.reserve(n);
  prefault_for_writing(values.data(), n * sizeof(T));
  values.resize(n, value);
  return values;
}

}  // namespace treefix
