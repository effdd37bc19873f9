#pragma once
// Internal: connected components' tuning knobs (rows in connectivity_tuning.cpp).
#include "treefix/core/tuning.hpp"

namespace treefix::knobs {
extern const Knob<std::size_t> connectivity_samples, connectivity_sample_degree;
}  // namespace treefix::knobs
