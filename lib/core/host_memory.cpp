// Host memory limits (treefix/core/host_memory.hpp).
#include "treefix/core/host_memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <limits>

#include "treefix/core/error.hpp"

namespace treefix {

std::uint64_t host_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0)
    return std::numeric_limits<std::uint64_t>::max();  // unknown: no limit
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
}

std::uint64_t bytes_for(std::uint64_t count, std::uint64_t item_bytes) {
  if (item_bytes && count > std::numeric_limits<std::uint64_t>::max() / item_bytes)
    return std::numeric_limits<std::uint64_t>::max();
  return count * item_bytes;
}

void prefault_for_writing(void* data, std::size_t bytes) {
#if defined(__linux__)
  // Small ranges fault cheaply; a large one is mapped by the kernel in one call instead of a trap
  // per page. Both advices are hints: an older kernel answers EINVAL and the writes fault as usual.
  if (bytes < (std::size_t(4) << 20)) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const std::uintptr_t begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) / page * page;
  const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(data) + bytes) / page * page;
  if (end <= begin) return;
  void* const range = reinterpret_cast<void*>(begin);
  ::madvise(range, end - begin, MADV_HUGEPAGE);
#ifndef MADV_POPULATE_WRITE
  constexpr int MADV_POPULATE_WRITE = 23;  // Linux 5.14; glibc 2.36's headers may lack it
#endif
  ::madvise(range, end - begin, MADV_POPULATE_WRITE);
#else
  (void)data;
  (void)bytes;
#endif
}

void require_host_memory(std::uint64_t bytes, const std::string& what) {
  const std::uint64_t have = host_memory_bytes();
  if (bytes <= have) return;
  auto mib = [](std::uint64_t b) {
    char text[48];
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(b) / (1024.0 * 1024.0));
    return std::string(text);
  };
  throw CapacityError(what + " needs " + mib(bytes) + " of host memory, but the host has " +
                      mib(have));
}

}  // namespace treefix
