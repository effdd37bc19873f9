// Tuning: per-device defaults, environment overrides, the device's limits (resolve_tuning).
#include "treefix/core/tuning.hpp"

#include <algorithm>
#include <string>

#include "core/device_select.hpp"
#include "treefix/core/environment.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix {
namespace {
std::size_t floor_pow2(std::size_t x) {
  std::size_t p = 1;
  while (p * 2 <= x) p *= 2;
  return p;
}
bool is_nvidia(const DeviceDescription& d) {
  return detail::lower(d.vendor + " " + d.platform_name).find("nvidia") != std::string::npos;
}
}  // namespace

Tuning default_tuning(const DeviceDescription& d) {
  Tuning t;
  if (d.is_gpu) {
    t.scan_items_4 = 12, t.scan_items_8 = 6, t.scan_items_16 = 3;
    t.list_rank_stride = 32;
    t.resident_items_per_unit = 2048, t.min_groups_per_unit = 1;
    // Look-back needs running work-groups to make progress: NVIDIA's do (known); others unknown.
    t.single_pass_scan = is_nvidia(d);
    if (is_nvidia(d)) {
      // Scan tile: the plain scan of 2^24 floats prefers 24 items (0.083 against 0.107 ms, the
      // tuner), but the fused Euler-tour scan, the product, prefers fewer: 12 against 24 with
      // the one-word look-back (0.295 against 0.349 ms at 2^24), and 8 since the windowed
      // look-back (0.240 against 0.286 for 12 on the random trees, 0.261 against 0.316 on the
      // star; `treefix-bench pipeline` kernels table, bench/results/h100-2026-11-25-scan).
      t.scan_items_4 = 8;
      // Pinned staging: 32-35 GB/s against 8-11 GB/s pageable (the pipeline's transfers table).
      t.pinned_transfers = true;
    }
    // the one-group BFS kernel: a level there costs a few dependent loads and barriers, a level
    // with every group a launch and its tail (~15 us on the H100); the 2048 grid's widest
    // levels (~4096 vertices, 16K arcs) stay in it
    t.bfs_small_frontier = 16384;
    t.bfs_small_arcs = 65536;
    if (is_nvidia(d)) {
      // Past a few hundred vertices a level outgrows one compute unit (the 2048 grid: 15 us a
      // level in one group); NVIDIA keeps a launch's groups resident, so a grid barrier works.
      t.bfs_grid_barrier = true;
      t.bfs_small_frontier = 512;
    }
  } else {
    // A CPU device runs a work-group on one core: long tiles, long ruler sublists (fewer
    // dependent rounds), a few groups per core for balance.
    t.scan_items_4 = t.scan_items_8 = t.scan_items_16 = 16;
    t.list_rank_stride = 256;
    t.resident_items_per_unit = 0, t.min_groups_per_unit = 4;
    t.single_pass_scan = false;
    t.bfs_small_frontier = t.work_group_size;
    t.bfs_small_arcs = 16 * t.work_group_size;
  }
  return t;
}

Tuning resolve_tuning(const DeviceDescription& d, const Environment& env) {
  Tuning t = default_tuning(d);
  if (env.work_group_size) t.work_group_size = *env.work_group_size;
  if (env.single_pass_scan) t.single_pass_scan = *env.single_pass_scan;
  if (env.lockstep_width) t.lockstep_width = *env.lockstep_width;
  if (env.list_rank_stride) t.list_rank_stride = *env.list_rank_stride;
  if (env.pinned_transfers) t.pinned_transfers = *env.pinned_transfers;
  if (env.boost_key_sort) t.boost_key_sort = *env.boost_key_sort;
  if (env.radix_sort_items) t.radix_sort_items = *env.radix_sort_items;
  if (env.connectivity_samples) t.connectivity_samples = *env.connectivity_samples;
  if (env.bfs_small_frontier) t.bfs_small_frontier = *env.bfs_small_frontier;
  if (env.bfs_small_arcs) t.bfs_small_arcs = *env.bfs_small_arcs;
  if (env.bfs_grid_barrier) t.bfs_grid_barrier = *env.bfs_grid_barrier;
  if (env.two_pass_permutation) t.two_pass_permutation_from = *env.two_pass_permutation ? 1 : 0;
  const std::size_t most = std::max<std::size_t>(1, d.max_work_group_size);
  t.work_group_size = floor_pow2(std::min(t.work_group_size, most));
  t.lockstep_width = std::min(t.lockstep_width, most);
  return t;
}

std::string Tuning::summary() const {
  return "work-group " + std::to_string(work_group_size) + ", scan items " +
         std::to_string(scan_items_4) + "/" + std::to_string(scan_items_8) + "/" +
         std::to_string(scan_items_16) + ", scan " +
         (single_pass_scan ? "single-pass" : "reduce-then-scan") + ", list-rank stride " +
         std::to_string(list_rank_stride) + ", lockstep width " + std::to_string(lockstep_width) +
         ", resident items/unit " + std::to_string(resident_items_per_unit) + ", min groups/unit " +
         std::to_string(min_groups_per_unit) + ", transfers " +
         (pinned_transfers ? "pinned" : "pageable") + ", key sort " +
         (boost_key_sort ? "boost" : "radix") + ", radix items " +
         std::to_string(radix_sort_items) + ", connectivity samples " +
         std::to_string(connectivity_samples) + ", BFS small frontier " +
         std::to_string(bfs_small_frontier) + " vertices / " + std::to_string(bfs_small_arcs) +
         " arcs, BFS grid barrier " + (bfs_grid_barrier ? "on" : "off") +
         ", two-pass permutations " +
         (two_pass_permutation_from
              ? "from " + std::to_string(two_pass_permutation_from) + " elements, blocks of 2^" +
                    std::to_string(permutation_block_log)
              : std::string("off"));
}

}  // namespace treefix
