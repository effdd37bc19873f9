// The seed's parallel treefix, one breadth-first search per call (kernels/treefix/bfs_treefix.cl
// going down; the leaffix folds of kernels/treefix/levels.cl coming back up).
#include "treefix/treefix/bfs_treefix.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <string>
#include <vector>

#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/sweep_value.hpp"

namespace treefix {

DeviceChildLists upload_child_lists(Runtime& runtime, const ParentArray& parent, Profile* profile) {
  validate_parent_array(parent);
  const std::size_t n = parent.size();
  if (n > static_cast<std::size_t>(INT32_MAX) - 2)
    throw CapacityError("child lists of " + std::to_string(n) +
                        " vertices: the breadth-first treefix counts in 32 bits");
  const ChildLists lists = child_lists(parent);
  // The roots are the children of a virtual vertex n, as the device's child lists have them.
  std::vector<std::int32_t> offsets(lists.child_offset.begin(), lists.child_offset.end());
  offsets.push_back(static_cast<std::int32_t>(n));
  std::vector<std::int32_t> child(lists.child.begin(), lists.child.end());
  child.insert(child.end(), lists.roots.begin(), lists.roots.end());
  DeviceChildLists csr;
  csr.child_offset = DeviceArray<std::int32_t>::upload(runtime, offsets, profile, "child offsets");
  csr.child = DeviceArray<std::int32_t>::upload(runtime, child, profile, "children");
  return csr;
}

namespace {

// Levels between two reads of the frontier's size: doubling from 1, so that a shallow tree costs
// few wasted launches and a deep one few host round trips.
constexpr std::size_t kMostLevelsPerRead = 64;

// One call: the search down (applying rootfix on the way when `rootfix`), then the leaffix folds
// back up, then the narrowing of an accurate sum.
template <class T>
void bfs_treefix(Runtime& runtime, const DeviceChildLists& children, const DeviceArray<T>& weights,
                 DeviceArray<T>& result, Op op, bool exclusive, Profile* profile,
                 BfsTreefixStats* stats, Precision precision, bool rootfix) {
  const std::size_t n = weights.size();
  if (result.size() != n)
    throw InputError(std::to_string(weights.size()) + " weights and " +
                     std::to_string(result.size()) + " results");
  if (children.child_offset.size() != n + 2)
    throw InputError("child lists with " + std::to_string(children.child_offset.size()) +
                     " offsets for " + std::to_string(n) + " vertices (n + 2 expected)");
  if (op == Op::bit_xor && !is_integer(value_type_of<T>()))
    throw InputError(std::string("xor needs an integer type, not ") +
                     to_string(value_type_of<T>()));
  BfsTreefixStats local;
  BfsTreefixStats& count = stats ? *stats : local;
  count = {};
  if (n == 0) return;
  if (n > static_cast<std::size_t>(INT32_MAX) - 2)
    throw CapacityError("breadth-first treefix of " + std::to_string(n) +
                        " vertices: the queue counts in 32 bits");
  const detail::SweepValue value = detail::sweep_value(runtime, value_type_of<T>(), op, precision);
  const std::string options = std::string(DeviceChildLists::offset_option()) + " " + value.options;
  const Phase phase{profile, "bfs treefix"};
  translate_device_errors(rootfix ? "bfs rootfix" : "bfs leaffix", [&] {
    Kernels bfs(runtime, "treefix/bfs_treefix.cl", options, phase);
    const cl_int vertices = static_cast<cl_int>(n);
    const std::size_t huge_degree = 64 * bfs.wg_size();
    const Offset huge{huge_degree, false};
    // Level 0 is the virtual vertex; at most n levels follow, then the empty levels of the last
    // batch.
    const std::size_t level_capacity = n + 2 + kMostLevelsPerRead;
    const std::size_t huge_capacity = (n + 1) / huge_degree + 2;
    cl::Buffer& queue = runtime.scratch("bfs.queue", (n + 1) * sizeof(cl_int));
    cl::Buffer& huge_rows = runtime.scratch("bfs.huge_rows", huge_capacity * sizeof(cl_int));
    cl::Buffer& bounds = runtime.scratch("bfs.bounds", 2 * (level_capacity + 1) * sizeof(cl_int));
    cl::Buffer& state = runtime.scratch("bfs.state", 7 * sizeof(cl_int));
    const cl::Buffer& out =
        value.wide ? runtime.scratch("bfs.wide_result", n * value.bytes) : result.buffer();

    bfs.run("bfs_start", bfs.groups(1), children.child_offset, vertices, huge, queue, huge_rows,
            bounds, state);
    ++count.launches;
    const Grid grid = bfs.grid_stride(n + 1);
    std::size_t level = 0, batch = 1;
    std::array<cl_int, 7> words{};
    for (;;) {
      batch = std::min(batch, level_capacity - 1 - level);
      for (std::size_t k = 0; k < batch; ++k, ++level)
        bfs.run("bfs_expand", grid, static_cast<cl_int>(level), vertices, children.child_offset,
                children.child, huge, queue, huge_rows, static_cast<cl_int>(huge_capacity), bounds,
                state, weights, out, cl_int(rootfix ? 1 : 0), cl_int(exclusive ? 1 : 0));
      count.launches += batch;
      runtime.queue().enqueueReadBuffer(state, CL_TRUE, 0, sizeof words, words.data());
      ++count.host_reads;
      const bool empty = words[level % 3] == 0;
      if (words[6] || empty || level + 1 >= level_capacity) break;
      batch = std::min(2 * batch, kMostLevelsPerRead);
    }
    // bounds[2 l] of every launched level, and of the level after the last.
    std::vector<cl_int> bound(2 * level + 2);
    runtime.queue().enqueueReadBuffer(bounds, CL_TRUE, 0, bound.size() * sizeof(cl_int),
                                      bound.data());
    const std::size_t reached = static_cast<std::size_t>(bound[2 * level]) - 1;
    if (words[6] || reached != n)
      throw InputError("the child lists are not a forest: " +
                       std::string(words[6] ? "a vertex is the child of two vertices"
                                            : std::to_string(n - reached) +
                                                  " vertices are not reached from the roots"));
    std::size_t levels = 0;  // real levels: 1 .. levels
    while (levels + 1 < level && bound[2 * (levels + 2)] > bound[2 * (levels + 1)]) ++levels;
    count.levels = levels;

    if (!rootfix) {
      Kernels sweep(runtime, "treefix/levels.cl", options, phase);
      const std::size_t groups_huge = runtime.saturating_groups(sweep.wg_size());
      std::size_t most_huge = 0;
      for (std::size_t l = 1; l <= levels; ++l)
        most_huge = std::max<std::size_t>(most_huge, bound[2 * l + 3] - bound[2 * l + 1]);
      cl::Buffer partial;
      if (most_huge)
        partial = runtime.scratch("bfs.partials", most_huge * groups_huge * value.bytes);
      const cl_int excl = exclusive;
      for (std::size_t l = levels; l >= 1; --l) {  // deepest first
        const cl_int begin = bound[2 * l], size = bound[2 * l + 2] - begin;
        sweep.run("levels_leaffix", sweep.grid_stride(size), queue, begin, size,
                  children.child_offset, children.child, weights, out, excl, huge);
        ++count.launches;
        const cl_int huge_first = bound[2 * l + 1], huge_count = bound[2 * l + 3] - huge_first;
        if (huge_count == 0) continue;
        sweep.run("levels_leaffix_huge_partial", sweep.groups(groups_huge), huge_rows, huge_first,
                  huge_count, children.child_offset, children.child, weights, out, excl, partial);
        sweep.run("levels_leaffix_huge_finish", sweep.groups(huge_count), huge_rows, huge_first,
                  static_cast<cl_int>(groups_huge), weights, out, excl, partial);
        count.launches += 2;
      }
    }
    if (value.wide) {
      const cl_int empty = !exclusive ? 0 : rootfix ? 1 : 2;
      bfs.run("bfs_narrow", bfs.items(n), out, vertices, queue, bounds, children.child_offset,
              result, empty);
      ++count.launches;
    }
  });
}

}  // namespace

template <class T>
void bfs_rootfix(Runtime& runtime, const DeviceChildLists& children, const DeviceArray<T>& weights,
                 DeviceArray<T>& result, Op op, bool exclusive, Profile* profile,
                 BfsTreefixStats* stats, Precision precision) {
  bfs_treefix(runtime, children, weights, result, op, exclusive, profile, stats, precision, true);
}

template <class T>
void bfs_leaffix(Runtime& runtime, const DeviceChildLists& children, const DeviceArray<T>& weights,
                 DeviceArray<T>& result, Op op, bool exclusive, Profile* profile,
                 BfsTreefixStats* stats, Precision precision) {
  bfs_treefix(runtime, children, weights, result, op, exclusive, profile, stats, precision, false);
}

#define TREEFIX_BFS_INSTANTIATE(T)                                                                \
  template void bfs_rootfix<T>(Runtime&, const DeviceChildLists&, const DeviceArray<T>&,          \
                               DeviceArray<T>&, Op, bool, Profile*, BfsTreefixStats*, Precision); \
  template void bfs_leaffix<T>(Runtime&, const DeviceChildLists&, const DeviceArray<T>&,          \
                               DeviceArray<T>&, Op, bool, Profile*, BfsTreefixStats*, Precision);
TREEFIX_BFS_INSTANTIATE(std::int32_t)
TREEFIX_BFS_INSTANTIATE(std::int64_t)
TREEFIX_BFS_INSTANTIATE(float)
TREEFIX_BFS_INSTANTIATE(double)
#undef TREEFIX_BFS_INSTANTIATE

}  // namespace treefix
