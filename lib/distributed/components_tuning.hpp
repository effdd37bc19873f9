#pragma once
// Internal: distributed components' tuning knob (row in components_tuning.cpp).
#include "treefix/core/tuning.hpp"

namespace treefix::knobs {
extern const Knob<std::size_t> distributed_components_team;
}  // namespace treefix::knobs
