// Device-wide scan: plans and runs the reduce-then-scan (or single-pass) passes of
// kernels/primitives/scan_pass.clh.
#include "treefix/primitives/scan.hpp"

#include <algorithm>
#include <string>

#include "treefix/core/detail/runtime_tuning.hpp"
#include "primitives/scan_tuning.hpp"
#include "treefix/primitives/detail/scan_plan.hpp"

namespace treefix {
namespace detail {

namespace {
// Items per work-item from the Tuning, bounded so that the padded tile and the scratch fit in
// half the local memory.
std::size_t items_per_thread(const Runtime& runtime, std::size_t wg, std::size_t bytes) {
  std::size_t items = std::max<std::size_t>(1, knobs::scan_items(runtime.tuning(), bytes));
  const std::size_t budget = runtime.description().local_mem_bytes / 2;
  while (items > 1 && (wg * items * 33 / 32 + wg) * bytes > budget) --items;
  return items;
}
}  // namespace

ScanPlan plan_scan(Runtime& runtime, const std::string& program, const std::string& options,
                   std::size_t value_bytes, std::size_t n, const std::string& lookback_as) {
  ScanPlan plan;
  plan.value_bytes = value_bytes;
  // Values wider than 8 bytes (the exact sums) skip the tile's transposition through local
  // memory (-DSCAN_BLOCKED), which would cap their tiles at a few items per work-item.
  const bool blocked = value_bytes > 8;
  // "words": a value_t of value_bytes / 4 words, published in two slots per tile (scan_pass.clh)
  const bool word_slots = lookback_as == kLookbackWords;
  plan.lookback_words = word_slots ? value_bytes / 4 : 1;
  plan.single_pass = n > 0 && (value_bytes == 4 || word_slots) && !lookback_as.empty() &&
                     runtime.description().int64_atomics && runtime.tuning()[knobs::single_pass_scan];
  std::size_t wg = runtime.tuning()[knobs::work_group_size];
  // local memory bounds the group size too (tile + scratch of value_bytes each; blocked: the
  // scratch and the look-back's window)
  auto local_bytes = [&](std::size_t g) {
    return (blocked ? 2 * g : g * 33 / 32 + g) * value_bytes;
  };
  while (wg > 1 && local_bytes(wg) > runtime.description().local_mem_bytes / 2) wg /= 2;
  plan.items = blocked ? (value_bytes <= 32 ? 8 : 4) : items_per_thread(runtime, wg, value_bytes);
  plan.wide_index = n > 0xFFFFFFFFull - 4 * wg * plan.items;
  plan.sized = runtime.sized_program(
      program,
      options + " -DITEMS=" + std::to_string(plan.items) +
          (plan.wide_index ? " -DWIDE_INDEX=1" : "") + (blocked ? " -DSCAN_BLOCKED=1" : "") +
          (plan.single_pass
               ? " -DLOOKBACK=1" + (word_slots ? std::string() : " -DLOOKBACK_AS=" + lookback_as)
               : std::string()),
      wg);
  const std::size_t tile = plan.sized.wg_size * plan.items;
  const std::size_t tiles = (n + tile - 1) / tile;
  if (plan.single_pass) {  // one tile per group
    plan.tiles_per_group = 1;
    plan.groups = tiles;
    return plan;
  }
  const std::size_t want_groups =
      std::max<std::size_t>(1, runtime.saturating_groups(plan.sized.wg_size));
  plan.tiles_per_group = std::max<std::size_t>(1, (tiles + want_groups - 1) / want_groups);
  plan.groups = (tiles + plan.tiles_per_group - 1) / plan.tiles_per_group;
  return plan;
}

void run_scan(Runtime& runtime, const ScanPlan& plan, std::size_t n, const BindArgs& bind,
              Phase phase, const cl::Buffer* total) {
  Kernels scan(runtime, plan.sized, phase);
  const cl::Buffer& total_slot = total ? *total : runtime.scratch("scan.total", plan.value_bytes);
  if (plan.single_pass) {
    // one word per tile, or two slots of lookback_words words; then the tile counter
    const std::size_t words =
        (plan.lookback_words > 1 ? 2 * plan.lookback_words : 1) * plan.groups + 1;
    cl::Buffer& status = runtime.scratch("scan.status", words * sizeof(cl_ulong));
    fill(runtime, status, cl_ulong(0), words, phase);
    scan.run_bound("scan_single_pass", scan.groups(plan.groups), [&](KernelArgs& args) {
      args(plan.index(n), status, total_slot);
      bind(args);
    });
    return;
  }
  cl::Buffer& partial = runtime.scratch("scan.partial", (plan.groups + 1) * plan.value_bytes);
  auto pass = [&](const char* kernel) {
    scan.run_bound(kernel, scan.groups(plan.groups), [&](KernelArgs& args) {
      args(plan.index(n), plan.index(plan.tiles_per_group), partial);
      bind(args);
    });
  };
  if (plan.groups > 0) pass("scan_reduce");
  scan.run("scan_partials", scan.groups(1), partial, static_cast<cl_uint>(plan.groups), total_slot);
  if (plan.groups > 0) pass("scan_tiles");
}

}  // namespace detail

void scan(Runtime& runtime, ValueType type, Op op, ScanKind kind, const cl::Buffer& in,
          const cl::Buffer& out, std::size_t n, Profile* profile, const char* phase,
          const cl::Buffer* total) {
  if (type == ValueType::float64 && !runtime.description().fp64)
    throw InputError("the device " + runtime.description().device_name +
                     " has no double precision (cl_khr_fp64)");
  translate_device_errors("scan", [&] {
    const std::size_t bytes = type == ValueType::int32 || type == ValueType::float32 ? 4 : 8;
    // A floating-point sum is not associative: its single-pass scan would round differently
    // depending on where each look-back stops, so float runs the passes of a fixed order.
    const char* lookback_as = type == ValueType::int32 ? "as_int" : "";
    auto plan = detail::plan_scan(runtime, "primitives/scan.cl", value_op_options(type, op), bytes,
                                  n, lookback_as);
    detail::run_scan(
        runtime, plan, n,
        [&](KernelArgs& args) { args(in, out, static_cast<cl_int>(kind == ScanKind::inclusive)); },
        {profile, phase}, total);
  });
}

}  // namespace treefix
