#pragma once
// Internal: the treefix module's tuning rows (treefix_tuning.cpp), read by the automatic choice.
#include "treefix/core/tuning.hpp"

namespace treefix::knobs {
extern const Knob<bool> automatic_on_host;
}  // namespace treefix::knobs
