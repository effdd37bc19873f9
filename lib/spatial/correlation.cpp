// 2-point correlation on a kd-tree: device traversal (kernels/spatial/ropes_correlation.clh) and
// the brute-force and tree-based CPU references.
#include <algorithm>

#include "spatial/device_trees.hpp"
#include "treefix/spatial/neighbours.hpp"

namespace treefix {

std::vector<std::uint32_t> correlation_counts(Runtime& runtime, const KdTree& tree,
                                              const PointSet& queries, double radius,
                                              const QueryOptions& options) {
  const float radius2 = detail::squared_radius(radius);
  if (queries.dim != tree.points.dim)
    throw InputError("correlation: queries have dimension " + std::to_string(queries.dim) +
                     ", the points " + std::to_string(tree.points.dim));
  TraversalPieces pieces{"ropes-correlation",
                         Runtime::expanded_source("spatial/ropes_correlation.clh"),
                         detail::dim_option("correlation", queries.dim), false};
  auto run = detail::run_order(queries, options.sort);
  Variant variant = choose_variant(runtime, options.variant, pieces.guided, run.sorted);
  if (options.chosen) *options.chosen = variant;
  if (options.sorted) *options.sorted = run.sorted;
  if (queries.n == 0) {
    if (options.stats) *options.stats = {};
    return {};
  }
  detail::DeviceKdTree device_tree(runtime, tree, options.profile);
  auto query = DeviceArray<float>::upload(runtime, run.points.coord, options.profile, "queries");
  DeviceArray<std::uint32_t> result(runtime, queries.n, "correlation counts");
  run_traversal(
      runtime, pieces, variant, tree, queries.n,
      [&](KernelArgs& args) {
        device_tree.bind(args, cl_uint(queries.n), query.buffer());
        args(radius2, result);
      },
      options.profile, options.stats);
  return detail::unpermute(result.download(runtime, options.profile), run.order);
}

namespace reference {

std::vector<std::uint32_t> correlation_brute(const PointSet& data, const PointSet& queries,
                                             double radius) {
  const float radius2 = detail::squared_radius(radius);
  std::vector<std::uint32_t> counts(queries.n, 0);
  parallel_for_items(queries.n, 0, [&](std::size_t begin, std::size_t end) {
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
  parallel_for_items(queries.n, threads, [&](std::size_t begin, std::size_t end) {
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
