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
#include <cstdint>
#include <string>

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

}  // namespace treefix
