#pragma once
// Real point sets for the spatial tests (tests/data/*.xyz with their SOURCE notes), read by a
// small local parse of "x y z" rows.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "treefix/spatial/points.hpp"

namespace treefix::test {

inline PointSet read_xyz(const std::string& name) {
  std::ifstream in(std::filesystem::path(__FILE__).parent_path() / "data" / name);
  if (!in) throw std::runtime_error("cannot open test data " + name);
  std::vector<float> x, y, z;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    float a, b, c;
    if (row >> a >> b >> c) x.push_back(a), y.push_back(b), z.push_back(c);
  }
  PointSet p(x.size(), 3);
  for (std::size_t i = 0; i < x.size(); ++i)
    p.at(i, 0) = x[i], p.at(i, 1) = y[i], p.at(i, 2) = z[i];
  return p;
}

}  // namespace treefix::test
