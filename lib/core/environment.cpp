// The library's environment variables, parsed in one place (see treefix/core/environment.hpp).
#include "treefix/core/environment.hpp"

#include <sys/stat.h>

#include <cstdlib>

#include "core/device_select.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/core/tuning.hpp"

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

// A folder's path, or nothing when unset; a path to something else than a folder is refused (a
// missing folder is not: the disk cache creates it).
std::string directory(const char* name) {
  std::string value = text(name);
  struct stat info {};
  if (!value.empty() && ::stat(value.c_str(), &info) == 0 && !S_ISDIR(info.st_mode))
    refuse(name, value, "a directory");
  return value;
}

// A switch: unset or blank takes the default.
bool on_off(const char* name, bool otherwise) {
  const std::string value = detail::trim(text(name));
  if (value.empty()) return otherwise;
  if (value != "on" && value != "off") refuse(name, value, "on or off");
  return value == "on";
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
  e.mpi_shared_memory = on_off("TREEFIX_MPI_SHARED", true);
  environment_host_threads();  // InputError for a malformed TREEFIX_THREADS
  for (const TuningRow& row : tuning_rows()) {
    std::optional<std::size_t> value;
    if (!row.environment.empty()) {
      if (const std::string raw = text(row.environment.c_str()); !detail::trim(raw).empty())
        value = row.parse(raw);
    }
    e.tuning_overrides.push_back(value);
  }
  return e;
}

std::optional<std::size_t> Environment::tuning(std::string_view name) const {
  const std::vector<TuningRow>& rows = tuning_rows();
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].name == name)
      return i < tuning_overrides.size() ? tuning_overrides[i] : std::nullopt;
  throw InputError("unknown tuning knob '" + std::string(name) + "'");
}

}  // namespace treefix
