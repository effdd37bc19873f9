// DeviceTree: validation on the device (agreeing with the host's on good and bad parent arrays),
// the Euler tour's pre-order and layouts, the device level structure (equal to the host's), the
// automatic choice, and the stable radix sort the tour is built with.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/primitives/radix_sort.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/treefix.hpp"

using namespace treefix;

namespace {

// What the host says about a parent array: "" when valid, else its message.
std::string host_verdict(const ParentArray& parent) {
  try {
    validate_parent_array(parent);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// The same from the device: DeviceTree's constructor, and the device tour of an uploaded array
// (which names a cycle's vertex by reading the array back).
std::string device_verdict(const ParentArray& parent) {
  auto& rt = test::runtime();
  std::string tree_message, tour_message;
  try {
    DeviceTree tree(rt, parent);
  } catch (const InputError& e) {
    tree_message = e.what();
  }
  try {
    device_euler_tour(rt, parent);
  } catch (const InputError& e) {
    tour_message = e.what();
  }
  CHECK(tree_message == tour_message);
  return tree_message;
}

std::vector<std::int32_t> read_ints(const cl::Buffer& buffer, std::size_t n) {
  std::vector<std::int32_t> values(n);
  if (n) test::runtime().queue().enqueueReadBuffer(buffer, CL_TRUE, 0, n * 4, values.data());
  return values;
}

}  // namespace

TEST_CASE("device validation agrees with the host: cycles of every length, self-parents, ranges") {
  std::mt19937_64 rng(11);
  // A cycle of every length 1..40 hidden in a random forest, with trees hanging off it.
  for (std::size_t length = 1; length <= 40; ++length) {
    CAPTURE(length);
    const std::size_t n = 300 + length;
    ParentArray parent = generate::random_forest(n, 3, length);
    std::vector<vertex_t> members(n);
    std::iota(members.begin(), members.end(), 0);
    std::shuffle(members.begin(), members.end(), rng);
    for (std::size_t i = 0; i < length; ++i)
      parent[members[i]] = members[(i + 1) % length];  // length 1: a self-parent
    const std::string host = host_verdict(parent);
    REQUIRE(host.find("cycle") != std::string::npos);
    CHECK(device_verdict(parent) == host);
  }
  // A forest that is nothing but cycles (no root at all), and a 2-cycle of the whole array.
  CHECK(device_verdict({1, 0}) == host_verdict({1, 0}));
  CHECK(device_verdict({0}) == host_verdict({0}));
  ParentArray ring(1000);
  for (std::size_t v = 0; v < ring.size(); ++v) ring[v] = static_cast<vertex_t>((v + 1) % 1000);
  CHECK(device_verdict(ring) == host_verdict(ring));
  // Out of range, above and below; the smallest bad vertex is named, as the host names it.
  for (auto bad : {ParentArray{-1, 5}, ParentArray{-1, -2}, ParentArray{-1, 0, 7, 9, 0}}) {
    const std::string host = host_verdict(bad);
    REQUIRE(host.find("has parent") != std::string::npos);
    CHECK(device_verdict(bad) == host);
  }
  // Random good forests of awkward sizes pass both.
  for (std::size_t n : test::awkward_sizes()) {
    CAPTURE(n);
    auto parent = generate::shuffle_labels(generate::random_forest(n, 1 + n / 97, n), n + 1);
    CHECK(host_verdict(parent).empty());
    CHECK(device_verdict(parent).empty());
  }
}

TEST_CASE(
    "device tour: pre-order and child lists are the host's; both layouts give exact results") {
  auto& rt = test::runtime();
  for (const ParentArray& parent :
       {generate::shuffle_labels(generate::random_forest(20011, 5, 3), 4), generate::star(9001),
        generate::caterpillar(10007, 3001), ParentArray{}, ParentArray{-1}}) {
    const std::size_t n = parent.size();
    CAPTURE(n);
    EulerTour host = build_euler_tour(parent);
    // The pre-order: vertices by their open positions in the host's tour.
    std::vector<vertex_t> pre_order(n);
    std::vector<std::pair<std::int64_t, vertex_t>> opens(n);
    for (std::size_t v = 0; v < n; ++v) opens[v] = {host.open_pos[v], static_cast<vertex_t>(v)};
    std::sort(opens.begin(), opens.end());
    for (std::size_t i = 0; i < n; ++i) pre_order[i] = opens[i].second;
    ChildLists lists = child_lists(parent);
    auto w = test::random_values<std::int64_t>(n, 7, -1000, 1000);
    auto dw = DeviceArray<std::int64_t>::upload(rt, w);
    DeviceArray<std::int64_t> dr(rt, n);
    for (TourLayout layout :
         {TourLayout::vertex_ids, TourLayout::preorder, TourLayout::automatic}) {
      CAPTURE(to_string(layout));
      DeviceTreeOptions options;
      options.layout = layout;
      DeviceTree tree(rt, parent, options);
      const DeviceEulerTour& tour = tree.euler_tour();
      CHECK(read_ints(tour.pre_order(), n) == pre_order);
      std::vector<std::int32_t> rank(n);
      for (std::size_t i = 0; i < n; ++i) rank[pre_order[i]] = static_cast<std::int32_t>(i);
      CHECK(read_ints(tour.pre_rank(), n) == rank);
      if (layout != TourLayout::automatic)
        CHECK(tour.preorder_layout() == (layout == TourLayout::preorder));
      // child lists: children in id order, then the roots
      std::vector<std::int32_t> offsets(lists.child_offset.begin(), lists.child_offset.end());
      offsets.push_back(static_cast<std::int32_t>(n));
      CHECK(read_ints(tree.children().child_offset.buffer(), n + 2) == offsets);
      std::vector<std::int32_t> children = lists.child;
      children.insert(children.end(), lists.roots.begin(), lists.roots.end());
      CHECK(read_ints(tree.children().child.buffer(), n) == children);
      for (bool exclusive : {false, true}) {
        TreefixOptions euler{Op::sum, exclusive, Algorithm::euler};
        rootfix(rt, tree, dw, dr, euler);
        CHECK(dr.download(rt) == reference::rootfix(parent, w, Op::sum, exclusive));
        leaffix(rt, tree, dw, dr, euler);
        CHECK(dr.download(rt) == reference::leaffix(parent, w, Op::sum, exclusive));
      }
    }
  }
  // automatic: scattered ids take the pre-order layout, a star and a caterpillar keep theirs
  auto shuffled = generate::shuffle_labels(generate::random_recursive(50000, 2), 3);
  CHECK(DeviceTree(rt, shuffled).euler_tour().preorder_layout());
  CHECK_FALSE(DeviceTree(rt, generate::star(50000)).euler_tour().preorder_layout());
  CHECK_FALSE(DeviceTree(rt, generate::caterpillar(50000, 25000)).euler_tour().preorder_layout());
}

TEST_CASE("device level structure equals the host's: BFS order, level and huge-row offsets") {
  auto& rt = test::runtime();
  for (const ParentArray& parent :
       {generate::shuffle_labels(generate::random_forest(30011, 9, 1), 2),
        generate::shuffle_labels(generate::star(100003), 5),  // a huge row: device-wide fold
        generate::caterpillar(20011, 997), generate::path(3001), generate::kary(65537, 1000),
        ParentArray{-1}, ParentArray{}}) {
    CAPTURE(parent.size());
    DeviceTree tree(rt, parent);
    const LevelStructure& device = tree.levels();
    LevelStructure host(rt, parent, nullptr, LevelStructure::Build::host);
    CHECK(device.level_offset() == host.level_offset());
    CHECK(device.huge_offset() == host.huge_offset());
    CHECK(device.order().download(rt) == host.order().download(rt));
    CHECK(device.order().download(rt) == top_down_order(parent));
    if (host.huge_offset().back() > 0)
      CHECK(device.huge().download(rt) == host.huge().download(rt));
    DeviceTree fresh(rt, parent);  // the depth from the tour alone, before any level structure
    CHECK(fresh.max_depth() == (device.levels() ? device.levels() - 1 : 0));
  }
}

TEST_CASE("automatic: min and max by depth; sum and xor take the tour until levels pay off") {
  auto& rt = test::runtime();
  DeviceTree star(rt, generate::star(100000));
  CHECK(star.max_depth() == 1);
  CHECK(choose_algorithm(star, Op::max, ValueType::float32) == Algorithm::levels);
  CHECK(choose_algorithm(star, Op::sum, ValueType::float32) == Algorithm::euler);
  DeviceTree path(rt, generate::path(50000));
  CHECK(path.max_depth() == 49999);
  CHECK(choose_algorithm(path, Op::min, ValueType::int32) == Algorithm::sequential);
  // Repeated sum calls on a shallow tree move to levels from the third call on.
  auto w = test::random_values<std::int32_t>(star.size(), 1, -9, 9);
  auto dw = DeviceArray<std::int32_t>::upload(rt, w);
  DeviceArray<std::int32_t> dr(rt, star.size());
  const auto expected = reference::rootfix(generate::star(100000), w, Op::sum);
  for (int call = 0; call < 3; ++call) {
    CAPTURE(call);
    CHECK(choose_algorithm(star, Op::sum, ValueType::int32) ==
          (call < 2 ? Algorithm::euler : Algorithm::levels));
    rootfix(rt, star, dw, dr);
    CHECK(dr.download(rt) == expected);
  }
  CHECK(star.has_levels());
  // Deep trees stay on the tour however often they are called.
  for (int call = 0; call < 3; ++call) path.count_call();
  CHECK(choose_algorithm(path, Op::sum, ValueType::int32) == Algorithm::euler);
}

namespace {
// Sorts random keys of `bits` bits with values and with identity values through `sort`
// (radix_sort_by_key or radix_sort_by_key64) and compares with std::stable_sort.
template <class Key, class Sort>
void check_radix_sort(std::size_t n, unsigned bits, std::mt19937_64& rng, Sort sort) {
  auto& rt = test::runtime();
  CAPTURE(n);
  CAPTURE(bits);
  std::vector<Key> keys(n);
  std::vector<cl_int> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    keys[i] = bits >= 8 * sizeof(Key) ? static_cast<Key>(rng())
                                      : static_cast<Key>(rng() % (std::uint64_t(1) << bits));
    values[i] = static_cast<cl_int>(rng() % 1000);
  }
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  auto dk = DeviceArray<Key>::upload(rt, keys);
  auto dv = DeviceArray<cl_int>::upload(rt, values);
  auto di = DeviceArray<cl_int>(rt, n);
  sort(rt, dk.buffer(), dv.buffer(), n, bits, false, nullptr);
  auto sorted_keys = dk.download(rt);
  auto sorted_values = dv.download(rt);
  dk.write(rt, keys);
  sort(rt, dk.buffer(), di.buffer(), n, bits, true, nullptr);
  auto permutation = di.download(rt);
  bool same = true;
  for (std::size_t i = 0; i < n && same; ++i)
    same = sorted_keys[i] == keys[order[i]] && sorted_values[i] == values[order[i]] &&
           permutation[i] == static_cast<cl_int>(order[i]);
  CHECK(same);
}
}  // namespace

TEST_CASE("radix sort: stable, every key width, awkward sizes, identity values") {
  auto& rt = test::runtime();
  std::mt19937_64 rng(5);
  for (std::size_t n : {1ul, 2ul, 255ul, 2048ul, 2049ul, 65537ul, 300007ul})
    for (unsigned bits : {1u, 7u, 8u, 9u, 17u, 25u, 32u})
      check_radix_sort<cl_uint>(n, bits, rng, radix_sort_by_key);
  for (std::size_t n : {1ul, 2ul, 2049ul, 65537ul})
    for (unsigned bits : {1u, 31u, 32u, 33u, 63u, 64u})
      check_radix_sort<cl_ulong>(n, bits, rng, radix_sort_by_key64);
  for (std::size_t items : {3, 16}) {  // other tile sizes (Tuning::radix_sort_items)
    test::ScopedTuning tuning;
    tuning->set("radix_sort_items", items);
    check_radix_sort<cl_uint>(65537, 25, rng, radix_sort_by_key);
    check_radix_sort<cl_ulong>(65537, 63, rng, radix_sort_by_key64);
  }
  CHECK_THROWS_AS(radix_sort_by_key64(rt, cl::Buffer(), cl::Buffer(), 5, 65), InputError);
  CHECK(key_bits_for(0) == 1);
  CHECK(key_bits_for(1) == 1);
  CHECK(key_bits_for(16777216) == 25);
  CHECK_THROWS_AS(radix_sort_by_key(rt, cl::Buffer(), cl::Buffer(), 5, 0), InputError);
}
