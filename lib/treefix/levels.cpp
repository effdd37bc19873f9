// Level-synchronous treefix: the forest's vertices grouped by depth (device BFS or host pass),
// then one launch per level (kernels/treefix/levels.cl).
#include "treefix/treefix/levels.hpp"

#include <algorithm>

#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/graph/csr.hpp"

namespace treefix {

LevelStructure::LevelStructure(Runtime& runtime, const ParentArray& parent, Profile* profile,
                               Build build)
    : vertices_(parent.size()) {
  validate_parent_array(parent);
  Csr children = child_graph(parent);
  children_ = DeviceGraph(runtime, children, profile);
  if (build == Build::device_bfs) {
    std::vector<vertex_t> roots;
    for (std::size_t v = 0; v < parent.size(); ++v)
      if (parent[v] == -1) roots.push_back(static_cast<vertex_t>(v));
    BfsOptions options;
    options.profile = profile;
    DeviceBfs searched = bfs(runtime, children_, roots, options);
    if (searched.reached() != vertices_)  // cannot happen for a validated forest
      throw Error("level structure: the BFS reached " + std::to_string(searched.reached()) +
                  " of " + std::to_string(vertices_) + " vertices");
    // In a forest the only arc into v comes from its parent, so the BFS parents are the parents.
    parent_ = std::move(searched.parent);
    order_ = std::move(searched.order);
    huge_ = std::move(searched.huge);
    level_offset_ = std::move(searched.level_offset);
    huge_offset_ = std::move(searched.huge_offset);
    huge_degree_ = searched.huge_degree;
    build_launches_ = searched.kernel_launches;
  } else {
    // the same structure from the host: vertices by depth, high-degree vertices by depth
    const std::size_t wg = runtime.sized_program("graph/bfs.cl", children_.offset_option()).wg_size;
    huge_degree_ = 64 * wg;  // as bfs() chooses by default
    std::vector<vertex_t> depth = depths(parent);
    std::size_t levels = 0;
    for (vertex_t d : depth) levels = std::max(levels, static_cast<std::size_t>(d) + 1);
    level_offset_.assign(levels + 1, 0);
    huge_offset_.assign(levels + 1, 0);
    for (std::size_t v = 0; v < vertices_; ++v) {
      ++level_offset_[depth[v] + 1];
      if (children.degree(static_cast<vertex_t>(v)) >= huge_degree_) ++huge_offset_[depth[v] + 1];
    }
    for (std::size_t l = 0; l < levels; ++l) {
      level_offset_[l + 1] += level_offset_[l];
      huge_offset_[l + 1] += huge_offset_[l];
    }
    std::vector<vertex_t> order(vertices_), huge(huge_offset_[levels] + 1);
    std::vector<std::size_t> next(level_offset_.begin(), level_offset_.end() - 1);
    std::vector<std::size_t> next_huge(huge_offset_.begin(), huge_offset_.end() - 1);
    for (std::size_t v = 0; v < vertices_; ++v) {
      order[next[depth[v]]++] = static_cast<vertex_t>(v);
      if (children.degree(static_cast<vertex_t>(v)) >= huge_degree_)
        huge[next_huge[depth[v]]++] = static_cast<vertex_t>(v);
    }
    if (levels == 0) level_offset_ = {0}, huge_offset_ = {0};
    parent_ = DeviceArray<vertex_t>::upload(runtime, parent, profile, "parents");
    order_ = DeviceArray<vertex_t>::upload(runtime, order, profile, "level order");
    huge_ = DeviceArray<vertex_t>::upload(runtime, huge, profile, "huge-row list");
  }

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
  std::vector<vertex_t> offsets(level_offset_.begin(), level_offset_.end());
  level_offset_device_ = DeviceArray<vertex_t>::upload(runtime, offsets, profile, "level offsets");
}

std::size_t LevelStructure::widest_level() const {
  std::size_t widest = 0;
  for (std::size_t l = 0; l + 1 < level_offset_.size(); ++l)
    widest = std::max(widest, level_offset_[l + 1] - level_offset_[l]);
  return widest;
}

namespace {

void check_arrays(const LevelStructure& levels, std::size_t weights, std::size_t result) {
  if (weights != levels.size() || result != levels.size())
    throw InputError(std::to_string(weights) + " weights and " + std::to_string(result) +
                     " results for a forest of " + std::to_string(levels.size()) + " vertices");
}

// The sweep kernels for this structure, type and operator, after checking the arrays.
Kernels sweep_kernels(Runtime& runtime, const LevelStructure& levels, std::size_t weights,
                      std::size_t result, ValueType type, Op op, Profile* profile) {
  check_arrays(levels, weights, result);
  return Kernels(runtime, "treefix/levels.cl",
                 std::string(levels.children().offset_option()) + " " + value_op_options(type, op),
                 {profile, "levels"});
}

}  // namespace

template <class T>
void levels_rootfix(Runtime& runtime, const LevelStructure& levels, const DeviceArray<T>& weights,
                    DeviceArray<T>& result, Op op, bool exclusive, Profile* profile,
                    LevelsStats* stats) {
  Kernels sweep = sweep_kernels(runtime, levels, weights.size(), result.size(), value_type_of<T>(),
                                op, profile);
  const cl_int excl = exclusive;
  translate_device_errors("levels rootfix", [&] {
    const auto& offset = levels.level_offset();
    for (const auto& segment : levels.segments()) {
      if (segment.fused) {
        sweep.run("levels_rootfix_fused", sweep.groups(1), levels.order(),
                  levels.level_offset_device(), static_cast<cl_int>(segment.first_level),
                  static_cast<cl_int>(segment.last_level), levels.parent(), weights, result, excl);
      } else {
        const std::size_t l = segment.first_level;
        const std::size_t count = offset[l + 1] - offset[l];
        sweep.run("levels_rootfix", sweep.items(count), levels.order(),
                  static_cast<cl_int>(offset[l]), static_cast<cl_int>(count), levels.parent(),
                  weights, result, excl);
      }
      if (stats) ++stats->kernel_launches;
    }
  });
}

template <class T>
void levels_leaffix(Runtime& runtime, const LevelStructure& levels, const DeviceArray<T>& weights,
                    DeviceArray<T>& result, Op op, bool exclusive, Profile* profile,
                    LevelsStats* stats) {
  Kernels sweep = sweep_kernels(runtime, levels, weights.size(), result.size(), value_type_of<T>(),
                                op, profile);
  const std::size_t wg = sweep.wg_size();
  const std::size_t groups_huge = runtime.saturating_groups(wg);
  const auto& offset = levels.level_offset();
  const auto& huge_offset = levels.huge_offset();
  const auto& children = levels.children();
  const Offset huge_degree = children.offset(levels.huge_degree());
  const cl_int excl = exclusive;
  std::size_t most_huge = 0;
  for (std::size_t l = 0; l < levels.levels(); ++l)
    most_huge = std::max(most_huge, huge_offset[l + 1] - huge_offset[l]);
  translate_device_errors("levels leaffix", [&] {
    cl::Buffer partial;
    if (most_huge)
      partial = runtime.scratch("levels-partials", most_huge * groups_huge * sizeof(T));
    const auto& segments = levels.segments();
    for (std::size_t s = segments.size(); s-- > 0;) {
      const auto& segment = segments[s];
      if (segment.fused) {
        sweep.run("levels_leaffix_fused", sweep.groups(1), levels.order(),
                  levels.level_offset_device(), static_cast<cl_int>(segment.first_level),
                  static_cast<cl_int>(segment.last_level), children.row_offset(), children.column(),
                  weights, result, excl, huge_degree);
        if (stats) ++stats->kernel_launches;
        continue;
      }
      const std::size_t l = segment.first_level;
      const std::size_t count = offset[l + 1] - offset[l];
      sweep.run("levels_leaffix", sweep.grid_stride(count), levels.order(),
                static_cast<cl_int>(offset[l]), static_cast<cl_int>(count), children.row_offset(),
                children.column(), weights, result, excl, huge_degree);
      if (stats) ++stats->kernel_launches;
      const std::size_t huge_count = huge_offset[l + 1] - huge_offset[l];
      if (huge_count == 0) continue;
      sweep.run("levels_leaffix_huge_partial", sweep.groups(groups_huge), levels.huge(),
                static_cast<cl_int>(huge_offset[l]), static_cast<cl_int>(huge_count),
                children.row_offset(), children.column(), weights, result, excl, partial);
      sweep.run("levels_leaffix_huge_finish", sweep.groups(huge_count), levels.huge(),
                static_cast<cl_int>(huge_offset[l]), static_cast<cl_int>(groups_huge), weights,
                result, excl, partial);
      if (stats) stats->kernel_launches += 2;
    }
  });
}

namespace {
// Host convenience shared by rootfix and leaffix: check, prepare, upload, sweep, download.
template <class T, class Sweep>
std::vector<T> host_levels(Runtime& runtime, const ParentArray& parent,
                           const std::vector<T>& weights, Sweep sweep) {
  if (weights.size() != parent.size())
    throw InputError(std::to_string(weights.size()) + " weights for a tree of " +
                     std::to_string(parent.size()) + " vertices");
  LevelStructure levels(runtime, parent);
  auto w = DeviceArray<T>::upload(runtime, weights);
  DeviceArray<T> r(runtime, parent.size(), "levels result");
  sweep(levels, w, r);
  return r.download(runtime);
}
}  // namespace

template <class T>
std::vector<T> levels_rootfix(Runtime& runtime, const ParentArray& parent,
                              const std::vector<T>& weights, Op op, bool exclusive) {
  return host_levels(runtime, parent, weights, [&](const LevelStructure& l, auto& w, auto& r) {
    levels_rootfix(runtime, l, w, r, op, exclusive);
  });
}

template <class T>
std::vector<T> levels_leaffix(Runtime& runtime, const ParentArray& parent,
                              const std::vector<T>& weights, Op op, bool exclusive) {
  return host_levels(runtime, parent, weights, [&](const LevelStructure& l, auto& w, auto& r) {
    levels_leaffix(runtime, l, w, r, op, exclusive);
  });
}

bool levels_preferred(std::size_t levels, std::size_t n, Op op) {  // levels: cost in launches
  const std::size_t per_level =
      has_inverse(op) ? kEulerVerticesPerLevel : kSequentialVerticesPerLevel;
  return levels <= kLevelsBase + n / per_level;
}

#define TREEFIX_LEVELS_INSTANTIATE(T)                                                            \
  template void levels_rootfix<T>(Runtime&, const LevelStructure&, const DeviceArray<T>&,        \
                                  DeviceArray<T>&, Op, bool, Profile*, LevelsStats*);            \
  template void levels_leaffix<T>(Runtime&, const LevelStructure&, const DeviceArray<T>&,        \
                                  DeviceArray<T>&, Op, bool, Profile*, LevelsStats*);            \
  template std::vector<T> levels_rootfix<T>(Runtime&, const ParentArray&, const std::vector<T>&, \
                                            Op, bool);                                           \
  template std::vector<T> levels_leaffix<T>(Runtime&, const ParentArray&, const std::vector<T>&, \
                                            Op, bool);
TREEFIX_LEVELS_INSTANTIATE(std::int32_t)
TREEFIX_LEVELS_INSTANTIATE(std::int64_t)
TREEFIX_LEVELS_INSTANTIATE(float)
TREEFIX_LEVELS_INSTANTIATE(double)

}  // namespace treefix
