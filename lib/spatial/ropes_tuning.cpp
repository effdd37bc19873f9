// The rope traversals' tuning rows (ropes.cpp).
#include <algorithm>

#include "spatial/spatial_tuning.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix::knobs {
namespace {
std::size_t at_most_a_group(std::size_t width, const DeviceDescription& device) {
  return std::min(width, std::max<std::size_t>(1, device.max_work_group_size));
}
}  // namespace

// Items per work-group of the lockstep rope traversal (a warp's width, as in the paper).
const Knob<std::size_t> lockstep_width = declare<std::size_t>(
    TuningRow("spatial", "lockstep_width",
              "items per lockstep group of the rope traversals (at most the device's work-group)")
        .env("TREEFIX_LOCKSTEP_WIDTH")
        .defaults(32, 32)
        .range(1, 1 << 16)
        .fitted(at_most_a_group)
        .swept({16, 32, 64, 128}, "lockstep"));
// Lockstep pays through coalesced loads on SIMT hardware when the group's items need nearly the
// same nodes (coherent, sorted, unguided); elsewhere the nodes it carries items through cost
// more than coalescing saves, and on a CPU device its barriers cost and there is nothing to
// coalesce (docs/design/spatial.md, the table of `treefix-bench spatial`).
const Knob<bool> lockstep_when_coherent = declare<bool>(
    TuningRow("spatial", "lockstep_when_coherent",
              "the automatic rope traversal goes lockstep on sorted, coherent, unguided queries")
        .switch_words("on", "off")
        .defaults(0, 1));

}  // namespace treefix::knobs
