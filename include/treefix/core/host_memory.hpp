#pragma once
// Host memory limits: readers and generators compare what they are about to allocate (from a
// header's counts, the largest id of an edge list, a generator's parameters) with the host's
// memory and refuse before allocating, with the numbers, instead of thrashing or being killed.
// The device side is Runtime::require_fits.
#include <cstdint>
#include <string>

namespace treefix {

// Physical memory of the host in bytes.
std::uint64_t host_memory_bytes();

// CapacityError "what needs X MiB of host memory, but the host has Y MiB" when bytes exceed the
// host's physical memory.
void require_host_memory(std::uint64_t bytes, const std::string& what);

// bytes = count * item_bytes, saturating instead of overflowing (for checks on untrusted counts).
std::uint64_t bytes_for(std::uint64_t count, std::uint64_t item_bytes);

}  // namespace treefix
