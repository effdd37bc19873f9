#pragma once
// treefix-bench spatial: the device-built spatial trees phase by phase (bench_spatial.cpp: key
// sorts, tree builds, the auto table; bench_spatial_apps.cpp: Barnes-Hut time steps and kNN /
// correlation end to end), next to the CPU and, through the dumped points, SciPy's cKDTree.
#include <map>
#include <string>
#include <vector>

#include "bench.hpp"
#include "point_sets.hpp"
#include "treefix/core/profile.hpp"
#include "treefix/spatial/nbody.hpp"
#include "treefix/spatial/points.hpp"

namespace treefix::bench::spatial {

// The suite's options; dump_dir (SpatialWorkload) takes the point sets for the cKDTree peer
// (point_sets.hpp's PointsDump).
struct Args : SpatialWorkload {
  CommonOptions common{"", "", 5, 1};
  std::string sort_sizes = "1048576";
  std::string tables = "sort,build,nbody,knn,correlate,auto";
  std::string real;          // an x y z file (a real scan) for the build, knn and correlate tables
  bool dump_bodies = false;  // also the Plummer bodies as an (n, 7) .npy (for `treefix nbody`)
  int steps = 5;
};

// A named point set the tables share (and the peer reads back from the dump).
struct NamedPoints {
  std::string name;
  PointSet points;
  double radius;  // the correlation radius: about Args::neighbours points per ball
};

std::vector<NamedPoints> query_sets(const Args& a);
// The device phases of the builds, in table order.
extern const std::vector<std::string> kBuildPhases;
// Milliseconds of a profile phase (0 when absent).
double phase_ms(const Profile& p, const std::string& phase);

void nbody_table(Runtime& rt, const Args& a, Table& rows);
void query_table(Runtime& rt, const Args& a, const std::vector<NamedPoints>& sets, Table& rows);

}  // namespace treefix::bench::spatial
