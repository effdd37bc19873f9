// The Euler tour on the device: uploaded from the host builder, or built on the device from a
// parent array (kernels/treefix/tour.cl, radix sort, list ranking) while validating it; its tour
// map and pre-order layout (kernels/treefix/preorder.cl).
#include "treefix/treefix/euler_tour.hpp"

#include <chrono>
#include <climits>
#include <string>

#include "treefix/core/launch.hpp"
#include "treefix/primitives/detail/scan_plan.hpp"
#include "treefix/primitives/radix_sort.hpp"
#include "treefix/primitives/scan.hpp"

namespace treefix {

namespace {
template <class P>
std::vector<P> narrow(const std::vector<std::int64_t>& positions) {
  return std::vector<P>(positions.begin(), positions.end());
}

// The program of preorder.cl: the open-count scan and the kernels beside it.
detail::ScanPlan preorder_plan(Runtime& runtime, std::size_t events) {
  return detail::plan_scan(runtime, "treefix/preorder.cl",
                           value_op_options(ValueType::int32, Op::sum) +
                               " -DFAR=" + std::to_string(DeviceEulerTour::kFarStep),
                           4, events, "as_int");
}
}  // namespace

bool DeviceEulerTour::needs_wide_positions(std::size_t vertices) {
  return 2 * vertices > static_cast<std::size_t>(INT32_MAX);
}

DeviceEulerTour::DeviceEulerTour(Runtime& runtime, const EulerTour& tour, Profile* profile,
                                 TourLayout layout)
    : vertices_(tour.size()), wide_(needs_wide_positions(tour.size())) {
  const std::size_t pos_bytes = wide_ ? 8 : 4;
  runtime.require_fits("the Euler tour of " + std::to_string(vertices_) + " vertices",
                       2 * vertices_ * pos_bytes + 2 * vertices_ * 4 + 2 * vertices_ * 4,
                       2 * vertices_ * 4);
  auto upload = [&](const std::vector<std::int64_t>& positions, cl::Buffer& buffer) {
    if (wide_)
      buffer =
          DeviceArray<std::int64_t>::upload(runtime, positions, profile, "tour positions").buffer();
    else
      buffer = DeviceArray<std::int32_t>::upload(runtime, narrow<std::int32_t>(positions), profile,
                                                 "tour positions")
                   .buffer();
  };
  upload(tour.open_pos, open_pos_);
  upload(tour.close_pos, close_pos_);
  build_map(runtime, profile, layout);
}

DeviceEulerTour::DeviceEulerTour(Runtime& runtime, std::size_t vertices, cl::Buffer open_pos,
                                 cl::Buffer close_pos, bool wide_positions, Profile* profile,
                                 TourLayout layout)
    : vertices_(vertices),
      wide_(wide_positions),
      open_pos_(std::move(open_pos)),
      close_pos_(std::move(close_pos)) {
  if (needs_wide_positions(vertices) && !wide_)
    throw InputError("a tour of " + std::to_string(vertices) + " vertices needs 64-bit positions");
  build_map(runtime, profile, layout);
}

void DeviceEulerTour::build_map(Runtime& runtime, Profile* profile, TourLayout layout) {
  const std::size_t n = vertices_, events = 2 * n;
  tour_vertex_ = runtime.allocate(events * sizeof(std::int32_t), "tour map");
  pre_order_ = runtime.allocate(n * sizeof(std::int32_t), "pre-order");
  pre_rank_ = runtime.allocate(n * sizeof(std::int32_t), "pre-order ranks");
  preorder_ = layout == TourLayout::preorder;
  if (n == 0) return;
  translate_device_errors("building the tour map", [&] {
    const bool wide_index = events > 0xFFFFFFFFull;
    Kernels tour(runtime, "treefix/tour.cl",
                 std::string(position_option()) + (wide_index ? " -DWIDE_INDEX=1" : ""),
                 {profile, "tour map"});
    tour.run("tour_map_build", tour.items(n), open_pos_, close_pos_, Index{n, wide_index},
             tour_vertex_);
    // The pre-order: a scan of the opens over the map (vertex ids < 2^31, so 2n < 2^32).
    detail::ScanPlan plan = preorder_plan(runtime, events);
    const Phase phase{profile, "layout"};
    detail::run_scan(
        runtime, plan, events, [&](KernelArgs& args) { args(tour_vertex_, pre_order_, pre_rank_); },
        phase);
    Kernels layout_kernels(runtime, plan.sized, phase);
    // How scattered the map's gathers are (also reported when the layout is forced).
    cl::Buffer& far = runtime.scratch("tour.far_steps", sizeof(cl_uint));
    fill(runtime, far, cl_uint(0), 1, phase);
    layout_kernels.run("preorder_far_steps", layout_kernels.grid_stride(n), pre_order_, cl_uint(n),
                       far);
    far_steps_ = read_value<cl_uint>(runtime, far);
    if (layout == TourLayout::automatic)
      layout = far_steps_ > n / 4 ? TourLayout::preorder : TourLayout::vertex_ids;
    preorder_ = layout == TourLayout::preorder;
    if (preorder_) {
      layout_kernels.run("preorder_relabel", layout_kernels.items(events), tour_vertex_, pre_rank_,
                         cl_uint(events));
      to_preorder_ = DevicePermutation(runtime, pre_order_, n, profile);
      to_vertex_order_ = DevicePermutation(runtime, pre_rank_, n, profile);
    }
  });
}

std::size_t DeviceEulerTour::max_depth(Runtime& runtime, Profile* profile) const {
  if (max_depth_known_ || vertices_ == 0) return max_depth_;
  if (wide_)
    throw CapacityError("depths of a tour of " + std::to_string(vertices_) +
                        " vertices: 64-bit positions are not supported here");
  translate_device_errors("tree depth", [&] {
    Kernels layout(runtime, preorder_plan(runtime, 2 * vertices_).sized, {profile, "layout"});
    cl::Buffer& deepest = runtime.scratch("tour.max_depth", sizeof(cl_uint));
    fill(runtime, deepest, cl_uint(0), 1, {profile, "layout"});
    layout.run("preorder_depths", layout.grid_stride(vertices_), pre_order_, open_pos_,
               cl_uint(vertices_), cl_int(0), deepest, deepest, deepest);
    max_depth_ = read_value<cl_uint>(runtime, deepest);
  });
  max_depth_known_ = true;
  return max_depth_;
}

namespace {
// The host names the vertex of a cycle exactly as validate_parent_array does.
[[noreturn]] void report_cycle(Runtime& runtime, const cl::Buffer& parent, std::size_t n) {
  ParentArray host(n);
  detail::read_buffer(runtime, parent, host.data(), n * sizeof(vertex_t), nullptr);
  validate_parent_array(host);
  throw Error("device Euler tour: the device found a cycle that the host does not");
}
}  // namespace

DeviceEulerTour device_euler_tour(Runtime& runtime, const cl::Buffer& parent, std::size_t n,
                                  const TourOptions& options) {
  if (n > static_cast<std::size_t>(INT32_MAX) / 2)
    throw CapacityError("device Euler tour of " + std::to_string(n) +
                        " vertices: positions are 32-bit (2n < 2^31)");
  Profile* profile = options.profile;
  using Clock = std::chrono::steady_clock;
  auto started = Clock::now();
  auto lap = [&](const char* phase) {  // the read-backs below wait for the device
    const auto now = Clock::now();
    if (options.phases)
      options.phases->add(phase, std::chrono::duration<double, std::milli>(now - started).count());
    started = now;
  };
  return translate_device_errors("device Euler tour", [&] {
    const Phase phase{profile, "tour"};
    const cl_int count = static_cast<cl_int>(n);
    cl::Buffer open_pos = runtime.allocate(n * sizeof(cl_int), "open positions");
    cl::Buffer close_pos = runtime.allocate(n * sizeof(cl_int), "close positions");
    DeviceChildLists children;
    children.child_offset = DeviceArray<std::int32_t>(runtime, n + 2, "child offsets");
    children.child = DeviceArray<std::int32_t>(runtime, n, "children");
    if (n == 0) {
      fill(runtime, children.child_offset.buffer(), cl_int(0), 2, phase);
      if (options.children) *options.children = children;
      return DeviceEulerTour(runtime, 0, open_pos, close_pos, false, profile, options.layout);
    }
    Kernels tour(runtime, "treefix/tour.cl", "-DPOS_T=int", phase);  // the map's program too
    // 1. range check and sort keys
    cl::Buffer key = runtime.allocate(n * sizeof(cl_uint), "sibling keys");
    cl::Buffer& bad = runtime.scratch("tour.bad", sizeof(cl_int));
    fill(runtime, bad, cl_int(INT32_MAX), 1, phase);
    tour.run("tour_keys", tour.items(n), parent, key, count, bad);
    const cl_int first_bad = options.known_forest ? INT32_MAX : read_value<cl_int>(runtime, bad);
    if (first_bad != INT32_MAX) {
      const cl_int p = read_value<cl_int>(runtime, parent, static_cast<std::size_t>(first_bad));
      throw InputError("vertex " + std::to_string(first_bad) + " has parent " + std::to_string(p) +
                       ", but there are " + std::to_string(n) + " vertices");
    }
    // 2. children grouped by parent, in id order (stable): the CSR child lists
    const cl::Buffer& child = children.child.buffer();
    radix_sort_by_key(runtime, key, child, n, key_bits_for(n), true, profile);
    cl::Buffer first_child = runtime.allocate((n + 1) * sizeof(cl_int), "first children");
    cl::Buffer next_sibling = runtime.allocate(n * sizeof(cl_int), "next siblings");
    const cl::Buffer& child_offset = children.child_offset.buffer();
    fill(runtime, first_child, cl_int(-1), n + 1, phase);
    fill(runtime, child_offset, cl_int(0), n + 2, phase);
    tour.run("tour_links", tour.items(n), key, child, first_child, next_sibling, child_offset,
             count);
    // Counts to offsets: the sum scan is the program the radix sort uses too.
    scan(runtime, ValueType::int32, Op::sum, ScanKind::exclusive, child_offset, child_offset, n + 2,
         profile, "tour");
    // 3. successors, ranks, and the check that the list from the first root is whole
    cl::Buffer succ = runtime.allocate(2 * n * sizeof(cl_int), "tour successors");
    tour.run("tour_successor", tour.items(n), parent, first_child, next_sibling, succ, count);
    cl::Buffer rank = runtime.allocate(2 * n * sizeof(cl_int), "tour ranks");
    ListRankOptions ranking = options.list_rank;
    ranking.profile = profile;
    treefix::list_rank(runtime, succ, rank, 2 * n, ranking);
    if (!options.known_forest) {
      cl::Buffer& whole = runtime.scratch("tour.whole", sizeof(cl_int));
      fill(runtime, whole, cl_int(0), 1, phase);
      tour.run("tour_check", tour.items(2 * n), succ, rank, cl_int(2 * n), whole);
      if (read_value<cl_int>(runtime, whole) != 1) report_cycle(runtime, parent, n);
    }
    lap("validate");
    // 4. positions, then the map
    tour.run("tour_positions", tour.items(n), rank, open_pos, close_pos, count);
    if (options.children) *options.children = children;
    DeviceEulerTour built(runtime, n, open_pos, close_pos, false, profile, options.layout);
    runtime.queue().finish();
    lap("prepare");
    return built;
  });
}

DeviceEulerTour device_euler_tour(Runtime& runtime, const cl::Buffer& parent, std::size_t n,
                                  const ListRankOptions& list_rank, Profile* profile) {
  TourOptions options;
  options.list_rank = list_rank;
  options.profile = profile;
  return device_euler_tour(runtime, parent, n, options);
}

DeviceEulerTour device_euler_tour(Runtime& runtime, const ParentArray& parent,
                                  const ListRankOptions& list_rank, Profile* profile) {
  auto device_parent = DeviceArray<vertex_t>::upload(runtime, parent, profile, "parent array");
  return device_euler_tour(runtime, device_parent.buffer(), parent.size(), list_rank, profile);
}

}  // namespace treefix
