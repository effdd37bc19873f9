// Treefix: algorithm dispatch, the device tree, and the Euler-tour (Write / Scan / Read) method.
#include "treefix/treefix.hpp"

#include <string>

#include "treefix/primitives.hpp"
#include "treefix/reference.hpp"

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

DeviceEulerTour::DeviceEulerTour(Runtime& runtime, const EulerTour& tour, Profile* profile)
    : vertices_(tour.size()), wide_(2 * tour.size() > static_cast<std::size_t>(INT32_MAX)) {
  const std::size_t pos_bytes = wide_ ? 8 : 4;
  runtime.require_fits("the Euler tour of " + std::to_string(vertices_) + " vertices",
                       2 * vertices_ * pos_bytes, vertices_ * pos_bytes);
  auto upload = [&](const std::vector<std::int64_t>& positions, cl::Buffer& buffer) {
    if (wide_) buffer = DeviceArray<std::int64_t>::upload(runtime, positions, profile, "tour positions").buffer();
    else buffer = DeviceArray<std::int32_t>::upload(runtime, narrow<std::int32_t>(positions), profile, "tour positions").buffer();
  };
  upload(tour.open_pos, open_pos_);
  upload(tour.close_pos, close_pos_);
}

DeviceTree::DeviceTree(Runtime& runtime, ParentArray parent)
    : runtime_(&runtime), parent_(std::move(parent)) {
  validate_parent_array(parent_);
}

const DeviceEulerTour& DeviceTree::euler_tour(Profile* profile) {
  if (!euler_) euler_ = std::make_unique<DeviceEulerTour>(*runtime_, build_euler_tour(parent_), profile);
  return *euler_;
}

Algorithm choose_algorithm(DeviceTree& /*tree*/, Op op, ValueType /*type*/) {
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

template <class T>
void euler_treefix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
                   DeviceArray<T>& result, const TreefixOptions& options, Fix fix) {
  const DeviceEulerTour& tour = tree.euler_tour(options.profile);
  const std::size_t n = tree.size();
  if (n == 0) return;
  const ValueType type = value_type_of<T>();
  const std::size_t tour_length = 2 * n;
  runtime.require_fits("treefix of " + std::to_string(n) + " vertices",
                       tour_length * sizeof(T) + 2 * n * sizeof(T) +
                           tour_length * (tour.wide_positions() ? 8 : 4),
                       tour_length * sizeof(T));
  cl::Buffer& tour_values = runtime.scratch("treefix.tour", tour_length * sizeof(T));
  const bool wide_index = tour_length > 0xFFFFFFFFull / 2;
  std::string build = value_op_options(type, options.op) + " " + tour.position_option() +
                      (wide_index ? " -DWIDE_INDEX=1" : "");
  cl::Program program = runtime.program("treefix.cl", build);
  auto index_arg = [&](cl::Kernel& k, cl_uint at) {
    if (wide_index) k.setArg(at, static_cast<cl_ulong>(n));
    else k.setArg(at, static_cast<cl_uint>(n));
  };
  const std::size_t wg = 0;  // element-wise kernels: let the implementation pick the group size

  cl::Kernel write(program, "treefix_write");
  set_args(write, tour.open_pos(), tour.close_pos(), weights.buffer());
  index_arg(write, 3);
  write.setArg(4, tour_values);
  write.setArg(5, static_cast<cl_int>(fix == Fix::root));
  runtime.launch(write, n, wg, options.profile, "write");

  scan(runtime, type, options.op, ScanKind::inclusive, tour_values, tour_values, tour_length,
       options.profile, "scan");

  if (fix == Fix::root) {
    cl::Kernel read(program, "treefix_read_rootfix");
    set_args(read, tour.open_pos(), tour_values);
    index_arg(read, 2);
    read.setArg(3, result.buffer());
    read.setArg(4, static_cast<cl_int>(options.exclusive));
    runtime.launch(read, n, wg, options.profile, "read");
  } else {
    cl::Kernel read(program, "treefix_read_leaffix");
    set_args(read, tour.open_pos(), tour.close_pos(), tour_values);
    index_arg(read, 3);
    read.setArg(4, result.buffer());
    read.setArg(5, static_cast<cl_int>(options.exclusive));
    runtime.launch(read, n, wg, options.profile, "read");
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
        throw InputError("the level-synchronous treefix is not available in this build");
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

template <class T>
std::vector<T> rootfix(Runtime& runtime, const ParentArray& parent, const std::vector<T>& weights,
                       const TreefixOptions& options) {
  DeviceTree tree(runtime, parent);
  if (weights.size() != parent.size())
    throw InputError(std::to_string(weights.size()) + " weights for a tree of " +
                     std::to_string(parent.size()) + " vertices");
  auto w = DeviceArray<T>::upload(runtime, weights, options.profile, "weights");
  DeviceArray<T> r(runtime, parent.size(), "treefix result");
  rootfix(runtime, tree, w, r, options);
  return r.download(runtime, options.profile);
}

template <class T>
std::vector<T> leaffix(Runtime& runtime, const ParentArray& parent, const std::vector<T>& weights,
                       const TreefixOptions& options) {
  DeviceTree tree(runtime, parent);
  if (weights.size() != parent.size())
    throw InputError(std::to_string(weights.size()) + " weights for a tree of " +
                     std::to_string(parent.size()) + " vertices");
  auto w = DeviceArray<T>::upload(runtime, weights, options.profile, "weights");
  DeviceArray<T> r(runtime, parent.size(), "treefix result");
  leaffix(runtime, tree, w, r, options);
  return r.download(runtime, options.profile);
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
