// Host tree forms: validation, Euler tour, file formats.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>

#include "fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/io/text_io.hpp"
#include "treefix/io/value_format.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/tree.hpp"
#include "treefix/treefix/tree_io.hpp"

using namespace treefix;

namespace {
// Independent check of a tour: positions are a permutation of 0..2n-1, every vertex's interval
// lies inside its parent's, and open < close.
void check_tour(const ParentArray& parent, const EulerTour& tour) {
  const std::size_t n = parent.size();
  std::vector<char> used(2 * n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    REQUIRE(tour.open_pos[v] < tour.close_pos[v]);
    for (auto p : {tour.open_pos[v], tour.close_pos[v]}) {
      REQUIRE(p >= 0);
      REQUIRE(p < static_cast<std::int64_t>(2 * n));
      REQUIRE_FALSE(used[p]);
      used[p] = 1;
    }
    if (parent[v] != -1) {
      REQUIRE(tour.open_pos[parent[v]] < tour.open_pos[v]);
      REQUIRE(tour.close_pos[v] < tour.close_pos[parent[v]]);
    }
  }
}

std::string temp_file(const std::string& name, const std::string& text) {
  std::string path = "/tmp/treefix-test-" + name;
  std::ofstream(path) << text;
  return path;
}
}  // namespace

TEST_CASE("Euler tours of many shapes are consistent") {
  check_tour({}, build_euler_tour({}));
  check_tour({-1}, build_euler_tour({-1}));
  for (std::size_t n : {2ul, 7ul, 100ul, 4099ul}) {
    CAPTURE(n);
    for (auto& p : {generate::star(n), generate::path(n), generate::caterpillar(n, n / 3 + 1),
                    generate::kary(n, 2), generate::random_recursive(n, n),
                    generate::random_forest(n, n / 10 + 1, n)})
      check_tour(p, build_euler_tour(p));
  }
}

TEST_CASE("a path of 16M vertices builds without recursion") {
  auto p = generate::path(1 << 24);
  auto tour = build_euler_tour(p);
  CHECK(tour.open_pos.back() == (1 << 24) - 1);
  CHECK(tour.close_pos.front() == (2 << 24) - 1);
}

namespace {
std::vector<ParentArray> order_shapes() {
  std::vector<ParentArray> shapes = {{}, {-1}, {-1, -1, -1}};
  for (std::size_t n : {2, 7, 97, 1000}) {
    shapes.push_back(generate::path(n));
    shapes.push_back(generate::star(n));
    shapes.push_back(generate::kary(n, 3));
    shapes.push_back(generate::caterpillar(n, n / 3 + 1));
    shapes.push_back(generate::random_recursive(n, n));
    shapes.push_back(generate::random_forest(n, n / 5 + 1, n));
  }
  const std::size_t count = shapes.size();
  for (std::size_t s = 0; s < count; ++s)
    shapes.push_back(generate::shuffle_labels(shapes[s], 7 + s));
  return shapes;
}

std::string error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("parent-first and level orders are top-down; sums along them match the BFS order's") {
  for (const ParentArray& parent : order_shapes()) {
    const auto bfs = top_down_order(parent);
    const auto walk = parent_first_order(parent);
    const auto levels = level_order(parent);
    const auto depth = depths(parent);
    REQUIRE(walk.size() == parent.size());
    REQUIRE(levels.size() == parent.size());
    std::vector<char> seen(parent.size(), 0);
    for (vertex_t v : walk) {
      REQUIRE_FALSE(seen[v]);
      REQUIRE((parent[v] == -1 || seen[parent[v]]));
      seen[v] = 1;
    }
    for (std::size_t i = 1; i < levels.size(); ++i)  // by depth, then id
      REQUIRE((depth[levels[i - 1]] < depth[levels[i]] ||
               (depth[levels[i - 1]] == depth[levels[i]] && levels[i - 1] < levels[i])));
    // Floating-point sums with cancellation, whose bits depend on the order of the terms.
    std::vector<double> w(parent.size());
    for (std::size_t v = 0; v < w.size(); ++v)
      w[v] = (v % 3 == 0 ? -1e16 : 1.0) / double(v % 7 + 1);
    const std::vector<float> wf(w.begin(), w.end());
    for (bool exclusive : {false, true})
      for (Precision precision : {Precision::accurate, Precision::fast}) {
        CHECK(reference::rootfix(parent, w, Op::sum, exclusive, precision) ==
              reference::rootfix(parent, bfs, w, Op::sum, exclusive, precision));
        CHECK(reference::leaffix(parent, w, Op::sum, exclusive, precision) ==
              reference::leaffix(parent, bfs, w, Op::sum, exclusive, precision));
        CHECK(reference::leaffix(parent, wf, Op::sum, exclusive, precision) ==
              reference::leaffix(parent, bfs, wf, Op::sum, exclusive, precision));
        CHECK(reference::leaffix(parent, levels, wf, Op::min, exclusive, precision) ==
              reference::leaffix(parent, bfs, wf, Op::min, exclusive, precision));
      }
  }
}

TEST_CASE("the orders refuse what the breadth-first order refuses, with its message") {
  const std::vector<ParentArray> bad = {
      {-1, 5},          {-1, -2},      {-1, 2, 3, 1},    {0}, {1, 0, -1}, {-1, 0, 3, 2},
      {2, -1, 3, 4, 2}, {-1, 0, 1, 7}, {-1, 0, 2, 9, -1}};
  for (const ParentArray& parent : bad) {
    const std::string expected = error_of([&] { top_down_order(parent); });
    REQUIRE_FALSE(expected.empty());
    CHECK(error_of([&] { parent_first_order(parent); }) == expected);
    CHECK(error_of([&] { level_order(parent); }) == expected);
    CHECK(error_of([&] { validate_parent_array(parent); }) == expected);
    CHECK(error_of([&] { depths(parent); }) == expected);
  }
}

TEST_CASE("bad parent arrays are rejected with the vertex named") {
  CHECK_THROWS_WITH_AS(validate_parent_array({-1, 5}), doctest::Contains("vertex 1 has parent 5"),
                       InputError);
  CHECK_THROWS_WITH_AS(validate_parent_array({-1, -2}), doctest::Contains("has parent -2"),
                       InputError);
  CHECK_THROWS_WITH_AS(validate_parent_array({-1, 2, 3, 1}), doctest::Contains("cycle"),
                       InputError);
  CHECK_THROWS_WITH_AS(validate_parent_array({0}), doctest::Contains("cycle through vertex 0"),
                       InputError);
}

TEST_CASE("tree files: good ones read, bad ones fail with file and line") {
  auto good = temp_file("good.tree", "4\n-1 0\n0\n1\n");
  CHECK(read_tree(good) == ParentArray{-1, 0, 0, 1});
  CHECK(read_tree(temp_file("empty.tree", "0\n")).empty());
  CHECK_THROWS_WITH_AS(read_tree(temp_file("short.tree", "3\n-1\n0\n")),
                       doctest::Contains("short.tree:3"), InputError);
  CHECK_THROWS_WITH_AS(read_tree(temp_file("range.tree", "3\n-1\n0\n7\n")),
                       doctest::Contains("range.tree:4: vertex 2 has parent 7"), InputError);
  CHECK_THROWS_WITH_AS(read_tree(temp_file("word.tree", "2\n-1\nzero\n")),
                       doctest::Contains("word.tree:3"), InputError);
  CHECK_THROWS_WITH_AS(read_tree(temp_file("extra.tree", "1\n-1\n5\n")),
                       doctest::Contains("after 1 parents"), InputError);
  CHECK_THROWS_WITH_AS(read_tree(temp_file("cycle.tree", "3\n1 2 0\n")), doctest::Contains("cycle"),
                       InputError);
  CHECK_THROWS_WITH_AS(read_tree(temp_file("negative.tree", "-3\n")), doctest::Contains("negative"),
                       InputError);
  CHECK_THROWS_AS(read_tree("/nonexistent/tree"), InputError);
  CHECK_THROWS_WITH_AS(read_tree(temp_file("binary.tree", std::string("2\n-1\0\n0\n", 8))),
                       doctest::Contains("NUL"), InputError);
}

TEST_CASE("weights files: count and type are checked") {
  CHECK(read_weights<double>(temp_file("w1", "1.5 -2e3\n0.25"), 3) ==
        std::vector<double>{1.5, -2000, 0.25});
  CHECK_THROWS_WITH_AS(read_weights<double>(temp_file("w2", "1 2"), 3),
                       doctest::Contains("2 weights for 3"), InputError);
  CHECK_THROWS_WITH_AS(read_weights<double>(temp_file("w3", "1 2 3 4"), 3),
                       doctest::Contains("more than 3"), InputError);
  CHECK_THROWS_WITH_AS(read_weights<std::int32_t>(temp_file("w4", "1 2.5"), 2),
                       doctest::Contains("w4:1"), InputError);
  CHECK_THROWS_AS(read_weights<std::int32_t>(temp_file("w5", "1 4000000000"), 2), InputError);
}

TEST_CASE("values are written round-trippable, in their shortest form") {
  std::ostringstream out;
  write_values<double>(out, {0.1, -3.0, 1e300});
  CHECK(out.str() == "0.1\n-3\n1e+300\n");
  std::ostringstream f;
  write_values<float>(f, {0.1f, 16777216.0f});
  CHECK(f.str() == "0.1\n16777216\n");
}

TEST_CASE("write_output leaves no partial file when production fails") {
  std::string path = "/tmp/treefix-test-partial.out";
  std::remove(path.c_str());
  CHECK_THROWS(write_output(path, [](std::ostream& o) {
    o << "half";
    throw InputError("boom");
  }));
  CHECK_FALSE(std::ifstream(path).good());
  write_output(path, [](std::ostream& o) { o << "whole\n"; });
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  CHECK(line == "whole");
}
