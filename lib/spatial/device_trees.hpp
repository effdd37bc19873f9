#pragma once
// Internal to the spatial module: host query sorting and un-permuting (the vp-tree queries),
// the radius and distance formulas shared by the references.
#include <cmath>
#include <string>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/spatial/ropes.hpp"
#include "treefix/spatial/trees.hpp"

namespace treefix::detail {

constexpr int max_point_dim = 16;  // DIM is compiled in; queries keep DIM floats in registers

inline std::string dim_option(const char* what, int dim) {
  if (dim < 1 || dim > max_point_dim)
    throw InputError(std::string(what) + ": points of dimension " + std::to_string(dim) +
                     " are not supported (1.." + std::to_string(max_point_dim) + ")");
  return "-DDIM=" + std::to_string(dim);
}

// The queries in the order the traversal runs them: Morton order when sorting, else as given.
struct RunOrder {
  PointSet points;
  std::vector<std::int32_t> order;  // run position -> original query index
  bool sorted = false;
};

inline RunOrder run_order(const PointSet& queries, SortMode mode) {
  RunOrder r;
  r.sorted = choose_sort(mode, queries.n);
  if (r.sorted) {
    r.order = morton_order(queries);
    r.points = queries.permuted(r.order);
  } else {
    r.points = queries;
    r.order.resize(queries.n);
    for (std::size_t i = 0; i < queries.n; ++i) r.order[i] = std::int32_t(i);
  }
  return r;
}

// values[run position * per + j] -> out[original * per + j]
template <class T>
std::vector<T> unpermute(const std::vector<T>& values, const std::vector<std::int32_t>& order,
                         std::size_t per = 1) {
  std::vector<T> out(values.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t j = 0; j < per; ++j) out[order[i] * per + j] = values[i * per + j];
  return out;
}

template <class T>
DeviceArray<T> upload(Runtime& rt, const std::vector<T>& v, Profile* p, const char* what) {
  return DeviceArray<T>::upload(rt, v, p, what);
}

inline float squared_radius(double radius) {
  if (!(radius >= 0) || !std::isfinite(radius))
    throw InputError("radius must be a finite number >= 0, not " + std::to_string(radius));
  float r = static_cast<float>(radius);
  return r * r;
}

// Mirrors kernels/spatial/ropes_kd.clh.
inline float box_distance2(const KdTree& t, const float* q, std::int32_t node) {
  const std::size_t nodes = t.nodes();
  float sum = 0.0f;
  for (int k = 0; k < t.points.dim; ++k) {
    float lo = t.box_lo[k * nodes + node], hi = t.box_hi[k * nodes + node];
    float diff = q[k] < lo ? lo - q[k] : (q[k] > hi ? q[k] - hi : 0.0f);
    float sq = diff * diff;
    sum = sum + sq;
  }
  return sum;
}
inline float point_distance2(const PointSet& data, const float* q, std::int32_t j) {
  float sum = 0.0f;
  for (int k = 0; k < data.dim; ++k) {
    float diff = data.at(j, k) - q[k];
    float sq = diff * diff;
    sum = sum + sq;
  }
  return sum;
}

}  // namespace treefix::detail
