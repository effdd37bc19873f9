// The runtime's tuning rows: the work-group size of sized kernels and how many groups a
// grid-stride launch takes (Runtime::sized_program, Runtime::saturating_groups).
#include "treefix/core/detail/runtime_tuning.hpp"

#include <algorithm>

#include "treefix/core/runtime.hpp"

namespace treefix::knobs {
namespace {
// The largest power of two the device's work-groups take.
std::size_t power_of_two_group(std::size_t wish, const DeviceDescription& device) {
  const std::size_t most = std::max<std::size_t>(1, std::min(wish, device.max_work_group_size));
  std::size_t p = 1;
  while (p * 2 <= most) p *= 2;
  return p;
}
}  // namespace

// Grid-stride kernels launch enough groups to fill the device: per compute unit
// max(min_groups_per_unit, resident_items_per_unit / work-group size).
const Knob<std::size_t> resident_items_per_unit = declare<std::size_t>(
    TuningRow("core", "resident_items_per_unit",
              "work-items a compute unit keeps resident: grid-stride launches fill it")
        .defaults(0, 2048)
        .range(0, 1 << 20));
// A GPU holds about 2048 threads a unit; a CPU device runs a group on one core, so a few groups
// a core balance PoCL's threads.
const Knob<std::size_t> min_groups_per_unit =
    declare<std::size_t>(TuningRow("core", "min_groups_per_unit",
                                   "work-groups per compute unit of a grid-stride launch, at least "
                                   "(a few per core on a CPU device)")
                             .defaults(4, 1)
                             .range(1, 1 << 10));

// A program whose kernels accept fewer is rebuilt smaller (Runtime::sized_program).
const Knob<std::size_t> work_group_size = declare<std::size_t>(
    TuningRow("core", "work_group_size",
              "work-group size of every sized kernel (-DWG_SIZE): rounded down to a power of two "
              "and to the device's maximum")
        .env("TREEFIX_WG_SIZE")
        .defaults(256, 256)
        .range(1, 1 << 16)
        .fitted(power_of_two_group)
        .swept({64, 128, 256, 512, 1024}, "scan-4-byte"));

}  // namespace treefix::knobs
