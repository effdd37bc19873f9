#pragma once
// What the spatial commands (correlate, knn, nbody) share: the format of their point and body
// files (the readers of treefix/spatial/points_io.hpp), the output file, the traversal choices,
// the device and --stats.
#include <cstdio>
#include <ostream>
#include <string>

#include "command.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/core/profile.hpp"
#include "treefix/spatial/points_io.hpp"
#include "treefix/spatial/ropes.hpp"

namespace treefix::cli {

// What --points, --queries and --bodies say about their formats.
inline constexpr const char* point_file_help =
    "'n d' then n rows of d numbers; .xyz: rows only; .npy: an (n, d) float32/float64 array";

struct SpatialArgs {
  std::string output, device;
  PointFormat format = PointFormat::automatic;
  Variant variant = Variant::automatic;
  SortMode sort = SortMode::automatic;
  bool stats = false;

  // --output (what it holds: `written`; returned, for its check of formats), --input-format,
  // --variant, --sort (what sorting orders: `sorted_items`), --device, --stats.
  CLI::Option* add_to(CLI::App* command, const std::string& sorted_items,
                      const std::string& written) {
    CLI::Option* written_to = add_output_option(command, output, "output file: " + written);
    add_enum_option(command, "--input-format", format,
                    "format of the input files: text, xyz or npy (auto: by extension)");
    add_enum_option(command, "--variant", variant, "traversal variant");
    add_enum_option(command, "--sort", sort, "Morton-order the " + sorted_items + " first");
    add_device_option(command, device);
    add_stats_option(command, stats);
    return written_to;
  }
  PointSet points(const std::string& path) const { return read_points(path, format); }
  Bodies bodies(const std::string& path) const { return read_bodies(path, format); }
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
