#pragma once
// Detail, installed on purpose: running the passes of kernels/primitives/scan_pass.clh for any
// program that includes it (the plain scan, the fused Euler-tour treefix). The caller binds its
// SCAN_PARAMS through a BindArgs. Used by the treefix module and by the tests of both strategies.
#include <cstddef>
#include <string>

#include "treefix/core/launch.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix::detail {

struct ScanPlan {
  SizedProgram sized;
  std::size_t items = 0;   // elements per work-item per tile
  std::size_t groups = 0;  // work-groups of the reduce / tiles passes
  std::size_t tiles_per_group = 0;
  bool wide_index = false;         // idx_t is ulong (-DWIDE_INDEX)
  bool single_pass = false;        // scan_single_pass (decoupled look-back), else 3 passes
  std::size_t value_bytes = 0;     // sizeof(value_t)
  std::size_t lookback_words = 1;  // 32-bit words a tile's status slot holds (single pass)
  Index index(std::size_t value) const { return {value, wide_index}; }
};

// Chooses items per work-item (Tuning, bounded by local memory), the index width and the grid
// for n elements, and builds `program` (an embedded kernel file that includes scan_pass.clh) with
// `options` plus -DITEMS / -DWIDE_INDEX / -DWG_SIZE.
// `lookback_as` says how the single-pass scan may publish a tile's value: "as_int" for a 4-byte
// integer value_t (one packed word), kLookbackWords for a value_t that lists its 32-bit words
// (VALUE_WORDS: the exact sums), empty for never (the passes of a fixed order: floating point,
// whose sums must not depend on the timing).
inline const std::string kLookbackWords = "words";
ScanPlan plan_scan(Runtime& runtime, const std::string& program, const std::string& options,
                   std::size_t value_bytes, std::size_t n, const std::string& lookback_as = "");

// Runs scan_reduce, scan_partials and scan_tiles (or scan_single_pass). `bind` appends the
// kernel's SCAN_PARAMS. When total is given, total[0] receives the reduction of all n elements.
void run_scan(Runtime& runtime, const ScanPlan& plan, std::size_t n, const BindArgs& bind,
              Phase phase, const cl::Buffer* total = nullptr);

}  // namespace treefix::detail
