#pragma once
// Internal: the spatial module's tuning knobs (rows in ropes_tuning.cpp and morton_tuning.cpp).
#include "treefix/core/tuning.hpp"

namespace treefix::knobs {
extern const Knob<std::size_t> lockstep_width;
extern const Knob<bool> lockstep_when_coherent;
extern const Knob<bool> boost_key_sort;
extern const Knob<bool> kd_specialised_programs;
extern const Knob<std::size_t> kd_scratch_bytes;
}  // namespace treefix::knobs
