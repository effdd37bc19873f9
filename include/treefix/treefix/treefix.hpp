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
#include "treefix/core/runtime.hpp"
#include "treefix/core/types.hpp"
#include "treefix/treefix/euler_tour.hpp"
#include "treefix/treefix/levels.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix {

enum class Algorithm { automatic, euler, levels, sequential };
// The two forms of the Euler-tour method (kernels/treefix.cl): three kernels over a materialised
// tour, as in the paper (Write, Scan, Read: timed separately), or fused into the scan passes.
enum class EulerKernels { fused, three };
template <>
struct EnumNames<Algorithm> {
  static constexpr const char* what = "algorithm";
  static constexpr NameEntry<Algorithm> entries[] = {{Algorithm::automatic, "auto"},
                                                     {Algorithm::euler, "euler"},
                                                     {Algorithm::levels, "levels"},
                                                     {Algorithm::sequential, "sequential"}};
};
template <>
struct EnumNames<EulerKernels> {
  static constexpr const char* what = "Euler-tour kernel form";
  static constexpr NameEntry<EulerKernels> entries[] = {{EulerKernels::fused, "fused"},
                                                        {EulerKernels::three, "three"}};
};

struct TreefixOptions {
  Op op = Op::sum;
  bool exclusive = false;
  Algorithm algorithm = Algorithm::automatic;
  Profile* profile = nullptr;  // receives the events of every transfer and kernel
  // Floating-point sums only: carry a compensation term through Write/Scan/Read (error-free
  // transformations), so that results are as accurate as with twice the working precision.
  bool accurate = false;
  // How `accurate` sums: automatic = float weights in a double accumulator where the device has
  // fp64, else double-word; double weights always double-word (hi, lo) pairs.
  enum class AccurateMethod { automatic, double_word } accurate_method = AccurateMethod::automatic;
  EulerKernels euler_kernels = EulerKernels::fused;
};

// A forest prepared for repeated treefix calls. Device representations are built on first use
// and kept: the Euler tour for `euler`.
class DeviceTree {
 public:
  DeviceTree(Runtime& runtime, ParentArray parent);  // validates (InputError on bad input)
  std::size_t size() const { return parent_.size(); }
  const ParentArray& parent() const { return parent_; }
  const DeviceEulerTour& euler_tour(Profile* profile = nullptr);  // built on first call
  const LevelStructure& levels(Profile* profile = nullptr);       // built on first call

 private:
  Runtime* runtime_;
  ParentArray parent_;
  std::unique_ptr<DeviceEulerTour> euler_;
  std::unique_ptr<LevelStructure> levels_;
};

// Device-resident treefix: weights and result are device arrays of tree.size() values. For
// algorithm `sequential` the data is copied to the host and back.
template <class T>
void rootfix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
             DeviceArray<T>& result, const TreefixOptions& options = {});
template <class T>
void leaffix(Runtime& runtime, DeviceTree& tree, const DeviceArray<T>& weights,
             DeviceArray<T>& result, const TreefixOptions& options = {});

// Host convenience: upload, compute, download.
template <class T>
std::vector<T> rootfix(Runtime& runtime, const ParentArray& parent, const std::vector<T>& weights,
                       const TreefixOptions& options = {});
template <class T>
std::vector<T> leaffix(Runtime& runtime, const ParentArray& parent, const std::vector<T>& weights,
                       const TreefixOptions& options = {});

// The algorithm `automatic` resolves to for this tree, operator and value type: levels when its
// sweep costs few launches next to the size of the tree (levels_preferred: shallow, wide trees),
// else euler for sum/xor and the sequential CPU pass for min/max on very deep trees (a path of a
// million levels would need a million launches). The level structure is built on the host, O(n).
Algorithm choose_algorithm(DeviceTree& tree, Op op, ValueType type);

}  // namespace treefix
