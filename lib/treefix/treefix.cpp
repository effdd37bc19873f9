// Treefix: the device tree, the automatic choice, algorithm dispatch, the host convenience calls.
#include "treefix/treefix/treefix.hpp"

#include "treefix/euler.hpp"

#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <type_traits>

#include "treefix/treefix/reference.hpp"

namespace treefix {

// --- the device tree -----------------------------------------------------------------------------
namespace {
// Runs f under `phase` of `phases` (when given), waiting for its device work before the phase
// ends, so that the time lands where the work was asked for.
template <class F>
auto timed(Runtime& runtime, PhaseTimes* phases, const char* phase, F&& f) {
  if (!phases) return f();
  return phases->measure(phase, [&] {
    if constexpr (std::is_void_v<std::invoke_result_t<F>>) {
      f();
      runtime.queue().finish();
    } else {
      auto result = f();
      runtime.queue().finish();
      return result;
    }
  });
}
}  // namespace

DeviceTree::DeviceTree(Runtime& runtime, ParentArray parent, const DeviceTreeOptions& options)
    : DeviceTree(runtime, std::make_shared<const ParentArray>(std::move(parent)), options) {}

DeviceTree::DeviceTree(Runtime& runtime, std::shared_ptr<const ParentArray> parent,
                       const DeviceTreeOptions& options)
    : runtime_(&runtime), parent_(std::move(parent)) {
  prepare(options);
}

void DeviceTree::prepare(const DeviceTreeOptions& options) {
  Runtime& runtime = *runtime_;
  const std::size_t n = parent_->size();
  if (DeviceEulerTour::needs_wide_positions(n)) {
    // 2n positions beyond int32: validated and toured on the host (n > 2^30).
    timed(runtime, options.phases, "validate", [&] { validate_parent_array(*parent_); });
    device_parent_ = timed(runtime, options.phases, "upload", [&] {
      return DeviceArray<vertex_t>::upload(runtime, *parent_, options.profile, "parent array");
    });
    euler_ = timed(runtime, options.phases, "prepare", [&] {
      return DeviceEulerTour(runtime, build_euler_tour(*parent_), options.profile, options.layout);
    });
    return;
  }
  device_parent_ = timed(runtime, options.phases, "upload", [&] {
    return DeviceArray<vertex_t>::upload(runtime, *parent_, options.profile, "parent array");
  });
  // Validation is the tour's construction up to its check (a range check first); the map and
  // layout after it are the preparation proper (the tour reports both phases).
  TourOptions tour;
  tour.layout = options.layout;
  tour.profile = options.profile;
  tour.children = &children_;
  tour.list_rank = options.list_rank;
  tour.phases = options.phases;
  try {
    euler_ = device_euler_tour(runtime, device_parent_.buffer(), n, tour);
  } catch (const InputError&) {
    validate_parent_array(*parent_);  // the host's message names the same vertex
    throw;
  }
}

const DeviceEulerTour& DeviceTree::euler_tour(Profile*) { return euler_; }

const LevelStructure& DeviceTree::levels(Profile* profile) {
  if (!levels_) {
    if (euler_.wide_positions())
      levels_ = std::make_unique<LevelStructure>(*runtime_, *parent_, profile,
                                                 LevelStructure::Build::host);
    else
      levels_ =
          std::make_unique<LevelStructure>(*runtime_, device_parent_, children_, euler_, profile);
  }
  return *levels_;
}

std::size_t DeviceTree::max_depth(Profile* profile) {
  if (levels_) return levels_->levels() ? levels_->levels() - 1 : 0;
  if (euler_.wide_positions()) return levels(profile).levels() - 1;
  return euler_.max_depth(*runtime_, profile);
}

Algorithm choose_algorithm(DeviceTree& tree, Op op, ValueType /*type*/) {
  const std::size_t n = tree.size();
  // A first or second call with an inverse takes the tour, whatever the depth: no need to know it.
  if (has_inverse(op) && !tree.has_levels() && tree.calls() < 2) return Algorithm::euler;
  // The sweep's cost in launches: exact once the structure exists, else at most one per level.
  const std::size_t cost =
      tree.has_levels() ? tree.levels().sweep_cost_in_launches() : tree.max_depth() + 1;
  const bool shallow = levels_preferred(cost, n, op);
  if (!has_inverse(op)) return shallow ? Algorithm::levels : Algorithm::sequential;
  if (shallow && (tree.has_levels() || tree.calls() >= 2)) return Algorithm::levels;
  return Algorithm::euler;
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
  std::vector<T> r =
      fix == detail::Fix::root
          ? reference::rootfix(tree.parent(), w, options.op, options.exclusive, options.precision)
          : reference::leaffix(tree.parent(), w, options.op, options.exclusive, options.precision);
  result.write(runtime, r, options.profile);
}

// The seed's parallel method on the tree's child lists (built with its tour; a forest toured on
// the host has none on the device, and gets them uploaded for the call).
template <class T>
void bfs_treefix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
                 DeviceArray<T>& result, const TreefixOptions& options, detail::Fix fix) {
  DeviceChildLists uploaded;
  const DeviceChildLists* children = &tree.children();
  if (children->child_offset.size() != tree.size() + 2) {
    uploaded = upload_child_lists(runtime, tree.parent(), options.profile);
    children = &uploaded;
  }
  if (fix == detail::Fix::root)
    bfs_rootfix(runtime, *children, weights, result, options.op, options.exclusive, options.profile,
                nullptr, options.precision);
  else
    bfs_leaffix(runtime, *children, weights, result, options.op, options.exclusive, options.profile,
                nullptr, options.precision);
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
                            ? timed(runtime, options.phases, "prepare",
                                    [&] { return choose_algorithm(tree, options.op, type); })
                            : options.algorithm;
  check_operator(options.op, type, algorithm);
  tree.count_call();
  if (algorithm == Algorithm::levels && !tree.has_levels())
    timed(runtime, options.phases, "prepare", [&] { tree.levels(options.profile); });
  timed(runtime, options.phases, "compute", [&] {
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
                           options.exclusive, options.profile, nullptr, options.precision);
          else
            levels_leaffix(runtime, tree.levels(options.profile), weights, result, options.op,
                           options.exclusive, options.profile, nullptr, options.precision);
          break;
        case Algorithm::bfs:
          bfs_treefix(runtime, tree, weights, result, options, fix);
          break;
        case Algorithm::automatic:
          break;
      }
    });
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
// Host convenience: upload, validate and prepare, compute on the device, download. `storage`:
// the weights' own vector, moved in by the caller, which receives the result once they are up.
template <class T>
std::vector<T> host_treefix(Runtime& runtime, const ParentArray& parent,
                            const std::vector<T>& weights, std::vector<T>* storage,
                            const TreefixOptions& options, detail::Fix fix) {
  if (weights.size() != parent.size())
    throw InputError(std::to_string(weights.size()) + " weights for a tree of " +
                     std::to_string(parent.size()) + " vertices");
  // Without storage, the result's host memory is mapped and zeroed (std::vector) by another
  // thread while this one waits on the device: 15-50 ms of page faults at 2^24 that would
  // otherwise follow the download.
  const std::size_t n = parent.size();
  std::future<std::vector<T>> out;
  if (!storage && n >= (std::size_t(1) << 20))
    out = std::async(std::launch::async, [n] { return prefaulted_vector<T>(n); });
  DeviceTreeOptions prepare;
  prepare.layout = options.layout;
  prepare.profile = options.profile;
  prepare.phases = options.phases;
  // The caller's array, not a copy: the tree lives only in this call.
  DeviceTree tree(runtime, std::shared_ptr<const ParentArray>(std::shared_ptr<void>(), &parent),
                  prepare);
  auto w = timed(runtime, options.phases, "upload", [&] {
    return DeviceArray<T>::upload(runtime, weights, options.profile, "weights");
  });
  DeviceArray<T> r(runtime, parent.size(), "treefix result");
  treefix(runtime, tree, w, r, options, fix);
  return timed(runtime, options.phases, "download", [&] {
    if (storage) {  // the weights are on the device: their memory takes the result
      r.read_into(runtime, storage->data(), n, 0, options.profile);
      return std::move(*storage);
    }
    if (!out.valid()) return r.download(runtime, options.profile);
    std::vector<T> result = out.get();
    r.read_into(runtime, result.data(), n, 0, options.profile);
    return result;
  });
}
}  // namespace

template <class T>
std::vector<T> rootfix(Runtime& runtime, const ParentArray& parent, const std::vector<T>& weights,
                       const TreefixOptions& options) {
  return host_treefix<T>(runtime, parent, weights, nullptr, options, detail::Fix::root);
}

template <class T>
std::vector<T> rootfix(Runtime& runtime, const ParentArray& parent, std::vector<T>&& weights,
                       const TreefixOptions& options) {
  return host_treefix<T>(runtime, parent, weights, &weights, options, detail::Fix::root);
}

template <class T>
std::vector<T> leaffix(Runtime& runtime, const ParentArray& parent, const std::vector<T>& weights,
                       const TreefixOptions& options) {
  return host_treefix<T>(runtime, parent, weights, nullptr, options, detail::Fix::leaf);
}

template <class T>
std::vector<T> leaffix(Runtime& runtime, const ParentArray& parent, std::vector<T>&& weights,
                       const TreefixOptions& options) {
  return host_treefix<T>(runtime, parent, weights, &weights, options, detail::Fix::leaf);
}

void warm_up(Runtime& runtime, ValueType type, const TreefixOptions& options) {
  TreefixOptions tiny = options;
  tiny.profile = nullptr;
  tiny.phases = nullptr;
  if (tiny.algorithm == Algorithm::automatic)
    tiny.algorithm = has_inverse(tiny.op) ? Algorithm::euler : Algorithm::levels;
  if (tiny.algorithm == Algorithm::sequential) return;
  // The pre-order layout, which a shuffled tree takes, also needs the permutations' program
  // (primitives/permutation.hpp); its scan is the one the vertex-ids layout runs.
  if (tiny.layout == TourLayout::automatic) tiny.layout = TourLayout::preorder;
  detail::warm_up_transfers(runtime);
  if (tiny.op == Op::bit_xor && !is_integer(type)) return;  // the real call will refuse it
  if (type == ValueType::float64 && !runtime.description().fp64) return;
  const ParentArray parent = {-1, 0, 0, 1, 1, 2, -1};
  visit_value_type(type, [&](auto zero) {
    using T = decltype(zero);
    const std::vector<T> weights(parent.size(), T(1));
    rootfix(runtime, parent, weights, tiny);
    leaffix(runtime, parent, weights, tiny);
  });
}

#define TREEFIX_INSTANTIATE(T)                                                            \
  template void rootfix<T>(Runtime&, DeviceTree&, const DeviceArray<T>&, DeviceArray<T>&, \
                           const TreefixOptions&);                                        \
  template void leaffix<T>(Runtime&, DeviceTree&, const DeviceArray<T>&, DeviceArray<T>&, \
                           const TreefixOptions&);                                        \
  template std::vector<T> rootfix<T>(Runtime&, const ParentArray&, const std::vector<T>&, \
                                     const TreefixOptions&);                              \
  template std::vector<T> leaffix<T>(Runtime&, const ParentArray&, const std::vector<T>&, \
                                     const TreefixOptions&);                              \
  template std::vector<T> rootfix<T>(Runtime&, const ParentArray&, std::vector<T>&&,      \
                                     const TreefixOptions&);                              \
  template std::vector<T> leaffix<T>(Runtime&, const ParentArray&, std::vector<T>&&,      \
                                     const TreefixOptions&);
TREEFIX_INSTANTIATE(std::int32_t)
TREEFIX_INSTANTIATE(std::int64_t)
TREEFIX_INSTANTIATE(float)
TREEFIX_INSTANTIATE(double)
#undef TREEFIX_INSTANTIATE

}  // namespace treefix
