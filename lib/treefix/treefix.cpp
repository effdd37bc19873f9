// Treefix: the device tree, the automatic choice, algorithm dispatch, the host convenience calls.
#include "treefix/treefix/treefix.hpp"

#include "treefix/euler.hpp"

#include <cstdint>
#include <cstring>
#include <future>
#include <memory>
#include <string>
#include <type_traits>

#include "treefix/core/interrupt.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix_tuning.hpp"

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
    : runtime_(&runtime), n_(parent->size()), parent_(std::move(parent)) {
  prepare(options);
}

DeviceTree::DeviceTree(Runtime& runtime, DeviceArray<vertex_t> parent, ParentCheck check,
                       const DeviceTreeOptions& options)
    : runtime_(&runtime), n_(parent.size()), device_parent_(std::move(parent)) {
  parent_uploaded_ = true;
  known_forest_ = check == ParentCheck::known_forest;
  prepare(options);
}

bool automatic_on_host(const Runtime& runtime) {
  return runtime.tuning()[knobs::automatic_on_host];
}

const ParentArray& DeviceTree::parent() const {
  if (!parent_) parent_ = std::make_shared<const ParentArray>(device_parent_.download(*runtime_));
  return *parent_;
}

void DeviceTree::copy_parent_to(vertex_t* out) const {
  if (parent_)
    parallel_memcpy(out, parent_->data(), n_ * sizeof(vertex_t));
  else
    device_parent_.read_into(*runtime_, out, n_);
}

void DeviceTree::prepare(const DeviceTreeOptions& options) {
  if (!automatic_on_host(*runtime_)) return prepare_on_device(options);
  // The device form waits for a call that asks for a device algorithm.
  prepare_later_ = options;
  prepare_later_.profile = nullptr;
  prepare_later_.phases = nullptr;
  if (known_forest_) return;  // the sequential pass's order is made by its first call
  // The sequential pass's own order is the validation (tree.hpp), kept for the first rootfix.
  root_order_ = options.phases ? options.phases->measure(
                                     "validate", [&] { return parent_first_order(parent()); })
                               : parent_first_order(parent());
  known_forest_ = true;
}

void DeviceTree::prepare_on_device(const DeviceTreeOptions& options) {
  Runtime& runtime = *runtime_;
  const std::size_t n = n_;
  const auto upload = [&] {
    if (parent_uploaded_) return;
    device_parent_ = timed(runtime, options.phases, "upload", [&] {
      return DeviceArray<vertex_t>::upload(runtime, *parent_, options.profile, "parent array");
    });
    parent_uploaded_ = true;
  };
  if (DeviceEulerTour::needs_wide_positions(n)) {
    // 2n positions beyond int32: validated and toured on the host (n > 2^30).
    if (!known_forest_)
      timed(runtime, options.phases, "validate", [&] { validate_parent_array(parent()); });
    known_forest_ = true;
    upload();
    euler_ = timed(runtime, options.phases, "prepare", [&] {
      return DeviceEulerTour(runtime, build_euler_tour(parent()), options.profile, options.layout);
    });
    on_device_ = true;
    return;
  }
  upload();
  // Validation is the tour's construction up to its check (a range check first); the map and
  // layout after it are the preparation proper (the tour reports both phases).
  TourOptions tour;
  tour.layout = options.layout;
  tour.profile = options.profile;
  tour.children = &children_;
  tour.list_rank = options.list_rank;
  tour.phases = options.phases;
  tour.known_forest = known_forest_;
  try {
    euler_ = device_euler_tour(runtime, device_parent_.buffer(), n, tour);
  } catch (const InputError&) {
    validate_parent_array(parent());  // the host's message names the same vertex
    throw;
  }
  known_forest_ = true;
  on_device_ = true;  // not before: an interrupted preparation is made again by the next call
}

const DeviceArray<vertex_t>& DeviceTree::device_parent() {
  if (!on_device_) prepare_on_device(prepare_later_);
  return device_parent_;
}

const DeviceChildLists& DeviceTree::children() {
  if (!on_device_) prepare_on_device(prepare_later_);
  return children_;
}

const std::vector<vertex_t>& DeviceTree::host_order(Fix fix) {
  std::vector<vertex_t>& order = fix == Fix::root ? root_order_ : leaf_order_;
  if (order.empty() && n_ > 0)
    order = fix == Fix::root ? parent_first_order(parent()) : level_order(parent());
  return order;
}

const DeviceEulerTour& DeviceTree::euler_tour(Profile* profile) {
  if (!on_device_) {
    DeviceTreeOptions options = prepare_later_;
    options.profile = profile;
    prepare_on_device(options);
  }
  return euler_;
}

const LevelStructure& DeviceTree::levels(Profile* profile) {
  if (!levels_) {
    euler_tour(profile);  // the device form the structure is built from
    if (euler_.wide_positions())
      levels_ = std::make_unique<LevelStructure>(*runtime_, parent(), profile,
                                                 LevelStructure::Build::host);
    else
      levels_ =
          std::make_unique<LevelStructure>(*runtime_, device_parent_, children_, euler_, profile);
  }
  return *levels_;
}

std::size_t DeviceTree::max_depth(Profile* profile) {
  if (levels_) return levels_->levels() ? levels_->levels() - 1 : 0;
  euler_tour(profile);
  if (euler_.wide_positions()) return levels(profile).levels() - 1;
  return euler_.max_depth(*runtime_, profile);
}

Algorithm choose_algorithm(DeviceTree& tree, Op op, ValueType /*type*/) {
  if (automatic_on_host(tree.runtime())) return Algorithm::sequential;
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

// --- dispatch ------------------------------------------------------------------------------------
namespace {

void check_operator(Op op, ValueType type, Algorithm algorithm) {
  if (op == Op::bit_xor && !is_integer(type))
    throw InputError(std::string("xor needs an integer type, not ") + to_string(type));
  if (algorithm == Algorithm::euler && !has_inverse(op))
    throw InputError(std::string("the Euler-tour treefix needs an operator with an inverse (sum, "
                                 "xor); ") +
                     to_string(op) + " has none: use --algorithm levels or sequential");
}

// The host's pass over one row, in the tree's kept order.
template <class T>
std::vector<T> host_pass(DeviceTree& tree, const std::vector<T>& weights,
                         const TreefixOptions& options, Fix fix) {
  const std::vector<vertex_t>& order = tree.host_order(fix);
  return fix == Fix::root ? reference::rootfix(tree.parent(), order, weights, options.op,
                                               options.exclusive, options.precision)
                          : reference::leaffix(tree.parent(), order, weights, options.op,
                                               options.exclusive, options.precision);
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

void check_value_type(Runtime& runtime, ValueType type) {
  if (type == ValueType::float64 && !runtime.description().fp64)
    throw InputError("the device " + runtime.description().device_name +
                     " has no double precision (cl_khr_fp64)");
}

// The algorithm of a call: `automatic` resolved (choose_algorithm, the one place), checked
// against the operator; the call counted.
Algorithm resolved_algorithm(Runtime& runtime, DeviceTree& tree, const TreefixOptions& options,
                             ValueType type) {
  const Algorithm algorithm =
      options.algorithm == Algorithm::automatic
          ? timed(runtime, options.phases, "prepare",
                  [&] { return choose_algorithm(tree, options.op, type); })
          : options.algorithm;
  check_operator(options.op, type, algorithm);
  if (algorithm != Algorithm::sequential) check_value_type(runtime, type);
  tree.count_call();
  return algorithm;
}

// One row on the device: weights and result of tree.size() values.
template <class T>
void device_row(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
                DeviceArray<T>& result, const TreefixOptions& options, Fix fix,
                Algorithm algorithm) {
  if (algorithm == Algorithm::levels && !tree.has_levels())
    timed(runtime, options.phases, "prepare", [&] { tree.levels(options.profile); });
  timed(runtime, options.phases, "compute", [&] {
    translate_device_errors(to_string(fix), [&] {
      switch (algorithm) {
        case Algorithm::euler:
          detail::euler_treefix(runtime, tree, weights, result, options, fix);
          break;
        case Algorithm::sequential: {
          const std::vector<T> w = weights.download(runtime, options.profile);
          result.write(runtime, host_pass(tree, w, options, fix), options.profile);
          break;
        }
        case Algorithm::levels:
          if (fix == Fix::root)
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

// Rows of a batch, counted: `values` of k·n for a tree of n (k >= 1; n = 0 takes any count).
std::size_t batch_rows(std::size_t values, std::size_t n, const char* what) {
  if (n == 0) return values == 0 ? 1 : 0;
  if (values == 0 || values % n != 0)
    throw InputError(std::to_string(values) + " " + what + " for a tree of " + std::to_string(n) +
                     " vertices (expected n, or k rows of n)");
  return values / n;
}

}  // namespace

template <class T>
void treefix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
             DeviceArray<T>& result, Fix fix, const TreefixOptions& options) {
  const std::size_t n = tree.size();
  const std::size_t rows = batch_rows(weights.size(), n, "weights");
  if (result.size() != weights.size())
    throw InputError("result array of " + std::to_string(result.size()) + " values for " +
                     std::to_string(weights.size()) + " weights");
  const Algorithm algorithm = resolved_algorithm(runtime, tree, options, value_type_of<T>());
  if (rows == 1) return device_row(runtime, tree, weights, result, options, fix, algorithm);
  // A batch: each row through two workspaces (the algorithms take whole arrays).
  auto w = DeviceArray<T>::workspace(runtime, "treefix.batch_weights", n);
  auto r = DeviceArray<T>::workspace(runtime, "treefix.batch_result", n);
  const std::size_t row_bytes = n * sizeof(T);
  for (std::size_t row = 0; row < rows; ++row) {
    interruption_point();
    translate_device_errors("copying a batch row", [&] {
      runtime.queue().enqueueCopyBuffer(weights.buffer(), w.buffer(), row * row_bytes, 0,
                                        row_bytes);
    });
    device_row(runtime, tree, w, r, options, fix, algorithm);
    translate_device_errors("copying a batch row", [&] {
      runtime.queue().enqueueCopyBuffer(r.buffer(), result.buffer(), 0, row * row_bytes,
                                        row_bytes);
    });
  }
}

template <class T>
void treefix(Runtime& runtime, DeviceTree& tree, const T* weights, T* result, std::size_t rows,
             Fix fix, const TreefixOptions& options) {
  const std::size_t n = tree.size();
  if (n == 0 || rows == 0) return;
  const Algorithm algorithm = resolved_algorithm(runtime, tree, options, value_type_of<T>());
  if (algorithm == Algorithm::sequential) {
    std::vector<T> w(n);
    for (std::size_t row = 0; row < rows; ++row) {
      interruption_point();
      std::memcpy(w.data(), weights + row * n, n * sizeof(T));
      const std::vector<T> r = timed(runtime, options.phases, "compute",
                                     [&] { return host_pass(tree, w, options, fix); });
      std::memcpy(result + row * n, r.data(), n * sizeof(T));
    }
    return;
  }
  // Kept by the Runtime between calls: a repeated call allocates nothing on the device.
  auto w = DeviceArray<T>::workspace(runtime, "treefix.host_weights", n);
  auto r = DeviceArray<T>::workspace(runtime, "treefix.host_result", n);
  for (std::size_t row = 0; row < rows; ++row) {
    interruption_point();
    w.write_from(runtime, weights + row * n, n);
    device_row(runtime, tree, w, r, options, fix, algorithm);
    r.read_into(runtime, result + row * n, n);
  }
}

namespace {
// Host convenience: validate and prepare (a DeviceTree), upload, compute on the device,
// download; or, where the call runs on the host, the sequential pass alone. `storage`: the
// weights' own vector, moved in by the caller, which receives the result once they are up.
template <class T>
std::vector<T> host_treefix(Runtime& runtime, const ParentArray& parent,
                            const std::vector<T>& weights, std::vector<T>* storage,
                            const TreefixOptions& options, Fix fix) {
  if (weights.size() != parent.size())
    throw InputError(std::to_string(weights.size()) + " weights for a tree of " +
                     std::to_string(parent.size()) + " vertices");
  const std::size_t n = parent.size();
  DeviceTreeOptions prepare;
  prepare.layout = options.layout;
  prepare.profile = options.profile;
  prepare.phases = options.phases;
  // The caller's array, not a copy: the tree lives only in this call.
  DeviceTree tree(runtime, std::shared_ptr<const ParentArray>(std::shared_ptr<void>(), &parent),
                  prepare);
  if (!tree.on_device() && (options.algorithm == Algorithm::automatic ||
                            options.algorithm == Algorithm::sequential)) {
    const Algorithm algorithm = resolved_algorithm(runtime, tree, options, value_type_of<T>());
    if (algorithm == Algorithm::sequential)
      return timed(runtime, options.phases, "compute",
                   [&] { return host_pass(tree, weights, options, fix); });
  }
  // Without storage, the result's host memory is mapped and zeroed (std::vector) by another
  // thread while this one waits on the device: 15-50 ms of page faults at 2^24 that would
  // otherwise follow the download.
  std::future<std::vector<T>> out;
  if (!storage && n >= (std::size_t(1) << 20))
    out = std::async(std::launch::async, [n] { return prefaulted_vector<T>(n); });
  auto w = timed(runtime, options.phases, "upload", [&] {
    return DeviceArray<T>::upload(runtime, weights, options.profile, "weights");
  });
  DeviceArray<T> r(runtime, parent.size(), "treefix result");
  treefix(runtime, tree, w, r, fix, options);
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
std::vector<T> treefix(Runtime& runtime, const ParentArray& parent, const std::vector<T>& weights,
                       Fix fix, const TreefixOptions& options) {
  return host_treefix<T>(runtime, parent, weights, nullptr, options, fix);
}

template <class T>
std::vector<T> treefix(Runtime& runtime, const ParentArray& parent, std::vector<T>&& weights,
                       Fix fix, const TreefixOptions& options) {
  return host_treefix<T>(runtime, parent, weights, &weights, options, fix);
}

void warm_up(Runtime& runtime, ValueType type, const TreefixOptions& options) {
  TreefixOptions tiny = options;
  tiny.profile = nullptr;
  tiny.phases = nullptr;
  if (tiny.algorithm == Algorithm::automatic && automatic_on_host(runtime)) return;
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

namespace {
// The accurate Euler tour's program depends on the weights' fixed-point format (exact_format.hpp):
// warm_up's weights of 1 fit the narrowest. Positive reals of a few decades with full mantissas
// (branch lengths, probabilities, measurements from 1e-3 to 1e2) fit one more, which this builds.
void warm_typical_exact_format(Runtime& runtime, ValueType type) {
  if (type == ValueType::float64 && !runtime.description().fp64) return;
  const ParentArray parent = {-1, 0, 0, 1, 1, 2, -1};
  const double typical[] = {0.0123, 1.0 / 3.0, 2.5, 97.1, 0.001, 14.2, 0.75};
  visit_value_type(type, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_floating_point_v<T>) {
      std::vector<T> weights(std::begin(typical), std::end(typical));
      TreefixOptions options;
      options.algorithm = Algorithm::euler;
      rootfix(runtime, parent, weights, options);
    }
  });
}
}  // namespace

std::vector<WarmUpTask> treefix_warm_up_tasks() {
  std::vector<WarmUpTask> tasks;
  tasks.push_back({"the device tree (Euler tour, levels)", [](Runtime& runtime) {
                     DeviceTree tree(runtime, ParentArray{-1, 0, 0, 1, 1, 2, -1});
                     tree.euler_tour();
                     tree.levels();
                   }});
  for (ValueType type : {ValueType::int32, ValueType::int64, ValueType::float32,
                         ValueType::float64})
    for (Algorithm algorithm : {Algorithm::euler, Algorithm::levels}) {
      const std::string name =
          std::string("rootfix and leaffix, ") + to_string(type) + ", " + to_string(algorithm);
      tasks.push_back({name, [type, algorithm](Runtime& runtime) {
                         std::vector<Op> ops = {Op::sum};
                         if (is_integer(type)) ops.push_back(Op::bit_xor);
                         if (algorithm == Algorithm::levels) ops.insert(ops.end(), {Op::min, Op::max});
                         for (Op op : ops) {
                           TreefixOptions options;
                           options.op = op;
                           options.algorithm = algorithm;
                           warm_up(runtime, type, options);
                         }
                         if (algorithm == Algorithm::euler && !is_integer(type))
                           warm_typical_exact_format(runtime, type);
                       }});
    }
  return tasks;
}

#define TREEFIX_INSTANTIATE(T)                                                            \
  template void treefix<T>(Runtime&, DeviceTree&, const DeviceArray<T>&, DeviceArray<T>&, \
                           Fix, const TreefixOptions&);                                   \
  template void treefix<T>(Runtime&, DeviceTree&, const T*, T*, std::size_t, Fix,         \
                           const TreefixOptions&);                                        \
  template std::vector<T> treefix<T>(Runtime&, const ParentArray&, const std::vector<T>&, Fix, \
                                     const TreefixOptions&);                                   \
  template std::vector<T> treefix<T>(Runtime&, const ParentArray&, std::vector<T>&&, Fix,      \
                                     const TreefixOptions&);
TREEFIX_INSTANTIATE(std::int32_t)
TREEFIX_INSTANTIATE(std::int64_t)
TREEFIX_INSTANTIATE(float)
TREEFIX_INSTANTIATE(double)
#undef TREEFIX_INSTANTIATE

}  // namespace treefix
