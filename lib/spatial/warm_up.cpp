// The spatial module's warm-up tasks (treefix/spatial/warm_up.hpp): the public calls on a few
// points.
#include "treefix/spatial/warm_up.hpp"

#include "treefix/spatial/device_build.hpp"
#include "treefix/spatial/nbody.hpp"
#include "treefix/spatial/neighbours.hpp"

namespace treefix {
namespace {
PointSet tiny_points(std::size_t n) {
  PointSet points(n, 3);
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) points.at(i, k) = static_cast<float>((i * (k + 3) * 7) % 17);
  return points;
}
}  // namespace

std::vector<WarmUpTask> spatial_warm_up_tasks() {
  return {{"kd-tree: build, k nearest, ball counts",
           [](Runtime& runtime) {
             const DevicePoints points = DevicePoints::upload(runtime, tiny_points(64));
             const DeviceKdTree tree = build_kd_tree(runtime, points);
             auto index = DeviceArray<std::int32_t>(runtime, 64 * 4);
             auto d2 = DeviceArray<float>(runtime, 64 * 4);
             knn(runtime, tree, nullptr, 4, index, d2);
           }},
          {"octree gravity",
           [](Runtime& runtime) {
             Bodies bodies(64);
             const PointSet points = tiny_points(64);
             bodies.position = points;
             for (float& m : bodies.mass) m = 1.0f;
             accelerations(runtime, bodies);
           }}};
}

}  // namespace treefix
