// 2-point correlation on a host kd-tree (uploaded; the device traversal is in kd_queries.cpp) and
// the brute-force and tree-based CPU references.
#include <algorithm>

#include "spatial/device_trees.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/spatial/neighbours.hpp"

namespace treefix {

std::vector<std::uint32_t> correlation_counts(Runtime& runtime, const KdTree& tree,
                                              const PointSet& queries, double radius,
                                              const QueryOptions& options) {
  detail::squared_radius(radius);
  if (queries.dim != tree.points.dim)
    throw InputError("correlation: queries have dimension " + std::to_string(queries.dim) +
                     ", the points " + std::to_string(tree.points.dim));
  DeviceKdTree device_tree = DeviceKdTree::upload(runtime, tree, options.profile);
  DevicePoints device_queries = DevicePoints::upload(runtime, queries, options.profile);
  DeviceArray<std::uint32_t> counts(runtime, queries.n, "correlation counts");
  correlation_counts(runtime, device_tree, &device_queries, radius, counts, options);
  return counts.download(runtime, options.profile);
}

namespace reference {

std::vector<std::uint32_t> correlation_brute(const PointSet& data, const PointSet& queries,
                                             double radius) {
  const float radius2 = detail::squared_radius(radius);
  std::vector<std::uint32_t> counts(queries.n, 0);
  parallel_for_ranges(queries.n, kRopeItemsPerPiece, 0, [&](std::size_t begin, std::size_t end) {
    for (std::size_t q = begin; q < end; ++q)
      for (std::size_t j = 0; j < data.n; ++j)
        if (squared_distance(queries, q, data, j) <= radius2) ++counts[q];
  });
  return counts;
}

namespace {
using detail::box_distance2;
using detail::point_distance2;

struct CorrelationState {
  const KdTree& t;
  float q[detail::max_point_dim];
  float radius2;
  std::uint32_t count = 0;
  bool truncate(std::int32_t node) const { return box_distance2(t, q, node) > radius2; }
  void visit(std::int32_t node) {
    for (std::int32_t j = t.first[node]; j < t.first[node] + t.count[node]; ++j)
      if (point_distance2(t.points, q, j) <= radius2) ++count;
  }
  int call_set(std::int32_t) const { return 0; }
  std::int32_t child(std::int32_t node, int, int i) const { return t.child[2 * node + i]; }
};
}  // namespace

std::vector<std::uint32_t> correlation_tree(const KdTree& tree, const PointSet& queries,
                                            double radius, unsigned threads,
                                            std::vector<std::uint32_t>* visits) {
  const float radius2 = detail::squared_radius(radius);
  detail::dim_option("correlation", queries.dim);
  std::vector<std::uint32_t> counts(queries.n, 0);
  if (visits) visits->assign(queries.n, 0);
  parallel_for_ranges(queries.n, kRopeItemsPerPiece, threads,
                      [&](std::size_t begin, std::size_t end) {
                        std::vector<std::int32_t> stack;
                        for (std::size_t i = begin; i < end; ++i) {
                          CorrelationState s{tree, {}, radius2};
                          for (int k = 0; k < queries.dim; ++k) s.q[k] = queries.at(i, k);
                          std::uint32_t v = cpu_rope_traverse(s, tree, stack);
                          counts[i] = s.count;
                          if (visits) (*visits)[i] = v;
                        }
                      });
  return counts;
}

}  // namespace reference
}  // namespace treefix
