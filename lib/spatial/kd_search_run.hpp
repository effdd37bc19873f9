#pragma once
// Internal to the spatial module: what the exact kd-tree searches (kd_nearest.cpp, kd_pairs.cpp)
// share: the queries in the order a traversal runs them, the metric as kernel arguments
// (kernels/spatial/ropes_kd_metric.clh's KDX_PARAMS), cKDTree's transforms of radii and bounds to
// the power p, and the pieces' build options.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/spatial/kd_search.hpp"

namespace treefix::detail {

// The queries as a traversal reads them: coordinates coord[k * stride + j] for run position j,
// results going to id[j] (or j when id is empty).
template <class Real>
struct SearchRun {
  std::size_t n = 0, stride = 0;
  int dim = 0;
  DeviceArray<Real> coord;
  DeviceArray<std::int32_t> id;
  bool sorted = false;
};
template <class Real>
SearchRun<Real> search_run(Runtime& runtime, const BasicDeviceKdTree<Real>& tree,
                           const QuerySource<Real>& source, SortMode sort, Profile* profile,
                           const char* what);

// The metric on the device: kind (METRIC_* of ropes_kd_metric.clh), p, and the periodic box as
// (L_k, L_k / 2) pairs, a buffer of one value when there is no box.
template <class Real>
struct MetricArgs {
  int kind = 0;
  Real p = 2;
  int periodic = 0;
  DeviceArray<Real> box;
};
template <class Real>
MetricArgs<Real> metric_args(Runtime& runtime, const Metric& metric, int dim, const char* what);

// Appends KDX_PARAMS for `tree`, the metric and the run's queries item_base onwards.
template <class Real>
void bind_search(KernelArgs& args, const BasicDeviceKdTree<Real>& tree, const MetricArgs<Real>& m,
                 const SearchRun<Real>& run, std::size_t item_base);

// cKDTree's internal forms: a bound or radius to the power p (p = 1 and infinity: itself), and
// the approximation factor 1 / (1 + eps)^p. InputError when a finite radius overflows to the
// power p (cKDTree refuses such p with a ValueError as well).
double to_power_p(double value, double p, const char* what);
double eps_factor(double eps, double p);

// Whether the searches are compiled per dimension and k class (tuning knob
// kd_specialised_programs).
bool specialised_programs(const Runtime& runtime);
// The pieces' build options: coordinate type, the dimension where the programs are specialised,
// and `extra`.
template <class Real>
std::string search_options(const Runtime& runtime, int dim, const std::string& extra,
                           const char* what);

// InputError for p < 1 or NaN, eps < 0 or NaN, queries of another dimension.
void check_metric(const Metric& metric, int dim, const char* what);
template <class Real>
void check_source(const BasicDeviceKdTree<Real>& tree, const QuerySource<Real>& source,
                  const char* what);

}  // namespace treefix::detail
