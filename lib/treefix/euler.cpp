// The Euler-tour treefix (Defour & Marin): Write / Scan / Read as three kernels, or fused into
// the scan passes through the tour map (kernels/treefix/treefix.cl).
#include "treefix/euler.hpp"

#include <algorithm>
#include <string>
#include <type_traits>

#include "treefix/core/launch.hpp"
#include "treefix/treefix/detail/exact_format.hpp"
#include "treefix/primitives/detail/scan_plan.hpp"

namespace treefix::detail {

// The value the scan combines, as -D options and bytes: the weight type itself (integers, and
// floating point with the fast precision), or for an accurate floating-point sum an exact
// fixed-point value (exact_format.hpp).
namespace {

struct ScanValue {
  std::string options;
  std::size_t bytes;
  std::string lookback_as = {};  // how the single-pass scan may publish a tile's value
};

ScanValue scan_value(ValueType type, const TreefixOptions& options, const ExactFormat* exact) {
  std::string base = value_op_options(type, options.op);
  if (exact) return {base + exact->options(), exact->value_bytes(), kLookbackWords};
  if (type == ValueType::int32) return {base, 4, "as_int"};
  // A floating-point scan runs the passes of a fixed order: its single pass would round
  // differently from run to run, depending on where each look-back stops.
  return {base, type == ValueType::float32 ? 4u : 8u};
}

bool exact_sum(ValueType type, const TreefixOptions& options) {
  return options.precision == Precision::accurate && options.op == Op::sum &&
         (type == ValueType::float32 || type == ValueType::float64);
}

template <class T>
void euler_pass(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
                DeviceArray<T>& result, const TreefixOptions& options, Fix fix,
                const ExactFormat* exact);

}  // namespace

template <class T>
void euler_treefix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
                   DeviceArray<T>& result, const TreefixOptions& options, Fix fix) {
  if (tree.size() == 0) return;
  const ValueType type = value_type_of<T>();
  if constexpr (!std::is_floating_point_v<T>) {
    euler_pass(runtime, tree, weights, result, options, fix, nullptr);
  } else {
    // The weights' range (one pass over them and a four-word read): the exact sums' fixed-point
    // format, and whether some weight is not finite. Both precisions need the second: a tour's
    // sums subtract (inf - inf would be NaN where IEEE's sum is inf).
    const bool exact = exact_sum(type, options);
    const ExactFormat format = fitted_exact_format(runtime, weights, options.profile);
    const ExactFormat* value_format = exact ? &format : nullptr;
    if (!format.nonfinite) {
      euler_pass(runtime, tree, weights, result, options, fix, value_format);
      return;
    }
    // Infinities or NaNs: the finite terms summed as usual, the non-finite ones counted by class
    // in a 64-bit sum over the same tour, and IEEE's value put where a class count is not zero.
    const std::size_t n = tree.size();
    auto finite = DeviceArray<T>::workspace(runtime, "treefix.finite_weights", n);
    auto term_class = DeviceArray<std::int64_t>::workspace(runtime, "treefix.term_class", n);
    auto class_sum = DeviceArray<std::int64_t>::workspace(runtime, "treefix.class_sum", n);
    split_nonfinite(runtime, weights, finite, term_class, options.profile);
    euler_pass(runtime, tree, finite, result, options, fix, value_format);
    TreefixOptions counting = options;
    counting.op = Op::sum;
    euler_pass(runtime, tree, term_class, class_sum, counting, fix, nullptr);
    apply_nonfinite(runtime, result, class_sum, options.profile);
  }
}

namespace {

template <class T>
void euler_pass(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
                DeviceArray<T>& result, const TreefixOptions& options, Fix fix,
                const ExactFormat* exact) {
  const DeviceEulerTour& tour = tree.euler_tour(options.profile);
  const std::size_t n = tree.size();
  const ValueType type = value_type_of<T>();
  const ScanValue value = scan_value(type, options, exact);
  const std::size_t tour_length = 2 * n;
  const bool fused = options.euler_kernels == EulerKernels::fused;
  const bool root = fix == Fix::root;
  // workspace: the materialised tour (three kernels) or the two prefixes of leaffix (fused)
  const std::size_t work_bytes =
      fused ? (root ? 0 : 2 * n * value.bytes) : tour_length * value.bytes;
  // the pre-order layout's weights (and rootfix's results) in pre-order, and the array that a
  // two-pass permutation regroups through
  const std::size_t preorder_arrays =
      !fused || !tour.preorder_layout() ? 0 : (root ? 2 : 1) + tour.to_preorder().two_pass();
  runtime.require_fits("treefix of " + std::to_string(n) + " vertices",
                       work_bytes + (2 + preorder_arrays) * n * sizeof(T) +
                           tour_length * ((tour.wide_positions() ? 8 : 4) + 4),
                       std::max<std::size_t>(work_bytes, tour_length * 4));
  const std::string build = value.options + " " + tour.position_option();
  ScanPlan plan =
      plan_scan(runtime, "treefix/treefix.cl", build, value.bytes, tour_length, value.lookback_as);
  Kernels euler(runtime, plan.sized, {options.profile, "read"});
  const cl_int exclusive = options.exclusive;

  if (fused) {
    // Preorder layout: weights permuted into pre-order, the scan over contiguous data, results
    // permuted back (the leaffix finish gathers through the ranks itself).
    const bool permuted = tour.preorder_layout();
    const cl::Buffer* scan_weights = &weights.buffer();
    cl::Buffer* scan_result = &result.buffer();
    if (permuted) {
      scan_weights = &runtime.scratch("treefix.weights_pre", n * sizeof(T));
      tour.to_preorder().apply(runtime, weights.buffer(), *scan_weights, sizeof(T),
                               {options.profile, "permute"});
      if (root) scan_result = &runtime.scratch("treefix.result_pre", n * sizeof(T));
    }
    cl::Buffer* open_prefix = scan_result;  // unused by rootfix: any valid buffer
    cl::Buffer* close_prefix = scan_result;
    if (!root) {
      open_prefix = &runtime.scratch("treefix.open_prefix", n * value.bytes);
      close_prefix = &runtime.scratch("treefix.close_prefix", n * value.bytes);
    }
    run_scan(runtime, plan, tour_length,
             [&](KernelArgs& args) {
               args(tour.tour_vertex(), *scan_weights, static_cast<cl_int>(root), exclusive,
                    *scan_result, *open_prefix, *close_prefix);
             },
             {options.profile, "scan"});
    if (!root)
      euler.run("treefix_leaf_finish", euler.items(n), *open_prefix, *close_prefix, plan.index(n),
                tour.pre_rank(), static_cast<cl_int>(permuted), result);
    else if (permuted)
      tour.to_vertex_order().apply(runtime, *scan_result, result.buffer(), sizeof(T),
                                   {options.profile, "permute"});
    return;
  }

  cl::Buffer& tour_values = runtime.scratch("treefix.tour", tour_length * value.bytes);
  euler.in("write").run("treefix_write", euler.items(n), tour.open_pos(), tour.close_pos(), weights,
                        plan.index(n), tour_values, static_cast<cl_int>(root));

  ScanPlan tour_scan = plan_scan(runtime, "primitives/scan.cl", value.options, value.bytes,
                                 tour_length, value.lookback_as);
  run_scan(runtime, tour_scan, tour_length,
           [&](KernelArgs& args) { args(tour_values, tour_values, cl_int(1)); },
           {options.profile, "scan"});

  if (root)
    euler.run("treefix_read_rootfix", euler.items(n), tour.open_pos(), tour_values, plan.index(n),
              result, exclusive);
  else
    euler.run("treefix_read_leaffix", euler.items(n), tour.open_pos(), tour.close_pos(),
              tour_values, plan.index(n), result, exclusive);
}

}  // namespace

#define TREEFIX_EULER_INSTANTIATE(T)                                                            \
  template void euler_treefix<T>(Runtime&, DeviceTree&, const DeviceArray<T>&, DeviceArray<T>&, \
                                 const TreefixOptions&, Fix);
TREEFIX_EULER_INSTANTIATE(std::int32_t)
TREEFIX_EULER_INSTANTIATE(std::int64_t)
TREEFIX_EULER_INSTANTIATE(float)
TREEFIX_EULER_INSTANTIATE(double)
#undef TREEFIX_EULER_INSTANTIATE

}  // namespace treefix::detail
