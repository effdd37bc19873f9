// Treefix: algorithm dispatch, the device tree, and the Euler-tour (Write / Scan / Read) method.
#include "treefix/treefix/treefix.hpp"

#include <cstdint>
#include <string>

#include "treefix/primitives/detail/scan_plan.hpp"
#include "treefix/primitives/scan.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/graph/rooting.hpp"

namespace treefix {

const char* to_string(Algorithm a) {
  switch (a) {
    case Algorithm::automatic: return "auto";
    case Algorithm::euler: return "euler";
    case Algorithm::levels: return "levels";
    case Algorithm::sequential: return "sequential";
  }
  return "?";
}

Algorithm parse_algorithm(const std::string& name) {
  if (name == "auto") return Algorithm::automatic;
  if (name == "euler") return Algorithm::euler;
  if (name == "levels") return Algorithm::levels;
  if (name == "sequential") return Algorithm::sequential;
  throw InputError("unknown algorithm '" + name + "' (expected auto, euler, levels or sequential)");
}

// --- device representations ----------------------------------------------------------------------
namespace {
template <class P>
std::vector<P> narrow(const std::vector<std::int64_t>& positions) {
  return std::vector<P>(positions.begin(), positions.end());
}
}  // namespace

bool DeviceEulerTour::needs_wide_positions(std::size_t vertices) {
  return 2 * vertices > static_cast<std::size_t>(INT32_MAX);
}

DeviceEulerTour::DeviceEulerTour(Runtime& runtime, const EulerTour& tour, Profile* profile)
    : vertices_(tour.size()), wide_(needs_wide_positions(tour.size())) {
  const std::size_t pos_bytes = wide_ ? 8 : 4;
  runtime.require_fits("the Euler tour of " + std::to_string(vertices_) + " vertices",
                       2 * vertices_ * pos_bytes + 2 * vertices_ * 4, 2 * vertices_ * 4);
  auto upload = [&](const std::vector<std::int64_t>& positions, cl::Buffer& buffer) {
    if (wide_) buffer = DeviceArray<std::int64_t>::upload(runtime, positions, profile, "tour positions").buffer();
    else buffer = DeviceArray<std::int32_t>::upload(runtime, narrow<std::int32_t>(positions), profile, "tour positions").buffer();
  };
  upload(tour.open_pos, open_pos_);
  upload(tour.close_pos, close_pos_);
  build_map(runtime, profile);
}

DeviceEulerTour::DeviceEulerTour(Runtime& runtime, std::size_t vertices, cl::Buffer open_pos,
                                 cl::Buffer close_pos, bool wide_positions, Profile* profile)
    : vertices_(vertices), wide_(wide_positions), open_pos_(std::move(open_pos)),
      close_pos_(std::move(close_pos)) {
  if (needs_wide_positions(vertices) && !wide_)
    throw InputError("a tour of " + std::to_string(vertices) + " vertices needs 64-bit positions");
  build_map(runtime, profile);
}

void DeviceEulerTour::build_map(Runtime& runtime, Profile* profile) {
  tour_vertex_ = runtime.allocate(2 * vertices_ * sizeof(std::int32_t), "tour map");
  if (vertices_ == 0) return;
  translate_device_errors("building the tour map", [&] {
    const bool wide_index = 2 * vertices_ > 0xFFFFFFFFull;
    cl::Program program = runtime.program(
        "treefix/tour.cl", std::string(position_option()) + (wide_index ? " -DWIDE_INDEX=1" : ""));
    cl::Kernel build(program, "tour_map_build");
    set_args(build, open_pos_, close_pos_);
    detail::set_index_arg(build, 2, vertices_, wide_index);
    build.setArg(3, tour_vertex_);
    runtime.launch(build, vertices_, 0, profile, "tour map");
  });
}

DeviceTree::DeviceTree(Runtime& runtime, ParentArray parent)
    : runtime_(&runtime), parent_(std::move(parent)) {
  validate_parent_array(parent_);
}

const DeviceEulerTour& DeviceTree::euler_tour(Profile* profile) {
  if (euler_) return *euler_;
  if (!DeviceEulerTour::needs_wide_positions(parent_.size())) {
    // Built on the device (rooting.hpp; the parent array was validated by the constructor).
    auto parent = DeviceArray<vertex_t>::upload(*runtime_, parent_, profile, "parent array");
    euler_ = std::make_unique<DeviceEulerTour>(
        device_euler_tour(*runtime_, parent.buffer(), parent_.size(), {}, profile));
  } else {  // 64-bit positions: the host builder
    euler_ = std::make_unique<DeviceEulerTour>(*runtime_, build_euler_tour(parent_), profile);
  }
  return *euler_;
}

const LevelStructure& DeviceTree::levels(Profile* profile) {
  if (!levels_)
    levels_ = std::make_unique<LevelStructure>(*runtime_, parent_, profile, LevelStructure::Build::host);
  return *levels_;
}

Algorithm choose_algorithm(DeviceTree& tree, Op op, ValueType /*type*/) {
  const LevelStructure& levels = tree.levels();
  if (levels_preferred(levels.sweep_cost_in_launches(), tree.size(), op)) return Algorithm::levels;
  return has_inverse(op) ? Algorithm::euler : Algorithm::sequential;
}

// --- the Euler-tour method -----------------------------------------------------------------------
namespace {

enum class Fix { root, leaf };

template <class T>
void check_arrays(DeviceTree& tree, const DeviceArray<T>& weights, const DeviceArray<T>& result) {
  if (weights.size() != tree.size())
    throw InputError(std::to_string(weights.size()) + " weights for a tree of " +
                     std::to_string(tree.size()) + " vertices");
  if (result.size() != tree.size())
    throw InputError("result array of " + std::to_string(result.size()) + " values for a tree of " +
                     std::to_string(tree.size()) + " vertices");
}

void check_operator(Op op, ValueType type, Algorithm algorithm) {
  if (op == Op::bit_xor && !is_integer(type))
    throw InputError(std::string("xor needs an integer type, not ") + to_string(type));
  if (algorithm == Algorithm::euler && !has_inverse(op))
    throw InputError(std::string("the Euler-tour treefix needs an operator with an inverse (sum, "
                                 "xor); ") + to_string(op) + " has none: use --algorithm levels or sequential");
}

// The value the scan combines, as -D options and bytes: the weight type itself, or for the
// accurate variant of a floating-point sum a wider accumulator (float weights summed in double,
// when the device has fp64) or a double-word pair (hi, lo) carried with error-free transformations.
struct ScanValue {
  std::string options;
  std::size_t bytes;
  std::string lookback_as = {};  // how the single-pass scan reinterprets a 4-byte value
};

ScanValue scan_value(const Runtime& runtime, ValueType type, const TreefixOptions& options) {
  std::string base = value_op_options(type, options.op);
  const bool floating = type == ValueType::float32 || type == ValueType::float64;
  if (!options.accurate || !floating || options.op != Op::sum) {
    if (type == ValueType::int32) return {base, 4, "as_int"};
    if (type == ValueType::float32) return {base, 4, "as_float"};
    return {base, 8};
  }
  const bool wide_ok = options.accurate_method == TreefixOptions::AccurateMethod::automatic;
  if (type == ValueType::float32 && runtime.description().fp64 && wide_ok)
    return {base + " -DACC_T=double -DNEED_FP64=1", 8};
  if (type == ValueType::float32)
    return {base + " -DCOMPENSATED=1 -DACC_T=float -DACC_VEC=float2", 8};
  return {base + " -DCOMPENSATED=1 -DACC_T=double -DACC_VEC=double2", 16};
}

template <class T>
void euler_treefix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
                   DeviceArray<T>& result, const TreefixOptions& options, Fix fix) {
  const DeviceEulerTour& tour = tree.euler_tour(options.profile);
  const std::size_t n = tree.size();
  if (n == 0) return;
  const ValueType type = value_type_of<T>();
  const ScanValue value = scan_value(runtime, type, options);
  const std::size_t tour_length = 2 * n;
  const bool fused = options.euler_kernels == EulerKernels::fused;
  const bool root = fix == Fix::root;
  // workspace: the materialised tour (three kernels) or the two prefixes of leaffix (fused)
  const std::size_t work_bytes = fused ? (root ? 0 : 2 * n * value.bytes) : tour_length * value.bytes;
  runtime.require_fits("treefix of " + std::to_string(n) + " vertices",
                       work_bytes + 2 * n * sizeof(T) + tour_length * ((tour.wide_positions() ? 8 : 4) + 4),
                       std::max<std::size_t>(work_bytes, tour_length * 4));
  const std::string build = value.options + " " + tour.position_option();
  detail::ScanPlan plan = detail::plan_scan(runtime, "treefix/treefix.cl", build, value.bytes, tour_length, value.lookback_as);
  const cl::Program& program = plan.sized.program;
  const bool wide_index = plan.wide_index;
  const cl_int exclusive = options.exclusive;

  if (fused) {
    cl::Buffer* open_prefix = &result.buffer();  // unused by rootfix: any valid buffer
    cl::Buffer* close_prefix = &result.buffer();
    if (!root) {
      open_prefix = &runtime.scratch("treefix.open_prefix", n * value.bytes);
      close_prefix = &runtime.scratch("treefix.close_prefix", n * value.bytes);
    }
    detail::run_scan(runtime, plan, tour_length, [&](cl::Kernel& k, cl_uint first) {
      k.setArg(first, tour.tour_vertex());
      k.setArg(first + 1, weights.buffer());
      k.setArg(first + 2, static_cast<cl_int>(root));
      k.setArg(first + 3, exclusive);
      k.setArg(first + 4, result.buffer());
      k.setArg(first + 5, *open_prefix);
      k.setArg(first + 6, *close_prefix);
    }, options.profile, "scan");
    if (!root) {
      cl::Kernel finish(program, "treefix_leaf_finish");
      set_args(finish, *open_prefix, *close_prefix);
      detail::set_index_arg(finish, 2, n, wide_index);
      finish.setArg(3, result.buffer());
      runtime.launch(finish, n, 0, options.profile, "read");
    }
    return;
  }

  cl::Buffer& tour_values = runtime.scratch("treefix.tour", tour_length * value.bytes);
  cl::Kernel write(program, "treefix_write");
  set_args(write, tour.open_pos(), tour.close_pos(), weights.buffer());
  detail::set_index_arg(write, 3, n, wide_index);
  write.setArg(4, tour_values);
  write.setArg(5, static_cast<cl_int>(root));
  runtime.launch(write, n, 0, options.profile, "write");

  detail::ScanPlan tour_scan = detail::plan_scan(runtime, "primitives/scan.cl", value.options, value.bytes, tour_length, value.lookback_as);
  detail::run_scan(runtime, tour_scan, tour_length, [&](cl::Kernel& k, cl_uint first) {
    set_args_from(k, first, tour_values, tour_values, cl_int(1));
  }, options.profile, "scan");

  if (root) {
    cl::Kernel read(program, "treefix_read_rootfix");
    set_args(read, tour.open_pos(), tour_values);
    detail::set_index_arg(read, 2, n, wide_index);
    read.setArg(3, result.buffer());
    read.setArg(4, exclusive);
    runtime.launch(read, n, 0, options.profile, "read");
  } else {
    cl::Kernel read(program, "treefix_read_leaffix");
    set_args(read, tour.open_pos(), tour.close_pos(), tour_values);
    detail::set_index_arg(read, 3, n, wide_index);
    read.setArg(4, result.buffer());
    read.setArg(5, exclusive);
    runtime.launch(read, n, 0, options.profile, "read");
  }
}

template <class T>
void sequential_treefix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
                        DeviceArray<T>& result, const TreefixOptions& options, Fix fix) {
  std::vector<T> w = weights.download(runtime, options.profile);
  std::vector<T> r = fix == Fix::root
                         ? reference::rootfix(tree.parent(), w, options.op, options.exclusive)
                         : reference::leaffix(tree.parent(), w, options.op, options.exclusive);
  result.write(runtime, r, options.profile);
}

template <class T>
void treefix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
             DeviceArray<T>& result, const TreefixOptions& options, Fix fix) {
  check_arrays(tree, weights, result);
  const ValueType type = value_type_of<T>();
  if (type == ValueType::float64 && !runtime.description().fp64)
    throw InputError("the device " + runtime.description().device_name +
                     " has no double precision (cl_khr_fp64)");
  Algorithm algorithm = options.algorithm == Algorithm::automatic
                            ? choose_algorithm(tree, options.op, type)
                            : options.algorithm;
  check_operator(options.op, type, algorithm);
  translate_device_errors(fix == Fix::root ? "rootfix" : "leaffix", [&] {
    switch (algorithm) {
      case Algorithm::euler: euler_treefix(runtime, tree, weights, result, options, fix); break;
      case Algorithm::sequential: sequential_treefix(runtime, tree, weights, result, options, fix); break;
      case Algorithm::levels:
        if (fix == Fix::root)
          levels_rootfix(runtime, tree.levels(options.profile), weights, result, options.op,
                         options.exclusive, options.profile);
        else
          levels_leaffix(runtime, tree.levels(options.profile), weights, result, options.op,
                         options.exclusive, options.profile);
        break;
      case Algorithm::automatic: break;
    }
  });
}

}  // namespace

template <class T>
void rootfix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
             DeviceArray<T>& result, const TreefixOptions& options) {
  treefix(runtime, tree, weights, result, options, Fix::root);
}

template <class T>
void leaffix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
             DeviceArray<T>& result, const TreefixOptions& options) {
  treefix(runtime, tree, weights, result, options, Fix::leaf);
}

namespace {
// Host convenience: validate, upload, compute on the device, download.
template <class T>
std::vector<T> host_treefix(Runtime& runtime, const ParentArray& parent, const std::vector<T>& weights,
                            const TreefixOptions& options, Fix fix) {
  DeviceTree tree(runtime, parent);
  if (weights.size() != parent.size())
    throw InputError(std::to_string(weights.size()) + " weights for a tree of " +
                     std::to_string(parent.size()) + " vertices");
  auto w = DeviceArray<T>::upload(runtime, weights, options.profile, "weights");
  DeviceArray<T> r(runtime, parent.size(), "treefix result");
  treefix(runtime, tree, w, r, options, fix);
  return r.download(runtime, options.profile);
}
}  // namespace

template <class T>
std::vector<T> rootfix(Runtime& runtime, const ParentArray& parent, const std::vector<T>& weights,
                       const TreefixOptions& options) {
  return host_treefix(runtime, parent, weights, options, Fix::root);
}

template <class T>
std::vector<T> leaffix(Runtime& runtime, const ParentArray& parent, const std::vector<T>& weights,
                       const TreefixOptions& options) {
  return host_treefix(runtime, parent, weights, options, Fix::leaf);
}

#define TREEFIX_INSTANTIATE(T)                                                                    \
  template void rootfix<T>(Runtime&, DeviceTree&, const DeviceArray<T>&, DeviceArray<T>&,         \
                           const TreefixOptions&);                                                \
  template void leaffix<T>(Runtime&, DeviceTree&, const DeviceArray<T>&, DeviceArray<T>&,         \
                           const TreefixOptions&);                                                \
  template std::vector<T> rootfix<T>(Runtime&, const ParentArray&, const std::vector<T>&,         \
                                     const TreefixOptions&);                                      \
  template std::vector<T> leaffix<T>(Runtime&, const ParentArray&, const std::vector<T>&,         \
                                     const TreefixOptions&);
TREEFIX_INSTANTIATE(std::int32_t)
TREEFIX_INSTANTIATE(std::int64_t)
TREEFIX_INSTANTIATE(float)
TREEFIX_INSTANTIATE(double)
#undef TREEFIX_INSTANTIATE

}  // namespace treefix
