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
//   automatic  picks per call (see choose_algorithm).
//
// Typical use, data kept on the device across calls:
//   treefix::Runtime rt;
//   treefix::DeviceTree tree(rt, parent);
//   auto w = treefix::DeviceArray<float>::upload(rt, weights);
//   treefix::DeviceArray<float> r(rt, tree.size());
//   treefix::rootfix(rt, tree, w, r, {treefix::Op::sum});
#include <cstddef>
#include <memory>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/core/types.hpp"
#include "treefix/treefix/bfs_treefix.hpp"
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

// A forest prepared on the device for repeated treefix calls. The constructor uploads the parent
// array and validates it on the device, once: a range check, then the Euler tour, whose
// construction detects cycles (euler_tour.hpp); InputError with validate_parent_array's message
// on a bad forest. The tour (with the child lists it is built from) is kept for `euler`; the
// level structure for `levels` is built from it on first use.
class DeviceTree {
 public:
  DeviceTree(Runtime& runtime, ParentArray parent, const DeviceTreeOptions& options = {});
  // Shares the caller's array instead of copying it: the caller keeps it alive and unchanged
  // while the tree exists.
  DeviceTree(Runtime& runtime, std::shared_ptr<const ParentArray> parent,
             const DeviceTreeOptions& options = {});
  std::size_t size() const { return parent_->size(); }
  const ParentArray& parent() const { return *parent_; }
  const DeviceArray<vertex_t>& device_parent() const { return device_parent_; }
  const DeviceChildLists& children() const { return children_; }
  const DeviceEulerTour& euler_tour(Profile* profile = nullptr);  // built by the constructor
  const LevelStructure& levels(Profile* profile = nullptr);       // built on first call
  bool has_levels() const { return levels_ != nullptr; }
  // Depth of the deepest vertex (computed on the device on first call).
  std::size_t max_depth(Profile* profile = nullptr);
  // Treefix calls made on this tree so far (what `automatic` amortises the level structure over).
  std::size_t calls() const { return calls_; }
  void count_call() { ++calls_; }

 private:
  void prepare(const DeviceTreeOptions& options);
  Runtime* runtime_;
  std::shared_ptr<const ParentArray> parent_;
  DeviceArray<vertex_t> device_parent_;
  DeviceChildLists children_;
  DeviceEulerTour euler_;
  std::unique_ptr<LevelStructure> levels_;
  std::size_t calls_ = 0;
};

// Device-resident treefix: weights and result are device arrays of tree.size() values. For
// algorithm `sequential` the data is copied to the host and back.
template <class T>
void rootfix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
             DeviceArray<T>& result, const TreefixOptions& options = {});
template <class T>
void leaffix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
             DeviceArray<T>& result, const TreefixOptions& options = {});

// Host convenience: upload, validate and prepare (a DeviceTree), compute, download.
template <class T>
std::vector<T> rootfix(Runtime& runtime, const ParentArray& parent, const std::vector<T>& weights,
                       const TreefixOptions& options = {});
template <class T>
std::vector<T> leaffix(Runtime& runtime, const ParentArray& parent, const std::vector<T>& weights,
                       const TreefixOptions& options = {});
// The same with the weights moved in: the result comes back in their storage, so the call takes
// no new host memory (treefix_files' path: its weights are read for the one call).
template <class T>
std::vector<T> rootfix(Runtime& runtime, const ParentArray& parent, std::vector<T>&& weights,
                       const TreefixOptions& options = {});
template <class T>
std::vector<T> leaffix(Runtime& runtime, const ParentArray& parent, std::vector<T>&& weights,
                       const TreefixOptions& options = {});

// Builds (or loads from the disk cache) every program that rootfix and leaffix with these options
// and value type need, by running both on a tiny tree, so that the first call on real data pays
// no compilation and no first-launch cost. For a caller that can do it while it reads its input
// (the CLI does, on another thread, with the device setup). `automatic` warms what a single call
// takes (euler for sum/xor, levels for min/max); an automatic layout warms the pre-order
// layout's programs, which cover the vertex-ids layout's too.
void warm_up(Runtime& runtime, ValueType type, const TreefixOptions& options);

// The algorithm `automatic` resolves to for this tree, operator and value type, from what the
// device computes cheaply (the maximum depth; the level widths once the level structure exists):
//   min, max   levels when its sweep costs few launches next to the size of the tree
//              (levels_preferred), else the sequential CPU pass (a path of a million levels
//              would need a million launches; the Euler tour cannot do min and max);
//   sum, xor   euler, except on shallow trees (levels_preferred) whose level structure exists
//              or that have had two calls already: the level sweep is faster than the tour's
//              scan on shallow trees (a star: 0.15 against 0.33 ms at 2^24 on an H100), but
//              building the levels costs more than one call saves.
Algorithm choose_algorithm(DeviceTree& tree, Op op, ValueType type);

}  // namespace treefix
