#pragma once
// The rope-stack traversal engine: a point-by-tree traversal described by small pieces of OpenCL C
// is spliced into the generic kernels of kernels/spatial/ropes.cl and compiled at run time (see
// that file for the contract the pieces fulfil). Applications (nbody.hpp, knn and correlation in
// spatial_queries below) are such pieces plus host code; a new traversal needs no new kernel.
//
//   Variant::independent  each work-item walks alone; its stack of nodes lies in global memory,
//                         interleaved so that equal depths of neighbouring items coalesce.
//   Variant::lockstep     a work-group walks together under a mask (one stack of (node, mask)
//                         in local memory); loads of neighbouring items coalesce, at the price of
//                         visiting nodes some items do not need (the "work expansion").
//   Variant::recursive    baseline: per-item stack of full recursion frames.
//   Variant::automatic    lockstep on a GPU for unguided, coherent traversals whose items are
//                         sorted: ordered by the library (SortMode) or, when they come in the
//                         caller's order, found sorted at run time by sampling neighbouring items
//                         (neighbour_spread, after Jo and Kulkarni's profiling); otherwise
//                         independent.
// Sorting (SortMode): queries are ordered along a Morton curve before the traversal so that a
// work-group holds nearby points, and the results are un-permuted on the host.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "treefix/core/launch.hpp"
#include "treefix/core/names.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/spatial/points.hpp"
#include "treefix/spatial/trees.hpp"

namespace treefix {

enum class Variant { automatic, independent, lockstep, recursive };
enum class SortMode { automatic, on, off };
TREEFIX_ENUM_NAMES(Variant, "traversal variant", {Variant::lockstep, "lockstep"},
                   {Variant::independent, "independent"}, {Variant::recursive, "recursive"},
                   {Variant::automatic, "auto"});
TREEFIX_ENUM_NAMES(SortMode, "sort mode", {SortMode::on, "on"}, {SortMode::off, "off"},
                   {SortMode::automatic, "auto"});

// The pieces of one traversal: OpenCL C text defining the contract of kernels/spatial/ropes.cl, and
// the -D options it is compiled with (dimension, k, ...).
struct TraversalPieces {
  std::string label;          // names the program in errors and in the cache ("knn-kd")
  std::string source;         // the pieces (Runtime::expanded_source of a .clh, or any text)
  std::string options;        // build options
  bool guided = false;        // several call sets: lockstep takes the majority's
  std::size_t arg_bytes = 0;  // sizeof(ROPE_ARG_T) when the pieces carry a stack argument
  // Neighbouring items need nearly the same nodes: what `automatic` takes lockstep for
  // (choose_variant). Measured on an H200 (bench/results/h200-2026-11-28-seeds), sorted items:
  // lockstep's work expansion is 1.3-1.7 for Barnes-Hut (10^5 and 10^6 bodies), where lockstep
  // ran 1.7-2.7x faster than independent; for the point queries (correlation, kNN and NN on the
  // kd-tree, NN on the vp-tree) it is 2.1-3.5 on 3-D points, 1.9-2.1 on clustered 2-D points and
  // 4.0-7.2 on 7-D points, and lockstep was slower than independent on every one of these sets
  // (on 2*10^5 7-D points by 4% for correlation, 10% for kNN, 30x for NN and 146x for VP).
  bool coherent = false;
};

// What a traversal did, per item (filled when asked for).
struct TraversalStats {
  std::vector<std::uint32_t> visits;       // nodes whose truncation test the item ran
  std::vector<std::uint32_t> group_steps;  // nodes its group popped (lockstep), else = visits
  double mean_visits() const;
  // Lockstep work expansion: nodes the items were carried through / nodes they needed (1 = none).
  double work_expansion() const;
};

// Items per lockstep group (one work-group): tuning knob lockstep_width (32, a warp, as in the
// paper; $TREEFIX_LOCKSTEP_WIDTH), rounded down to a power of two when built.
std::size_t lockstep_width(const Runtime& runtime);

// Whether neighbouring items lie close together, found at run time on a sample (the paper's
// section 4.4 adopts Jo and Kulkarni's profiling: draw samples of neighbouring points and see
// whether their traversals are similar). Items close in space take nearly the same path through a
// spatial tree, so the test compares positions, which cost no traversal: it takes up to 32
// windows of `window` consecutive items, evenly spaced over the items, and as many windows of
// items drawn anywhere (a fixed seed), and compares the median spread of each kind (the mean
// squared distance of a window's points to their centroid). The rule: the items are sorted when
// the neighbours' spread is at most kSortedSpreadRatio of the spread anywhere, in at least half
// the windows (the median). Morton-ordered points in 3-D give about (window / n)^(2/3) (0.02 for
// 2·10^4 points, 0.002 for 10^6), shuffled ones about 1, and a window that holds a tenth of points
// from elsewhere about 0.1: beyond that, lockstep carries every group through the paths of its
// strays (docs/design/spatial.md, "The auto rule"). Fewer than two windows of items: not measured
// (not sorted). Measured on an H200 (bench/results/h200-2026-11-28-seeds), items in Morton order:
// 0.0018-0.0019 for 10^6 bodies, 0.0061 for 10^5 bodies, 0.0093 for 10^5 uniform 3-D points,
// 0.0000 for 2*10^5 clustered 2-D points, 0.57 for 2*10^5 uniform 7-D points (in 7-D Morton
// order leaves neighbours far apart); the same items unsorted, 0.95-1.23.
struct NeighbourSpread {
  bool measured = false;
  double neighbours = 0, anywhere = 0;  // median spreads
  // neighbours / anywhere (0 when every sampled point coincides).
  double ratio() const { return anywhere > 0 ? neighbours / anywhere : 0; }
  bool sorted() const;
};
constexpr double kSortedSpreadRatio = 0.1;
// Items i = 0 .. n - 1 of a host point set.
NeighbourSpread neighbour_spread(const PointSet& items, std::size_t window);
// Items on the device: item i's coordinate k at coord[k * rows + row(i)], row(i) = item_row[i]
// (an int buffer) or i; a few reads of the sampled values only.
NeighbourSpread neighbour_spread(Runtime& runtime, const cl::Buffer& coord, std::size_t rows,
                                 int dim, std::size_t items, std::size_t window,
                                 const cl::Buffer* item_row = nullptr);

// Resolves `automatic` for a traversal (sorted: whether the library sorted the items); the rule
// and the measurements behind it are in docs/design/spatial.md and
// bench/results/h100-2026-11-23-spatial; at the sizes of Goldfarb, Jo and Kulkarni's inputs, in
// bench/results/h200-2026-11-28-seeds (docs/seeds.md, G4-G6, G14).
Variant choose_variant(const Runtime& runtime, Variant wish, const TraversalPieces& pieces,
                       bool sorted);
// The same, with the items' order tested by `sample` (a neighbour_spread of the items) when the
// library did not sort them and the answer would change the choice: sample is called at most
// once, and only then.
Variant choose_variant(const Runtime& runtime, Variant wish, const TraversalPieces& pieces,
                       bool sorted, const std::function<NeighbourSpread()>& sample);
// Resolves SortMode::automatic: sorting pays once there are several work-groups of queries.
bool choose_sort(SortMode mode, std::size_t queries);

// One launch of a traversal over `items` items on `tree` (only its height and arity are used: the
// application binds the tree arrays). bind(args) appends the application's arguments (ROPE_PARAMS)
// after the engine's. Throws CapacityError before launch when the stack cannot be held. A stack
// overflow (impossible when the height is right) is recorded in an int flag: the engine's own,
// read before returning (one small read), or `overflow` (zero before the launch), which the
// caller reads when it likes: the time steps read theirs once, at the end.
void run_traversal(Runtime& runtime, const TraversalPieces& pieces, Variant variant,
                   const TreeShape& tree, std::size_t items, const BindArgs& bind,
                   Profile* profile = nullptr, TraversalStats* stats = nullptr,
                   const cl::Buffer* overflow = nullptr);
// The message of that overflow (an Error: the tree's height was wrong).
[[noreturn]] void throw_stack_overflow(const std::string& label, std::size_t bound);

// The same traversal on the host, item by item (on the host executor, pieces of
// kRopeItemsPerPiece items: treefix/core/parallel.hpp): the multi-threaded CPU baseline and the
// tree-based references. T provides init(item), truncate(node), visit(node), call_set(node),
// child(node, call_set, i), finish(item) through a per-item state made by make_state(); it mirrors
// the OpenCL pieces line by line.
constexpr std::size_t kRopeItemsPerPiece = 256;

// A State with a stack argument (ROPE_ARG_T) has a member `arg` and child_arg(node, cs, i); its
// stack holds std::pair<node, arg>.
template <class State, class Entry>
std::uint32_t cpu_rope_traverse(State& s, const LinearTree& tree, std::vector<Entry>& stack) {
  constexpr bool with_arg = !std::is_integral_v<Entry>;
  std::uint32_t visits = 0;
  stack.clear();
  stack.push_back(Entry{});
  while (!stack.empty()) {
    Entry top = stack.back();
    stack.pop_back();
    std::int32_t node;
    if constexpr (with_arg) {
      node = top.first;
      s.arg = top.second;
    } else {
      node = top;
    }
    ++visits;
    if (s.truncate(node)) continue;
    s.visit(node);
    int cs = s.call_set(node);
    for (int i = tree.arity - 1; i >= 0; --i) {
      std::int32_t c = s.child(node, cs, i);
      if (c < 0) continue;
      if constexpr (with_arg)
        stack.push_back({c, s.child_arg(node, cs, i)});
      else
        stack.push_back(c);
    }
  }
  return visits;
}

}  // namespace treefix
