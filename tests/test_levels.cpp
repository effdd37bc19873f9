// Level-synchronous treefix against the CPU reference, for every operator and value type.
#include <doctest/doctest.h>

#include <cmath>

#include "fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/levels.hpp"
#include "treefix/treefix/reference.hpp"

using namespace treefix;

namespace {

template <class T>
std::vector<T> weights_for(std::size_t n, std::uint64_t seed) {
  if constexpr (std::is_integral_v<T>)
    return test::random_values<T>(n, seed, -1000, 1000);
  else
    return test::random_values<T>(n, seed, T(-1), T(1));
}

template <class T>
bool close(const std::vector<T>& a, const std::vector<T>& b, Op op) {
  if (a.size() != b.size()) return false;
  if constexpr (std::is_integral_v<T>) {
    return a == b;
  } else {
    if (op != Op::sum) return a == b;  // min and max select, they do not round
    for (std::size_t i = 0; i < a.size(); ++i)
      if (std::abs(a[i] - b[i]) > T(1e-3) * (1 + std::abs(b[i]))) return false;
    return true;
  }
}

// Both sweeps, inclusive and exclusive, over one prepared structure.
template <class T>
void check_levels(const LevelStructure& levels, const ParentArray& parent, Op op,
                  std::uint64_t seed) {
  auto& rt = test::runtime();
  auto w = weights_for<T>(parent.size(), seed);
  auto dw = DeviceArray<T>::upload(rt, w);
  DeviceArray<T> dr(rt, parent.size());
  for (bool exclusive : {false, true}) {
    CAPTURE(exclusive);
    levels_rootfix(rt, levels, dw, dr, op, exclusive);
    CHECK(close(dr.download(rt), reference::rootfix(parent, w, op, exclusive), op));
    levels_leaffix(rt, levels, dw, dr, op, exclusive);
    CHECK(close(dr.download(rt), reference::leaffix(parent, w, op, exclusive), op));
  }
}

template <class T>
void check_every_op(const LevelStructure& levels, const ParentArray& parent) {
  for (Op op : {Op::sum, Op::bit_xor, Op::min, Op::max}) {
    if (op == Op::bit_xor && !std::is_integral_v<T>) continue;
    CAPTURE(to_string(op));
    check_levels<T>(levels, parent, op, 5);
  }
}

}  // namespace

TEST_CASE("levels rootfix and leaffix: every operator and value type on a shuffled random tree") {
  auto parent = generate::shuffle_labels(generate::random_recursive(4099, 3), 4);
  LevelStructure levels(test::runtime(), parent);
  auto depth = depths(parent);
  CHECK(levels.levels() ==
        static_cast<std::size_t>(*std::max_element(depth.begin(), depth.end())) + 1);
  check_every_op<std::int32_t>(levels, parent);
  check_every_op<std::int64_t>(levels, parent);
  check_every_op<float>(levels, parent);
  check_every_op<double>(levels, parent);
}

TEST_CASE("levels on awkward sizes and forests") {
  for (std::size_t n : test::awkward_sizes()) {
    CAPTURE(n);
    auto parent = generate::random_forest(n, 1 + n / 50, n);
    LevelStructure levels(test::runtime(), parent);
    check_levels<std::int64_t>(levels, parent, Op::sum, n);
    check_levels<float>(levels, parent, Op::max, n);
    LevelStructure host(test::runtime(), parent, nullptr, LevelStructure::Build::host);
    check_levels<float>(host, parent, Op::min, n);
  }
}

TEST_CASE("levels on degenerate shapes: star (device-wide fold), caterpillar, path, k-ary") {
  std::vector<std::pair<const char*, ParentArray>> shapes = {
      {"star", generate::shuffle_labels(generate::star(100003), 1)},
      {"caterpillar", generate::caterpillar(65537, 97)},
      {"path", generate::path(2003)},
      {"3-ary", generate::kary(100003, 3)},
      {"wide k-ary", generate::kary(65537, 1000)},  // rows of 1000: whole-group folds
  };
  for (auto& [shape, parent] : shapes) {
    const char* name = shape;  // C++17: a lambda (CAPTURE) cannot capture a binding
    CAPTURE(name);
    LevelStructure levels(test::runtime(), parent);
    check_levels<std::int32_t>(levels, parent, Op::min, 9);
    check_levels<double>(levels, parent, Op::sum, 9);
    // the host-built structure has the same levels and sweeps to the same results
    LevelStructure host(test::runtime(), parent, nullptr, LevelStructure::Build::host);
    CHECK(host.level_offset() == levels.level_offset());
    CHECK(host.huge_offset() == levels.huge_offset());
    check_levels<std::int32_t>(host, parent, Op::max, 9);
  }
  LevelStructure star(test::runtime(), generate::star(100003));
  CHECK(star.levels() == 2);
  CHECK(star.huge_offset().back() == 1);  // the center took the device-wide path
  CHECK(star.segments().size() == 2);     // a huge level and a wide one: a launch each
  CHECK_FALSE(star.segments()[0].fused);
}

TEST_CASE("runs of narrow levels are fused into one launch") {
  auto& rt = test::runtime();
  LevelStructure path(rt, generate::path(2003));
  REQUIRE(path.segments().size() == 1);
  CHECK(path.segments()[0].fused);
  CHECK(path.fused_levels() == 2003);
  LevelsStats stats;
  auto parent = generate::kary(100003, 3);  // levels of 1, 3, ..., 729 vertices, then wider
  LevelStructure kary(rt, parent);
  REQUIRE(kary.segments().size() == 6);  // [0, 7) fused, then levels 7..11
  CHECK(kary.segments()[0].fused);
  CHECK(kary.segments()[0].last_level == 7);
  auto w = test::random_values<std::int64_t>(parent.size(), 1, -5, 5);
  auto dw = DeviceArray<std::int64_t>::upload(rt, w);
  DeviceArray<std::int64_t> dr(rt, parent.size());
  levels_leaffix(rt, kary, dw, dr, Op::sum, false, nullptr, &stats);
  CHECK(stats.kernel_launches == 6);
  CHECK(dr.download(rt) == reference::leaffix(parent, w, Op::sum));
  CHECK(kary.sweep_cost_in_launches() == 6 + 7 / 4);
}

TEST_CASE("levels host convenience and input errors") {
  auto& rt = test::runtime();
  ParentArray parent = {-1, 0, 0, 1, 1, -1, 5};
  std::vector<std::int32_t> w = {1, 2, 3, 4, 5, 6, 7};
  CHECK(levels_rootfix(rt, parent, w, Op::sum) == std::vector<std::int32_t>{1, 3, 4, 7, 8, 6, 13});
  CHECK(levels_rootfix(rt, parent, w, Op::sum, true) ==
        std::vector<std::int32_t>{0, 1, 1, 3, 3, 0, 6});
  CHECK(reference::rootfix(parent, w, Op::sum, true) ==
        std::vector<std::int32_t>{0, 1, 1, 3, 3, 0, 6});
  CHECK(levels_leaffix(rt, parent, w, Op::max) == std::vector<std::int32_t>{5, 5, 3, 4, 5, 7, 7});
  CHECK(levels_leaffix(rt, parent, w, Op::min, true) ==
        std::vector<std::int32_t>{2, 4, INT32_MAX, INT32_MAX, INT32_MAX, 7, INT32_MAX});
  CHECK_THROWS_AS(levels_rootfix(rt, parent, std::vector<std::int32_t>(3), Op::sum), InputError);
  CHECK_THROWS_AS(LevelStructure(rt, ParentArray{1, 0}), InputError);  // a cycle
  LevelStructure empty(rt, ParentArray{});
  CHECK(empty.levels() == 0);
  LevelStructure empty_host(rt, ParentArray{}, nullptr, LevelStructure::Build::host);
  CHECK(empty_host.levels() == 0);
  CHECK_THROWS_AS(LevelStructure(rt, ParentArray{1, 0}, nullptr, LevelStructure::Build::host),
                  InputError);
  DeviceArray<float> none(rt, 0);
  CHECK_NOTHROW(levels_rootfix(rt, empty, none, none, Op::sum));
}

TEST_CASE("levels_preferred: shallow forests take the level sweeps, deep ones the alternative") {
  // min/max: the alternative is the sequential reference, so only very deep trees leave levels
  CHECK(levels_preferred(2, 1000000, Op::min));
  CHECK(levels_preferred(2048, std::size_t{1} << 22, Op::max));  // caterpillar, spine 2048
  CHECK_FALSE(levels_preferred(16384, 16384, Op::max));          // a path
  // sum/xor: the alternative is the Euler tour
  CHECK(levels_preferred(2, 1000000, Op::sum));
  CHECK(levels_preferred(8, 10, Op::bit_xor));
  CHECK_FALSE(levels_preferred(1000000, 1000000, Op::sum));
  CHECK_FALSE(levels_preferred(100, 1 << 20, Op::bit_xor));
  CHECK(levels_preferred(100, std::size_t{1} << 26, Op::bit_xor));
}
