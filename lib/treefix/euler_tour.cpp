// The Euler tour on the device: uploaded from the host builder, or built on the device from a
// parent array (kernels/treefix/tour.cl + list ranking); and its tour map.
#include "treefix/treefix/euler_tour.hpp"

#include <climits>
#include <string>

#include "treefix/core/launch.hpp"
#include "treefix/primitives/sort.hpp"

namespace treefix {

namespace {
template <class P>
std::vector<P> narrow(const std::vector<std::int64_t>& positions) {
  return std::vector<P>(positions.begin(), positions.end());
}
}  // namespace

bool DeviceEulerTour::needs_wide_positions(std::size_t vertices) {
  return 2 * vertices > static_cast<std::size_t>(INT32_MAX);
}

DeviceEulerTour::DeviceEulerTour(Runtime& runtime, const EulerTour& tour, Profile* profile)
    : vertices_(tour.size()), wide_(needs_wide_positions(tour.size())) {
  const std::size_t pos_bytes = wide_ ? 8 : 4;
  runtime.require_fits("the Euler tour of " + std::to_string(vertices_) + " vertices",
                       2 * vertices_ * pos_bytes + 2 * vertices_ * 4, 2 * vertices_ * 4);
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
  build_map(runtime, profile);
}

DeviceEulerTour::DeviceEulerTour(Runtime& runtime, std::size_t vertices, cl::Buffer open_pos,
                                 cl::Buffer close_pos, bool wide_positions, Profile* profile)
    : vertices_(vertices),
      wide_(wide_positions),
      open_pos_(std::move(open_pos)),
      close_pos_(std::move(close_pos)) {
  if (needs_wide_positions(vertices) && !wide_)
    throw InputError("a tour of " + std::to_string(vertices) + " vertices needs 64-bit positions");
  build_map(runtime, profile);
}

void DeviceEulerTour::build_map(Runtime& runtime, Profile* profile) {
  tour_vertex_ = runtime.allocate(2 * vertices_ * sizeof(std::int32_t), "tour map");
  if (vertices_ == 0) return;
  translate_device_errors("building the tour map", [&] {
    const bool wide_index = 2 * vertices_ > 0xFFFFFFFFull;
    Kernels tour(runtime, "treefix/tour.cl",
                 std::string(position_option()) + (wide_index ? " -DWIDE_INDEX=1" : ""),
                 {profile, "tour map"});
    tour.run("tour_map_build", tour.items(vertices_), open_pos_, close_pos_,
             Index{vertices_, wide_index}, tour_vertex_);
  });
}

DeviceEulerTour device_euler_tour(Runtime& runtime, const cl::Buffer& parent, std::size_t n,
                                  const ListRankOptions& list_rank, Profile* profile) {
  if (DeviceEulerTour::needs_wide_positions(n))
    throw CapacityError("device Euler tour of " + std::to_string(n) +
                        " vertices: positions are 32-bit (2n < 2^31)");
  return translate_device_errors("device Euler tour", [&] {
    const Phase phase{profile, "tour"};
    Kernels tour(runtime, "treefix/tour.cl", "", phase);
    const cl_int count = static_cast<cl_int>(n);
    cl::Buffer open_pos = runtime.allocate(n * sizeof(cl_int), "open positions");
    cl::Buffer close_pos = runtime.allocate(n * sizeof(cl_int), "close positions");
    if (n == 0) return DeviceEulerTour(runtime, 0, open_pos, close_pos, false, profile);
    cl::Buffer key = runtime.allocate(n * sizeof(cl_uint), "sibling keys");
    cl::Buffer child = runtime.allocate(n * sizeof(cl_int), "children");
    tour.run("tour_keys", tour.items(n), parent, key, child, count);
    sort_by_key<cl_uint>(runtime, key, child, n, true);  // stable: siblings stay in id order
    cl::Buffer first_child = runtime.allocate((n + 1) * sizeof(cl_int), "first children");
    cl::Buffer next_sibling = runtime.allocate(n * sizeof(cl_int), "next siblings");
    fill(runtime, first_child, cl_int(-1), n + 1, phase);
    tour.run("tour_links", tour.items(n), key, child, first_child, next_sibling, count);
    cl::Buffer succ = runtime.allocate(2 * n * sizeof(cl_int), "tour successors");
    tour.run("tour_successor", tour.items(n), parent, first_child, next_sibling, succ, count);
    cl::Buffer rank = runtime.allocate(2 * n * sizeof(cl_int), "tour ranks");
    ListRankOptions ranking = list_rank;
    ranking.profile = profile;
    treefix::list_rank(runtime, succ, rank, 2 * n, ranking);
    tour.run("tour_positions", tour.items(n), rank, open_pos, close_pos, count);
    return DeviceEulerTour(runtime, n, open_pos, close_pos, false, profile);
  });
}

DeviceEulerTour device_euler_tour(Runtime& runtime, const ParentArray& parent,
                                  const ListRankOptions& list_rank, Profile* profile) {
  validate_parent_array(parent);
  auto device_parent = DeviceArray<vertex_t>::upload(runtime, parent, profile, "parent array");
  return device_euler_tour(runtime, device_parent.buffer(), parent.size(), list_rank, profile);
}

}  // namespace treefix
