// Pairs within a distance on a device kd-tree, exact, in cKDTree's conventions
// (treefix/spatial/kd_search.hpp; kernels/spatial/ropes_kd_pairs.clh): counts, lists in two
// passes (count, scan, fill), and (weighted) counts per distance bin.
#include <algorithm>
#include <cmath>
#include <string>

#include "spatial/kd_search_run.hpp"
#include "spatial/real_type.hpp"
#include "spatial/spatial_tuning.hpp"
#include "treefix/core/error.hpp"
#include "treefix/primitives/scan.hpp"
#include "treefix/spatial/kd_search.hpp"

namespace treefix {
namespace {

enum Mode { kCount = 0, kFill = 1, kBins = 2 };  // PAIRS_* of ropes_kd_pairs.clh

template <class Real>
std::size_t queries_of(const BasicDeviceKdTree<Real>& tree, const QuerySource<Real>& source) {
  return source.points ? source.points->n : source.tree ? source.tree->points : tree.points;
}

template <class Real>
TraversalPieces pair_pieces(const Runtime& runtime, int dim, const char* what) {
  return {"kd-pairs", Runtime::expanded_source("spatial/ropes_kd_pairs.clh"),
          detail::search_options<Real>(runtime, dim, "", what), false};
}

// The thresholds (radius to the power p; widened by eps for query_pairs), on the device.
template <class Real>
DeviceArray<Real> thresholds(Runtime& runtime, const RadiusQuery& query, std::size_t queries,
                             const char* what) {
  if (query.radius.size() != 1 && query.radius.size() != queries)
    throw InputError(std::string(what) + ": " + std::to_string(query.radius.size()) +
                     " radii for " + std::to_string(queries) + " queries");
  if (!(query.eps >= 0))
    throw InputError(std::string(what) + ": eps = " + std::to_string(query.eps) + " must be >= 0");
  const double p = query.metric.p;
  const double widen = query.widen_by_eps ? detail::eps_factor(query.eps, p) : 1.0;
  std::vector<Real> values(query.radius.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double r = query.radius[i];
    if (!(r >= 0))
      throw InputError(std::string(what) + ": radius r = " + std::to_string(r) + " must be >= 0");
    values[i] = static_cast<Real>(detail::to_power_p(r, p, what) / widen);
  }
  return DeviceArray<Real>::upload(runtime, values, nullptr, "radii");
}

struct PairsArgs {
  int mode;
  const cl::Buffer* threshold;
  int per_query;
  std::size_t edges;
  int greater_only;
  const cl::Buffer *counts, *offsets, *index, *distance;
  int want_distance;
  const cl::Buffer* weights;
  int weighted;
  const cl::Buffer* bins;
  std::size_t bin_stride;
};

// Buffers a mode does not use: one value each.
template <class Real>
struct Unused {
  DeviceArray<std::int64_t> longs;
  DeviceArray<std::int32_t> ints;
  DeviceArray<Real> reals;
  explicit Unused(Runtime& runtime)
      : longs(runtime, 1, "unused"), ints(runtime, 1, "unused"), reals(runtime, 1, "unused") {}

  // The arguments of a pass of `mode` with every buffer an unused one and every flag off: the
  // caller sets what the mode reads and writes.
  PairsArgs args(Mode mode) const {
    PairsArgs a{};
    a.mode = mode;
    a.threshold = a.distance = a.weights = a.bins = &reals.buffer();
    a.edges = 1;
    a.counts = a.offsets = &longs.buffer();
    a.index = &ints.buffer();
    return a;
  }
  // The counting pass of a radius query: each query's points within its radius, into counts.
  PairsArgs count_args(const DeviceArray<Real>& threshold, const RadiusQuery& query,
                       const cl::Buffer& counts) const {
    PairsArgs a = args(kCount);
    a.threshold = &threshold.buffer();
    a.per_query = query.radius.size() > 1;
    a.greater_only = query.greater_only;
    a.counts = &counts;
    return a;
  }
};

template <class Real>
void run_pairs(Runtime& runtime, const BasicDeviceKdTree<Real>& tree, const TraversalPieces& pieces,
               const detail::SearchRun<Real>& run, const detail::MetricArgs<Real>& metric,
               std::size_t base, std::size_t items, const PairsArgs& a,
               const QueryOptions& options) {
  Variant variant = choose_variant(runtime, options.variant, pieces, run.sorted);
  if (options.chosen) *options.chosen = variant;
  if (options.sorted) *options.sorted = run.sorted;
  run_traversal(
      runtime, pieces, variant, tree.shape, items,
      [&](KernelArgs& args) {
        detail::bind_search(args, tree, metric, run, base);
        args(cl_int(a.mode), *a.threshold, cl_int(a.per_query), cl_uint(a.edges),
             cl_int(a.greater_only), *a.counts, *a.offsets, *a.index, *a.distance,
             cl_int(a.want_distance), *a.weights, cl_int(a.weighted), *a.bins,
             cl_uint(a.bin_stride));
      },
      options.profile, options.stats);
}

template <class Real>
void check_radius_query(const BasicDeviceKdTree<Real>& tree, const QuerySource<Real>& queries,
                        const RadiusQuery& query, const char* what) {
  detail::check_metric(query.metric, tree.dim, what);
  detail::check_source(tree, queries, what);
}

}  // namespace

template <class Real>
void check_periodic_box(Runtime& runtime, const BasicDeviceKdTree<Real>& tree,
                        const std::vector<double>& box) {
  if (box.empty()) return;
  if (box.size() != static_cast<std::size_t>(tree.dim))
    throw InputError("boxsize: " + std::to_string(box.size()) + " sizes for points of " +
                     std::to_string(tree.dim) + " coordinates");
  for (double full : box)
    if (!(full >= 0) || !std::isfinite(full))
      throw InputError("boxsize " + std::to_string(full) +
                       " must be finite and >= 0 (0: not periodic)");
  std::vector<Real> lo, hi;
  tree.root_box(runtime, lo, hi);
  for (std::size_t k = 0; k < lo.size(); ++k) {
    if (box[k] <= 0) continue;
    if (static_cast<double>(hi[k]) >= box[k])
      throw InputError("Some input data are greater than the size of the periodic box.");
    if (lo[k] < 0) throw InputError("Negative input data are outside of the periodic box.");
  }
}

template <class Real>
void count_within(Runtime& runtime, const BasicDeviceKdTree<Real>& tree, QuerySource<Real> queries,
                  const RadiusQuery& query, DeviceArray<std::int64_t>& counts,
                  const QueryOptions& options) {
  const char* what = "points within a distance";
  check_radius_query(tree, queries, query, what);
  const std::size_t m = queries_of(tree, queries);
  if (counts.size() < m) throw InputError(std::string(what) + ": the count array is too small");
  if (options.stats) *options.stats = {};
  auto threshold = thresholds<Real>(runtime, query, m, what);
  if (m == 0) return;
  if (tree.points == 0) {
    fill(runtime, counts.buffer(), std::int64_t(0), m);
    return;
  }
  const TraversalPieces pieces = pair_pieces<Real>(runtime, tree.dim, what);
  translate_device_errors(what, [&] {
    auto run = detail::search_run(runtime, tree, queries, options.sort, options.profile, what);
    auto metric = detail::metric_args<Real>(runtime, query.metric, tree.dim, what);
    Unused<Real> unused(runtime);
    const PairsArgs a = unused.count_args(threshold, query, counts.buffer());
    run_pairs(runtime, tree, pieces, run, metric, 0, m, a, options);
  });
}

template <class Real>
PairLists<Real> pairs_within(Runtime& runtime, const BasicDeviceKdTree<Real>& tree,
                             QuerySource<Real> queries, const RadiusQuery& query,
                             const QueryOptions& options) {
  const char* what = "pairs within a distance";
  check_radius_query(tree, queries, query, what);
  PairLists<Real> lists;
  const std::size_t m = queries_of(tree, queries);
  lists.queries = m;
  auto threshold = thresholds<Real>(runtime, query, m, what);
  translate_device_errors(what, [&] {
    // counts[m] = 0, so that the exclusive scan of m + 1 values ends with the total.
    lists.offset = DeviceArray<std::int64_t>(runtime, m + 1, "pair offsets");
    fill(runtime, lists.offset.buffer(), std::int64_t(0), m + 1);
    if (options.stats) *options.stats = {};
    if (m == 0 || tree.points == 0) {
      lists.index = DeviceArray<std::int32_t>(runtime, 1, "pairs");
      if (query.distances) lists.distance = DeviceArray<Real>(runtime, 1, "pair distances");
      return;
    }
    const TraversalPieces pieces = pair_pieces<Real>(runtime, tree.dim, what);
    auto run = detail::search_run(runtime, tree, queries, options.sort, options.profile, what);
    auto metric = detail::metric_args<Real>(runtime, query.metric, tree.dim, what);
    Unused<Real> unused(runtime);
    const PairsArgs count = unused.count_args(threshold, query, lists.offset.buffer());
    QueryOptions first = options;
    first.stats = nullptr;  // the statistics of the second pass (the same nodes)
    run_pairs(runtime, tree, pieces, run, metric, 0, m, count, first);
    scan(runtime, ValueType::int64, Op::sum, ScanKind::exclusive, lists.offset.buffer(),
         lists.offset.buffer(), m + 1, options.profile, "pairs");
    lists.total =
        static_cast<std::size_t>(read_value<std::int64_t>(runtime, lists.offset.buffer(), m));
    const std::size_t room = std::max<std::size_t>(1, lists.total);
    lists.index = DeviceArray<std::int32_t>(runtime, room, "pairs");
    if (query.distances) lists.distance = DeviceArray<Real>(runtime, room, "pair distances");
    if (lists.total == 0) return;
    PairsArgs fill_pass = count;
    fill_pass.mode = kFill;
    fill_pass.counts = &unused.longs.buffer();
    fill_pass.offsets = &lists.offset.buffer();
    fill_pass.index = &lists.index.buffer();
    fill_pass.distance = query.distances ? &lists.distance.buffer() : &unused.reals.buffer();
    fill_pass.want_distance = query.distances;
    run_pairs(runtime, tree, pieces, run, metric, 0, m, fill_pass, options);
  });
  return lists;
}

template <class Real>
std::vector<double> pair_counts(Runtime& runtime, const BasicDeviceKdTree<Real>& tree,
                                QuerySource<Real> queries, const PairCountQuery& query,
                                const QueryOptions& options) {
  const char* what = "pair counts";
  detail::check_metric(query.metric, tree.dim, what);
  detail::check_source(tree, queries, what);
  const std::size_t m = queries_of(tree, queries);
  const std::size_t bins = query.edges.size();
  std::vector<double> sums(bins, 0.0);
  if (bins == 0) return sums;
  std::vector<Real> edges(bins);
  for (std::size_t b = 0; b < bins; ++b) {
    const double r = query.edges[b];
    if (!(r >= 0))
      throw InputError(std::string(what) + ": radius " + std::to_string(r) + " must be >= 0");
    if (b > 0 && !(r > query.edges[b - 1]))
      throw InputError(std::string(what) + ": the bin edges must be ascending and distinct");
    edges[b] = static_cast<Real>(detail::to_power_p(r, query.metric.p, what));
  }
  if (!query.query_weights.empty() && query.query_weights.size() != m)
    throw InputError(std::string(what) + ": " + std::to_string(query.query_weights.size()) +
                     " weights for " + std::to_string(m) + " queries");
  if (!query.point_weights.empty() && query.point_weights.size() != tree.points)
    throw InputError(std::string(what) + ": " + std::to_string(query.point_weights.size()) +
                     " weights for " + std::to_string(tree.points) + " points");
  if (options.stats) *options.stats = {};
  if (m == 0 || tree.points == 0) return sums;
  const TraversalPieces pieces = pair_pieces<Real>(runtime, tree.dim, what);
  translate_device_errors(what, [&] {
    auto run = detail::search_run(runtime, tree, queries, options.sort, options.profile, what);
    auto metric = detail::metric_args<Real>(runtime, query.metric, tree.dim, what);
    Unused<Real> unused(runtime);
    auto edge_array = DeviceArray<Real>::upload(runtime, edges, nullptr, "bin edges");
    auto to_device = [&](const std::vector<double>& w) {
      if (w.empty()) return DeviceArray<Real>(runtime, 1, "weights");
      return DeviceArray<Real>::upload(runtime, std::vector<Real>(w.begin(), w.end()), nullptr,
                                       "weights");
    };
    auto query_weights = to_device(query.query_weights);
    auto point_weights = to_device(query.point_weights);
    const std::size_t chunk = std::max<std::size_t>(
        1, std::min(m, runtime.tuning()[knobs::kd_scratch_bytes] / (bins * sizeof(Real))));
    DeviceArray<Real> bin_values(runtime, chunk * bins, "distance bins");
    DeviceArray<Real> chunk_sums(runtime, bins, "bin sums");
    Kernels summing(runtime, "spatial/kd_points.cl", detail::real_options<Real>(runtime, what),
                    {options.profile, "pairs"});
    const bool has_id = !run.id.empty();
    std::vector<Real> part(bins);
    for (std::size_t base = 0; base < m; base += chunk) {
      const std::size_t items = std::min(chunk, m - base);
      fill(runtime, bin_values.buffer(), Real(0), items * bins);
      PairsArgs a = unused.args(kBins);
      a.threshold = &edge_array.buffer();
      a.edges = bins;
      a.weights = &point_weights.buffer();
      a.weighted = !query.point_weights.empty();
      a.bins = &bin_values.buffer();
      a.bin_stride = items;
      run_pairs(runtime, tree, pieces, run, metric, base, items, a, options);
      summing.run("bin_sums", summing.groups(std::min<std::size_t>(bins, 1024)), cl_uint(items),
                  cl_uint(base), cl_uint(bins), bin_values, cl_int(!query.query_weights.empty()),
                  query_weights, has_id ? run.id.buffer() : unused.ints.buffer(),
                  cl_int(has_id ? 1 : 0), chunk_sums);
      chunk_sums.read_into(runtime, part.data(), bins);
      for (std::size_t b = 0; b < bins; ++b) sums[b] += static_cast<double>(part[b]);
    }
  });
  return sums;
}

#define TREEFIX_KD_PAIRS(Real)                                                                     \
  template void check_periodic_box(Runtime&, const BasicDeviceKdTree<Real>&,                       \
                                   const std::vector<double>&);                                    \
  template void count_within(Runtime&, const BasicDeviceKdTree<Real>&, QuerySource<Real>,          \
                             const RadiusQuery&, DeviceArray<std::int64_t>&, const QueryOptions&); \
  template PairLists<Real> pairs_within(Runtime&, const BasicDeviceKdTree<Real>&,                  \
                                        QuerySource<Real>, const RadiusQuery&,                     \
                                        const QueryOptions&);                                      \
  template std::vector<double> pair_counts(Runtime&, const BasicDeviceKdTree<Real>&,               \
                                           QuerySource<Real>, const PairCountQuery&,               \
                                           const QueryOptions&);
TREEFIX_KD_PAIRS(float)
TREEFIX_KD_PAIRS(double)
#undef TREEFIX_KD_PAIRS

}  // namespace treefix
