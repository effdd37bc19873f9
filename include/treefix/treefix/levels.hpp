#pragma once
// Level-synchronous treefix (the seed paper's Algorithm 1): the forest's vertices grouped by
// depth once, on the device, then
//   rootfix  sweeps the levels top-down: one launch per level, result(v) = result(parent) (+) w(v);
//   leaffix  sweeps them bottom-up, deepest first: each vertex folds its children's results
//            (load-balanced like the BFS gather: per work-item, per work-group, or device-wide
//            for a vertex with very many children), so no atomics and a deterministic order.
// Every operator works, including min and max, which the Euler-tour method cannot do (no
// inverse). Cost per call: depth + 1 launches (plus 2 per level holding a vertex of very high
// degree) and O(n) traffic; the Euler-tour method costs a constant number of launches and O(n)
// traffic, so levels wins on shallow trees and loses on deep ones (see levels_preferred).
//
// The structure comes from the forest's Euler tour (euler_tour.hpp): depth(v) = 2 pre(v) -
// open(v), a stable radix sort of the pre-order by depth (which is the breadth-first order, each
// level in pre-order), the level offsets where the sorted depths change; the child lists are the
// tour's. No host pass over the vertices, no host synchronisation per level.
//
//   treefix::LevelStructure levels(rt, parent);
//   auto w = treefix::DeviceArray<float>::upload(rt, weights);
//   treefix::DeviceArray<float> r(rt, levels.size());
//   treefix::levels_leaffix(rt, levels, w, r, treefix::Op::max);
#include <cstddef>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/core/types.hpp"
#include "treefix/treefix/euler_tour.hpp"
#include "treefix/treefix/precision.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix {

class LevelStructure {
 public:
  // From a host parent array, validated: on the device (its Euler tour, as DeviceTree does), or
  // with build = host by the host reference (validate_parent_array, the breadth-first order,
  // then one upload), the structure the tests compare the device's with.
  enum class Build { device, host };
  LevelStructure(Runtime& runtime, const ParentArray& parent, Profile* profile = nullptr,
                 Build build = Build::device);
  // From a forest already on the device: its parent array, child lists and Euler tour (narrow
  // positions), as DeviceTree holds them. Kernels are recorded under the "levels build" phase.
  LevelStructure(Runtime& runtime, const DeviceArray<vertex_t>& parent,
                 const DeviceChildLists& children, const DeviceEulerTour& tour,
                 Profile* profile = nullptr);
  std::size_t size() const { return vertices_; }
  // Number of levels (height + 1; 0 for an empty forest) and vertices per level.
  std::size_t levels() const { return level_offset_.empty() ? 0 : level_offset_.size() - 1; }
  const std::vector<std::size_t>& level_offset() const { return level_offset_; }
  std::size_t widest_level() const;
  std::size_t build_launches() const { return build_launches_; }

  // The sweep plan: consecutive levels of at most kFusedLevelWidth vertices and no huge row form
  // runs swept by one work-group in one launch (a barrier between levels); other levels get a
  // launch each. Segments cover the levels in order, top first.
  struct Segment {
    std::size_t first_level, last_level;  // [first, last)
    bool fused;
  };
  const std::vector<Segment>& segments() const { return segments_; }
  std::size_t fused_levels() const { return fused_levels_; }
  // What a sweep costs in units of one kernel launch (~6 us on a GPU): one per segment, plus a
  // quarter per fused level (a barrier and a few dependent memory accesses, ~1.5 us). The
  // quantity levels_preferred() compares with n.
  std::size_t sweep_cost_in_launches() const { return segments_.size() + fused_levels_ / 4; }

  const DeviceChildLists& children() const { return children_; }
  const DeviceArray<vertex_t>& parent() const { return parent_; }
  const DeviceArray<vertex_t>& order() const { return order_; }  // vertices by depth (BFS order)
  const DeviceArray<vertex_t>& huge() const { return huge_; }    // high-degree vertices by level
  const std::vector<std::size_t>& huge_offset() const { return huge_offset_; }  // per level
  const DeviceArray<vertex_t>& level_offset_device() const { return level_offset_device_; }
  std::size_t huge_degree() const { return huge_degree_; }

 private:
  void build_from_tour(Runtime& runtime, const DeviceEulerTour& tour, Profile* profile);
  void build_on_host(Runtime& runtime, const ParentArray& parent, Profile* profile);
  void plan_sweeps();
  std::size_t vertices_ = 0, huge_degree_ = 0, build_launches_ = 0, fused_levels_ = 0;
  DeviceChildLists children_;
  DeviceArray<vertex_t> parent_, order_, huge_, level_offset_device_;
  std::vector<Segment> segments_;
  std::vector<std::size_t> level_offset_, huge_offset_;
};

struct LevelsStats {
  std::size_t kernel_launches = 0;  // of the sweep alone
};

// result = rootfix / leaffix of weights; result and weights hold size() values and must be
// different arrays. Kernels are recorded under the "levels" phase when a profile is given.
template <class T>
void levels_rootfix(Runtime& runtime, const LevelStructure& levels, const DeviceArray<T>& weights,
                    DeviceArray<T>& result, Op op, bool exclusive = false,
                    Profile* profile = nullptr, LevelsStats* stats = nullptr,
                    Precision precision = Precision::accurate);
template <class T>
void levels_leaffix(Runtime& runtime, const LevelStructure& levels, const DeviceArray<T>& weights,
                    DeviceArray<T>& result, Op op, bool exclusive = false,
                    Profile* profile = nullptr, LevelsStats* stats = nullptr,
                    Precision precision = Precision::accurate);

// Host convenience: prepare, upload, sweep, download.
template <class T>
std::vector<T> levels_rootfix(Runtime& runtime, const ParentArray& parent,
                              const std::vector<T>& weights, Op op, bool exclusive = false,
                              Precision precision = Precision::accurate);
template <class T>
std::vector<T> levels_leaffix(Runtime& runtime, const ParentArray& parent,
                              const std::vector<T>& weights, Op op, bool exclusive = false,
                              Precision precision = Precision::accurate);

// Levels of at most this many vertices may be fused into one launch.
constexpr std::size_t kFusedLevelWidth = 1024;

// Whether `auto` should take the level sweeps for a forest of n vertices whose sweep costs
// `levels` launches (LevelStructure::sweep_cost_in_launches(); the number of levels when
// nothing is fused),
// rather than the alternative: the Euler tour for sum and xor, the sequential CPU reference for
// min and max (the Euler tour cannot do them). The level sweeps pay one launch (and, in the
// preparation, one host synchronisation) per level, the alternatives a fixed cost per vertex:
//   sum, xor:  levels <= kLevelsBase + n / kEulerVerticesPerLevel
//              (a launch, ~5-10 us, is worth the extra Euler-tour traffic of ~2^18 vertices)
//   min, max:  levels <= kLevelsBase + n / kSequentialVerticesPerLevel
//              (a launch is worth the host pass and transfers of ~2^10 vertices)
// docs/design/treefix.md gives the reasoning, bench/results/h100-2026-11-23 the measurements;
// recalibrate from `treefix-bench bfs`.
constexpr std::size_t kLevelsBase = 8;
constexpr std::size_t kEulerVerticesPerLevel = std::size_t{1} << 18;
constexpr std::size_t kSequentialVerticesPerLevel = std::size_t{1} << 10;
bool levels_preferred(std::size_t levels, std::size_t n, Op op);

}  // namespace treefix
