#pragma once
// Internal to the library: the runtime's tuning knobs (rows in lib/core/runtime_tuning.cpp), read
// by the launch sizing of core and of the modules that size their own launches (primitives,
// treefix).
#include "treefix/core/tuning.hpp"

namespace treefix::knobs {
extern const Knob<std::size_t> work_group_size;
extern const Knob<std::size_t> resident_items_per_unit;
extern const Knob<std::size_t> min_groups_per_unit;
}  // namespace treefix::knobs
