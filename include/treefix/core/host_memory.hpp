#pragma once
// Host memory limits: readers and generators compare what they are about to allocate (from a
// header's counts, the largest id of an edge list, a generator's parameters) with the memory this
// process can have now and refuse before allocating, with the numbers, instead of thrashing or
// being killed. The device side is Runtime::require_fits; the graph readers combine both
// (treefix/graph/graph_limits.hpp).
//
// The capacity policy: an estimate of the peak bytes of an operation, made from counts the input
// states (or, when it states none, from its size), is compared with host_memory_available_bytes()
// before the first allocation of that order; a refusal is a CapacityError "WHAT needs X MiB of
// host memory, but only Y MiB of the host's Z MiB are available". Estimates are of the arrays an
// operation holds at its peak, not of the allocator's overhead, so a refusal is never spurious by
// more than a small factor, and an acceptance can still fail later when other processes take the
// memory meanwhile.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace treefix {

// Physical memory of the host in bytes.
std::uint64_t host_memory_bytes();

// Bytes this process can allocate now without swapping or being killed: the least of the memory
// the kernel reports available (Linux MemAvailable: free memory and what it can reclaim), the
// room left under the memory cgroup's limit, and the room left under RLIMIT_AS and RLIMIT_DATA.
// The physical memory where none of these is known.
std::uint64_t host_memory_available_bytes();

// CapacityError "what needs X MiB of host memory, but only Y MiB of the host's Z MiB are
// available" when bytes exceed host_memory_available_bytes().
void require_host_memory(std::uint64_t bytes, const std::string& what);

// bytes = count * item_bytes, saturating instead of overflowing (for checks on untrusted counts).
std::uint64_t bytes_for(std::uint64_t count, std::uint64_t item_bytes);
// a + b, saturating.
std::uint64_t add_bytes(std::uint64_t a, std::uint64_t b);

// "1234.5 MiB" for messages; a saturated count (bytes_for's UINT64_MAX) reads "more than 2^64
// bytes" rather than a number nobody asked for.
std::string mib_text(std::uint64_t bytes);

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
