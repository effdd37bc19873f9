// Treefix: the device tree, the automatic choice, algorithm dispatch, the host convenience calls.
#include "treefix/treefix/treefix.hpp"

#include "treefix/euler.hpp"

#include <cstdint>
#include <string>

#include "treefix/treefix/reference.hpp"

namespace treefix {

// --- the device tree -----------------------------------------------------------------------------
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
    levels_ =
        std::make_unique<LevelStructure>(*runtime_, parent_, profile, LevelStructure::Build::host);
  return *levels_;
}

Algorithm choose_algorithm(DeviceTree& tree, Op op, ValueType /*type*/) {
  const LevelStructure& levels = tree.levels();
  if (levels_preferred(levels.sweep_cost_in_launches(), tree.size(), op)) return Algorithm::levels;
  return has_inverse(op) ? Algorithm::euler : Algorithm::sequential;
}

// --- the Euler-tour method -----------------------------------------------------------------------
namespace {

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
                                 "xor); ") +
                     to_string(op) + " has none: use --algorithm levels or sequential");
}

template <class T>
void sequential_treefix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
                        DeviceArray<T>& result, const TreefixOptions& options, detail::Fix fix) {
  std::vector<T> w = weights.download(runtime, options.profile);
  std::vector<T> r = fix == detail::Fix::root
                         ? reference::rootfix(tree.parent(), w, options.op, options.exclusive)
                         : reference::leaffix(tree.parent(), w, options.op, options.exclusive);
  result.write(runtime, r, options.profile);
}

template <class T>
void treefix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
             DeviceArray<T>& result, const TreefixOptions& options, detail::Fix fix) {
  check_arrays(tree, weights, result);
  const ValueType type = value_type_of<T>();
  if (type == ValueType::float64 && !runtime.description().fp64)
    throw InputError("the device " + runtime.description().device_name +
                     " has no double precision (cl_khr_fp64)");
  Algorithm algorithm = options.algorithm == Algorithm::automatic
                            ? choose_algorithm(tree, options.op, type)
                            : options.algorithm;
  check_operator(options.op, type, algorithm);
  translate_device_errors(fix == detail::Fix::root ? "rootfix" : "leaffix", [&] {
    switch (algorithm) {
      case Algorithm::euler:
        detail::euler_treefix(runtime, tree, weights, result, options, fix);
        break;
      case Algorithm::sequential:
        sequential_treefix(runtime, tree, weights, result, options, fix);
        break;
      case Algorithm::levels:
        if (fix == detail::Fix::root)
          levels_rootfix(runtime, tree.levels(options.profile), weights, result, options.op,
                         options.exclusive, options.profile);
        else
          levels_leaffix(runtime, tree.levels(options.profile), weights, result, options.op,
                         options.exclusive, options.profile);
        break;
      case Algorithm::automatic:
        break;
    }
  });
}

}  // namespace

template <class T>
void rootfix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
             DeviceArray<T>& result, const TreefixOptions& options) {
  treefix(runtime, tree, weights, result, options, detail::Fix::root);
}

template <class T>
void leaffix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
             DeviceArray<T>& result, const TreefixOptions& options) {
  treefix(runtime, tree, weights, result, options, detail::Fix::leaf);
}

namespace {
// Host convenience: validate, upload, compute on the device, download.
template <class T>
std::vector<T> host_treefix(Runtime& runtime, const ParentArray& parent,
                            const std::vector<T>& weights, const TreefixOptions& options,
                            detail::Fix fix) {
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
  return host_treefix(runtime, parent, weights, options, detail::Fix::root);
}

template <class T>
std::vector<T> leaffix(Runtime& runtime, const ParentArray& parent, const std::vector<T>& weights,
                       const TreefixOptions& options) {
  return host_treefix(runtime, parent, weights, options, detail::Fix::leaf);
}

#define TREEFIX_INSTANTIATE(T)                                                            \
  template void rootfix<T>(Runtime&, DeviceTree&, const DeviceArray<T>&, DeviceArray<T>&, \
                           const TreefixOptions&);                                        \
  template void leaffix<T>(Runtime&, DeviceTree&, const DeviceArray<T>&, DeviceArray<T>&, \
                           const TreefixOptions&);                                        \
  template std::vector<T> rootfix<T>(Runtime&, const ParentArray&, const std::vector<T>&, \
                                     const TreefixOptions&);                              \
  template std::vector<T> leaffix<T>(Runtime&, const ParentArray&, const std::vector<T>&, \
                                     const TreefixOptions&);
TREEFIX_INSTANTIATE(std::int32_t)
TREEFIX_INSTANTIATE(std::int64_t)
TREEFIX_INSTANTIATE(float)
TREEFIX_INSTANTIATE(double)
#undef TREEFIX_INSTANTIATE

}  // namespace treefix
