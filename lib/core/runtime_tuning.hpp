#pragma once
// Internal: the runtime's tuning knobs (rows in runtime_tuning.cpp), read by the launch sizing.
#include "treefix/core/tuning.hpp"

namespace treefix::knobs {
extern const Knob<std::size_t> work_group_size;
extern const Knob<std::size_t> resident_items_per_unit;
extern const Knob<std::size_t> min_groups_per_unit;
}  // namespace treefix::knobs
