#pragma once
// Text files of points and bodies (the `treefix nbody|correlate|knn` formats):
//   points:  first line "n d", then n rows of d numbers
//   bodies:  first line "n 7", then n rows "mass x y z vx vy vz"
// '#' starts a comment. A row must lie on one line; numbers must be finite and fit a float (they
// are stored as float); masses must be >= 0. Errors are InputError "file:line: message".
#include <ostream>
#include <string>

#include "treefix/spatial/nbody.hpp"
#include "treefix/spatial/trees.hpp"

namespace treefix {

PointSet read_points(const std::string& path);
void write_points(std::ostream& out, const PointSet& points);

Bodies read_bodies(const std::string& path);
void write_bodies(std::ostream& out, const Bodies& bodies);

}  // namespace treefix
