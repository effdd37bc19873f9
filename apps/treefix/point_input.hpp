#pragma once
// The point and body files of the spatial commands (correlate, knn, nbody): --input-format and
// the readers of treefix/spatial/points_io.hpp.
#include "command.hpp"
#include "treefix/spatial/points_io.hpp"

namespace treefix::cli {

// What --points, --queries and --bodies say about their formats.
inline constexpr const char* point_file_help =
    "'n d' then n rows of d numbers; .xyz: rows only; .npy: an (n, d) float32/float64 array";

struct PointInputArgs {
  PointFormat format = PointFormat::automatic;
  void add_to(CLI::App* command) {
    add_enum_option(command, "--input-format", format,
                    "format of the input files: text, xyz or npy (auto: by extension)");
  }
  PointSet points(const std::string& path) const { return read_points(path, format); }
  Bodies bodies(const std::string& path) const { return read_bodies(path, format); }
};

}  // namespace treefix::cli
