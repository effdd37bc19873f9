// The k nearest points on a device kd-tree, exact, in cKDTree's conventions
// (treefix/spatial/kd_search.hpp; kernels/spatial/ropes_kd_nearest.clh).
#include <algorithm>
#include <cmath>
#include <string>

#include "spatial/kd_search_run.hpp"
#include "spatial/spatial_tuning.hpp"
#include "treefix/core/error.hpp"
#include "treefix/spatial/kd_search.hpp"

namespace treefix {
namespace {

// Candidates a query keeps in registers (specialised programs: 8 where k <= 8); more go to a
// heap in global memory.
constexpr std::int64_t kPrivateNeighbours = 16, kFewNeighbours = 8;

void check_nearest(const NearestQuery& query, const char* what) {
  if (query.ranks.empty()) throw InputError(std::string(what) + ": no neighbour ranks asked for");
  for (std::int64_t r : query.ranks)
    if (r < 1)
      throw InputError(std::string(what) + ": neighbour rank k = " + std::to_string(r) +
                       "; ranks start at 1");
  if (!(query.eps >= 0))
    throw InputError(std::string(what) + ": eps = " + std::to_string(query.eps) + " must be >= 0");
  if (!(query.distance_upper_bound >= 0))
    throw InputError(std::string(what) + ": distance_upper_bound = " +
                     std::to_string(query.distance_upper_bound) + " must be >= 0");
}

}  // namespace

template <class Real>
void nearest(Runtime& runtime, const BasicDeviceKdTree<Real>& tree, QuerySource<Real> queries,
             const NearestQuery& query, DeviceArray<std::int64_t>& index,
             DeviceArray<Real>& distance, const QueryOptions& options) {
  const char* what = "nearest neighbours";
  check_nearest(query, what);
  detail::check_metric(query.metric, tree.dim, what);
  detail::check_source(tree, queries, what);
  const std::size_t m = queries.points ? queries.points->n
                        : queries.tree ? queries.tree->points
                                       : tree.points;
  const std::size_t per = query.ranks.size();
  if (index.size() < m * per || distance.size() < m * per)
    throw InputError(std::string(what) + ": the result arrays are too small");
  const std::int64_t most = *std::max_element(query.ranks.begin(), query.ranks.end());
  if (most > 0x7fffffff)
    throw InputError(std::string(what) + ": k = " + std::to_string(most) + " is too large");
  if (options.stats) *options.stats = {};
  if (m == 0) return;
  if (tree.points == 0) {  // every rank is missing: cKDTree's padding
    fill(runtime, index.buffer(), std::int64_t(0), m * per);
    fill(runtime, distance.buffer(), std::numeric_limits<Real>::infinity(), m * per);
    return;
  }
  const double p = query.metric.p;
  const Real bound = static_cast<Real>(detail::to_power_p(query.distance_upper_bound, p, what));
  const Real factor = static_cast<Real>(detail::eps_factor(query.eps, p));
  // The list never holds more than the tree's points.
  const std::size_t k = static_cast<std::size_t>(std::min<std::int64_t>(most, tree.points));
  const bool use_heap = static_cast<std::int64_t>(k) > kPrivateNeighbours;
  const std::int64_t cap =
      detail::specialised_programs(runtime) && static_cast<std::int64_t>(k) <= kFewNeighbours
          ? kFewNeighbours
          : kPrivateNeighbours;
  TraversalPieces pieces{
      "kd-nearest", Runtime::expanded_source("spatial/ropes_kd_nearest.clh"),
      detail::search_options<Real>(runtime, tree.dim, "-DKNN_CAP=" + std::to_string(cap), what),
      true};
  translate_device_errors(what, [&] {
    auto run = detail::search_run(runtime, tree, queries, options.sort, options.profile, what);
    auto metric = detail::metric_args<Real>(runtime, query.metric, tree.dim, what);
    Variant variant = choose_variant(runtime, options.variant, pieces, run.sorted);
    if (options.chosen) *options.chosen = variant;
    if (options.sorted) *options.sorted = run.sorted;
    std::vector<std::int32_t> ranks(query.ranks.begin(), query.ranks.end());
    auto rank_array = DeviceArray<std::int32_t>::upload(runtime, ranks, options.profile, "ranks");
    const std::size_t entry = sizeof(Real) + sizeof(std::int32_t);
    const std::size_t chunk =
        use_heap ? std::max<std::size_t>(
                       1, std::min(m, runtime.tuning()[knobs::kd_scratch_bytes] / (k * entry)))
                 : m;
    DeviceArray<Real> heap_d(runtime, use_heap ? chunk * k : 1, "neighbour heaps");
    DeviceArray<std::int32_t> heap_i(runtime, use_heap ? chunk * k : 1, "neighbour heaps");
    for (std::size_t base = 0; base < m; base += chunk) {
      const std::size_t items = std::min(chunk, m - base);
      TraversalStats part;
      run_traversal(
          runtime, pieces, variant, tree.shape, items,
          [&](KernelArgs& args) {
            detail::bind_search(args, tree, metric, run, base);
            args(cl_uint(k), bound, factor, rank_array, cl_uint(per), cl_int(use_heap ? 1 : 0),
                 heap_d, heap_i, index, distance);
          },
          options.profile, options.stats ? &part : nullptr);
      if (options.stats) {
        options.stats->visits.insert(options.stats->visits.end(), part.visits.begin(),
                                     part.visits.end());
        options.stats->group_steps.insert(options.stats->group_steps.end(),
                                          part.group_steps.begin(), part.group_steps.end());
      }
    }
  });
}

template void nearest(Runtime&, const BasicDeviceKdTree<float>&, QuerySource<float>,
                      const NearestQuery&, DeviceArray<std::int64_t>&, DeviceArray<float>&,
                      const QueryOptions&);
template void nearest(Runtime&, const BasicDeviceKdTree<double>&, QuerySource<double>,
                      const NearestQuery&, DeviceArray<std::int64_t>&, DeviceArray<double>&,
                      const QueryOptions&);

}  // namespace treefix
