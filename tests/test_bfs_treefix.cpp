// The seed's parallel treefix (a breadth-first search per call) against the CPU reference, and bit
// for bit against the level sweeps, whose arithmetic it shares.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>

#include "fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/treefix/bfs_treefix.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/levels.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/treefix.hpp"

using namespace treefix;

namespace {

// Shapes that take every path of the kernels: a star's root and a forest's virtual root have more
// children than any work-group gathers alone (rows shared by every group); paths and caterpillars
// are deep; shuffled ids scatter every level.
std::vector<std::pair<std::string, ParentArray>> shapes() {
  std::vector<std::pair<std::string, ParentArray>> all;
  for (std::size_t n : {0, 1, 2, 3, 7, 97, 257, 4099}) {
    all.emplace_back("path " + std::to_string(n), generate::path(n));
    all.emplace_back("random " + std::to_string(n),
                     generate::shuffle_labels(generate::random_recursive(n, n + 1), n));
  }
  all.emplace_back("caterpillar 1000", generate::caterpillar(1000, 500));
  all.emplace_back("kary 3 1000", generate::kary(1000, 3));
  all.emplace_back("forest 5000 of 40", generate::random_forest(5000, 40, 3));
  all.emplace_back("star 100003", generate::star(100003));
  all.emplace_back("100003 roots", ParentArray(100003, -1));
  return all;
}

template <class T>
std::vector<T> weights_for(std::size_t n, std::uint64_t seed) {
  if constexpr (std::is_integral_v<T>)
    return test::random_values<T>(n, seed, -1000, 1000);
  else
    return test::random_values<T>(n, seed, T(-1), T(1));
}

// depth + 1, the levels of the search (0 for no vertex)
std::size_t levels_of(const ParentArray& parent) {
  const auto depth = depths(parent);
  return depth.empty()
             ? 0
             : static_cast<std::size_t>(*std::max_element(depth.begin(), depth.end())) + 1;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

}  // namespace

TEST_CASE("bfs treefix: integer rootfix and leaffix equal the reference on every shape") {
  auto& rt = test::runtime();
  for (const auto& [name, parent] : shapes()) {
    const auto name_shown = name;  // CAPTURE copies no structured binding (C++17)
    CAPTURE(name_shown);
    const DeviceChildLists csr = upload_child_lists(rt, parent);
    const auto w = weights_for<std::int32_t>(parent.size(), parent.size() + 7);
    const auto dw = DeviceArray<std::int32_t>::upload(rt, w);
    DeviceArray<std::int32_t> r(rt, parent.size());
    for (Op op : {Op::sum, Op::max}) {
      CAPTURE(to_string(op));
      for (bool exclusive : {false, true}) {
        CAPTURE(exclusive);
        BfsTreefixStats stats;
        bfs_rootfix(rt, csr, dw, r, op, exclusive, nullptr, &stats);
        CHECK(r.download(rt) == reference::rootfix(parent, w, op, exclusive));
        CHECK(stats.levels == levels_of(parent));
        bfs_leaffix(rt, csr, dw, r, op, exclusive);
        CHECK(r.download(rt) == reference::leaffix(parent, w, op, exclusive));
      }
    }
  }
}

TEST_CASE("bfs treefix: float sums are bit for bit those of levels, in both precisions") {
  auto& rt = test::runtime();
  for (const auto& [name, parent] :
       {std::pair<std::string, ParentArray>{
            "random 4099", generate::shuffle_labels(generate::random_recursive(4099, 9), 9)},
        {"caterpillar 1000", generate::caterpillar(1000, 500)},
        {"star 100003", generate::star(100003)}}) {
    const auto name_shown = name;  // CAPTURE copies no structured binding (C++17)
    CAPTURE(name_shown);
    const DeviceChildLists csr = upload_child_lists(rt, parent);
    const LevelStructure levels(rt, parent);
    // weights of mixed magnitudes and signs, -0 among them: every rounding shows
    auto w = weights_for<float>(parent.size(), 17);
    for (std::size_t i = 0; i < w.size(); i += 5) w[i] *= 1e6f;
    w[0] = -0.0f;
    const auto dw = DeviceArray<float>::upload(rt, w);
    DeviceArray<float> got(rt, parent.size()), want(rt, parent.size());
    for (Precision precision : {Precision::fast, Precision::accurate}) {
      for (bool exclusive : {false, true}) {
        CAPTURE(to_string(precision));
        CAPTURE(exclusive);
        bfs_rootfix(rt, csr, dw, got, Op::sum, exclusive, nullptr, nullptr, precision);
        levels_rootfix(rt, levels, dw, want, Op::sum, exclusive, nullptr, nullptr, precision);
        CHECK(same_bits(got.download(rt), want.download(rt)));
        bfs_leaffix(rt, csr, dw, got, Op::sum, exclusive, nullptr, nullptr, precision);
        levels_leaffix(rt, levels, dw, want, Op::sum, exclusive, nullptr, nullptr, precision);
        CHECK(same_bits(got.download(rt), want.download(rt)));
      }
    }
  }
}

TEST_CASE("bfs treefix: a library algorithm that auto never picks, through a DeviceTree") {
  auto& rt = test::runtime();
  const ParentArray parent = generate::shuffle_labels(generate::random_recursive(3001, 4), 5);
  const auto w = weights_for<std::int32_t>(parent.size(), 3);
  TreefixOptions options;
  options.algorithm = Algorithm::bfs;
  CHECK(rootfix(rt, parent, w, options) == reference::rootfix(parent, w, Op::sum));
  CHECK(leaffix(rt, parent, w, options) == reference::leaffix(parent, w, Op::sum));
  CHECK(parse<Algorithm>("bfs") == Algorithm::bfs);
  DeviceTree tree(rt, parent);
  for (int call = 0; call < 3; ++call) {
    CHECK(choose_algorithm(tree, Op::sum, ValueType::int32) != Algorithm::bfs);
    CHECK(choose_algorithm(tree, Op::max, ValueType::int32) != Algorithm::bfs);
    tree.count_call();
  }
}

TEST_CASE("bfs treefix: child lists that are not a forest are refused") {
  auto& rt = test::runtime();
  auto lists = [&](std::vector<std::int32_t> offsets, std::vector<std::int32_t> child) {
    DeviceChildLists csr;
    csr.child_offset = DeviceArray<std::int32_t>::upload(rt, offsets);
    csr.child = DeviceArray<std::int32_t>::upload(rt, child);
    return csr;
  };
  const auto w = DeviceArray<std::int32_t>::upload(rt, {1, 2, 3});
  DeviceArray<std::int32_t> r(rt, 3);
  // vertex 2 is a child of 0 and of 1; root 0 (the children of the virtual vertex 3)
  const auto twice = lists({0, 2, 3, 3, 4}, {1, 2, 2, 0});
  CHECK_THROWS_WITH_AS(bfs_rootfix(rt, twice, w, r, Op::sum),
                       doctest::Contains("a vertex is the child of two vertices"), InputError);
  // 1 and 2 are each other's children: no root reaches them
  const auto cycle = lists({0, 0, 1, 2, 3}, {2, 1, 0});
  CHECK_THROWS_WITH_AS(bfs_leaffix(rt, cycle, w, r, Op::sum),
                       doctest::Contains("2 vertices are not reached from the roots"), InputError);
  CHECK_THROWS_AS(bfs_rootfix(rt, lists({0, 0}, {0}), w, r, Op::sum), InputError);  // n + 2?
  CHECK_THROWS_AS(upload_child_lists(rt, {1, 0}), InputError);                      // a cycle
}
