#pragma once
// Point sets of the spatial suites (points, ropes, spatial): uniform points; the accuracy of
// Barnes-Hut accelerations against the direct sum; and --dump-dir, the point sets a suite
// measured, written for the CPU peer bench/ckdtree_peer.py (SciPy's cKDTree), so that it runs on
// the same points with the same radius and k. The directory gets, per set NAME:
//   NAME.npy          float32 array (n, d): the points (data and queries alike)
//   NAME.counts.npy   int64 array (n): our correlation counts at the radius (when given)
// and one row of points_manifest.csv: name,file,n,dim,radius,k,counts_file (bench/README.md,
// "Point dumps"). The radius is written with 9 significant digits, so float(radius) is exact.
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "treefix/spatial/nbody.hpp"
#include "treefix/spatial/points.hpp"

namespace treefix::bench {

// n points uniform in the unit cube of `dim` dimensions, from a fixed seed.
PointSet uniform_points(std::size_t n, std::uint64_t seed, int dim = 3);

// n points in `clusters` Gaussian clusters (standard deviation 0.01 per coordinate, centres
// uniform in the unit cube, clamped to it), cluster c holding a share proportional to 1/(c+1):
// a few dense clusters and many sparse ones, as the cities of a geographic set.
PointSet clustered_points(std::size_t n, int dim, std::size_t clusters, std::uint64_t seed);

// Goldfarb, Jo and Kulkarni's "Random" bodies: n bodies of equal mass (1/n each) at positions
// uniform in the unit cube, with velocities uniform in [-1, 1] per coordinate, from a fixed seed.
Bodies random_bodies(std::size_t n, std::uint64_t seed);

// The points in Morton order, then `displaced` of the positions exchanged with random others
// (a fraction in [0, 1]): sorted inputs spoiled by degrees, for the automatic variant's test.
PointSet partly_sorted(const PointSet& points, double displaced, std::uint64_t seed);
// The same order applied to bodies (positions, velocities and masses together).
Bodies partly_sorted(const Bodies& bodies, double displaced, std::uint64_t seed);

// The radius whose ball holds about `neighbours` points on average (the point itself included),
// found on a sample of up to 256 points by brute force: for sets whose density is not uniform.
double radius_for_neighbours(const PointSet& points, double neighbours);

// The relative RMS error of accelerations `acc` (3 per body) against the direct sum in double
// (softening eps), on 256 bodies evenly spaced in the array (all when fewer).
double sampled_error(const Bodies& bodies, const std::vector<float>& acc, double eps);

class PointsDump {
 public:
  // An empty directory name dumps nothing.
  explicit PointsDump(std::string directory);
  bool enabled() const { return !directory_.empty(); }
  // NAME must be a plain file name part (letters, digits, '-', '_', '.').
  void add(const std::string& name, const PointSet& points, double radius, int k,
           const std::vector<std::uint32_t>* counts = nullptr);

 private:
  std::string directory_;
  std::ofstream manifest_;
};

}  // namespace treefix::bench
