#pragma once
// The traversal choices shared by the spatial commands (correlate, knn, nbody).
#include <cstdio>
#include <ostream>
#include <string>

#include "command.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/core/profile.hpp"
#include "treefix/spatial/ropes.hpp"

namespace treefix::cli {

struct TraversalArgs {
  Variant variant = Variant::automatic;
  SortMode sort = SortMode::automatic;
  std::string device;
  bool stats = false;
  // --variant, --sort (what sorting orders: `sorted_items`), --device, --stats.
  void add_to(CLI::App* command, const std::string& sorted_items) {
    add_enum_option(command, "--variant", variant, "traversal variant");
    add_enum_option(command, "--sort", sort, "Morton-order the " + sorted_items + " first");
    add_device_option(command, device);
    add_stats_option(command, stats);
  }
  // With --stats: the wall time of each phase of the command, then the device time of each
  // kernel phase (OpenCL profiling events: frame, codes, sort, build, summary, traverse, ...).
  void print_stats(std::ostream& out, const std::string& prefix, const PhaseTimes& phases,
                   const Profile& profile) const {
    if (!stats) return;
    phases.print(out, prefix);
    char line[160];
    for (const std::string& phase : profile.phases()) {
      std::snprintf(line, sizeof line, "%s: device %-14s %10.3f ms (%zu commands)\n",
                    prefix.c_str(), phase.c_str(), profile.milliseconds(phase),
                    profile.launches(phase));
      out << line;
    }
  }
  // The variant and sort mode into a library options struct (QueryOptions, GravityOptions).
  template <class Options>
  Options options(Profile* profile = nullptr) const {
    Options o;
    o.variant = variant;
    o.sort = sort;
    o.profile = profile;
    return o;
  }
};

}  // namespace treefix::cli
