#pragma once
// Internal to the treefix module: how the level sweeps (levels.cpp) and the per-call
// breadth-first treefix (bfs_treefix.cpp) carry their values, so that both compute bit for bit
// alike.
#include <cstddef>
#include <string>

#include "treefix/core/runtime.hpp"
#include "treefix/core/types.hpp"
#include "treefix/treefix/precision.hpp"

namespace treefix::detail {

// The weight type, or for an accurate floating-point sum float in double (double-word float pairs
// on a device without fp64) and double in double-word pairs (precision.hpp gives the bounds).
struct SweepValue {
  std::string options;  // value_op_options and the accumulator's -D options
  std::size_t bytes;    // of one value_t
  bool wide;            // results pass through a value_t array, narrowed at the end
};
SweepValue sweep_value(const Runtime& runtime, ValueType type, Op op, Precision precision);

}  // namespace treefix::detail
