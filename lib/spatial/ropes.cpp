// The rope-stack engine: splices traversal pieces into kernels/spatial/ropes.cl, sizes the stacks
// from the tree height, launches one of the three variants; plus the host thread pool of the CPU
// runs.
#include "treefix/spatial/ropes.hpp"

#include <algorithm>
#include <numeric>

#include "spatial/spatial_tuning.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/core/parallel.hpp"

namespace treefix {

double TraversalStats::mean_visits() const {
  if (visits.empty()) return 0;
  return std::accumulate(visits.begin(), visits.end(), 0.0) / double(visits.size());
}

double TraversalStats::work_expansion() const {
  double needed = std::accumulate(visits.begin(), visits.end(), 0.0);
  double carried = std::accumulate(group_steps.begin(), group_steps.end(), 0.0);
  return needed > 0 ? carried / needed : 1.0;
}

std::size_t lockstep_width(const Runtime& runtime) {
  return runtime.tuning()[knobs::lockstep_width];
}

Variant choose_variant(const Runtime& runtime, Variant wish, const TraversalPieces& pieces,
                       bool sorted) {
  return choose_variant(runtime, wish, pieces, sorted, {});
}

Variant choose_variant(const Runtime& runtime, Variant wish, const TraversalPieces& pieces,
                       bool sorted, const std::function<NeighbourSpread()>& sample) {
  if (wish != Variant::automatic) return wish;
  // Lockstep where the device's row says it pays (SIMT hardware, through coalesced loads), on
  // queries whose items need nearly the same nodes: coherent, sorted, unguided
  // (docs/design/spatial.md; the measurements: bench/results/h100-2026-11-23-spatial). Items
  // the library did not sort are sorted when a sample of neighbours says so.
  if (!runtime.tuning()[knobs::lockstep_when_coherent] || pieces.guided || !pieces.coherent)
    return Variant::independent;
  if (!sorted && sample) sorted = sample().sorted();
  return sorted ? Variant::lockstep : Variant::independent;
}

bool choose_sort(SortMode mode, std::size_t queries) {
  if (mode == SortMode::on) return true;
  if (mode == SortMode::off) return false;
  return queries >= 4096;
}

void run_traversal(Runtime& runtime, const TraversalPieces& pieces, Variant variant,
                   const TreeShape& tree, std::size_t items, const BindArgs& bind, Profile* profile,
                   TraversalStats* stats, const cl::Buffer* overflow_flag) {
  if (variant == Variant::automatic)
    throw Error("run_traversal: resolve Variant::automatic with choose_variant first");
  if (stats) {
    stats->visits.assign(items, 0);
    stats->group_steps.assign(items, 0);
  }
  if (items == 0) return;
  if (tree.nodes == 0) throw InputError(pieces.label + ": the tree has no nodes");
  if (items > 0x7fffffffu) throw CapacityError(pieces.label + ": more than 2^31 items");
  translate_device_errors(pieces.label.c_str(), [&] {
    std::string source = pieces.source + "\n" + Runtime::expanded_source("spatial/ropes.cl");
    // Lockstep groups are work-groups of lockstep_width() items (a warp's width by default, as
    // in the paper: wider groups carry items through more nodes they do not need).
    auto sized = runtime.sized_program_from_source(
        pieces.label, source, pieces.options,
        variant == Variant::lockstep ? lockstep_width(runtime) : 0);
    const std::size_t wg = sized.wg_size;
    const char* name = variant == Variant::lockstep    ? "rope_lockstep"
                       : variant == Variant::recursive ? "rope_recursive"
                                                       : "rope_independent";
    Kernels rope(runtime, sized, {profile, "traverse"});
    const Grid grid = rope.grid_stride(items);
    const std::size_t stride = grid.global;
    // Stack capacity from the tree: a rope stack holds at most height*(arity-1)+1 nodes, a
    // recursion stack height+1 frames of three ints.
    const std::size_t cap =
        variant == Variant::recursive ? std::size_t(tree.height) + 1 : tree.stack_bound();
    std::size_t stack_ints = variant == Variant::independent ? cap * stride
                             : variant == Variant::recursive ? 3 * cap * stride
                                                             : 1;
    cl::Buffer& stack = runtime.scratch("rope-stack", stack_ints * sizeof(std::int32_t));
    // Arguments riding on the stack: one per entry (independent, lockstep: per item, entry sp),
    // or one per child per frame (recursive: a frame's locals).
    std::size_t arg_entries = pieces.arg_bytes == 0 ? 1
                              : variant == Variant::recursive
                                  ? cap * std::size_t(tree.arity) * stride
                                  : cap * stride;
    cl::Buffer& arg_stack =
        runtime.scratch("rope-arg-stack", arg_entries * std::max<std::size_t>(4, pieces.arg_bytes));
    std::size_t mask_words = (wg + 31) / 32;
    std::size_t local_node = 4, local_mask = 4;
    if (variant == Variant::lockstep) {
      local_node = cap * sizeof(std::int32_t);
      local_mask = cap * mask_words * sizeof(std::uint32_t);
      std::size_t need = local_node + local_mask + (mask_words + 8) * sizeof(std::uint32_t);
      std::size_t have = runtime.description().local_mem_bytes;
      if (need + 1024 > have)
        throw CapacityError(pieces.label + ": the lockstep stack of a tree of height " +
                            std::to_string(tree.height) + " needs " + std::to_string(need) +
                            " bytes of local memory, the device has " + std::to_string(have) +
                            "; use the independent variant");
    }
    cl::Buffer stat_buffer =
        runtime.allocate(stats ? 2 * items * sizeof(std::uint32_t) : 4, "traversal statistics");
    cl::Buffer overflow =
        overflow_flag ? *overflow_flag : runtime.allocate(sizeof(cl_int), "overflow flag");
    if (!overflow_flag) fill(runtime, overflow, cl_int(0), 1);
    rope.run_bound(name, grid, [&](KernelArgs& args) {
      args(cl_uint(items), cl_uint(cap), stack, arg_stack, LocalBytes{local_node},
           LocalBytes{local_mask}, stat_buffer, cl_uint(stats ? 1 : 0), overflow);
      bind(args);
    });
    if (!overflow_flag && read_value<cl_int>(runtime, overflow))
      throw_stack_overflow(pieces.label, cap);
    if (stats) {
      std::vector<std::uint32_t> both(2 * items);
      runtime.queue().enqueueReadBuffer(stat_buffer, CL_TRUE, 0, both.size() * 4, both.data());
      std::copy(both.begin(), both.begin() + items, stats->visits.begin());
      std::copy(both.begin() + items, both.end(), stats->group_steps.begin());
    }
  });
}

void throw_stack_overflow(const std::string& label, std::size_t bound) {
  throw Error(label + ": traversal stack overflow despite the height bound " +
              std::to_string(bound) + " (a bug: the tree height is wrong)");
}

}  // namespace treefix
