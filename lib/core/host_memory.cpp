// Host memory limits (treefix/core/host_memory.hpp).
#include "treefix/core/host_memory.hpp"

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "treefix/core/error.hpp"

namespace treefix {

namespace {

constexpr std::uint64_t kUnknown = std::numeric_limits<std::uint64_t>::max();

// The first number after `key` in a "key value [kB]" file (/proc/meminfo, /proc/self/status),
// times `unit`; kUnknown when absent.
std::uint64_t field_of(const char* path, const std::string& key, std::uint64_t unit) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, key.size(), key) == 0) {
      std::istringstream rest(line.substr(key.size()));
      std::uint64_t value = 0;
      if (rest >> value) return value * unit;
    }
  return kUnknown;
}

// One number in a file (a cgroup's limit or usage); kUnknown when absent or "max".
std::uint64_t number_in(const std::string& path) {
  std::ifstream in(path);
  std::uint64_t value = 0;
  return in >> value ? value : kUnknown;
}

// Room left under the memory cgroup's limit (v2 memory.max, v1 memory.limit_in_bytes), looked up
// for the process's own cgroup and for the root of the namespace a container sees.
std::uint64_t cgroup_room() {
  std::ifstream self("/proc/self/cgroup");
  std::string line, v2_path, v1_path;
  while (std::getline(self, line)) {
    const auto colon = line.find(':'), second = line.find(':', colon + 1);
    if (colon == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(colon + 1, second - colon - 1);
    if (line.compare(0, colon, "0") == 0 && controllers.empty()) v2_path = line.substr(second + 1);
    if (controllers == "memory") v1_path = line.substr(second + 1);
  }
  std::uint64_t room = kUnknown;
  auto consider = [&](const std::string& dir, const char* limit_file, const char* usage_file) {
    const std::uint64_t limit = number_in(dir + limit_file);
    if (limit == kUnknown || limit >= (std::uint64_t(1) << 62)) return;  // no limit
    const std::uint64_t used = number_in(dir + usage_file);
    room = std::min(room, used == kUnknown || used > limit ? 0 : limit - used);
  };
  for (const std::string& dir : {"/sys/fs/cgroup" + v2_path + "/", std::string("/sys/fs/cgroup/")})
    consider(dir, "memory.max", "memory.current");
  for (const std::string& dir :
       {"/sys/fs/cgroup/memory" + v1_path + "/", std::string("/sys/fs/cgroup/memory/")})
    consider(dir, "memory.limit_in_bytes", "memory.usage_in_bytes");
  return room;
}

// Room left under a resource limit, given the process's current use of it.
std::uint64_t rlimit_room(int resource, std::uint64_t used) {
  struct rlimit limit {};
  if (::getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return kUnknown;
  const auto cap = static_cast<std::uint64_t>(limit.rlim_cur);
  return used == kUnknown ? cap : (used > cap ? 0 : cap - used);
}

}  // namespace

std::uint64_t host_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return kUnknown;  // unknown: no limit
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
}

std::uint64_t host_memory_available_bytes() {
  std::uint64_t room =
      std::min(host_memory_bytes(), field_of("/proc/meminfo", "MemAvailable:", 1024));
  room = std::min(room, cgroup_room());
  room = std::min(room, rlimit_room(RLIMIT_AS, field_of("/proc/self/status", "VmSize:", 1024)));
  room = std::min(room, rlimit_room(RLIMIT_DATA, field_of("/proc/self/status", "VmData:", 1024)));
  return room;
}

std::uint64_t bytes_for(std::uint64_t count, std::uint64_t item_bytes) {
  if (item_bytes && count > kUnknown / item_bytes) return kUnknown;
  return count * item_bytes;
}

std::uint64_t add_bytes(std::uint64_t a, std::uint64_t b) {
  return a > kUnknown - b ? kUnknown : a + b;
}

std::string mib_text(std::uint64_t bytes) {
  if (bytes == kUnknown) return "more than 2^64 bytes";
  char text[48];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return text;
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
  const std::uint64_t have = host_memory_available_bytes();
  if (bytes <= have) return;
  const std::uint64_t physical = host_memory_bytes();
  throw CapacityError(
      what + " needs " + mib_text(bytes) + " of host memory, but only " + mib_text(have) +
      (physical == kUnknown ? std::string(" are available")
                            : " of the host's " + mib_text(physical) + " are available"));
}

}  // namespace treefix
