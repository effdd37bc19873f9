#pragma once
// Internal: the scan's tuning knobs (rows in scan_tuning.cpp).
#include "treefix/core/tuning.hpp"

namespace treefix::knobs {
extern const Knob<std::size_t> scan_items_4, scan_items_8, scan_items_16;
extern const Knob<bool> single_pass_scan;

// Elements per work-item of a scan tile of values of `value_bytes` (4, 8 or 16).
inline std::size_t scan_items(const Tuning& tuning, std::size_t value_bytes) {
  return tuning[value_bytes <= 4 ? scan_items_4 : value_bytes <= 8 ? scan_items_8 : scan_items_16];
}
}  // namespace treefix::knobs
