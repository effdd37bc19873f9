// Level-synchronous treefix: the forest's vertices grouped by depth (from the Euler tour on the
// device, kernels/treefix/level_structure.cl; or by the host reference), then one launch per level
// (kernels/treefix/levels.cl).
#include "treefix/treefix/levels.hpp"

#include <algorithm>

#include <climits>
#include <utility>

#include "treefix/core/detail/runtime_tuning.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/primitives/detail/scan_plan.hpp"
#include "treefix/primitives/radix_sort.hpp"
#include "treefix/sweep_value.hpp"

namespace treefix {

LevelStructure::LevelStructure(Runtime& runtime, const ParentArray& parent, Profile* profile,
                               Build build)
    : vertices_(parent.size()) {
  if (build == Build::host) {
    build_on_host(runtime, parent, profile);
  } else {
    parent_ = DeviceArray<vertex_t>::upload(runtime, parent, profile, "parent array");
    TourOptions options;
    options.profile = profile;
    options.children = &children_;
    options.layout = TourLayout::vertex_ids;  // only the pre-order is read here
    DeviceEulerTour tour = device_euler_tour(runtime, parent_.buffer(), vertices_, options);
    build_from_tour(runtime, tour, profile);
  }
  plan_sweeps();
}

LevelStructure::LevelStructure(Runtime& runtime, const DeviceArray<vertex_t>& parent,
                               const DeviceChildLists& children, const DeviceEulerTour& tour,
                               Profile* profile)
    : vertices_(parent.size()), children_(children), parent_(parent) {
  build_from_tour(runtime, tour, profile);
  plan_sweeps();
}

namespace {
// Rows of at least this many children take the device-wide fold (as the BFS chose them).
std::size_t huge_degree_for(const Runtime& runtime) {
  return 64 * runtime.tuning()[knobs::work_group_size];
}
}  // namespace

void LevelStructure::build_from_tour(Runtime& runtime, const DeviceEulerTour& tour,
                                     Profile* profile) {
  const std::size_t n = vertices_;
  huge_degree_ = huge_degree_for(runtime);
  if (tour.size() != n)
    throw InputError("level structure: a tour of " + std::to_string(tour.size()) +
                     " vertices for a forest of " + std::to_string(n));
  if (tour.wide_positions())
    throw CapacityError("level structure of " + std::to_string(n) +
                        " vertices: the device build needs 32-bit tour positions");
  order_ = DeviceArray<vertex_t>(runtime, n, "level order");
  if (n == 0) {
    level_offset_ = {0};
    huge_offset_ = {0};
    huge_ = DeviceArray<vertex_t>(runtime, 1, "huge-row list");
    level_offset_device_ = DeviceArray<vertex_t>::upload(runtime, {0}, profile, "level offsets");
    return;
  }
  translate_device_errors("level structure", [&] {
    const Phase phase{profile, "levels build"};
    // Depths by pre-order rank, and the deepest.
    Kernels layout(runtime,
                   detail::plan_scan(runtime, "treefix/preorder.cl",
                                     value_op_options(ValueType::int32, Op::sum) +
                                         " -DFAR=" + std::to_string(DeviceEulerTour::kFarStep),
                                     4, 2 * n, "as_int")
                       .sized,
                   phase);
    cl::Buffer depth = runtime.allocate(n * sizeof(cl_uint), "depths");
    cl::Buffer& deepest = runtime.scratch("levels.max_depth", sizeof(cl_uint));
    fill(runtime, deepest, cl_uint(0), 1, phase);
    layout.run("preorder_depths", layout.grid_stride(n), tour.pre_order(), tour.open_pos(),
               cl_uint(n), cl_int(1), depth, order_, deepest);
    const std::size_t max_depth = read_value<cl_uint>(runtime, deepest);
    const std::size_t levels = max_depth + 1;
    // Stable by depth: the pre-order becomes the breadth-first order.
    radix_sort_by_key(runtime, depth, order_.buffer(), n, key_bits_for(max_depth), false, profile);
    Kernels build(runtime, "treefix/level_structure.cl", "", phase);
    level_offset_device_ = DeviceArray<vertex_t>(runtime, levels + 1, "level offsets");
    build.run("level_offsets", build.items(n), depth, cl_uint(n), level_offset_device_);
    std::vector<vertex_t> offsets = level_offset_device_.download(runtime, profile);
    level_offset_.assign(offsets.begin(), offsets.end());
    // High-degree rows, by level.
    const std::size_t capacity = n / huge_degree_ + 1;
    DeviceArray<cl_int2> found(runtime, capacity, "huge rows");  // (position, vertex)
    cl::Buffer& count = runtime.scratch("levels.huge_count", sizeof(cl_int));
    fill(runtime, count, cl_int(0), 1, phase);
    build.run("level_huge_rows", build.items(n), order_, children_.child_offset, cl_uint(n),
              cl_int(static_cast<int>(std::min<std::size_t>(huge_degree_, INT32_MAX))), count,
              found, cl_int(static_cast<int>(capacity)));
    const std::size_t huge_count = std::min<std::size_t>(
        static_cast<std::size_t>(read_value<cl_int>(runtime, count)), capacity);
    std::vector<cl_int2> found_rows(huge_count);
    found.read_into(runtime, found_rows.data(), huge_count, 0, profile);
    std::vector<std::pair<cl_int, cl_int>> rows(huge_count);  // (position, vertex)
    for (std::size_t h = 0; h < huge_count; ++h) rows[h] = {found_rows[h].s[0], found_rows[h].s[1]};
    std::sort(rows.begin(), rows.end());
    std::vector<vertex_t> huge(huge_count + 1);
    huge_offset_.assign(levels + 1, 0);
    std::size_t level = 0;
    for (std::size_t h = 0; h < huge_count; ++h) {
      while (level_offset_[level + 1] <= static_cast<std::size_t>(rows[h].first)) ++level;
      ++huge_offset_[level + 1];
      huge[h] = rows[h].second;
    }
    for (std::size_t l = 0; l < levels; ++l) huge_offset_[l + 1] += huge_offset_[l];
    huge_ = DeviceArray<vertex_t>::upload(runtime, huge, profile, "huge-row list");
    build_launches_ = 4;
  });
}

void LevelStructure::build_on_host(Runtime& runtime, const ParentArray& parent, Profile* profile) {
  // The reference: validate_parent_array (through the BFS order), levels of the BFS order.
  huge_degree_ = huge_degree_for(runtime);
  ChildLists lists = child_lists(parent);
  std::vector<vertex_t> order = top_down_order(parent);
  std::vector<vertex_t> depth(vertices_, 0);
  for (vertex_t v : order)
    if (parent[v] != -1) depth[v] = depth[parent[v]] + 1;
  const std::size_t levels = vertices_ ? static_cast<std::size_t>(depth[order.back()]) + 1 : 0;
  level_offset_.assign(levels + 1, 0);
  huge_offset_.assign(levels + 1, 0);
  std::vector<vertex_t> huge;
  for (vertex_t v : order) {  // BFS order: levels one after another
    ++level_offset_[depth[v] + 1];
    if (static_cast<std::size_t>(lists.child_offset[v + 1] - lists.child_offset[v]) >=
        huge_degree_) {
      ++huge_offset_[depth[v] + 1];
      huge.push_back(v);
    }
  }
  for (std::size_t l = 0; l < levels; ++l) {
    level_offset_[l + 1] += level_offset_[l];
    huge_offset_[l + 1] += huge_offset_[l];
  }
  if (levels == 0) level_offset_ = {0}, huge_offset_ = {0};
  huge.push_back(0);  // never an empty buffer
  // The child lists as the device builds them: the roots are the children of vertex n.
  std::vector<std::int32_t> offsets(lists.child_offset.begin(), lists.child_offset.end());
  offsets.push_back(static_cast<std::int32_t>(vertices_));
  std::vector<std::int32_t> child = lists.child;
  child.insert(child.end(), lists.roots.begin(), lists.roots.end());
  children_.child_offset =
      DeviceArray<std::int32_t>::upload(runtime, offsets, profile, "child offsets");
  children_.child = DeviceArray<std::int32_t>::upload(runtime, child, profile, "children");
  parent_ = DeviceArray<vertex_t>::upload(runtime, parent, profile, "parents");
  order_ = DeviceArray<vertex_t>::upload(runtime, order, profile, "level order");
  huge_ = DeviceArray<vertex_t>::upload(runtime, huge, profile, "huge-row list");
  std::vector<vertex_t> level_offsets(level_offset_.begin(), level_offset_.end());
  level_offset_device_ =
      DeviceArray<vertex_t>::upload(runtime, level_offsets, profile, "level offsets");
}

void LevelStructure::plan_sweeps() {
  // sweep plan: runs of narrow levels without huge rows
  const std::size_t levels = this->levels();
  auto narrow = [&](std::size_t l) {
    return level_offset_[l + 1] - level_offset_[l] <= kFusedLevelWidth &&
           huge_offset_[l + 1] == huge_offset_[l];
  };
  for (std::size_t l = 0; l < levels;) {
    std::size_t end = l + 1;
    if (narrow(l))
      while (end < levels && narrow(end)) ++end;
    const bool fused = end - l >= 2;
    segments_.push_back({l, end, fused});
    if (fused) fused_levels_ += end - l;
    l = end;
  }
}

std::size_t LevelStructure::widest_level() const {
  std::size_t widest = 0;
  for (std::size_t l = 0; l + 1 < level_offset_.size(); ++l)
    widest = std::max(widest, level_offset_[l + 1] - level_offset_[l]);
  return widest;
}

namespace detail {
SweepValue sweep_value(const Runtime& runtime, ValueType type, Op op, Precision precision) {
  const std::string base = value_op_options(type, op);
  const bool floating = type == ValueType::float32 || type == ValueType::float64;
  if (precision != Precision::accurate || op != Op::sum || !floating)
    return {base, type == ValueType::int32 || type == ValueType::float32 ? 4u : 8u, false};
  if (type == ValueType::float32 && runtime.description().fp64)
    return {base + " -DACC_T=double -DNEED_FP64=1", 8, true};
  if (type == ValueType::float32)
    return {base + " -DCOMPENSATED=1 -DACC_T=float -DACC_VEC=float2", 8, true};
  return {base + " -DCOMPENSATED=1 -DACC_T=double -DACC_VEC=double2", 16, true};
}
}  // namespace detail

namespace {

using detail::sweep_value;
using detail::SweepValue;

// The sweep kernels for this structure, the arrays' type, the operator and the precision, after
// checking that the arrays fit the structure; out() the array the sweep writes (result itself,
// or a wide scratch array that finish() narrows into result).
template <class T>
struct Sweep : Kernels {
  Sweep(Runtime& runtime, const LevelStructure& levels, const DeviceArray<T>& weights,
        DeviceArray<T>& result, Op op, Precision precision, Profile* profile)
      : Kernels(runtime, "treefix/levels.cl",
                std::string(DeviceChildLists::offset_option()) + " " +
                    sweep_value(runtime, value_type_of<T>(), op, precision).options,
                {profile, "levels"}),
        value(sweep_value(runtime, value_type_of<T>(), op, precision)),
        result(result) {
    if (weights.size() != levels.size() || result.size() != levels.size())
      throw InputError(std::to_string(weights.size()) + " weights and " +
                       std::to_string(result.size()) + " results for a forest of " +
                       std::to_string(levels.size()) + " vertices");
    sweep_result = value.wide ? &runtime.scratch("levels.wide_result", levels.size() * value.bytes)
                              : &result.buffer();
  }
  const cl::Buffer& out() const { return *sweep_result; }
  // empty: 1 when the roots' results combine no terms, 2 the leaves' (levels_narrow)
  void finish(const LevelStructure& levels, int empty, LevelsStats* stats) {
    if (!value.wide || result.size() == 0) return;
    run("levels_narrow", items(result.size()), *sweep_result, static_cast<cl_int>(result.size()),
        result, levels.parent(), levels.children().child_offset, static_cast<cl_int>(empty));
    if (stats) ++stats->kernel_launches;
  }
  SweepValue value;
  DeviceArray<T>& result;
  cl::Buffer* sweep_result;
};

}  // namespace

template <class T>
void levels_rootfix(Runtime& runtime, const LevelStructure& levels, const DeviceArray<T>& weights,
                    DeviceArray<T>& result, Op op, bool exclusive, Profile* profile,
                    LevelsStats* stats, Precision precision) {
  Sweep<T> sweep(runtime, levels, weights, result, op, precision, profile);
  const cl_int excl = exclusive;
  translate_device_errors("levels rootfix", [&] {
    const auto& offset = levels.level_offset();
    for (const auto& segment : levels.segments()) {
      if (segment.fused) {
        sweep.run("levels_rootfix_fused", sweep.groups(1), levels.order(),
                  levels.level_offset_device(), static_cast<cl_int>(segment.first_level),
                  static_cast<cl_int>(segment.last_level), levels.parent(), weights, sweep.out(),
                  excl);
      } else {
        const std::size_t l = segment.first_level;
        const std::size_t count = offset[l + 1] - offset[l];
        sweep.run("levels_rootfix", sweep.items(count), levels.order(),
                  static_cast<cl_int>(offset[l]), static_cast<cl_int>(count), levels.parent(),
                  weights, sweep.out(), excl);
      }
      if (stats) ++stats->kernel_launches;
    }
    sweep.finish(levels, exclusive ? 1 : 0, stats);
  });
}

template <class T>
void levels_leaffix(Runtime& runtime, const LevelStructure& levels, const DeviceArray<T>& weights,
                    DeviceArray<T>& result, Op op, bool exclusive, Profile* profile,
                    LevelsStats* stats, Precision precision) {
  Sweep<T> sweep(runtime, levels, weights, result, op, precision, profile);
  const std::size_t wg = sweep.wg_size();
  const std::size_t groups_huge = runtime.saturating_groups(wg);
  const auto& offset = levels.level_offset();
  const auto& huge_offset = levels.huge_offset();
  const auto& children = levels.children();
  const Offset huge_degree{levels.huge_degree(), false};  // int offsets (DeviceChildLists)
  const cl_int excl = exclusive;
  std::size_t most_huge = 0;
  for (std::size_t l = 0; l < levels.levels(); ++l)
    most_huge = std::max(most_huge, huge_offset[l + 1] - huge_offset[l]);
  translate_device_errors("levels leaffix", [&] {
    cl::Buffer partial;
    if (most_huge)
      partial = runtime.scratch("levels-partials", most_huge * groups_huge * sweep.value.bytes);
    const auto& segments = levels.segments();
    for (std::size_t s = segments.size(); s-- > 0;) {
      const auto& segment = segments[s];
      if (segment.fused) {
        sweep.run("levels_leaffix_fused", sweep.groups(1), levels.order(),
                  levels.level_offset_device(), static_cast<cl_int>(segment.first_level),
                  static_cast<cl_int>(segment.last_level), children.child_offset, children.child,
                  weights, sweep.out(), excl, huge_degree);
        if (stats) ++stats->kernel_launches;
        continue;
      }
      const std::size_t l = segment.first_level;
      const std::size_t count = offset[l + 1] - offset[l];
      sweep.run("levels_leaffix", sweep.grid_stride(count), levels.order(),
                static_cast<cl_int>(offset[l]), static_cast<cl_int>(count), children.child_offset,
                children.child, weights, sweep.out(), excl, huge_degree);
      if (stats) ++stats->kernel_launches;
      const std::size_t huge_count = huge_offset[l + 1] - huge_offset[l];
      if (huge_count == 0) continue;
      sweep.run("levels_leaffix_huge_partial", sweep.groups(groups_huge), levels.huge(),
                static_cast<cl_int>(huge_offset[l]), static_cast<cl_int>(huge_count),
                children.child_offset, children.child, weights, sweep.out(), excl, partial);
      sweep.run("levels_leaffix_huge_finish", sweep.groups(huge_count), levels.huge(),
                static_cast<cl_int>(huge_offset[l]), static_cast<cl_int>(groups_huge), weights,
                sweep.out(), excl, partial);
      if (stats) stats->kernel_launches += 2;
    }
    sweep.finish(levels, exclusive ? 2 : 0, stats);
  });
}

namespace {
// Host convenience shared by rootfix and leaffix: check, prepare, upload, sweep, download.
template <class T>
std::vector<T> host_levels(Runtime& runtime, const ParentArray& parent,
                           const std::vector<T>& weights, Op op, bool exclusive,
                           Precision precision, bool root) {
  if (weights.size() != parent.size())
    throw InputError(std::to_string(weights.size()) + " weights for a tree of " +
                     std::to_string(parent.size()) + " vertices");
  LevelStructure levels(runtime, parent);
  auto w = DeviceArray<T>::upload(runtime, weights);
  DeviceArray<T> r(runtime, parent.size(), "levels result");
  if (root)
    levels_rootfix(runtime, levels, w, r, op, exclusive, nullptr, nullptr, precision);
  else
    levels_leaffix(runtime, levels, w, r, op, exclusive, nullptr, nullptr, precision);
  return r.download(runtime);
}
}  // namespace

template <class T>
std::vector<T> levels_rootfix(Runtime& runtime, const ParentArray& parent,
                              const std::vector<T>& weights, Op op, bool exclusive,
                              Precision precision) {
  return host_levels(runtime, parent, weights, op, exclusive, precision, true);
}

template <class T>
std::vector<T> levels_leaffix(Runtime& runtime, const ParentArray& parent,
                              const std::vector<T>& weights, Op op, bool exclusive,
                              Precision precision) {
  return host_levels(runtime, parent, weights, op, exclusive, precision, false);
}

bool levels_preferred(std::size_t levels, std::size_t n, Op op) {  // levels: cost in launches
  const std::size_t per_level =
      has_inverse(op) ? kEulerVerticesPerLevel : kSequentialVerticesPerLevel;
  return levels <= kLevelsBase + n / per_level;
}

#define TREEFIX_LEVELS_INSTANTIATE(T)                                                            \
  template void levels_rootfix<T>(Runtime&, const LevelStructure&, const DeviceArray<T>&,        \
                                  DeviceArray<T>&, Op, bool, Profile*, LevelsStats*, Precision); \
  template void levels_leaffix<T>(Runtime&, const LevelStructure&, const DeviceArray<T>&,        \
                                  DeviceArray<T>&, Op, bool, Profile*, LevelsStats*, Precision); \
  template std::vector<T> levels_rootfix<T>(Runtime&, const ParentArray&, const std::vector<T>&, \
                                            Op, bool, Precision);                                \
  template std::vector<T> levels_leaffix<T>(Runtime&, const ParentArray&, const std::vector<T>&, \
                                            Op, bool, Precision);
TREEFIX_LEVELS_INSTANTIATE(std::int32_t)
TREEFIX_LEVELS_INSTANTIATE(std::int64_t)
TREEFIX_LEVELS_INSTANTIATE(float)
TREEFIX_LEVELS_INSTANTIATE(double)

}  // namespace treefix
