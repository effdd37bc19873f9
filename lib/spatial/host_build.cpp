// Helpers of the host tree builders (spatial/host_build.hpp).
#include "spatial/host_build.hpp"

#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "treefix/core/error.hpp"

namespace treefix::detail {

void check_points(const PointSet& points, const char* what) {
  if (points.dim < 1) throw InputError(std::string(what) + ": points need at least one dimension");
  if (points.n > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max() / 2))
    throw CapacityError(std::string(what) + ": " + std::to_string(points.n) +
                        " points exceed the 32-bit indices of the tree layout");
  for (float v : points.coord)
    if (!std::isfinite(v)) throw InputError(std::string(what) + ": a coordinate is not finite");
}

std::int32_t new_node(LinearTree& tree, std::int32_t first, std::int32_t count) {
  tree.first.push_back(first);
  tree.count.push_back(count);
  tree.child.insert(tree.child.end(), tree.arity, -1);
  return static_cast<std::int32_t>(tree.first.size() - 1);
}

void gather_points(LinearTree& tree, const PointSet& points) {
  tree.points = points.permuted(tree.point_index);
}

void start_tree(LinearTree& tree, const PointSet& points, int arity, int leaf_size,
                const char* what) {
  check_points(points, what);
  if (leaf_size < 1) throw InputError(std::string(what) + ": leaf size must be at least 1");
  tree.arity = arity;
  tree.point_index.resize(points.n);
  std::iota(tree.point_index.begin(), tree.point_index.end(), 0);
}

}  // namespace treefix::detail
