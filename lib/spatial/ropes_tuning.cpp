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

// The exact kd-tree searches (kd_search.hpp) compiled for the points' dimension, and the nearest
// neighbour search for k <= 8 with a list of 8 candidates (else 16): a GPU keeps a query's
// coordinates and candidates in registers when their counts are known and small, at the price of
// a program per dimension and class; a CPU device loses little with the dimension as an argument
// and compiles one program for each search.
const Knob<bool> kd_specialised_programs = declare<bool>(
    TuningRow("spatial", "kd_specialised_programs",
              "the exact kd-tree searches compiled per dimension and k class (else one for all)")
        .env("TREEFIX_KD_SPECIALISED")
        .switch_words("on", "off")
        .defaults(0, 1));

// The scratch of one launch of the exact kd-tree searches (the heaps of a nearest-neighbour search
// with k > 16, the bins of pair counts): queries run in chunks that fit it.
const Knob<std::size_t> kd_scratch_bytes = declare<std::size_t>(
    TuningRow("spatial", "kd_scratch_bytes",
              "bytes of heaps or bins per launch of the exact kd-tree searches (queries chunked)")
        .env("TREEFIX_KD_SCRATCH_BYTES")
        .defaults(std::size_t(256) << 20, std::size_t(256) << 20)
        .range(1024, std::size_t(1) << 40));

}  // namespace treefix::knobs
