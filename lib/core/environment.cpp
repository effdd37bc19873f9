// The library's environment variables, parsed in one place (see treefix/core/environment.hpp).
#include "treefix/core/environment.hpp"

#include <sys/stat.h>

#include <cstdlib>

#include "core/device_select.hpp"
#include "treefix/core/error.hpp"

namespace treefix {
namespace {

std::string text(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

[[noreturn]] void refuse(const char* name, const std::string& value, const std::string& expected) {
  throw InputError(std::string("environment variable ") + name + "='" + value + "': expected " +
                   expected);
}

std::optional<std::size_t> positive(const char* name, std::size_t most) {
  std::string value = detail::trim(text(name));
  if (value.empty()) return std::nullopt;
  std::size_t parsed = 0;
  for (char c : value) {
    if (c < '0' || c > '9' || parsed > most / 10) {  // no sign, no suffix, no overflow
      parsed = 0;
      break;
    }
    parsed = parsed * 10 + static_cast<std::size_t>(c - '0');
  }
  if (parsed == 0 || parsed > most)
    refuse(name, value, "a positive integer of at most " + std::to_string(most));
  return parsed;
}

// A folder's path, or nothing when unset; a path to something else than a folder is refused (a
// missing folder is not: the disk cache creates it).
std::string directory(const char* name) {
  std::string value = text(name);
  struct stat info {};
  if (!value.empty() && ::stat(value.c_str(), &info) == 0 && !S_ISDIR(info.st_mode))
    refuse(name, value, "a directory");
  return value;
}

// One of two words: true for `yes`, false for `no`, nothing when unset.
std::optional<bool> either(const char* name, const char* yes, const char* no) {
  std::string value = detail::trim(text(name));
  if (value.empty()) return std::nullopt;
  if (value == yes) return true;
  if (value == no) return false;
  refuse(name, value, std::string(yes) + " or " + no);
}

// The kernel cache's folder: TREEFIX_CACHE=off turns it off; else TREEFIX_CACHE_DIR, else
// $XDG_CACHE_HOME/treefix, else $HOME/.cache/treefix (created when first written).
std::string cache_directory() {
  const std::string cache = detail::trim(text("TREEFIX_CACHE"));
  if (cache == "off") return {};
  if (!cache.empty() && cache != "on") refuse("TREEFIX_CACHE", cache, "on or off");
  if (std::string chosen = directory("TREEFIX_CACHE_DIR"); !chosen.empty()) return chosen;
  if (const std::string xdg = text("XDG_CACHE_HOME"); !xdg.empty() && xdg[0] == '/')
    return xdg + "/treefix";  // the XDG rule: a relative path is ignored
  if (const std::string home = text("HOME"); !home.empty()) return home + "/.cache/treefix";
  return {};
}

}  // namespace

Environment Environment::read() {
  Environment e;
  e.device = text("TREEFIX_DEVICE");
  e.cache_dir = cache_directory();
  e.build_options = text("TREEFIX_BUILD_OPTIONS");
  e.work_group_size = positive("TREEFIX_WG_SIZE", 1 << 16);
  e.lockstep_width = positive("TREEFIX_LOCKSTEP_WIDTH", 1 << 16);
  e.list_rank_stride = positive("TREEFIX_LIST_RANK_STRIDE", 1 << 20);
  e.radix_sort_items = positive("TREEFIX_RADIX_ITEMS", 64);
  e.single_pass_scan = either("TREEFIX_SCAN", "single-pass", "reduce-then-scan");
  e.pinned_transfers = either("TREEFIX_TRANSFERS", "pinned", "pageable");
  e.boost_key_sort = either("TREEFIX_KEY_SORT", "boost", "radix");
  e.bfs_small_frontier = positive("TREEFIX_BFS_SMALL_FRONTIER", 1 << 30);
  e.bfs_small_arcs = positive("TREEFIX_BFS_SMALL_ARCS", 1u << 31);
  e.bfs_grid_barrier = either("TREEFIX_BFS_GRID_BARRIER", "on", "off");
  e.two_pass_permutation = either("TREEFIX_PERMUTATION", "two-pass", "one-pass");
  if (std::string samples = detail::trim(text("TREEFIX_CC_SAMPLES")); samples == "0")
    e.connectivity_samples = 0;
  else
    e.connectivity_samples = positive("TREEFIX_CC_SAMPLES", 64);
  return e;
}

}  // namespace treefix
