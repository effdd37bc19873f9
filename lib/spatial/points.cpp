// Point sets: permutation and Morton (Z-order) ordering.
#include <algorithm>
#include <numeric>

#include "treefix/spatial/points.hpp"

namespace treefix {

PointSet PointSet::permuted(const std::vector<std::int32_t>& order) const {
  PointSet out(order.size(), dim);
  for (int k = 0; k < dim; ++k)
    for (std::size_t i = 0; i < order.size(); ++i) out.at(i, k) = at(order[i], k);
  return out;
}

std::vector<std::int32_t> morton_order(const PointSet& points) {
  int dims = std::min(points.dim, 3);
  int bits = dims == 1 ? 30 : dims == 2 ? 16 : 10;
  std::vector<double> lo(dims, 0), scale(dims, 0);
  for (int k = 0; k < dims; ++k) {
    if (!points.n) break;
    double a = points.at(0, k), b = a;
    for (std::size_t i = 0; i < points.n; ++i) {
      a = std::min<double>(a, points.at(i, k));
      b = std::max<double>(b, points.at(i, k));
    }
    lo[k] = a;
    scale[k] = b > a ? ((1u << bits) - 1) / (b - a) : 0;
  }
  std::vector<std::uint64_t> code(points.n, 0);
  for (std::size_t i = 0; i < points.n; ++i) {
    std::uint64_t c = 0;
    std::uint32_t q[3] = {0, 0, 0};
    for (int k = 0; k < dims; ++k) q[k] = std::uint32_t((points.at(i, k) - lo[k]) * scale[k]);
    for (int b = bits - 1; b >= 0; --b)
      for (int k = 0; k < dims; ++k) c = (c << 1) | ((q[k] >> b) & 1u);
    code[i] = c;
  }
  std::vector<std::int32_t> order(points.n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::int32_t a, std::int32_t b) { return code[a] < code[b]; });
  return order;
}

}  // namespace treefix
