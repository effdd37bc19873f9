#pragma once
// Point sets: n points of dim float coordinates, the input of every spatial tree and query.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace treefix {

// n points of `dim` float coordinates, structure of arrays: coordinate k of point i at
// coord[k*n+i].
struct PointSet {
  std::size_t n = 0;
  int dim = 0;
  std::vector<float> coord;

  PointSet() = default;
  PointSet(std::size_t count, int dimensions)
      : n(count), dim(dimensions), coord(count * static_cast<std::size_t>(dimensions)) {}
  float& at(std::size_t i, int k) { return coord[static_cast<std::size_t>(k) * n + i]; }
  float at(std::size_t i, int k) const { return coord[static_cast<std::size_t>(k) * n + i]; }
  // The points order[0], order[1], ... as a new set.
  PointSet permuted(const std::vector<std::int32_t>& order) const;
};

// Squared Euclidean distance in float, dimensions summed in index order: the one formula that every
// kernel and every reference uses, so that kNN and correlation results compare exactly.
inline float squared_distance(const PointSet& a, std::size_t i, const PointSet& b, std::size_t j) {
  float sum = 0.0f;
  for (int k = 0; k < a.dim; ++k) {
    float diff = a.at(i, k) - b.at(j, k);
    float sq = diff * diff;
    sum = sum + sq;
  }
  return sum;
}

// A permutation of the points along a Morton (Z-order) curve of their first min(dim, 3)
// coordinates: order[i] is the original index of the i-th point in curve order.
std::vector<std::int32_t> morton_order(const PointSet& points);

}  // namespace treefix
