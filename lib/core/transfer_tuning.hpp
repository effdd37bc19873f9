#pragma once
// Internal: the host <-> device copies' tuning knobs (rows in transfer_tuning.cpp).
#include "treefix/core/tuning.hpp"

namespace treefix::knobs {
extern const Knob<bool> pinned_transfers;
extern const Knob<std::size_t> pinned_transfers_from;
extern const Knob<std::size_t> staging_chunk_bytes;
}  // namespace treefix::knobs
