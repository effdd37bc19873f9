#pragma once
// Multi-threaded CPU treefix over all host cores (the host executor, a fork-join per pass): the
// "multi-threaded CPU" baseline of the benchmarks, and a fast host fallback.
//
// Two methods, over a Plan prepared once per tree (the analogue of the device tree's Euler tour):
//   euler   Defour & Marin's vectorial method on the host, fused: a blocked parallel inclusive
//           scan over the 2n tour positions (each block is reduced, the block totals are scanned,
//           each block is rescanned; the blocks are set by n alone, at most 64, so a float
//           result has the same bits on any number of threads) that makes each position's value on
//           the fly from a tour map (w at an open, its inverse at a close: Write fused into the
//           loads) and stores results as it goes (Read fused into the rescan). Two passes over O(n)
//           data whatever the shape, so deep trees (paths, caterpillars) scale as well as bushy
//           ones. Needs an inverse: sum and xor.
//   levels  level-synchronous over the breadth-first order, values kept in BFS positions so every
//           level is a contiguous range and a vertex's children are contiguous in the next level:
//           rootfix top-down pulls from the parent, leaffix bottom-up folds the children (no
//           atomics). A level is split among threads only when it is large (>= 2^14 vertices); a
//           chain of small levels runs on one thread, so a path costs about what sequential does.
//           Works for every operator (min and max too).
// `automatic` picks levels when at least 90% of the vertices lie in levels large enough to be
// split over all threads (bushy trees: levels visits n vertices once, euler 2n positions twice),
// and euler otherwise if the operator has an inverse (deep trees: its passes ignore depth).
// Results are identical to treefix::reference for integers; for floats they differ by rounding
// (the euler method adds and subtracts the weights of other subtrees, as on the device).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "treefix/core/types.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix::cpu_parallel {

enum class Method { automatic, euler, levels };
using treefix::to_string;
}  // namespace treefix::cpu_parallel

namespace treefix {
TREEFIX_ENUM_NAMES(cpu_parallel::Method, "CPU method", {cpu_parallel::Method::automatic, "auto"},
                   {cpu_parallel::Method::euler, "euler"},
                   {cpu_parallel::Method::levels, "levels"});
}  // namespace treefix

namespace treefix::cpu_parallel {

class Plan {
 public:
  // Validates the forest (InputError). threads 0 = host_threads() (treefix/core/parallel.hpp:
  // --threads, $TREEFIX_THREADS, $OMP_NUM_THREADS, else the hardware's).
  explicit Plan(const ParentArray& parent, unsigned threads = 0);
  std::size_t size() const { return parent_.size(); }
  unsigned threads() const { return threads_; }

  // BFS positions: order[i] is the vertex at position i; level l holds positions
  // level_offset[l] .. level_offset[l+1]-1; the children of position i are positions
  // child_offset[i] .. child_offset[i+1]-1; parent_position[i] is -1 for a root.
  const std::vector<vertex_t>& order() const { return order_; }
  const std::vector<std::size_t>& level_offset() const { return level_offset_; }
  const std::vector<std::size_t>& child_offset() const { return child_offset_; }
  const std::vector<std::int64_t>& parent_position() const { return parent_position_; }
  // The Euler tour as a map of its 2n positions: v where v opens, ~v (= -v-1) where it closes.
  const std::vector<vertex_t>& tour_vertex() const { return tour_vertex_; }
  // Fraction of the vertices in levels that are split over all threads (see `automatic`).
  double split_fraction() const { return split_fraction_; }

  // Scratch memory of at least `bytes` (8-byte aligned) kept between calls, for the euler
  // method's tour; `lock` holds it, so calls on one Plan from several threads take turns.
  void* workspace(std::size_t bytes, std::unique_lock<std::mutex>& lock) const;

 private:
  ParentArray parent_;
  unsigned threads_;
  std::vector<vertex_t> order_;
  std::vector<std::size_t> level_offset_, child_offset_;
  std::vector<std::int64_t> parent_position_;
  std::vector<vertex_t> tour_vertex_;
  double split_fraction_ = 1;
  mutable std::mutex workspace_mutex_;
  mutable std::unique_ptr<std::uint64_t[]> workspace_;
  mutable std::size_t workspace_words_ = 0;
};

// T: int32, int64, float, double. InputError for a weight count that differs from the tree, xor
// on floats, or the euler method with an operator without inverse (min, max).
template <class T>
std::vector<T> rootfix(const Plan& plan, const std::vector<T>& weights, Op op,
                       bool exclusive = false, Method method = Method::automatic);
template <class T>
std::vector<T> leaffix(const Plan& plan, const std::vector<T>& weights, Op op,
                       bool exclusive = false, Method method = Method::automatic);

}  // namespace treefix::cpu_parallel
