#pragma once
// Treefix computations: for weights w on the vertices of a rooted forest and an operator ⊕,
//   rootfix(v) = ⊕ of w over v and all its ancestors      (exclusive: the ancestors only)
//   leaffix(v) = ⊕ of w over v and all its descendants    (exclusive: the descendants only)
//
// Algorithms:
//   euler      Defour & Marin's vectorial method: Write (scatter w, and its inverse for rootfix,
//              into the 2n-position Euler tour), Scan (device-wide prefix), Read (gather). Needs an
//              operator with an inverse: sum (int32, int64, float, double) and xor (integers).
//   levels     level-synchronous sweeps (treefix/levels.hpp): top-down for rootfix, bottom-up for
//              leaffix, one launch per level (narrow levels fused); every operator incl. min/max.
//              Its level structure is built once per tree (on first use) and kept.
//   bfs        the seed's parallel method (treefix/bfs_treefix.hpp): a queue-based breadth-first
//              search over the child lists on every call, one launch per level, nothing kept;
//              every operator; the same results as levels. `automatic` never picks it.
//   sequential the CPU reference (treefix/reference.hpp), run on the host.
//   automatic  picks per call, in one place (choose_algorithm): the host's sequential pass on a CPU
//              device, else by the tree's shape.
//
// Typical use, data kept on the device across calls:
//   treefix::Runtime rt;
//   treefix::DeviceTree tree(rt, parent);
//   auto w = treefix::DeviceArray<float>::upload(rt, weights);
//   treefix::DeviceArray<float> r(rt, tree.size());
//   treefix::rootfix(rt, tree, w, r, {treefix::Op::sum});
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/core/types.hpp"
#include "treefix/treefix/bfs_treefix.hpp"
#include "treefix/core/warm_up.hpp"
#include "treefix/treefix/euler_tour.hpp"
#include "treefix/treefix/fix.hpp"
#include "treefix/treefix/levels.hpp"
#include "treefix/treefix/precision.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix {

enum class Algorithm { automatic, euler, levels, bfs, sequential };
// The two forms of the Euler-tour method (kernels/treefix/treefix.cl): three kernels over a
// materialised tour, as in the paper (Write, Scan, Read: timed separately), or fused into the scan
// passes.
enum class EulerKernels { fused, three };
TREEFIX_ENUM_NAMES(Algorithm, "algorithm", {Algorithm::automatic, "auto"},
                   {Algorithm::euler, "euler"}, {Algorithm::levels, "levels"},
                   {Algorithm::bfs, "bfs"}, {Algorithm::sequential, "sequential"});
TREEFIX_ENUM_NAMES(EulerKernels, "Euler-tour kernel form", {EulerKernels::fused, "fused"},
                   {EulerKernels::three, "three"});

struct TreefixOptions {
  Op op = Op::sum;
  bool exclusive = false;
  Algorithm algorithm = Algorithm::automatic;
  Profile* profile = nullptr;  // receives the events of every transfer and kernel
  // Wall time per phase (upload, validate, prepare, compute, download), for --stats: each phase
  // waits for its device work before it ends.
  PhaseTimes* phases = nullptr;
  Precision precision = Precision::accurate;  // floating-point sums (see Precision)
  EulerKernels euler_kernels = EulerKernels::fused;
  // The Euler tour's layout when the host convenience calls prepare the tree (DeviceTree's).
  TourLayout layout = TourLayout::automatic;
};

struct DeviceTreeOptions {
  TourLayout layout = TourLayout::automatic;
  Profile* profile = nullptr;    // the preparation's transfers and kernels
  PhaseTimes* phases = nullptr;  // its wall time: "upload", "validate", "prepare"
  ListRankOptions list_rank = {};
};

// How far a parent array given on the device is trusted (DeviceTree's constructor).
enum class ParentCheck {
  validate,      // checked as a host array is: InputError naming the first bad vertex
  known_forest,  // a forest by construction (tree surgery's output): no validation pass at all
};

// A forest prepared for repeated treefix calls. The constructor validates the parent array once:
// on the device (uploaded, a range check, then the Euler tour, whose construction detects cycles:
// euler_tour.hpp), or on the host where `automatic` runs there (automatic_on_host: a CPU device),
// which leaves the device form to the first call that needs it. InputError with
// validate_parent_array's message on a bad forest either way. The tour (with the child lists it
// is built from) is kept for `euler`; the level structure for `levels` is built from it on first
// use; the host orders of the sequential pass on theirs.
//
// A tree may also start on the device (a parent array uploaded by the caller, or made there by
// tree surgery): then nothing is uploaded, and the host copy of the parent array is downloaded
// only when something asks for it (parent(): the sequential pass, a Newick writer). On a CPU
// device a known forest waits for its first call as a host array does; one to validate is
// downloaded and validated on the host.
class DeviceTree {
 public:
  DeviceTree(Runtime& runtime, ParentArray parent, const DeviceTreeOptions& options = {});
  // Shares the caller's array instead of copying it: the caller keeps it alive and unchanged
  // while the tree exists.
  DeviceTree(Runtime& runtime, std::shared_ptr<const ParentArray> parent,
             const DeviceTreeOptions& options = {});
  // A parent array on the device (n int32 values; shared, never written): no upload, and no
  // validation pass for a known forest.
  DeviceTree(Runtime& runtime, DeviceArray<vertex_t> parent, ParentCheck check,
             const DeviceTreeOptions& options = {});
  std::size_t size() const { return n_; }
  Runtime& runtime() const { return *runtime_; }
  // The host copy: for a tree that started on the device, downloaded on first call and kept (a
  // caller that shares the Runtime between threads holds its lock, as for any device call).
  const ParentArray& parent() const;
  bool parent_on_host() const { return parent_ != nullptr; }
  // The parent array into host memory (n values): from the host copy, or straight from the
  // device, keeping none.
  void copy_parent_to(vertex_t* out) const;
  // Whether the device form (parent array, child lists, tour) exists yet.
  bool on_device() const { return on_device_; }
  // The device form, made on first use when the constructor validated on the host.
  const DeviceArray<vertex_t>& device_parent();
  const DeviceChildLists& children();
  const DeviceEulerTour& euler_tour(Profile* profile = nullptr);
  const LevelStructure& levels(Profile* profile = nullptr);  // built on first call
  // The sequential pass's order (treefix/reference.hpp): parent_first_order for rootfix,
  // level_order for leaffix; made on first call and kept.
  const std::vector<vertex_t>& host_order(Fix fix);
  bool has_levels() const { return levels_ != nullptr; }
  // Depth of the deepest vertex (computed on the device on first call).
  std::size_t max_depth(Profile* profile = nullptr);
  // Treefix calls made on this tree so far (what `automatic` amortises the level structure over).
  std::size_t calls() const { return calls_; }
  void count_call() { ++calls_; }


 private:
  void prepare(const DeviceTreeOptions& options);
  void prepare_on_device(const DeviceTreeOptions& options);
  Runtime* runtime_;
  std::size_t n_ = 0;
  mutable std::shared_ptr<const ParentArray> parent_;  // null until asked for (device trees)
  DeviceTreeOptions prepare_later_;  // the layout and list ranking of a deferred device form
  bool on_device_ = false;
  bool parent_uploaded_ = false;  // device_parent_ holds the array before the device form exists
  bool known_forest_ = false;     // validated (on the host) or a forest by construction
  std::vector<vertex_t> root_order_, leaf_order_;
  DeviceArray<vertex_t> device_parent_;
  DeviceChildLists children_;
  DeviceEulerTour euler_;
  std::unique_ptr<LevelStructure> levels_;
  std::size_t calls_ = 0;
};

// Device-resident treefix: weights and result are device arrays of tree.size() values, or a
// batch of k rows of tree.size() values each (k·n, row after row: each row is one set of
// weights, computed in turn). For algorithm `sequential` the data is copied to the host and back.
template <class T>
void treefix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
             DeviceArray<T>& result, Fix fix, const TreefixOptions& options = {});
template <class T>
void rootfix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
             DeviceArray<T>& result, const TreefixOptions& options = {}) {
  treefix(runtime, tree, weights, result, Fix::root, options);
}
template <class T>
void leaffix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
             DeviceArray<T>& result, const TreefixOptions& options = {}) {
  treefix(runtime, tree, weights, result, Fix::leaf, options);
}

// Host memory in, host memory out: `rows` rows of tree.size() weights at `weights` (row after
// row), their results written at `result` (which may be `weights`). A call that runs on the host
// (sequential, or automatic on a CPU device) touches no device; otherwise each row goes up
// through a workspace the Runtime keeps, so a repeated call allocates nothing on the device.
// Between rows it passes an interruption point (treefix/core/interrupt.hpp).
template <class T>
void treefix(Runtime& runtime, DeviceTree& tree, const T* weights, T* result, std::size_t rows,
             Fix fix, const TreefixOptions& options = {});

// Host convenience: upload, validate and prepare (a DeviceTree), compute, download. With the
// weights moved in, the result comes back in their storage, so the call takes no new host memory
// (treefix_files' path: its weights are read for the one call).
template <class T>
std::vector<T> treefix(Runtime& runtime, const ParentArray& parent, const std::vector<T>& weights,
                       Fix fix, const TreefixOptions& options = {});
template <class T>
std::vector<T> treefix(Runtime& runtime, const ParentArray& parent, std::vector<T>&& weights,
                       Fix fix, const TreefixOptions& options = {});
template <class T>
std::vector<T> rootfix(Runtime& runtime, const ParentArray& parent, const std::vector<T>& weights,
                       const TreefixOptions& options = {}) {
  return treefix(runtime, parent, weights, Fix::root, options);
}
template <class T>
std::vector<T> leaffix(Runtime& runtime, const ParentArray& parent, const std::vector<T>& weights,
                       const TreefixOptions& options = {}) {
  return treefix(runtime, parent, weights, Fix::leaf, options);
}
template <class T>
std::vector<T> rootfix(Runtime& runtime, const ParentArray& parent, std::vector<T>&& weights,
                       const TreefixOptions& options = {}) {
  return treefix(runtime, parent, std::move(weights), Fix::root, options);
}
template <class T>
std::vector<T> leaffix(Runtime& runtime, const ParentArray& parent, std::vector<T>&& weights,
                       const TreefixOptions& options = {}) {
  return treefix(runtime, parent, std::move(weights), Fix::leaf, options);
}

// Builds (or loads from the disk cache) every program that rootfix and leaffix with these options
// and value type need, by running both on a tiny tree, so that the first call on real data pays
// no compilation and no first-launch cost. For a caller that can do it while it reads its input
// (the CLI does, on another thread, with the device setup). `automatic` warms what a single call
// takes (euler for sum/xor, levels for min/max); an automatic layout warms the pre-order
// layout's programs, which cover the vertex-ids layout's too.
void warm_up(Runtime& runtime, ValueType type, const TreefixOptions& options);

// The tasks of `treefix warmup` for this module (treefix/core/warm_up.hpp): the device tree's
// preparation, then the Euler tour and the level sweeps of every value type and operator.
std::vector<WarmUpTask> treefix_warm_up_tasks();

// Whether `automatic` takes the host's sequential pass on this Runtime's device whatever the
// tree: tuning row automatic_on_host, on for CPU devices (an OpenCL CPU device shares the host's
// cores, and the sequential pass needs no uploads, no device tree and no kernels to compile: 5-10x
// faster than the tour on PoCL for small trees, 2-6x end to end for 2^20 vertices), off for GPUs.
bool automatic_on_host(const Runtime& runtime);

// The algorithm `automatic` resolves to for this tree, operator and value type: the one place it
// is decided, for the CLI, the Python module and the library's own calls alike. sequential where
// automatic_on_host; else from what the device computes cheaply (the maximum depth; the level
// widths once the level structure exists):
//   min, max   levels when its sweep costs few launches next to the size of the tree
//              (levels_preferred), else the sequential CPU pass (a path of a million levels
//              would need a million launches; the Euler tour cannot do min and max);
//   sum, xor   euler, except on shallow trees (levels_preferred) whose level structure exists
//              or that have had two calls already: the level sweep is faster than the tour's
//              scan on shallow trees (a star: 0.15 against 0.33 ms at 2^24 on an H100), but
//              building the levels costs more than one call saves.
Algorithm choose_algorithm(DeviceTree& tree, Op op, ValueType type);

}  // namespace treefix
