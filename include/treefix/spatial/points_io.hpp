#pragma once
// Files of points and bodies (the inputs of `treefix nbody|correlate|knn`), in three formats,
// chosen by PointFormat or by the file's extension:
//   text  (any other extension)  first line "n d", then n rows of d numbers
//   xyz   (.xyz)                 rows of d numbers and nothing else, d = the first row's count
//                                (the plain `x y z` rows of range scans)
//   npy   (.npy)                 a 2-D float32 or float64 NumPy array of shape (n, d), C order
// Points have 1 <= d <= 16 coordinates; bodies have d = 7: "mass x y z vx vy vz".
// In text, '#' starts a comment and a row must lie on one line (ragged rows are refused); text is
// parsed on all host cores. The number policy: every number is finite and within +-FLT_MAX (values
// are stored as float; rounding to float is accepted, overflow is not), masses are >= 0. An empty
// file is refused. Errors are InputError "file:line: ..." (text) or "file: element [i, k] ..."
// (.npy); sizes are checked against the host's memory before allocating (CapacityError).
#include <ostream>
#include <string>

#include "treefix/core/names.hpp"
#include "treefix/spatial/nbody.hpp"
#include "treefix/spatial/trees.hpp"

namespace treefix {

enum class PointFormat { automatic, text, xyz, npy };
TREEFIX_ENUM_NAMES(PointFormat, "point format", {PointFormat::automatic, "auto"},
                   {PointFormat::text, "text"}, {PointFormat::xyz, "xyz", "rows"},
                   {PointFormat::npy, "npy"});

// The format `given`, or for automatic the one the extension names (.npy; .xyz; else text).
PointFormat point_format_of(const std::string& path, PointFormat given = PointFormat::automatic);

PointSet read_points(const std::string& path, PointFormat format = PointFormat::automatic);
Bodies read_bodies(const std::string& path, PointFormat format = PointFormat::automatic);

void write_points(std::ostream& out, const PointSet& points);  // the text format
// A float32 .npy array of shape (n, d).
void write_points_npy(std::ostream& out, const PointSet& points);
// Bodies in `format` (automatic: text), so that read_bodies reads them back: text with its "n 7"
// line, xyz rows only, or a float32 (n, 7) .npy array.
void write_bodies(std::ostream& out, const Bodies& bodies, PointFormat format = PointFormat::text);

}  // namespace treefix
