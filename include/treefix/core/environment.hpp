#pragma once
// Every environment variable the library reads, parsed in this one place with one message style.
// Runtime reads them once, when it is constructed.
//
//   TREEFIX_DEVICE            device choice when none is given (Runtime's spec forms)
//   TREEFIX_CACHE             on | off: the disk cache of built program binaries (default on)
//   TREEFIX_CACHE_DIR         its folder (default $XDG_CACHE_HOME/treefix, else
//                             ~/.cache/treefix; created when missing; a path to a file is
//                             refused). A cache that cannot be written costs only build time,
//                             with one warning on standard error.
//   TREEFIX_BUILD_OPTIONS     appended to every OpenCL build
//   TREEFIX_WG_SIZE           work-group size of every sized kernel: a positive integer, rounded
//                             down to a power of two and to the device's maximum
//   TREEFIX_SCAN              single-pass | reduce-then-scan: the scan strategy
//   TREEFIX_LOCKSTEP_WIDTH    items per lockstep group of the rope traversals (positive integer)
//   TREEFIX_LIST_RANK_STRIDE  elements per ruler of the ruling-set list ranking (positive integer)
//   TREEFIX_TRANSFERS         pinned | pageable: how large host <-> device copies are staged
//   TREEFIX_KEY_SORT          radix | boost: the sort of the spatial trees' Morton keys
//   TREEFIX_RADIX_ITEMS       pairs per work-item of a radix sort tile (positive integer)
//   TREEFIX_CC_SAMPLES        arcs per row sampled by connectivity before skipping the giant
//                             component (0 .. 64; 0: ECL-CC alone)
//   TREEFIX_BFS_SMALL_FRONTIER  frontier size up to which one work-group runs BFS levels
//   TREEFIX_BFS_SMALL_ARCS    ... and the frontier's arcs (positive integers)
//   TREEFIX_BFS_GRID_BARRIER  on | off: BFS levels with a grid-wide barrier (needs resident groups)
//   TREEFIX_PERMUTATION       one-pass | two-pass: how planned permutations run, at every size
// A malformed value is an InputError: "environment variable TREEFIX_WG_SIZE='-64': expected a
// positive integer". The last twelve override the per-device Tuning (treefix/core/tuning.hpp).
#include <cstddef>
#include <optional>
#include <string>

namespace treefix {

struct Environment {
  std::string device;
  std::string cache_dir;  // "" when the disk cache is off
  std::string build_options;
  std::optional<std::size_t> work_group_size;
  std::optional<bool> single_pass_scan;
  std::optional<std::size_t> lockstep_width;
  std::optional<std::size_t> list_rank_stride;
  std::optional<bool> pinned_transfers;
  std::optional<bool> boost_key_sort;
  std::optional<std::size_t> radix_sort_items;
  std::optional<std::size_t> connectivity_samples;
  std::optional<std::size_t> bfs_small_frontier;
  std::optional<std::size_t> bfs_small_arcs;
  std::optional<bool> bfs_grid_barrier;
  std::optional<bool> two_pass_permutation;

  static Environment read();
};

}  // namespace treefix
