// What the exact kd-tree searches share (spatial/kd_search_run.hpp): the query order, the metric
// arguments, cKDTree's transforms to the power p, the pieces' options, the checks.
#include "spatial/kd_search_run.hpp"

#include <cmath>
#include <string>

#include "treefix/primitives/detail/permute_rows.hpp"
#include "spatial/morton.hpp"
#include "spatial/real_type.hpp"
#include "spatial/spatial_tuning.hpp"
#include "treefix/core/error.hpp"

namespace treefix::detail {

template <class Real>
SearchRun<Real> search_run(Runtime& runtime, const BasicDeviceKdTree<Real>& tree,
                           const QuerySource<Real>& source, SortMode sort, Profile* profile,
                           const char* what) {
  SearchRun<Real> run;
  if (!source.points) {  // a tree's points: already in its (Morton) order
    const BasicDeviceKdTree<Real>& t = source.tree ? *source.tree : tree;
    run.n = run.stride = t.points;
    run.dim = t.dim;
    run.coord = t.data;
    run.id = t.point_index;
    run.sorted = true;
    return run;
  }
  const BasicDevicePoints<Real>& points = *source.points;
  run.n = run.stride = points.n;
  run.dim = points.dim;
  run.sorted = choose_sort(sort, run.n) && run.n > 0;
  if (!run.sorted) {
    run.coord = points.coord;
    return run;
  }
  translate_device_errors(what, [&] {
    DeviceArray<Real> frame;
    sort_along_morton_curve(runtime, points.coord.buffer(), run.n, run.dim, false, frame, run.id,
                            profile);
    run.coord = DeviceArray<Real>(runtime, run.n * run.dim, "queries");
    Permuter(runtime, real_bits_type<Real>(), {profile, "query sort"})
        .gather_columns(run.n, run.dim, run.id.buffer(), points.coord.buffer(), run.coord.buffer());
  });
  return run;
}

template <class Real>
MetricArgs<Real> metric_args(Runtime& runtime, const Metric& metric, int dim, const char* what) {
  MetricArgs<Real> m;
  const double p = metric.p;
  m.kind = p == 2 ? 0 : p == 1 ? 1 : std::isinf(p) ? 2 : 3;
  m.p = static_cast<Real>(p);
  std::vector<Real> box(1, Real(0));
  if (!metric.box.empty()) {
    if (metric.box.size() != static_cast<std::size_t>(dim))
      throw InputError(std::string(what) + ": a periodic box of " +
                       std::to_string(metric.box.size()) + " sizes for points of " +
                       std::to_string(dim) + " coordinates");
    box.assign(2 * static_cast<std::size_t>(dim), Real(0));
    for (int k = 0; k < dim; ++k) {
      const double full = metric.box[k];
      if (!(full >= 0) || !std::isfinite(full))
        throw InputError(std::string(what) + ": boxsize " + std::to_string(full) +
                         " must be finite and >= 0 (0: not periodic)");
      box[k] = static_cast<Real>(full);
      box[dim + k] = static_cast<Real>(0.5 * full);  // cKDTree: 0.5 * boxsize
    }
    m.periodic = 1;
  }
  m.box = DeviceArray<Real>::upload(runtime, box, nullptr, "periodic box");
  return m;
}

template <class Real>
void bind_search(KernelArgs& args, const BasicDeviceKdTree<Real>& tree, const MetricArgs<Real>& m,
                 const SearchRun<Real>& run, std::size_t item_base) {
  const bool has_id = !run.id.empty();
  args(cl_uint(tree.shape.nodes), tree.child, tree.first, tree.count, tree.box_lo, tree.box_hi,
       tree.split_dim, tree.split_value, cl_uint(tree.points), tree.data, tree.point_index,
       cl_uint(tree.dim), cl_int(m.kind), m.p, cl_int(m.periodic), m.box, cl_uint(run.stride),
       cl_uint(item_base), run.coord, has_id ? run.id.buffer() : tree.point_index.buffer(),
       cl_int(has_id ? 1 : 0));
}

double to_power_p(double value, double p, const char* what) {
  double power = value;
  if (p == 2)
    power = value * value;
  else if (!std::isinf(p) && !std::isinf(value))
    power = std::pow(value, p);
  if (std::isinf(power) && std::isfinite(value))
    throw InputError(std::string(what) + ": encountering floating point overflow: " +
                     std::to_string(value) + " to the power p = " + std::to_string(p) +
                     " exceeds float64; for such large p, consider p = inf");
  return power;
}

double eps_factor(double eps, double p) {
  if (p == 2) {
    const double widened = 1. + eps;
    return 1. / (widened * widened);
  }
  if (eps == 0.) return 1.;
  if (std::isinf(p)) return 1. / (1. + eps);
  return 1. / std::pow(1. + eps, p);
}

bool specialised_programs(const Runtime& runtime) {
  return runtime.tuning()[knobs::kd_specialised_programs];
}

template <class Real>
std::string search_options(const Runtime& runtime, int dim, const std::string& extra,
                           const char* what) {
  std::string options = real_options<Real>(runtime, what) + " " + extra;
  if (specialised_programs(runtime)) options += " -DDIM=" + std::to_string(dim);
  return options;
}

void check_metric(const Metric& metric, int dim, const char* what) {
  if (!(metric.p >= 1))
    throw InputError(std::string(what) +
                     ": only p-norms with 1 <= p <= infinity are permitted, not p = " +
                     std::to_string(metric.p));
  if (dim < 1 || dim > 16)
    throw InputError(std::string(what) + ": points of " + std::to_string(dim) +
                     " coordinates; 1 to 16 are supported");
}

template <class Real>
void check_source(const BasicDeviceKdTree<Real>& tree, const QuerySource<Real>& source,
                  const char* what) {
  const int dim = source.points ? source.points->dim : source.tree ? source.tree->dim : tree.dim;
  if (dim != tree.dim)
    throw InputError(std::string(what) + ": queries of " + std::to_string(dim) +
                     " coordinates for a tree of " + std::to_string(tree.dim));
}

#define TREEFIX_KD_SEARCH_RUN(Real)                                                                \
  template SearchRun<Real> search_run(Runtime&, const BasicDeviceKdTree<Real>&,                    \
                                      const QuerySource<Real>&, SortMode, Profile*, const char*);  \
  template MetricArgs<Real> metric_args<Real>(Runtime&, const Metric&, int, const char*);          \
  template void bind_search(KernelArgs&, const BasicDeviceKdTree<Real>&, const MetricArgs<Real>&,  \
                            const SearchRun<Real>&, std::size_t);                                  \
  template std::string search_options<Real>(const Runtime&, int, const std::string&, const char*); \
  template void check_source(const BasicDeviceKdTree<Real>&, const QuerySource<Real>&, const char*);
TREEFIX_KD_SEARCH_RUN(float)
TREEFIX_KD_SEARCH_RUN(double)
#undef TREEFIX_KD_SEARCH_RUN

}  // namespace treefix::detail
