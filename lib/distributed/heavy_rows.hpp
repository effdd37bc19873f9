#pragma once
// Internal to the distributed module: which rows a whole work-group takes.
#include <cstddef>

namespace treefix::detail {

// Rows of more arcs than this are expanded (the BFS's top-down levels), searched past their first
// kHeavyRowArcs arcs (bottom-up levels) and checked (the device check) by a work-group each, the
// others by one work-item: a Kronecker hub's million arcs would keep one work-item, and every
// rank waiting for it at the next exchange, busy for tens of milliseconds.
constexpr std::size_t kHeavyRowArcs = 256;

}  // namespace treefix::detail
