#pragma once
// Tuning: every choice the library makes per device, in one record (CLBlast's parameter
// database and CUB's tuning policies in miniature). Runtime resolves it once, in
// resolve_tuning(): defaults by vendor and device type, then the environment's overrides
// (treefix/core/environment.hpp), then clamped to what the device allows. Algorithms read
// runtime.tuning() and nothing else; `treefix-bench tune` sweeps the fields on a device and prints
// the best row, to be copied into default_tuning().
//
// | field                    | NVIDIA GPU | other GPU | CPU (PoCL) | environment              |
// |--------------------------|------------|-----------|------------|--------------------------|
// | work_group_size          | 256        | 256       | 256        | TREEFIX_WG_SIZE          |
// | scan_items_4/_8/_16      | 8/6/3      | 12/6/3    | 16/16/16   |                          |
// | single_pass_scan         | on         | off       | off        | TREEFIX_SCAN             |
// | list_rank_stride         | 32         | 32        | 256        | TREEFIX_LIST_RANK_STRIDE |
// | lockstep_width           | 32         | 32        | 32         | TREEFIX_LOCKSTEP_WIDTH   |
// | resident_items_per_unit  | 2048       | 2048      | 0          |                          |
// | min_groups_per_unit      | 1          | 1         | 4          |                          |
// | pinned_transfers         | on         | off       | off        | TREEFIX_TRANSFERS        |
// | boost_key_sort           | off        | off       | off        | TREEFIX_KEY_SORT         |
// | radix_sort_items         | 8          | 8         | 8          | TREEFIX_RADIX_ITEMS      |
// | connectivity_samples     | 2          | 2         | 2          | TREEFIX_CC_SAMPLES       |
// | connectivity_sample_degree | 16       | 16        | 16         |                          |
// | bfs_small_frontier       | 512        | 16384     | wg         | TREEFIX_BFS_SMALL_FRONTIER |
// | bfs_small_arcs           | 65536      | 65536     | 16 wg      | TREEFIX_BFS_SMALL_ARCS   |
// | bfs_small_levels         | 16384      | 16384     | 16384      |                          |
// | bfs_small_buffer         | 0 (local memory) | 0   | 0          |                          |
// | bfs_grid_barrier         | on         | off       | off        | TREEFIX_BFS_GRID_BARRIER |
// | bfs_grid_frontier / _arcs | 65536 / 2^20 | same    | same       |                          |
// | bfs_grid_groups_per_unit | 2          | 2         | 2          |                          |
// | two_pass_permutation_from | 0 (off)   | 0 (off)   | 0 (off)    | TREEFIX_PERMUTATION      |
// | permutation_block_log    | 18         | 18        | 18         |                          |
// | pr_levels_per_launch     | 1          | 1         | 1          |                          |
#include <cstddef>
#include <string>

namespace treefix {

struct DeviceDescription;
struct Environment;

struct Tuning {
  // Work-group size of every kernel compiled with -DWG_SIZE (a power of two; a program whose
  // kernels accept fewer is rebuilt smaller).
  std::size_t work_group_size = 256;
  // Scan tile: elements per work-item, by value size (4, 8 and 16 bytes). More amortises the
  // work-group scan; local memory bounds it (the scan planner shrinks it when it must).
  std::size_t scan_items_4 = 12, scan_items_8 = 6, scan_items_16 = 3;
  // Single-pass scan with decoupled look-back: a work-group waits for its predecessors, which is
  // correct only where running work-groups keep making progress. OpenCL does not promise that;
  // NVIDIA GPUs give it. Off elsewhere: the portable reduce-then-scan.
  bool single_pass_scan = false;
  // Ruling-set list ranking: one ruler per this many elements (longer sublists, fewer rulers).
  std::size_t list_rank_stride = 32;
  // Items per work-group of the lockstep rope traversal (a warp's width, as in the paper).
  std::size_t lockstep_width = 32;
  // Grid-stride kernels launch enough groups to fill the device: per compute unit
  // max(min_groups_per_unit, resident_items_per_unit / work-group size).
  std::size_t resident_items_per_unit = 2048;
  std::size_t min_groups_per_unit = 1;
  // Host <-> device copies of large arrays through page-locked (pinned) staging memory
  // (CL_MEM_ALLOC_HOST_PTR, double-buffered) instead of straight from pageable memory. Pinned
  // DMA is about twice as fast on a discrete GPU; on a CPU device it only adds a copy.
  // `treefix-bench pipeline` measures both.
  bool pinned_transfers = false;
  // The Morton keys of the spatial trees' builds (64-bit codes with point indices) sorted by
  // Boost.Compute's sort_by_key instead of our radix sort (two 32-bit LSD passes over the key
  // halves). `treefix-bench spatial` times both (its sort table).
  bool boost_key_sort = false;
  // Pairs per work-item of a radix sort tile (primitives/radix_sort.hpp): a tile of
  // work-group * items pairs is sorted in local memory (6 bytes a pair), so local memory bounds
  // it. More items: fewer tiles, so less counting and scanning; longer local sorts.
  std::size_t radix_sort_items = 8;
  // Connected components: arcs per row linked in Afforest's sampling rounds before the most
  // frequent component is found and skipped (0: ECL-CC alone, every edge linked once).
  // `treefix-bench rooting` times 0, 1 and 2 on every graph.
  std::size_t connectivity_samples = 2;
  // ... applied only to graphs of at least this many arcs per vertex: on the H100, sampling
  // halved Kronecker-22 (30 arcs per vertex: 5.43 -> 2.72 ms) but slowed the 2048 grid (4 per
  // vertex: 1.45 -> 2.04 ms), the road network and the mesh (2 and 13.5 per vertex).
  std::size_t connectivity_sample_degree = 16;
  // BFS: while a level holds at most bfs_small_frontier vertices and bfs_small_arcs arcs (and
  // no huge row), one work-group runs it and the following levels in one launch (work-group
  // barriers between levels, kernels/graph/bfs_small.cl), until a frontier grows past them:
  // a level there costs a few dependent loads and barriers, a level with every group a launch.
  // The frontier is read in chunks, so local memory does not bound it. Tests set a few vertices
  // so that a search switches paths often.
  std::size_t bfs_small_frontier = 512;
  std::size_t bfs_small_arcs = 8192;
  // ... for at most this many levels per launch (bounds one launch's time; the next goes on).
  std::size_t bfs_small_levels = 16384;
  // ... keeping at most this many frontier vertices in local memory per chunk (0: as many as
  // the device's local memory holds). Tests set a few to force the chunked path.
  std::size_t bfs_small_buffer = 0;
  // BFS levels too wide for one group but at most bfs_grid_frontier vertices and bfs_grid_arcs
  // arcs (top-down, no huge row) run in one launch of bfs_grid_groups_per_unit small groups per
  // compute unit with a grid-wide barrier between levels (kernels/graph/bfs_grid.cl). Correct
  // only where every group of the launch stays resident: NVIDIA GPUs (known), off elsewhere. A
  // group that waits too long gives up and the search runs again without it.
  bool bfs_grid_barrier = false;
  std::size_t bfs_grid_frontier = 65536, bfs_grid_arcs = std::size_t{1} << 20;
  std::size_t bfs_grid_groups_per_unit = 2;
  // Permutations planned once and applied many times (primitives/permutation.hpp; the tree's
  // pre-order layout) of at least this many elements run as two gathers with local reads
  // instead of one random gather (0: never). Blocks of the output of 2^permutation_block_log
  // elements. `treefix-bench pipeline` (its kernels table) times both. Off everywhere: on PoCL
  // it gains nothing (bench/results/pocl-2026-11-26-permutation); on the H100, where it is meant
  // to cut the random-tree rootfix's two 0.39 ms gathers, it has not been timed yet.
  std::size_t two_pass_permutation_from = 0;
  unsigned permutation_block_log = 18;

  std::size_t scan_items(std::size_t value_bytes) const {
    return value_bytes <= 4 ? scan_items_4 : value_bytes <= 8 ? scan_items_8 : scan_items_16;
  }
  std::string summary() const;  // "wg 256, scan items 12/6/3, single-pass on, ..."
  // PR-RST (path reversal): levels of the pointer-jumping table that one launch builds, and that
  // one re-root broadcast launch walks. m levels cost 2^m - 1 dependent reads per work-item where
  // m launches cost 2m, so 2 reads as much as 1 in half the launches (bench: rooting, pr rows).
  std::size_t pr_levels_per_launch = 1;
};

// The defaults for a device, by vendor and type (the table above).
Tuning default_tuning(const DeviceDescription& device);
// Defaults, then the environment's overrides, clamped to the device: the one place a Tuning is
// made. Throws InputError for an override out of range.
Tuning resolve_tuning(const DeviceDescription& device, const Environment& environment);

}  // namespace treefix
